/**
 * The rule engine: lexicon valences of a sentence's words, turned by negation, intensifiers and downtoners,
 * contrast and concession, capitals and exclamation marks. One pass per rule, linear in the sentence's length.
 */
import type { LanguageRules } from './rules.js'
import type { Token } from './tokens.js'
import { PhraseTable } from './phrases.js'
import { fold } from './lexicons.js'

/**
 * A lexicon over a sentence's words: the valence of the longest entry at a position, and its length in words.
 * `capitalised[i]`: word i begins with a capital letter and does not open the sentence (a name, or a German noun).
 */
export interface WordLexicon {
  match: (words: readonly string[], at: number, capitalised: readonly boolean[]) => { value: number, length: number } | undefined
}

/** VADER's empirically derived factor for a negated word. */
const NEGATED = -0.74
/** A negated negative word: "not bad" leans positive, but less than "good" ("don't waste" is no praise). On the dev
 * set, factors from -0.74 to +0.3 differ by under half a point; -0.4 keeps "not bad" positive. */
const NEGATED_NEGATIVE = -0.4
/** Weight of the part of a sentence before "but", and of the part after it. */
const BEFORE_CONTRAST = 0.5
const AFTER_CONTRAST = 1.5
const CONCEDED = 0.5
/** A word in capitals among words that are not. */
const CAPITALS = 1.3
/** How far a negator reaches forward (words), and back when nothing is ahead. */
const NEGATION_SCOPE = 3
const BACKWARD_SCOPE = 3

type Role = 'negator' | 'weakNegator' | 'idiom' | 'markedNegator' | 'marker' | 'intensifier' | 'contrast' | 'concession' | 'inert'

interface Part {
  role: Role
  value: number
}

/** A language's rules, compiled once into phrase tables. */
export class CompiledRules {
  readonly table = new PhraseTable<Part>()
  readonly elisions: ReadonlySet<string>
  /** English contractions ("don't", "isn't") negate. */
  readonly contractions: boolean
  readonly negatesBackward: boolean
  readonly subjectNegators: ReadonlySet<string>
  readonly hyperboleNegators: ReadonlySet<string>
  readonly hyperboleEnds: ReadonlySet<string>
  readonly superlativeNegators: ReadonlySet<string>
  readonly superlativeDegrees: ReadonlySet<string>
  readonly comparisonStandards: ReadonlySet<string>
  readonly coordinators: ReadonlySet<string>

  constructor (rules: LanguageRules, language: string) {
    this.elisions = new Set(rules.elisions ?? [])
    const set = (phrase: string, part: Part): void => { this.table.set(this.unitsOfPhrase(phrase), part) }
    for (const word of rules.negators) set(word, { role: 'negator', value: 0 })
    for (const word of rules.weakNegators ?? []) set(word, { role: 'weakNegator', value: 0 })
    for (const word of rules.markedNegators ?? []) set(word, { role: 'markedNegator', value: 0 })
    for (const word of rules.negationMarkers ?? []) set(word, { role: 'marker', value: 0 })
    for (const [word, value] of Object.entries(rules.intensifiers)) set(word, { role: 'intensifier', value })
    for (const word of rules.contrast) set(word, { role: 'contrast', value: 0 })
    for (const word of rules.concession) set(word, { role: 'concession', value: 0 })
    // set last: a phrase such as "not only" wins over its first word
    for (const phrase of rules.notNegations ?? []) set(phrase, { role: 'inert', value: 0 })
    for (const phrase of rules.partitives ?? []) set(phrase, { role: 'inert', value: 0 })
    for (const [entry, value] of Object.entries(rules.idioms ?? {})) for (const phrase of alternatives(entry)) set(phrase, { role: 'idiom', value })
    this.negatesBackward = rules.negatesBackward
    this.subjectNegators = new Set(rules.subjectNegators ?? [])
    this.hyperboleNegators = new Set(rules.hyperboleNegators ?? [])
    this.hyperboleEnds = new Set(rules.hyperboleEnds ?? [])
    this.superlativeNegators = new Set(rules.superlativeNegators ?? [])
    this.superlativeDegrees = new Set(rules.superlativeDegrees ?? [])
    this.comparisonStandards = new Set(rules.comparisonStandards ?? [])
    this.coordinators = new Set(rules.coordinators ?? [])
    this.contractions = language === 'en'
  }

