/**
 * runDocumentTask (tasks.ts), what a request's document work runs, inline or on a pool thread: a
 * document's visible text (for detection and the text limit) and, with no translations, the
 * document with the substitution rules applied (POST /language/substitute); and threadMemo, what
 * a thread keeps of a document between its preparation and its rebuilding.
 */
import { describe, expect, it } from 'vitest'
import type { FieldPath } from '../../../../src/errors.js'
import { rulesForLanguage, type AppliedSubstitution, type Substitution } from '../../../../src/core/glossary.js'
import type { MimeType } from '../../../../src/core/documents/mime.js'
import { runDocumentTask, threadMemo, type DocumentTask } from '../../../../src/core/documents/tasks.js'
import { fixture } from './engines.js'

const PATH: FieldPath = ['document', 'value']

/** The visible text runDocumentTask gives for a document. */
function textOf (value: unknown, mimeType: MimeType): string {
  const result = runDocumentTask({ kind: 'text', value, mimeType, path: PATH })
  if (result.kind !== 'text') throw new Error(`a text task answered ${result.kind}`)
  return result.text
}

/** The document with `rules` applied, as substituteInDocument (offload.ts) has runDocumentTask make it. */
function substituted (value: unknown, mimeType: MimeType, rules: readonly Substitution[]): { value: unknown, applied: AppliedSubstitution[] } {
  const result = runDocumentTask({ kind: 'finish', value, mimeType, path: PATH, settings: { placeholders: true, rules, caseSensitive: false } })
  if (result.kind !== 'finish') throw new Error(`a finish task answered ${result.kind}`)
  return result.results[0] as { value: unknown, applied: AppliedSubstitution[] }
}

describe('runDocumentTask: a document\'s visible text', () => {
  it('gives plain text as it is', () => {
    expect(textOf('  Hello world.\n', 'text/plain')).toBe('  Hello world.\n')
  })

  it('gives the visible text of HTML without scripts, styles or markup', () => {
    const text = textOf(fixture('page.html'), 'text/html')
    expect(text).toContain('The red shears are our best seller.')
    expect(text).toContain('Garden & Home')
    expect(text).not.toMatch(/<|font-family|addEventListener|DOMContentLoaded|npm install/)
  })

  it('gives Markdown text without code, URLs or front matter', () => {
    const text = textOf(fixture('readme.md'), 'text/markdown')
    expect(text).toContain('Acme is a small command-line tool for gardeners.')
    expect(text).toContain('See the user guide for details')
    expect(text).not.toMatch(/https?:|npm install|title: Acme|```|\*\*/)
  })

  it('joins the string leaves of JSON', () => {
    expect(textOf('{"a": "Hello there.", "b": [1, "Good bye."]}', 'application/json')).toBe('Hello there.\nGood bye.')
    expect(textOf({ a: ['Hola.', { b: 'Adiós.' }] }, 'text/plain')).toBe('Hola.\nAdiós.')
  })
})

describe('runDocumentTask: a finish without translations (what POST /language/substitute runs)', () => {
  const rules = rulesForLanguage([
    { text: 'colour', substitution: 'color', source: 'en', target: 'en' },
    { text: 'Acme', substitution: 'ACME Corp.' },
    { text: 'href', substitution: 'LINK' },
    { text: 'name', substitution: 'NAME' },
    { text: 'rouge', substitution: 'red', source: 'fr', target: 'en' }
  ], 'en')

  it('applies same-language rules to the text only, in the input shape, with counts', () => {
    const html = '<p title="Acme colours">The Acme <a href="/colour">colour</a> of {name}: <code>colour</code> rouge.</p>'
    expect(substituted(html, 'text/html', rules)).toEqual({
      value: '<p title="ACME Corp. colours">The ACME Corp. <a href="/colour">color</a> of {name}: <code>colour</code> rouge.</p>',
      applied: [
        { text: 'colour', substitution: 'color', count: 1 },
        { text: 'Acme', substitution: 'ACME Corp.', count: 2 }
      ]
    })
  })

  it('works on Markdown and JSON values', () => {
    expect(substituted('Pick a *colour* for `colour` in [Acme](https://acme.example/colour).', 'text/markdown', rules).value)
      .toBe('Pick a *color* for `colour` in [ACME Corp.](https://acme.example/colour).')
    expect(substituted({ title: 'Acme', n: 1, list: ['colour', null] }, 'application/json', rules))
      .toEqual({ value: { title: 'ACME Corp.', n: 1, list: ['color', null] }, applied: [{ text: 'colour', substitution: 'color', count: 1 }, { text: 'Acme', substitution: 'ACME Corp.', count: 1 }] })
  })

  it('never rewrites inside a URL, path or code, but applies a rule whose phrase is one', () => {
    const rules = [{ text: 'house', substitution: 'home' }, { text: 'Node.js', substitution: 'Node.js®' }, { text: 'config.json', substitution: 'settings.json' }]
    const value = 'The house at https://example.com/house, ~/house/config.json and my_house: see config.json for Node.js.'
    expect(substituted(value, 'text/plain', rules)).toEqual({
      value: 'The home at https://example.com/house, ~/house/config.json and my_house: see settings.json for Node.js®.',
      applied: [
        { text: 'house', substitution: 'home', count: 1 },
        { text: 'Node.js', substitution: 'Node.js®', count: 1 },
        { text: 'config.json', substitution: 'settings.json', count: 1 }
      ]
    })
  })

  it('returns the document byte for byte when no rule matches', () => {
    const page = fixture('page.html')
    const out = substituted(page, 'text/html', [{ text: 'zebra', substitution: 'horse' }])
    expect(out).toEqual({ value: page, applied: [] })
  })
})

describe('threadMemo: what a runner\'s thread keeps of a document between its preparation and its rebuilding', () => {
  const task = (key: string | undefined, kind: 'prepare' | 'finish' | 'text', value = 'The house is red.'): DocumentTask =>
    kind === 'text' ? { kind, value, mimeType: 'text/plain', path: PATH, key } : { kind, value, mimeType: 'text/plain', path: PATH, key, settings: { placeholders: true, rules: [], caseSensitive: false } }

  it('gives the rebuilding the memo its preparation filled, once, and keeps nothing without a key or for other tasks', () => {
    const prepared = threadMemo(task('a', 'prepare'))
    expect(threadMemo(task('a', 'finish'))).toBe(prepared)
    // the rebuilding was its last use
    expect(threadMemo(task('a', 'finish'))).not.toBe(prepared)
    expect(threadMemo(task(undefined, 'prepare'))).not.toBe(threadMemo(task(undefined, 'finish')))
    const read = threadMemo(task('b', 'text'))
    expect(threadMemo(task('b', 'finish'))).not.toBe(read)
  })

  it('keeps a few documents within a bound on their text, the oldest going first', () => {
    const memos = ['k1', 'k2', 'k3', 'k4', 'k5'].map(k => threadMemo(task(k, 'prepare')))
    expect(threadMemo(task('k1', 'finish'))).not.toBe(memos[0])
    expect(threadMemo(task('k5', 'finish'))).toBe(memos[4])
    const large = threadMemo(task('big', 'prepare', 'x'.repeat(1_000_001)))
    expect(threadMemo(task('big', 'finish', 'x'.repeat(1_000_001)))).not.toBe(large)
  })
})
