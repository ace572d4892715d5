/**
 * Content categories (Google's taxonomy paths such as "/Sports" or "/Finance/Investing") by a
 * transparent keyword classifier: each category has weighted words, stems and phrases in seven
 * languages (lexicon.json); a text's categories are those whose matched weight stands
 * out, sized by their share of all matched weight and by how dense it is in the text. It answers
 * nothing when the evidence is thin or spread over many categories.
 */
import { OFFLINE_LANGUAGES } from '../languages.js'
import type { Scored } from '../../../core/analysis/results.js'
import keywords from './lexicon.json' with { type: 'json' }
import { foldedWords } from './words.js'

export const CATEGORY_LANGUAGES: readonly string[] = OFFLINE_LANGUAGES.categories

/**
 * Per category path and language a comma-separated list: lower-case words or short phrases, "+"
 * before a term that alone says the category (weight 2, else 1), "*" after a stem that matches any
 * word it begins (at least 4 letters). Accents are ignored when matching. Data, not code: the
 * lists are read at start, not compiled.
 */
type CategoryLexicon = Readonly<Record<string, Readonly<Record<'en' | 'fr' | 'de' | 'es' | 'it' | 'pt' | 'nl', string>>>>
const LEXICON: CategoryLexicon = keywords

/** Every category path the classifier can answer. */
export const CATEGORY_PATHS: readonly string[] = Object.keys(LEXICON)

// the first segment of a path ("/Finance/Investing" → "Finance"): categories of one family compete as one
const familyOf = (path: string): string => path.split('/')[1]!

interface Term {
  id: number
  path: number
  weight: number
}

interface Matcher {
  words: Map<string, Term[]>
  /** Stems (at least MIN_STEM letters) matching the words they begin. */
  stems: Map<string, Term[]>
  /** Terms of several words by their first word: the other words (the last one may be a stem). */
  phrases: Map<string, Array<{ rest: string[], stem: boolean, terms: Term[] }>>
  longestStem: number
}

const MIN_STEM = 4
const STRONG = 2
const WEAK = 1
const matchers = new Map<string, Matcher>()

/** The keyword matcher of a language, built on first use. */
function matcherOf (language: string): Matcher | undefined {
  const cached = matchers.get(language)
  if (cached !== undefined) return cached
  if (!CATEGORY_LANGUAGES.includes(language)) return undefined
  const matcher: Matcher = { words: new Map(), stems: new Map(), phrases: new Map(), longestStem: 0 }
  const push = <K>(map: Map<K, Term[]>, key: K, term: Term): void => { map.set(key, [...(map.get(key) ?? []), term]) }
  let id = 0
  CATEGORY_PATHS.forEach((path, index) => {
    const list = LEXICON[path]![language as keyof CategoryLexicon[string]]
    for (const raw of list.split(',')) {
      let entry = raw.trim()
      if (entry === '') continue
      const weight = entry.startsWith('+') ? STRONG : WEAK
      entry = entry.replace(/^\+/, '')
      const stem = entry.endsWith('*')
      const words = foldedWords(entry.replace(/\*$/, ''))
      if (words.length === 0) continue
      const term = { id: id++, path: index, weight }
      if (words.length > 1) {
        const list = matcher.phrases.get(words[0]!) ?? []
        const same = list.find(p => p.stem === stem && p.rest.join(' ') === words.slice(1).join(' '))
        if (same !== undefined) same.terms.push(term)
        else list.push({ rest: words.slice(1), stem, terms: [term] })
        // longest phrases first
        matcher.phrases.set(words[0]!, list.sort((a, b) => b.rest.length - a.rest.length))
      } else if (stem && words[0]!.length >= MIN_STEM) {
        push(matcher.stems, words[0]!, term)
        matcher.longestStem = Math.max(matcher.longestStem, words[0]!.length)
      } else {
        push(matcher.words, words[0]!, term)
      }
    }
  })
  matchers.set(language, matcher)
  return matcher
}

