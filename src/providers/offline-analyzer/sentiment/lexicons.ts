/**
 * Sentiment lexicons read from the installed packages (VADER's and AFINN's word lists, the Emoji Sentiment Ranking
 * that `sentiment` ships, nlp.js's per-language lists with their stemmers) and our core lists, all on VADER's
 * scale (-4 to 4).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { CORE_LEXICONS } from './core-lexicons.js'
import { PhraseTable } from './phrases.js'
import { own } from '../../../lib/own.js'

const require = createRequire(import.meta.url)

/** Lower case, accents removed: the form nlp.js lexicons and stemmers expect. */
export function fold (word: string): string {
  return word.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
}

let vader: PhraseTable<number> | undefined
let emoji: Map<string, number> | undefined

/** VADER's lexicon (vader-sentiment's vader_lexicon.txt): word or emoticon -> mean valence; read once. */
export function vaderLexicon (): PhraseTable<number> {
  if (vader !== undefined) return vader
  const file = join(dirname(require.resolve('vader-sentiment/package.json')), 'vader_lexicon.txt')
  const table = new PhraseTable<number>()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [word, valence] = line.split('\t')
    if (word === undefined || valence === undefined || word === '') continue
    table.set(word.toLowerCase(), Number(valence))
  }
  vader = table
  return table
}

/** AFINN-165 as the `sentiment` package ships it (-5 to 5), scaled to VADER's range. */
export function afinnLexicon (): PhraseTable<number> {
  const labels = require('sentiment/languages/en/labels.json') as Record<string, number>
  const table = new PhraseTable<number>()
  for (const [word, valence] of Object.entries(labels)) table.set(word.toLowerCase(), valence * 0.8)
  return table
}

/** Extra emoji the Emoji Sentiment Ranking lacks or rates flat. */
const EXTRA_EMOJI: Record<string, number> = {
  '🙂': 1.5,
  '😀': 2,
  '😃': 2,
  '😄': 2,
  '🥰': 3,
  '🤩': 3,
  '😻': 2.5,
  '👎': -2,
  '😢': -2,
  '😥': -1.5,
  '😖': -2,
  '😫': -2,
  '🤮': -3,
  '🤢': -2.5,
  '😤': -2,
  '🙁': -1.5,
  '☹': -2,
  '😡': -3,
  '😠': -2.5,
  '🤬': -3.2,
  '💩': -2,
  '😞': -2,
  '😔': -1.5,
  '😒': -1.5,
  '😭': -1.5
}

/** Emoji and emoticons -> valence: `sentiment`'s emoji ranking (-3 to 3), VADER's emoticons, our extras; built once. */
export function emojiLexicon (): Map<string, number> {
  if (emoji !== undefined) return emoji
  const emoticons = vaderLexicon()
  const ranked = require('sentiment/build/emoji.json') as Record<string, number>
  const table = new Map<string, number>()
  for (const [emoji, valence] of Object.entries(ranked)) table.set(emoji, valence)
  for (const [emoji, valence] of Object.entries(EXTRA_EMOJI)) table.set(emoji, valence)
  for (const emoticon of [':)', ':-)', ':]', ':-]', '=)', ':}', ':o)', ':^)', '(:', ';)', ';-)', ':d', ':-d', 'xd', '=d', ':p', ':-p',
    ';p', ':*', ':-*', '<3', '^^', '^_^', ':))', ':(', ':-(', ':[', ':-[', '=(', ':((', ":'(", ':/', ':-/', ':\\', ':|', ':-|',
    '>:(', ':@', '</3', '-_-', ':s', ':c']) {
    const valence = emoticons.get(emoticon)
    if (valence !== undefined) table.set(emoticon, valence)
  }
  for (const [emoticon, valence] of [[':))', 2.5], [':)))', 3], [':((', -2.5], ['^^', 1.5], ['^_^', 1.8], ['-_-', -1.2], ['</3', -2.5], ['>:(', -2.8], [':c', -1.8]] as const) {
    if (!table.has(emoticon)) table.set(emoticon, valence)
  }
  emoji = table
  return table
}

/** A stemmer with a bounded cache (nlp.js's own cache grows with every word it ever sees). */
export type Stem = (word: string) => string

interface NlpjsStemmer {
  setCurrent: (word: string) => void
  innerStem: () => void
  getCurrent: () => string
}

const STEMMERS: Record<string, () => NlpjsStemmer> = {
  // lang-en re-exports lang-en-min's stemmer
  en: () => new (require('@nlpjs/lang-en').StemmerEn)(),
  fr: () => new (require('@nlpjs/lang-fr/src/stemmer-fr.js'))(),
  de: () => new (require('@nlpjs/lang-de/src/stemmer-de.js'))(),
  es: () => new (require('@nlpjs/lang-es/src/stemmer-es.js'))(),
  it: () => new (require('@nlpjs/lang-it/src/stemmer-it.js'))(),
  pt: () => new (require('@nlpjs/lang-pt/src/stemmer-pt.js'))(),
  nl: () => new (require('@nlpjs/lang-nl/src/stemmer-nl.js'))()
}

