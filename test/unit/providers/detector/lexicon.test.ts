import { describe, expect, it } from 'vitest'
import { decodeLexicon, encodeLexicon } from '../../../../src/providers/detector/lexicon.js'
import type { Lexicon } from '../../../../src/providers/detector/model.js'

const LEXICON: Lexicon = {
  languages: ['de', 'en', 'sr'],
  backoff: [-12.5, -13, -11],
  trigramBackoff: [-9, -9.5, -8],
  words: { the: [1, -3.2], und: [0, -3.5], привет: [2, -7.1], hallo: [0, -9.4, 1, -10.2] },
  trigrams: { ' th': [1, -4.1], und: [0, -5] },
  weight: [2, 0.5, 0],
  trigramWeight: [0.25, 0, 0]
}

describe('lexicon.bin', () => {
  it('round-trips words, trigrams and their per-language log probabilities (in tenths of a nat)', () => {
    const table = decodeLexicon(encodeLexicon(LEXICON))
    expect(table.languages).toEqual(LEXICON.languages)
    expect(table.backoff).toEqual(LEXICON.backoff)
    expect(table.weight).toEqual(LEXICON.weight)
    const entries = (f: number): Array<[string, number]> => {
      const out: Array<[string, number]> = []
      for (let k = table.start[f]!; k < table.start[f + 1]!; k++) out.push([table.languages[table.language[k]!]!, -table.negLogProbability[k]! / 10])
      return out
    }
    expect(entries(table.word('hallo'))).toEqual([['de', -9.4], ['en', -10.2]])
    expect(entries(table.word('привет'))).toEqual([['sr', -7.1]])
    // a trigram is found in place, inside a longer string
    expect(entries(table.trigram(' the ', 0))).toEqual([['en', -4.1]])
    expect(entries(table.trigram(' und ', 1))).toEqual([['de', -5]])
  })

  it('answers -1 for what it does not hold, words and trigrams kept apart', () => {
    const table = decodeLexicon(encodeLexicon(LEXICON))
    expect(table.word('hello')).toBe(-1)
    expect(table.word('th')).toBe(-1)
    expect(table.word('')).toBe(-1)
    expect(table.trigram(' the ', 1)).toBe(-1)
    // "und" is both a word and a trigram: each table finds its own
    expect(table.word('und')).not.toBe(table.trigram('und', 0))
  })

  it('stores signed weights around a zero (the regression\'s) and finds letter n-grams of any length', () => {
    const weights: Lexicon = { ...LEXICON, words: { '\u0001': [0, 0.5, 1, -0.25], the: [1, 2.35] }, trigrams: { ' t': [1, 1.2], the: [1, -6.35], e: [0, 0.05] } }
    const table = decodeLexicon(encodeLexicon(weights, { zero: 128, scale: 20 }))
    const value = (f: number, k: number): number => (table.zero - table.negLogProbability[table.start[f]! + k]!) / table.scale
    expect(value(table.word('\u0001'), 0)).toBe(0.5)
    expect(value(table.word('\u0001'), 1)).toBe(-0.25)
    expect(value(table.word('the'), 0)).toBe(2.35)
    expect(value(table.gram(' the ', 0, 2), 0)).toBe(1.2)
    expect(value(table.gram(' the ', 1, 4), 0)).toBe(-6.35)
    expect(value(table.gram(' the ', 3, 4), 0)).toBe(0.05)
    expect(table.gram(' the ', 2, 4)).toBe(-1)
    // the lexicon's own values read the same way: (0 - v) / 10
    const plain = decodeLexicon(encodeLexicon(LEXICON))
    expect([plain.zero, plain.scale]).toEqual([0, 10])
  })

  it('refuses a file that is not a lexicon', () => {
    expect(() => decodeLexicon(Buffer.from('{"json": true}'))).toThrow(/not a lexicon/)
    const bytes = encodeLexicon(LEXICON)
    expect(() => decodeLexicon(bytes.subarray(0, bytes.length - 1))).toThrow()
  })
})