  /** A phrase as the sentence's units read it: elided prefixes split off ("non vedo l'ora" is "non vedo l' ora"). */
  private unitsOfPhrase (phrase: string): string {
    return phrase.split(' ').map(word => {
      const apostrophe = word.indexOf("'")
      const prefix = word.slice(0, apostrophe + 1)
      return apostrophe > 0 && apostrophe < word.length - 1 && this.elisions.has(prefix) ? `${prefix} ${word.slice(apostrophe + 1)}` : word
    }).join(' ')
  }
}

/** The phrases an idiom entry stands for: one per choice of its `|` alternatives, with and without its `?` words. */
function alternatives (entry: string): string[] {
  let phrases = ['']
  for (const place of entry.split(' ')) {
    const optional = place.endsWith('?')
    const choices = (optional ? place.slice(0, -1) : place).split('|')
    phrases = phrases.flatMap(phrase => [...choices.map(choice => phrase === '' ? choice : `${phrase} ${choice}`), ...(optional ? [phrase] : [])])
  }
  return phrases
}

/** A word-sized unit of a sentence: a word (elided prefixes split off), an emoji or emoticon, or punctuation. */
interface Unit {
  kind: Token['kind']
  /** Lower case with straight apostrophes. */
  word: string
  caps: boolean
  /** Begins with a capital letter and does not open the sentence. */
  capitalised: boolean
  /** Index of its token in the sentence. */
  token: number
}

/** What the engine found in one sentence. */
export interface SentenceEvidence {
  /** Per lexicon, the sum of the sentence's turned valences (VADER's scale). */
  sums: number[]
  /** Sum of the valences of emoji, emoticons and idioms (turned by contrast only). */
  fixed: number
  /** Negators that found no sentiment word to turn (a weak negative cue in reviews: "it doesn't work"). */
  bareNegations: number
  /** Exclamation marks (up to 3). */
  exclamations: number
  /** Whether the sentence ends in a question mark. */
  question: boolean
  /** Words that carried a valence in any lexicon, or emoji. */
  hits: number
  /** Tokens of the subject negators that negated their clause ("Nothing works"). */
  subjectNegations: number[]
}

/** The units of a sentence's tokens. */
function unitsOf (tokens: readonly Token[], rules: CompiledRules): Unit[] {
  const units: Unit[] = []
  let letters = 0
  let capitals = 0
  for (const [index, token] of tokens.entries()) {
    if (token.kind !== 'word') {
      units.push({ kind: token.kind, word: token.lower, caps: false, capitalised: false, token: index })
      continue
    }
    // a word opens the sentence or a clause after a colon, quote, dash or emoji; a point inside a sentence ends an
    // abbreviation ("Sr. López")
    const previous = units[units.length - 1]
    const opens = previous === undefined || (previous.kind !== 'word' && previous.kind !== 'end' && previous.word !== ',')
    const word = token.lower.includes('’') ? token.lower.replaceAll('’', "'") : token.lower
    const caps = token.text.length > 1 && token.text !== token.lower && token.text.toUpperCase() === token.text && /\p{L}/u.test(token.text)
    const initial = !caps && /^\p{Lu}/u.test(token.text)
    letters += 1
    if (caps) capitals += 1
    const apostrophe = word.indexOf("'")
    if (apostrophe > 0 && rules.elisions.size > 0 && rules.elisions.has(word.slice(0, apostrophe + 1))) {
      units.push({ kind: 'word', word: word.slice(0, apostrophe + 1), caps: false, capitalised: false, token: index })
      units.push({ kind: 'word', word: word.slice(apostrophe + 1), caps, capitalised: !caps && /^\p{Lu}/u.test(token.text.slice(apostrophe + 1)), token: index })
    } else units.push({ kind: 'word', word, caps, capitalised: !opens && initial, token: index })
  }
  // a sentence in capitals throughout shouts every word alike: no word stands out
  if (capitals > 0 && capitals * 2 >= letters) for (const unit of units) unit.caps = false
  return units
}

