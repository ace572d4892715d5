import { describe, expect, it } from 'vitest'
import { parseTagged, serializeTagged } from '../../../../../src/core/tagged.js'
import { decodeSegment } from '../../../../../src/providers/apertium/stream/decode.js'
import { encodeSegment, escapeStream } from '../../../../../src/providers/apertium/stream/encode.js'

const encode = (tagged: string): string => encodeSegment(parseTagged(tagged))
const decode = (answer: string, sourceTagged: string): string => serializeTagged(decodeSegment(answer, parseTagged(sourceTagged)))

describe('encoding tagged segments for Apertium', () => {
  it('escapes every character the stream format reserves', () => {
    expect(escapeStream('\\ [ ] ^ $ / < > @ { }')).toBe('\\\\ \\[ \\] \\^ \\$ \\/ \\< \\> \\@ \\{ \\}')
    expect(encode('a &lt;b&gt; &amp; {c} @d')).toBe('a \\<b\\> & \\{c\\} \\@d.[].[]')
  })

  it('ends a segment with a sentence end (.[].[]) and every line break with one and a superblank', () => {
    expect(encode('one')).toBe('one.[].[]')
    expect(encode('one\ntwo')).toBe('one.[].[][\n]two.[].[]')
    expect(encode('one\n\n  two')).toBe('one.[].[][\n\n  ]two.[].[]')
    expect(encode('a\tb')).toBe('a.[].[][\t]b.[].[]')
  })

  it('puts ~ and control characters in superblanks, and drops NUL', () => {
    expect(encode('a ~ b')).toBe('a[ ~ ]b.[].[]')
    expect(encode('a\u0001b\u0000c')).toBe('a[\u0001]bc.[].[]')
  })

  it('puts an opening quote English would read as a contraction (\'s, \'m, \'re) in a superblank, no other quote and no apostrophe inside or after a word', () => {
    expect(encode("Menu: 'Save page' and ‘max’, 'Ready' or 'close'")).toBe("Menu: [']Save page' and [‘]max’, [']Ready' or 'close'.[].[]")
    expect(encode("John's boys' car")).toBe("John's boys' car.[].[]")
    expect(decode("Menú: [']Salva página' y [‘]máx’.[].[]", "Menu: 'Save page' and ‘max’")).toBe("Menú: 'Salva página' y ‘máx’")
  })

  it('turns <g> into word-bound blanks on its words, naming only the innermost group', () => {
    expect(encode('The <g id="1">red</g> car')).toBe('The [[t:g:1]]red[[/]] car.[].[]')
    // the groups around it follow from the source's nesting when the answer is read
    expect(encode('<g id="1">very <g id="2">big</g> </g>house')).toBe('[[t:g:1]]very[[/]] [[t:g:2]]big[[/]] house.[].[]')
  })

  it('widens a group that starts or ends inside a word to the whole word', () => {
    expect(encode('an un<g id="1">believ</g>able story')).toBe('an [[t:g:1]]unbelievable[[/]] story.[].[]')
  })

  it('turns protected tokens and empty groups into an unknown word in a word-bound blank', () => {
    expect(encode('Hello <x id="3"/>!')).toBe('Hello [[t:x:3]]Zxqv[[/]]!.[].[]')
    expect(encode('<g id="1">to <x id="2"/></g>')).toBe('[[t:g:1]]to[[/]] [[t:g:1;t:x:2]]Zxqv[[/]].[].[]')
    expect(encode('Click <g id="4"> </g>here')).toBe('Click [[t:e:4]]Zxqv[[/]] here.[].[]')
  })

  it('gives tokens a longer word when the text contains the token word, in any case', () => {
    expect(encode('Hello zxqv <x id="1"/>')).toBe('Hello zxqv [[t:x:1]]Zxqvx[[/]].[].[]')
    expect(encode('ZXQVXX and zxqvx <x id="1"/>')).toBe('ZXQVXX and zxqvx [[t:x:1]]Zxqvxxx[[/]].[].[]')
    // text on both sides of a tag forms one word once the tag is gone
    expect(encode('zx<g id="1">qv</g> <x id="2"/>')).toBe('[[t:g:1]]zxqv[[/]] [[t:x:2]]Zxqvx[[/]].[].[]')
  })
})

/** `<g id="1">a</g> <g id="2">a</g> … car.` with n groups, encoded, and its answer on eng-spa (`un`, `coche`). */
function manyGroups (n: number): { source: string, encoded: string, answer: string, translated: string } {
  const ids = Array.from({ length: n }, (_, i) => i + 1)
  return {
    source: ids.map(id => `<g id="${id}">a</g> `).join('') + 'car.',
    encoded: ids.map(id => `[[t:g:${id}]]a[[/]] `).join('') + 'car..[].[]',
    answer: ids.map(id => `[[t:g:${id}]]un[[/]] `).join('') + 'coche..[].[]',
    translated: ids.map(id => `<g id="${id}">un</g> `).join('') + 'coche.'
  }
}

// Each of these took 18-53 s with the quadratic code this replaced (its run time grew with the
// square of the input); the 10 s limits only catch that, the linear code takes well under 1 s.
describe('large segments in linear time', () => {
  it('encodes and decodes 60,000 groups', { timeout: 10_000 }, () => {
    const { source, encoded, answer, translated } = manyGroups(60_000)
    expect(encode(source)).toBe(encoded)
    expect(decode(answer, source)).toBe(translated)
  })

  it('encodes a long run of spaces, inside a group or not', { timeout: 10_000 }, () => {
    const spaces = ' '.repeat(200_000)
    expect(encode(`a${spaces}b`)).toBe(`a${spaces}b.[].[]`)
    expect(encode(`<g id="1">a${spaces}b</g>`)).toBe(`[[t:g:1]]a${spaces}b[[/]].[].[]`)
    expect(encode(`<g id="1">a</g>${spaces}~`)).toBe(`[[t:g:1]]a[[/]][${spaces}~].[].[]`)
  })

  it('encodes a long word next to a group', { timeout: 10_000 }, () => {
    const word = 'a'.repeat(200_000)
    expect(encode(`${word}.<g id="1">b</g>`)).toBe(`${word}.[[t:g:1]]b[[/]].[].[]`)
    expect(encode(`${word}<g id="1">b</g>`)).toBe(`[[t:g:1]]${word}b[[/]].[].[]`)
  })
})
