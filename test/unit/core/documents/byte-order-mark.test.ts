/**
 * A text document that starts with a UTF-8 byte order mark (Windows editors save one): what follows
 * it is read as the document, and the mark is written back first. Before, a JSON or PO file with one
 * was a 400 and Markdown was rebuilt one character off ("#THE HOUSEe").
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { segmentDocument, type MimeType } from '../../../../src/core/documents/segment.js'
import { fixture, upper } from './engines.js'

const projectFile = (name: string): string => readFileSync(new URL(`../../../data/project-files/${name}`, import.meta.url), 'utf8')

describe('a byte order mark before a text document', () => {
  const cases: Array<[string, MimeType, string]> = [
    ['readme.md', 'text/markdown', fixture('readme.md')],
    ['i18n.json', 'application/json', fixture('i18n.json')],
    ['page.html', 'text/html', fixture('page.html')],
    ['django.po', 'text/x-gettext-translation', projectFile('django.po')],
    ['angular-messages.xlf', 'application/xliff+xml', projectFile('angular-messages.xlf')],
    ['termux-strings.xml', 'application/vnd.android.strings+xml', projectFile('termux-strings.xml')]
  ]

  it.each(cases)('%s: the same segments and the same translation, with the mark first', (_name, mime, text) => {
    const plain = segmentDocument(text, mime)
    const marked = segmentDocument(`\uFEFF${text}`, mime)
    expect(marked.segments).toEqual(plain.segments)
    expect(marked.rebuild(marked.segments)).toBe(`\uFEFF${text}`)
    expect(marked.rebuild(marked.segments.map(upper), 'es')).toBe(`\uFEFF${plain.rebuild(plain.segments.map(upper), 'es') as string}`)
  })
})
