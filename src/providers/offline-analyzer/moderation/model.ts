/**
 * One language's moderation model, built once from its word lists: profane words (ours, then
 * cuss's and those @2toad/profanity confirms), ordinary words never flagged, phrase rules and
 * topic words.
 */
import type { Effects, RuleKind, WordClass } from './effects.js'
import type { Listed } from './english.js'
import type { LanguageData } from './languages/types.js'
import { Rules, parseSet, type WordSet } from './rules.js'
import { entryWords, WordIndex } from './word-index.js'

export interface LanguageModel {
  profane: WordIndex<Listed>
  /** Masked spellings of our profane words ("f**k", "m*rde"). */
  masked: Map<string, Listed>
  ordinary: WordIndex<true>
  /** Idioms whose words say nothing of harm or a topic ("killed it", "es un crack"). */
  idioms: WordIndex<Idiom>
  /** Words that are names when written as one ("Dick Van Dyke", "Adolf Fick"): see LanguageData. */
  names: WordSet
  /** Words that are well-known places when written with a capital inside a sentence ("Troia"). */
  places: WordSet
  /** Words after which a capitalised word is a name ("di", "von", "in"). */
  nameParticles: Set<string>
  /** Every noun is written with a capital (German). */
  capitalisedNouns: boolean
  /** Swear words used as intensifiers ("you're fucking brilliant"): not an insult's target. */
  intensifiers: Set<string>
  rules: Rules<RuleKind>
  topics: WordIndex<Effects>
}

/** Words that may not stand shortly before or after an idiom: there its words are meant literally ("and I killed it", "dressed to kill him"). */
export interface Idiom {
  notBefore: WordSet
  notAfter: WordSet
}

/** Other profanity lists for the language: cuss's words with ratings, and @2toad/profanity's words. */
export interface ExtraLists {
  cuss: Record<string, number>
  toad: readonly string[]
}

const NUMBER = /^\d+(?:\.\d+)?$/
const MASKABLE = /^[a-z]{4,}$/
const MASKED_CLASSES = new Set<WordClass>(['general', 'insult', 'sexual', 'sexInsult', 'slur'])

/** An entry of a word list and its `:n` number. */
function splitEntry (entry: string): { text: string, number: number | undefined } {
  const colon = entry.lastIndexOf(':')
  if (colon > 0 && NUMBER.test(entry.slice(colon + 1))) return { text: entry.slice(0, colon), number: Number(entry.slice(colon + 1)) }
  return { text: entry, number: undefined }
}

const entries = (list: string | undefined): string[] => (list ?? '').split(/\s+/).filter(e => e !== '')

/** The phrases an idiom entry stands for, one per choice of its `|` alternatives ("un|una_crack" -> "un_crack", "una_crack"). */
function alternatives (entry: string): string[] {
  let phrases = ['']
  for (const word of entry.split('_')) {
    phrases = phrases.flatMap(phrase => word.split('|').map(choice => phrase === '' ? choice : `${phrase}_${choice}`))
  }
  return phrases
}

/** An idiom entry's phrases and its context: a leading `!` place lists the words that may not come before it, a trailing one those that may not follow ("!and_i_killed_it", "dressed_to_kill_!@object"). */
function idiomEntry (entry: string, sets: Readonly<Record<string, string>>): { phrases: string[], idiom: Idiom } {
  const places = entry.split('_')
  const before = places[0]?.startsWith('!') === true ? (places.shift() as string).slice(1) : ''
  const after = places.at(-1)?.startsWith('!') === true ? (places.pop() as string).slice(1) : ''
  const context = (list: string): WordSet => parseSet(list.split('|').map(word => {
    if (!word.startsWith('@')) return word
    const set = sets[word.slice(1)]
    if (set === undefined) throw new Error(`moderation idiom uses an unknown set ${word}: ${entry}`)
    return set
  }).join(' '))
  return { phrases: alternatives(places.join('_')), idiom: { notBefore: context(before), notAfter: context(after) } }
}

