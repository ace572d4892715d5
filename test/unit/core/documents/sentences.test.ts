import { describe, expect, it } from 'vitest'
import { isOneSentence, sentenceBreaks } from '../../../../src/core/documents/sentences.js'

/** The breaks Unicode's sentence segmenter (ICU, through Intl) makes in `text`, the text's start left out. */
const segmenterBreaks = (text: string, locale: string): number[] =>
  [...new Intl.Segmenter(locale, { granularity: 'sentence' }).segment(text)].map(s => s.index).filter(i => i > 0)

describe('sentence breaks', () => {
  it('reads a text whose only end is its own as one sentence without the segmenter, and splits the others', () => {
    expect(isOneSentence('It appears courtesy of Jon Orwant and The Perl Journal.')).toBe(true)
    expect(isOneSentence('Is it "done?"  ')).toBe(true)
    expect(isOneSentence('Hello. 😀')).toBe(false)
    expect(sentenceBreaks('Hello. 😀', 'en')).toEqual(segmenterBreaks('Hello. 😀', 'en'))
    expect(sentenceBreaks('What? "Yes." ', 'en')).toEqual([6])
    // in Greek ";" is the question mark
    expect(sentenceBreaks('Τι κάνεις; Καλά.', 'el')).toEqual([11])
    expect(sentenceBreaks('Hello\nworld', 'en')).toEqual(segmenterBreaks('Hello\nworld', 'en'))
  })

  it('breaks nowhere a letter or digit follows a full stop at once (a probe saw "The .NET runtime" sent as "The ." and "NET runtime")', () => {
    for (const text of ['The .NET runtime is fast. It runs.', 'Copy .env and .gitignore here. Then run.', 'It was good.Then we left. Fine.', 'Use version .5 now. Yes.']) {
      const breaks = sentenceBreaks(text, 'en')
      expect(breaks, text).toHaveLength(1)
      expect(text.slice(breaks[0]!), text).toMatch(/^(It runs|Then run|Fine|Yes)\.$/)
    }
    // where ICU itself breaks
    expect(segmenterBreaks('The .NET runtime is fast. It runs.', 'en')).toHaveLength(2)
  })

  it('breaks nowhere a cased letter follows "?" or "!" at once (a probe saw "good?Then" sent as two segments and left glued), as after "."', () => {
    for (const text of ['It was good?Then we left. Fine.', 'It was good!Then we left. Fine.', 'Mail me at Yahoo!Mail now. Fine.', '¿Está bien?Sí, claro. Fine.']) {
      const breaks = sentenceBreaks(text, 'en')
      expect(breaks, text).toHaveLength(1)
      expect(text.slice(breaks[0]!), text).toBe('Fine.')
      expect(segmenterBreaks(text, 'en'), text).toHaveLength(2)
    }
    // a space, a digit, an opening mark or an uncased letter after it still ends the sentence
    for (const [text, at] of [['Why? Then we left.', 5], ['Why?2 went.', 4], ['¿Qué?¡Nada!', 5], ['好吗?我来了。', 3]] as const) {
      expect(sentenceBreaks(text, 'und'), text).toEqual([at])
    }
  })

  it('never takes for one sentence a text the segmenter breaks, in any locale (random texts of terminals, closers, spaces and letters)', () => {
    const chars = ['a', 'B', ' ', '.', '!', '?', '。', '؟', '।', ';', ',', ':', '"', '”', '»', ')', ']', '\u00a0', '😀', '1', 'é', 'あ', '\u037e', '…', '‼', '\u3000', '(', '-', "'", '‽', '\t', '۔', '፧', '\uff0e', '\u2024', '\uff61', '\n', '\r', '\u2029']
    const locales = ['en', 'el', 'ja', 'zh', 'de', 'ar', 'hi', 'th', 'ur', 'am', 'hy']
    // a fixed sequence (xorshift), so a failure repeats
    let state = 0x9e3779b9
    const next = (n: number): number => {
      state ^= state << 13
      state ^= state >>> 17
      state ^= state << 5
      return (state >>> 0) % n
    }
    const wrong: string[] = []
    let one = 0
    for (let i = 0; i < 20_000; i++) {
      let text = ''
      for (let j = 1 + next(12); j > 0; j--) text += chars[next(chars.length)]
      if (!isOneSentence(text)) continue
      one++
      const locale = locales[i % locales.length]!
      if (segmenterBreaks(text, locale).length > 0) wrong.push(`${locale} ${JSON.stringify(text)}`)
    }
    expect(wrong).toEqual([])
    expect(one).toBeGreaterThan(1_000)
  })
})