/** The nlp.js Snowball stemmer of a language, over folded words. */
export function stemmerOf (language: string): Stem {
  const make = own(STEMMERS, language)
  if (make === undefined) throw new Error(`no stemmer for ${language}`)
  const stemmer = make()
  const cache = new Map<string, string>()
  return (word: string): string => {
    let stem = cache.get(word)
    if (stem === undefined) {
      stemmer.setCurrent(word)
      stemmer.innerStem()
      stem = stemmer.getCurrent()
      if (cache.size >= 20_000) cache.clear()
      cache.set(word, stem)
    }
    return stem
  }
}

/** nlp.js's lexicons per language, keyed by stem, with the factor that brings each to VADER's scale. */
const NLPJS_LEXICONS: Record<string, Array<[file: string, scale: number]>> = {
  en: [['@nlpjs/lang-en/src/sentiment/senticon_en.json', 2.5]],
  fr: [['@nlpjs/lang-fr/src/sentiment/pattern_fr.json', 2.5]],
  it: [['@nlpjs/lang-it/src/sentiment/pattern_it.json', 2.5]],
  nl: [['@nlpjs/lang-nl/src/sentiment/pattern_nl.json', 2.5]],
  de: [['@nlpjs/lang-de/src/sentiment/senticon_de.json', 2.5]],
  es: [['@nlpjs/lang-es/src/sentiment/senticon_es.json', 2.5], ['@nlpjs/lang-es/src/sentiment/afinn_es.json', 0.6]],
  pt: [['@nlpjs/lang-pt/src/sentiment/afinn_pt.json', 0.6]]
}

/** nlp.js's stemmed lexicon for a language (stem -> valence); where two lists rate a stem, their mean. */
export function nlpjsLexicon (language: string): Map<string, number> {
  const sums = new Map<string, [number, number]>()
  for (const [file, scale] of own(NLPJS_LEXICONS, language) ?? []) {
    const entries = require(file) as Record<string, number>
    for (const [stem, valence] of Object.entries(entries)) {
      if (valence === 0) continue
      const sum = sums.get(stem) ?? [0, 0]
      sum[0] += valence * scale
      sum[1] += 1
      sums.set(stem, sum)
    }
  }
  const table = new Map<string, number>()
  for (const [stem, [sum, n]] of sums) table.set(stem, sum / n)
  return table
}

/** Our core lexicon of a language: folded words and phrases, and their stems where no two words disagree. */
export function coreLexicon (language: string, stem: Stem): { words: PhraseTable<number>, stems: Map<string, number> } {
  const words = new PhraseTable<number>()
  const stems = new Map<string, number>()
  const conflicting = new Set<string>()
  for (const entry of (own(CORE_LEXICONS, language) ?? '').split(/\s+/)) {
    const colon = entry.lastIndexOf(':')
    if (colon <= 0) continue
    const phrase = fold(entry.slice(0, colon)).replaceAll('_', ' ')
    const valence = Number(entry.slice(colon + 1))
    words.set(phrase, valence)
    if (phrase.includes(' ')) continue
    const key = stem(phrase)
    const known = stems.get(key)
    if (known !== undefined && Math.sign(known) !== Math.sign(valence)) conflicting.add(key)
    else if (known === undefined || Math.abs(valence) > Math.abs(known)) stems.set(key, valence)
  }
  for (const key of conflicting) stems.delete(key)
  return { words, stems }
}

/** A lexicon of "word:valence" entries ("_" for a space in phrases), lower case. */
export function listLexicon (list: string, foldWords = false): PhraseTable<number> {
  const table = new PhraseTable<number>()
  for (const entry of list.split(/\s+/)) {
    const colon = entry.lastIndexOf(':')
    if (colon <= 0) continue
    const phrase = entry.slice(0, colon).replaceAll('_', ' ').toLowerCase()
    table.set(foldWords ? fold(phrase) : phrase, Number(entry.slice(colon + 1)))
  }
  return table
}

/** A stemmed lexicon read through a stemmer, as a word lexicon; the words in `unrated` are never looked up. */
export function stemmedLexicon (table: ReadonlyMap<string, number>, stem: Stem, unrated: ReadonlySet<string> = new Set()): { match: (words: readonly string[], at: number) => { value: number, length: number } | undefined } {
  return {
    match (words, at) {
      const word = words[at]
      if (word === undefined || unrated.has(word)) return undefined
      const value = table.get(stem(word))
      return value === undefined ? undefined : { value, length: 1 }
    }
  }
}