/** Whether a unit closes a clause for negation and concession. */
function isBoundary (unit: Unit): boolean {
  return unit.kind === 'end' || (unit.kind === 'pause' && unit.word !== '"' && unit.word !== '-')
}

/** Whether the word at `at` opens its clause: first in the sentence, or after punctuation, "but", "although" or "and". */
function opensClause (units: readonly Unit[], roles: ReadonlyArray<Part | undefined>, at: number, rules: CompiledRules): boolean {
  const previous = units[at - 1]
  if (previous === undefined) return true
  const role = roles[at - 1]?.role
  return isBoundary(previous) || role === 'contrast' || role === 'concession' || rules.coordinators.has(previous.word)
}

/** Whether the negator at `at` opens a clause that ends in a hyperbole's last word ("can't thank you enough"). */
function isHyperbole (units: readonly Unit[], roles: ReadonlyArray<Part | undefined>, at: number, rules: CompiledRules): boolean {
  if (rules.hyperboleEnds.size === 0) return false
  const word = units[at]!.word
  if (!rules.hyperboleNegators.has(word) && !rules.hyperboleNegators.has(`${word} ${units[at + 1]?.word ?? ''}`)) return false
  let last = at
  for (let k = at + 1; k < units.length && !isBoundary(units[k]!) && roles[k]?.role !== 'contrast'; k += 1) {
    if (units[k]!.kind === 'word') last = k
  }
  return last > at + 1 && rules.hyperboleEnds.has(units[last]!.word)
}

/** Whether the negator at `at` is one of time ("never", "noch nie") that can read as a superlative. */
function isSuperlativeNegator (units: readonly Unit[], at: number, rules: CompiledRules): boolean {
  const word = units[at]!.word
  return rules.superlativeNegators.has(word) || rules.superlativeNegators.has(`${word} ${units[at + 1]?.word ?? ''}`)
}

/**
 * Whether the negator at `at` opens a superlative: "never" (or a negator before it, "non ho mai"), then before
 * anything rated, a word of degree within two words of a rated word ("never eaten so well", "jamais été aussi déçu"),
 * and no standard of comparison after it in the clause ("never as good as the first" is a negation).
 */
function isSuperlative (units: readonly Unit[], roles: ReadonlyArray<Part | undefined>, rated: Uint8Array, standardAhead: Uint8Array,
  at: number, rules: CompiledRules): boolean {
  if (rules.superlativeDegrees.size === 0) return false
  let never = isSuperlativeNegator(units, at, rules)
  let degree = -1
  for (let k = at + 1; k < units.length; k += 1) {
    const r = roles[k]?.role
    if (isBoundary(units[k]!) || r === 'contrast' || r === 'concession') return false
    if (r === 'negator' || r === 'weakNegator') {
      if (never || degree !== -1 || !isSuperlativeNegator(units, k, rules)) return false
      never = true
    } else if (rated[k] === 1) {
      return never && degree !== -1 && k <= degree + 2 && standardAhead[k] === 0
    } else if (rules.superlativeDegrees.has(units[k]!.word)) degree = k
  }
  return false
}

/**
 * The evidence of one sentence: each lexicon's valences turned by the rules.
 * `lexicons` read lower-case words (or folded ones where `foldWords`), `emoji` rates emoji and emoticons; the
 * lexicons from index `primary` on are fallbacks, read only for words no earlier lexicon rated.
 */
