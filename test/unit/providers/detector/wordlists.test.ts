import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeWordLists, encodeWordLists, EVERYDAY, mergeWordLists } from '../../../../src/providers/detector/wordlists.js'

/** Random lower-case strings of 4-7 letters: almost none is a word, so a hit is a false positive. */
function randomWords (count: number, seed: number): string[] {
  let state = seed
  const next = (): number => { state = (Math.imul(state, 1103515245) + 12345) >>> 0; return state >>> 8 }
  return Array.from({ length: count }, () => Array.from({ length: 4 + next() % 4 }, () => String.fromCharCode(97 + next() % 26)).join(''))
}

/** The word lists the detector ships. */
const shippedLists = (): ReturnType<typeof decodeWordLists> => decodeWordLists(readFileSync(new URL('../../../../src/providers/detector/wordlists.bin', import.meta.url)))

describe('wordlists.bin', () => {
  it('holds every word it was given and few others (~2% at 8 bits a word)', () => {
    const words = new Set(randomWords(20_000, 1))
    const lists = decodeWordLists(encodeWordLists([{ language: 'xx', words }, { language: 'yy', words: new Set(['dobranoc', 'cześć']) }], 8, 8))
    expect(lists.languages).toEqual(['xx', 'yy'])
    expect(lists.maxLetters).toBe(8)
    for (const word of words) expect(lists.has(0, word)).toBe(true)
    expect(lists.has(1, 'dobranoc')).toBe(true)
    expect(lists.has(1, 'cześć')).toBe(true)
    const others = randomWords(20_000, 2).filter(w => !words.has(w))
    const wrong = others.filter(w => lists.has(0, w)).length
    expect(wrong / others.length).toBeLessThan(0.04)
    expect(lists.has(5, 'dobranoc')).toBe(false)
  })

  it('refuses a file that is not one', () => {
    expect(() => decodeWordLists(new Uint8Array(16))).toThrow(/not a word list file/)
  })

  it('ships the everyday words of the big languages in their lists, and not in every list', () => {
    const lists = shippedLists()
    const holders = (word: string): string[] => lists.languages.filter((_, j) => lists.has(j, word))
    expect(holders('hej')).toEqual(expect.arrayContaining(['sv', 'da', 'pl']))
    expect(holders('adiós')).toContain('es')
    expect(holders('tchau')).toContain('pt')
    expect(holders('danke')).toContain('de')
    expect(holders('merci')).toContain('fr')
    expect(holders('grazie')).toContain('it')
    expect(holders('tchau')).not.toContain('de')
    expect(holders('hej')).not.toContain('fr')
    expect(holders('sí')).not.toContain('cs')
  })

  it('ships the words frequent in everyday text (fortunes, game dialogue) of the languages that have such text, as lists of their own', () => {
    const lists = shippedLists()
    const holders = (word: string): string[] => lists.languages.filter((l, j) => l.startsWith(EVERYDAY) && lists.has(j, word)).map(l => l.slice(EVERYDAY.length))
    expect(lists.languages).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'es', 'it', 'pl', 'pt', 'ru', 'cs'].map(l => `${EVERYDAY}${l}`)))
    expect(holders('hallo')).toContain('de')
    expect(holders('dobranoc')).toContain('pl')
    expect(holders('salut')).toContain('ca')
    expect(holders('hello')).toContain('en')
    expect(holders('hallo')).not.toContain('en')
    expect(holders('dobranoc')).not.toContain('en')
    // Debian's interface words are not everyday words
    expect(holders('nastavení')).toEqual([])
    expect(holders('einstellungen')).toEqual([])
  })

  it('merges two files: the lists of the first but those of a prefix, then those of the second, each filter as it was', () => {
    const base = encodeWordLists([{ language: 'xx', words: new Set(['hallo']) }, { language: 'p:yy', words: new Set(['old']) }], 8, 7)
    const added = encodeWordLists([{ language: 'p:yy', words: new Set(['dobranoc']) }], 16, 24)
    const lists = decodeWordLists(mergeWordLists(base, added, 'p:'))
    expect(lists.languages).toEqual(['xx', 'p:yy'])
    expect(lists.maxLetters).toBe(7)
    expect(lists.has(0, 'hallo')).toBe(true)
    expect(lists.has(1, 'dobranoc')).toBe(true)
    expect(lists.has(1, 'old')).toBe(false)
  })
})
