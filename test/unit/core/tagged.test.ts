import { describe, expect, it } from 'vitest'
import { escapeText, parseTagged, plainText, serializeTagged, unescapeText } from '../../../src/core/tagged.js'

describe('tagged text', () => {
  it('round-trips text, pairs and tokens', () => {
    const s = 'The <g id="1">red &amp; blue</g> car &lt;3 <x id="2"/> now'
    const parts = parseTagged(s)
    expect(parts).toEqual([
      { type: 'text', text: 'The ' },
      { type: 'open', id: 1 },
      { type: 'text', text: 'red & blue' },
      { type: 'close', id: 1 },
      { type: 'text', text: ' car <3 ' },
      { type: 'token', id: 2 },
      { type: 'text', text: ' now' }
    ])
    expect(serializeTagged(parts)).toBe(s)
    expect(plainText(s)).toBe('The red & blue car <3  now')
  })

  it('matches closes by nesting and accepts engine variants of our tags', () => {
    expect(parseTagged("<G ID='3'><g id=4>a</g></ g><x id=\"5\" />")).toEqual([
      { type: 'open', id: 3 }, { type: 'open', id: 4 }, { type: 'text', text: 'a' },
      { type: 'close', id: 4 }, { type: 'close', id: 3 }, { type: 'token', id: 5 }
    ])
  })

  it('drops stray closes and id-less tags instead of showing them as text', () => {
    expect(plainText('a</g> b <g>c</g> <x/>d')).toBe('a b c d')
    expect(parseTagged('</g>x')).toEqual([{ type: 'text', text: 'x' }])
  })

  it('escapes and decodes entities', () => {
    expect(escapeText('a<b>&c')).toBe('a&lt;b&gt;&amp;c')
    expect(unescapeText('&quot;&#39;&#x263A;&nbsp;&bogus;')).toBe('"\'\u263A\u00a0&bogus;')
  })
})