/** Every spelling of `word` with a run of inner letters starred ("fuck" -> "f*ck", "f**k", "fu*k"...). */
function maskings (word: string): string[] {
  const out: string[] = []
  for (let a = 1; a < word.length - 1; a++) {
    for (let b = a + 1; b < word.length; b++) out.push(word.slice(0, a) + '*'.repeat(b - a) + word.slice(b))
  }
  return out
}

export interface ModelOptions {
  /** cuss's ratings for the language, used for our own words too. */
  ratings?: Record<string, number> | undefined
  /** Lists whose words are added to ours. */
  lists?: ExtraLists | undefined
  /** More words to recognise masked (obscenity's, for English). */
  masked?: ReadonlyMap<string, Listed>
}

/** Builds a language's model from its word lists. */
export function buildModel (data: LanguageData, options: ModelOptions = {}): LanguageModel {
  const extra = options.lists
  const ordinary = new WordIndex<true>()
  for (const entry of entries(data.ordinary)) ordinary.add(entry, true)
  const idioms = new WordIndex<Idiom>()
  for (const entry of entries(data.idioms)) {
    const { phrases, idiom } = idiomEntry(entry, data.sets)
    for (const phrase of phrases) idioms.add(phrase, idiom)
  }
  const isOrdinary = (entry: string): boolean => {
    const words = entryWords(entry.replace(/\*$/, ''))
    return words.length > 0 && ordinary.at(words, 0)?.length === words.length
  }

  const profane = new WordIndex<Listed>()
  const masked = new Map<string, Listed>()
  const cussRating = (word: string): number | undefined => options.ratings?.[word]
  for (const [cls, list] of Object.entries(data.words) as Array<[WordClass, string]>) {
    for (const entry of entries(list)) {
      const { text, number } = splitEntry(entry)
      const listed: Listed = { cls, rating: number ?? cussRating(text.replace(/\*$/, '').replaceAll('_', ' ')) ?? 2 }
      profane.add(text, listed)
      const word = text.replace(/\*$/, '')
      if (MASKED_CLASSES.has(cls) && MASKABLE.test(word)) for (const m of maskings(word)) if (!masked.has(m)) masked.set(m, listed)
    }
  }
  for (const [word, listed] of options.masked ?? []) {
    if (MASKED_CLASSES.has(listed.cls) && MASKABLE.test(word)) for (const m of maskings(word)) if (!masked.has(m)) masked.set(m, listed)
  }

  // Our classes win over the lists' unclassified words ("idiota" is an insult, not a swear word).
  const isOurs = (entry: string): boolean => {
    const words = entryWords(entry)
    return words.length > 0 && profane.at(words, 0)?.length === words.length
  }
  if (extra) {
    // cuss rates how surely a word is profane: sure words count, probable ones only when
    // @2toad/profanity lists them too (its own lists translate English words, ordinary ones included).
    const toad = new Set(extra.toad.map(w => w.toLowerCase()))
    for (const [word, rating] of Object.entries(extra.cuss)) {
      if (rating < 1 || (rating === 1 && !toad.has(word.toLowerCase())) || isOrdinary(word) || isOurs(word)) continue
      profane.add(word, { cls: 'listed', rating })
    }
  }

  const names = parseSet(data.names ?? '')
  const places = parseSet(data.places ?? '')
  const nameParticles = parseSet(data.nameParticles ?? '').words
  const intensifiers = parseSet(data.sets.intensifier ?? '').words
  const patterns = (Object.entries(data.rules) as Array<[RuleKind, string[]]>).flatMap(([kind, list]) => list.map(pattern => ({ pattern, value: kind })))
  const rules = new Rules(patterns, data.sets)

  const topics = new WordIndex<Effects>()
  for (const [category, list] of Object.entries(data.topics)) {
    for (const entry of entries(list)) {
      const { text, number } = splitEntry(entry)
      topics.add(text, { [category]: number ?? 0.6 })
    }
  }
  return { profane, masked, ordinary, idioms, names, places, nameParticles, capitalisedNouns: data.capitalisedNouns === true, intensifiers, rules, topics }
}
