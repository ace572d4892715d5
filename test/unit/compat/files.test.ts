/** The drop-in APIs' uploaded files (compat/files.ts): a file's format from its name, its document, the answer's file. */
import { parse } from 'content-disposition'
import { describe, expect, it } from 'vitest'
import { attachment, documentOfFile, extensionOf, formatOf } from '../../../src/compat/files.js'

describe('uploaded files', () => {
  it('knows a file\'s format by its extension, in any case, and no format by a name every object inherits', () => {
    expect(formatOf('Report.DOCX')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
    expect(formatOf('notes.txt')).toBe('text/plain')
    expect(formatOf('book.epub')).toBe('application/epub+zip')
    for (const name of ['a.constructor', 'a.__proto__', 'a.toString', 'a.hasOwnProperty', 'README', '.txt', 'x.']) {
      expect(formatOf(name), name).toBeUndefined()
    }
    expect(extensionOf('archive.tar.gz')).toBe('gz')
  })

  it('reads a text file as UTF-8 with its byte order mark (core keeps it out of the text and writes it back), a binary one as base64, and refuses text that is not UTF-8', () => {
    expect(documentOfFile({ bytes: Buffer.from('\uFEFFHello'), filename: 'a.txt', type: 'text/plain' }, 'text/plain', 'file')).toEqual({ value: '\uFEFFHello', mime_type: 'text/plain' })
    expect(documentOfFile({ bytes: Buffer.from([1, 2, 3]), filename: 'a.odt', type: 'application/octet-stream' }, 'application/vnd.oasis.opendocument.text', 'file').value).toBe('AQID')
    expect(() => documentOfFile({ bytes: Buffer.from([0xff, 0xfe, 0x41]), filename: 'a.txt', type: 'text/plain' }, 'text/plain', 'file')).toThrow(/UTF-8/)
  })

  it('names a download with an ASCII fallback and the UTF-8 name', () => {
    expect(attachment('Bericht über "x".docx')).toBe('attachment; filename="Bericht _ber _x_.docx"; filename*=UTF-8\'\'Bericht%20%C3%BCber%20%22x%22.docx')
  })

  it('names it in RFC 8187, as parsers read it: apostrophes, parentheses and asterisks encoded too', () => {
    // encodeURIComponent left ' ( ) * as they were, outside RFC 8187's attr-char: "report (1).txt" failed jshttp's strict parser (content-disposition 1.x, "invalid parameter format")
    const extValue = /; filename\*=UTF-8''(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})*$/
    for (const name of ['report (1).txt', "John's report.txt", 'a*b.txt', 'Bericht über "x".docx', 'back\\slash!#$&+^`|~.txt', '日本語 (1).odt', '😀.md', '50% off;=,.txt']) {
      expect(attachment(name), name).toMatch(extValue)
      expect(parse(attachment(name)).parameters.filename, name).toBe(name)
    }
    expect(parse(attachment('lone \uD800.txt')).parameters.filename).toBe('lone \uFFFD.txt')
  })
})
