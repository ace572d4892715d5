import { describe, expect, it } from 'vitest'
import { documentText } from '../../../../src/core/documents/index.js'
import { fixture } from './engines.js'

describe('documentText', () => {
  it('gives plain text as it is', () => {
    expect(documentText('  Hello world.\n', 'text/plain')).toBe('  Hello world.\n')
  })

  it('gives the visible text of HTML without scripts, styles or markup', () => {
    const text = documentText(fixture('page.html'), 'text/html')
    expect(text).toContain('The red shears are our best seller.')
    expect(text).toContain('Garden & Home')
    expect(text).not.toMatch(/<|font-family|addEventListener|DOMContentLoaded|npm install/)
  })

  it('gives Markdown text without code, URLs or front matter', () => {
    const text = documentText(fixture('readme.md'), 'text/markdown')
    expect(text).toContain('Acme is a small command-line tool for gardeners.')
    expect(text).toContain('See the user guide for details')
    expect(text).not.toMatch(/https?:|npm install|title: Acme|```|\*\*/)
  })

  it('joins the string leaves of JSON', () => {
    expect(documentText('{"a": "Hello there.", "b": [1, "Good bye."]}', 'application/json')).toBe('Hello there.\nGood bye.')
    expect(documentText({ a: ['Hola.', { b: 'Adiós.' }] }, 'text/plain')).toBe('Hola.\nAdiós.')
  })
})