/** The terms matched at word i: the longest phrase there, else the word itself and its stems. */
function termsAt (words: readonly string[], i: number, matcher: Matcher): { terms: Term[], length: number } {
  const word = words[i]!
  for (const phrase of matcher.phrases.get(word) ?? []) {
    let ok = i + phrase.rest.length < words.length
    for (let k = 0; k < phrase.rest.length && ok; k++) {
      const next = words[i + 1 + k]!
      const wanted = phrase.rest[k]!
      ok = next === wanted || (phrase.stem && k === phrase.rest.length - 1 && next.startsWith(wanted))
    }
    if (ok) return { terms: phrase.terms, length: phrase.rest.length + 1 }
  }
  const terms = [...(matcher.words.get(word) ?? [])]
  for (let length = MIN_STEM; length <= Math.min(word.length, matcher.longestStem); length++) {
    const stems = matcher.stems.get(word.slice(0, length))
    if (stems !== undefined) terms.push(...stems)
  }
  return { terms, length: 1 }
}

/** How much evidence a family needs: two different terms, together worth a strong and a weak one. */
const MIN_TERMS = 2
const MIN_EVIDENCE = 3
/** The best family's share of all evidence below which the text is about too many things to say. */
const MIN_SHARE = 0.4
const MIN_CONFIDENCE = 0.35
const MAX_ANSWERS = 3

/**
 * The content categories of `text` in `language` (a base tag of CATEGORY_LANGUAGES), best first, at
 * most three, confidences in [0, 1]; empty when no category clearly stands out.
 */
export function classifyCategories (text: string, language: string): Scored[] {
  const matcher = matcherOf(language.toLowerCase().split(/[-_]/)[0]!)
  if (matcher === undefined) return []
  const words = foldedWords(text)
  if (words.length === 0) return []

  // occurrences per term; a word counts once per category (its best term there)
  const occurrences = new Map<number, { term: Term, count: number }>()
  for (let i = 0; i < words.length;) {
    const { terms, length } = termsAt(words, i, matcher)
    const best = new Map<number, Term>()
    for (const term of terms) if ((best.get(term.path)?.weight ?? 0) < term.weight) best.set(term.path, term)
    for (const term of best.values()) {
      const seen = occurrences.get(term.id)
      if (seen === undefined) occurrences.set(term.id, { term, count: 1 })
      else seen.count++
    }
    i += length
  }

  // evidence per path: a repeated term counts less and less
  const evidence = new Float64Array(CATEGORY_PATHS.length)
  const distinct = new Uint16Array(CATEGORY_PATHS.length)
  for (const { term, count } of occurrences.values()) {
    evidence[term.path]! += term.weight * Math.sqrt(Math.min(count, 4))
    distinct[term.path]!++
  }
  const families = new Map<string, { evidence: number, terms: number, paths: number[] }>()
  let total = 0
  CATEGORY_PATHS.forEach((path, index) => {
    if (evidence[index] === 0) return
    const family = families.get(familyOf(path)) ?? { evidence: 0, terms: 0, paths: [] }
    family.evidence += evidence[index]!
    family.terms += distinct[index]!
    family.paths.push(index)
    families.set(familyOf(path), family)
    total += evidence[index]!
  })
  if (total === 0) return []

  const ranked = [...families.values()].map(family => {
    const share = family.evidence / total
    // evidence per square root of the text's length: a few terms in a long text say little
    const strength = 1 - Math.exp(-1.2 * family.evidence / Math.sqrt(words.length))
    return { family, confidence: share * strength, share }
  }).sort((a, b) => b.confidence - a.confidence)

  const top = ranked[0]!
  if (top.family.terms < MIN_TERMS || top.family.evidence < MIN_EVIDENCE || top.share < MIN_SHARE || top.confidence < MIN_CONFIDENCE) return []
  return ranked
    .filter(r => r.family.terms >= MIN_TERMS && r.family.evidence >= MIN_EVIDENCE && r.confidence >= MIN_CONFIDENCE * 0.85)
    .slice(0, MAX_ANSWERS)
    .map(r => ({ name: pathOf(r.family, evidence), confidence: Math.round(r.confidence * 1000) / 1000 }))
}

/**
 * The path that names a family's evidence: its most specific path when that holds a good part of
 * it ("/Finance/Investing"), else the family's own path ("/Finance").
 */
function pathOf (family: { evidence: number, paths: number[] }, evidence: Float64Array): string {
  const byEvidence = [...family.paths].sort((a, b) => evidence[b]! - evidence[a]!)
  const specific = byEvidence.find(p => CATEGORY_PATHS[p]!.split('/').length > 2 && evidence[p]! >= 0.4 * family.evidence)
  if (specific !== undefined) return CATEGORY_PATHS[specific]!
  const general = family.paths.find(p => CATEGORY_PATHS[p]!.split('/').length === 2)
  return CATEGORY_PATHS[general ?? byEvidence[0]!]!
}