export function analyseSentence (tokens: readonly Token[], rules: CompiledRules, lexicons: readonly WordLexicon[],
  emoji: ReadonlyMap<string, number>, foldWords: boolean, primary = lexicons.length): SentenceEvidence {
  const units = unitsOf(tokens, rules)
  const n = units.length
  const words = units.map(u => u.word)
  const capitalised = units.map(u => u.capitalised)
  const lexiconWords = foldWords ? words.map(w => (/[^ -~]/.test(w) ? fold(w) : w)) : words
  const roles: Array<Part | undefined> = new Array(n)
  // function words and phrases first: they are not rated
  for (let i = 0; i < n; i += 1) {
    if (units[i]!.kind !== 'word') continue
    const found = rules.table.match(words, i)
    if (found !== undefined) {
      for (let k = 0; k < found.length; k += 1) roles[i + k] = k === 0 ? found.value : { role: 'inert', value: 0 }
      i += found.length - 1
    } else if (rules.contractions && words[i]!.endsWith("n't")) roles[i] = { role: 'negator', value: 0 }
  }
  const channels = lexicons.length
  const valences = lexicons.map(() => new Float64Array(n))
  const rated = new Uint8Array(n)
  let hits = 0
  for (let c = 0; c < channels; c += 1) {
    const lexicon = lexicons[c]!
    const values = valences[c]!
    const fallback = c >= primary
    for (let i = 0; i < n; i += 1) {
      const role = roles[i]
      if (units[i]!.kind !== 'word' || (role !== undefined && role.role !== 'intensifier') || (fallback && rated[i] === 1)) continue
      const found = lexicon.match(lexiconWords, i, capitalised)
      if (found === undefined || found.value === 0) continue
      values[i] = found.value
      rated[i] = 1
      i += found.length - 1
    }
  }
  // an intensifier rated in a lexicon ("super") intensifies when a rated word follows, else it is rated itself
  for (let i = 0; i < n; i += 1) {
    const role = roles[i]
    if (role?.role !== 'intensifier') continue
    if (rated[i] === 1 && rated[i + 1] !== 1) roles[i] = undefined
    else if (rated[i] === 1) {
      rated[i] = 0
      for (const values of valences) values[i] = 0
    }
  }
  const factor = new Float64Array(n).fill(1)
  const fixedValues = new Float64Array(n)
  for (let i = 0; i < n; i += 1) {
    const unit = units[i]!
    if (roles[i]?.role === 'idiom') {
      fixedValues[i] = roles[i]!.value
      hits += 1
    } else if (unit.kind === 'emoji' || unit.kind === 'emoticon') {
      const value = emoji.get(unit.kind === 'emoji' ? unit.word.replace(/\uFE0F|\p{Emoji_Modifier}/gu, '') : unit.word)
      if (value !== undefined) {
        fixedValues[i] = value
        hits += 1
      }
    }
    if (rated[i] === 1) {
      hits += 1
      if (unit.caps) factor[i]! *= CAPITALS
    }
  }
  // intensifiers and downtoners scale the next rated word within two words
  for (let i = 0; i < n; i += 1) {
    const role = roles[i]
    if (role?.role !== 'intensifier') continue
    for (let k = i + 1; k <= i + 2 && k < n; k += 1) {
      if (rated[k] === 1) {
        factor[k]! *= units[i]!.caps ? role.value * CAPITALS : role.value
        break
      }
      if (units[k]!.kind !== 'word' || (roles[k] !== undefined && roles[k]!.role !== 'intensifier')) break
    }
  }
  // a standard of comparison ahead in the clause ("as good as"), read once for all superlatives
  const standardAhead = new Uint8Array(n)
  if (rules.comparisonStandards.size > 0) {
    let ahead = 0
    for (let i = n - 1; i >= 0; i -= 1) {
      standardAhead[i] = ahead
      if (isBoundary(units[i]!) || roles[i]?.role === 'contrast') ahead = 0
      else if (rules.comparisonStandards.has(units[i]!.word)) ahead = 1
    }
  }
  // negation: forward over a few words in the clause, or over all of it from its subject; with nothing there, back to the
  // word before, within its clause
  let bareNegations = 0
  const subjectNegations: number[] = []
  let marked = false
  const negated = new Uint8Array(n)
  for (let i = 0; i < n; i += 1) {
    const unit = units[i]!
    const role = roles[i]?.role
    if (isBoundary(unit) || role === 'contrast') marked = false
    if (role === 'marker') marked = true
    if (role !== 'negator' && role !== 'weakNegator' && !(role === 'markedNegator' && marked)) continue
    if (isHyperbole(units, roles, i, rules) || isSuperlative(units, roles, rated, standardAhead, i, rules)) continue
    const subject = rules.subjectNegators.has(unit.word) && opensClause(units, roles, i, rules)
    if (subject) subjectNegations.push(unit.token)
    const scope = subject ? n : NEGATION_SCOPE
    let found = false
    let seen = 0
    for (let k = i + 1; k < n && seen < scope; k += 1) {
      const r = roles[k]?.role
      if (isBoundary(units[k]!) || r === 'contrast' || r === 'concession' || r === 'negator' || r === 'weakNegator') break
      if (rated[k] === 1 && negated[k] === 0) {
        negated[k] = 1
        found = true
      }
      if (units[k]!.kind === 'word' && r !== 'intensifier' && r !== 'inert') seen += 1
    }
    if (!found && rules.negatesBackward) {
      for (let k = i - 1; k >= 0 && k >= i - BACKWARD_SCOPE; k -= 1) {
        const r = roles[k]?.role
        if (isBoundary(units[k]!) || r === 'contrast' || r === 'concession' || r === 'negator' || r === 'weakNegator' ||
          rules.coordinators.has(units[k]!.word)) break
        if (rated[k] === 1 && negated[k] === 0) {
          negated[k] = 1
          found = true
          break
        }
      }
    }
    if (!found && role === 'negator') bareNegations += 1
  }
  // contrast: after the last "but", the sentence weighs more and the part before less; a conceded clause weighs less
  let contrast = -1
  for (let i = 1; i < n; i += 1) if (roles[i]?.role === 'contrast') contrast = i
  if (contrast > 0) {
    for (let k = 0; k < contrast; k += 1) factor[k]! *= BEFORE_CONTRAST
    for (let k = contrast + 1; k < n; k += 1) factor[k]! *= AFTER_CONTRAST
  }
  let conceded = false
  for (let i = 0; i < n; i += 1) {
    const role = roles[i]?.role
    if (isBoundary(units[i]!) || role === 'contrast') conceded = false
    else if (role === 'concession') conceded = true
    else if (conceded) factor[i]! *= CONCEDED
  }
  const sums = new Array<number>(channels).fill(0)
  let fixedSum = 0
  let exclamations = 0
  for (let i = 0; i < n; i += 1) {
    const f = factor[i]!
    // a negated word turns; a negated negative word turns less ("don't waste" is still a warning)
    const g = negated[i] === 1 ? f * NEGATED : f
    for (let c = 0; c < channels; c += 1) {
      const v = valences[c]![i]!
      if (v !== 0) sums[c]! += v * (negated[i] === 1 && v < 0 ? f * NEGATED_NEGATIVE : g)
    }
    // only contrast and concession weigh emoji and idioms (they are never rated, so never negated or intensified)
    fixedSum += fixedValues[i]! * f
    if (units[i]!.kind === 'end') for (const ch of units[i]!.word) if (ch === '!' || ch === '！') exclamations += 1
  }
  const last = units[n - 1]
  return {
    sums,
    fixed: fixedSum,
    bareNegations,
    exclamations: Math.min(exclamations, 3),
    question: last !== undefined && last.kind === 'end' && /[?？]/.test(last.word),
    hits,
    subjectNegations
  }
}
