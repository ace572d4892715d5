import { describe, expect, it } from 'vitest'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import { MAX_SENTENCE_CHARS } from '../../../../src/core/documents/sentences.js'
import { reverseWords, upper } from './engines.js'

const plain = (value: string, language?: string) => segmentDocument(value, 'text/plain', { language })

describe('text/plain', () => {
  const letter = [
    'Dear Ms. Jones,',
    '',
    '    Thank you for your order. It shipped today!  Tracking: see below.',
    '\tDr. Brown will call you on Monday.',
    '',
    '',
    '— 2024 —',
    'Kind regards,\r\nJ. R. R. Tolkien\r\n'
  ].join('\n')

  it('sends sentences and keeps indentation, blank lines and line ends in the skeleton', () => {
    const doc = plain(letter)
    expect(doc.segments).toEqual([
      'Dear Ms. Jones,',
      'Thank you for your order.',
      'It shipped today!',
      'Tracking: see below.',
      'Dr. Brown will call you on Monday.',
      'Kind regards,',
      'J. R. R. Tolkien'
    ])
    expect(doc.rebuild(doc.segments)).toBe(letter)
    expect(doc.rebuild(doc.segments.map(upper))).toBe(letter.replace(/[a-z]/g, c => c.toUpperCase()))
  })

  it('escapes text for the engine and writes the answer back unescaped', () => {
    const doc = plain('if a < b && c > d then stop.')
    expect(doc.segments).toEqual(['if a &lt; b &amp;&amp; c &gt; d then stop.'])
    expect(doc.rebuild(doc.segments.map(reverseWords))).toBe('stop. then d > c && b < a if')
  })

  it('repeats identical sentences, so a cache hits across documents', () => {
    expect(plain('Hello world. Hello world.').segments).toEqual(['Hello world.', 'Hello world.'])
  })

  it('cuts no sentence inside a placeholder or a tag pair', () => {
    // an ICU plural or select is cut at its syntax: each sub-message is its own text (core/documents/icu.ts)
    expect(plain('Go. {count, plural, one {One item. Done.} other {# items. Done.}} Next.').segments)
      .toEqual(['Go.', 'One item.', 'Done.', '<x id="1"/> items.', 'Done.', 'Next.'])
    expect(plain('Read <0>the terms. Then sign.</0> Thanks.').segments)
      .toEqual(['Read &lt;0&gt;the terms. Then sign.&lt;/0&gt; Thanks.'])
  })

  it('cuts a sentence longer than MAX_SENTENCE_CHARS at word starts (engines are quadratic in sentence length)', () => {
    const words = 'Xq '.repeat(10_000).trimEnd()
    const doc = plain(`Short one. ${words} {name} end`)
    expect(doc.segments[0]).toBe('Short one.')
    expect(doc.segments.length).toBeGreaterThan(15)
    for (const segment of doc.segments) {
      expect(segment.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS)
      expect(segment).toMatch(/^(Xq|Short|\{name\})/)
    }
    expect(doc.rebuild(doc.segments)).toBe(`Short one. ${words} {name} end`)
    expect(doc.rebuild(doc.segments.map(upper))).toBe(`SHORT ONE. ${words.toUpperCase()} {NAME} END`)
  })

  it('cuts a word longer than MAX_SENTENCE_CHARS inside it, never in a surrogate pair or a placeholder', () => {
    const word = 'a'.repeat(MAX_SENTENCE_CHARS - 1) + '😀'.repeat(MAX_SENTENCE_CHARS) + '{x}'.repeat(MAX_SENTENCE_CHARS)
    const doc = plain(word)
    expect(doc.segments.length).toBeGreaterThan(1)
    for (const segment of doc.segments) {
      expect(segment).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/)
      expect(segment).not.toMatch(/^[^{]*\}|\{[^}]*$/)
    }
    expect(doc.rebuild(doc.segments)).toBe(word)
  })

  it('uses the language for sentence boundaries', () => {
    expect(plain('你好。今天天气很好。', 'zh').segments).toEqual(['你好。', '今天天气很好。'])
    expect(plain('¿Qué tal? Muy bien.', 'es').segments).toEqual(['¿Qué tal?', 'Muy bien.'])
  })

  it('sends nothing for text without letters', () => {
    const doc = plain('  42\n\n3.14 — 2,718  ')
    expect(doc.segments).toEqual([])
    expect(doc.rebuild([])).toBe('  42\n\n3.14 — 2,718  ')
  })

  it('keeps a post\'s mentions, hashtags and shortcodes with their @, # and colons, where they were', () => {
    const doc = plain('@bob@mastodon.social thanks for the #rust tips :ferris: today\n#fin')
    expect(doc.segments).toEqual(['thanks for the <x id="1"/> tips <x id="2"/> today'])
    expect(doc.rebuild(doc.segments.map(upper))).toBe('@bob@mastodon.social THANKS FOR THE #rust TIPS :ferris: TODAY\n#fin')
    expect(doc.rebuild(doc.segments.map(reverseWords))).toBe('@bob@mastodon.social today :ferris: tips #rust the for thanks\n#fin')
  })

  it('rejects an answer of the wrong length', () => {
    expect(() => plain('One. Two.').rebuild(['Uno.'])).toThrow(/expected 2 translated segments, got 1/)
  })
})
