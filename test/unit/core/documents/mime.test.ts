import { describe, expect, it } from 'vitest'
import { parseMimeType } from '../../../../src/core/documents/segment.js'
import { ValidationError } from '../../../../src/errors.js'

describe('parseMimeType', () => {
  it('defaults to text/plain and ignores case and parameters', () => {
    expect(parseMimeType(undefined)).toBe('text/plain')
    expect(parseMimeType('')).toBe('text/plain')
    expect(parseMimeType('TEXT/HTML; charset=UTF-8')).toBe('text/html')
    expect(parseMimeType(' text/markdown ')).toBe('text/markdown')
    expect(parseMimeType('application/json;charset=utf-8')).toBe('application/json')
  })

  it('answers a 400 at the path naming the supported types', () => {
    try {
      parseMimeType('application/pdf', ['documents', 2, 'mime_type'])
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError)
      const problem = (err as ValidationError).errors![0]!
      expect(problem.path).toEqual(['documents', 2, 'mime_type'])
      expect(problem.message).toBe('unsupported mime type "application/pdf"; supported: text/plain, text/html, text/markdown, application/json, application/x-subrip, text/vtt, text/x-gettext-translation, application/xliff+xml, application/vnd.android.strings+xml, application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/vnd.openxmlformats-officedocument.presentationml.presentation, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/vnd.oasis.opendocument.text, application/vnd.oasis.opendocument.spreadsheet, application/vnd.oasis.opendocument.presentation, application/epub+zip')
    }
  })
})
