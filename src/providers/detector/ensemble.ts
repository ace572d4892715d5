/**
 * Combines the voters' answers into calibrated candidates: the text's script limits the
 * candidate languages, each voter's answer adds log P(answer | language) learned per length
 * bucket (a naive-Bayes vote that knows which voter to trust for which language), word evidence
 * separates the pairs the voters confuse, and Han characters separate Simplified from Traditional.
 * For a text of a word or three, the prior also weighs how widely each language is spoken. A
 * discriminative model (a logistic regression over words and letter 1-4-grams, regression.bin)
 * adds its log probabilities for texts up to 100 characters. For a text of one to three words,
 * the spelling dictionaries' word lists (wordlists.bin) weigh against a language whose list lacks
 * one of its words, and a language whose everyday text often has a lone word gains (wordlists.bin's
 * everyday lists).
 */
import type { Candidate } from '../../core/ports.js'
import { baseOf, meaningsOf, scriptOfLanguage } from './codes.js'
import { traditionalBalance } from './hanzi.js'
import { decodeLexicon, encodeLexicon, type LexiconTable } from './lexicon.js'
import { Likelihoods, bucketIndex, type ModelData } from './model.js'
import { forEachTrigram, forEachWord } from './words.js'
import { EVERYDAY, EVERYDAY_MAX_LETTERS, type WordLists } from './wordlists.js'
import { SCRIPTS, dominantScript, scriptIndexOf, scriptProfile, type ScriptProfile } from './scripts.js'
import type { Voter } from './voter.js'

/** Voters read at most this many UTF-16 units: more adds time, not accuracy. */
const SAMPLE = 2000
/** How many candidates a detection returns at most (an answer and five alternatives, with room for `only` and for the share of a set of languages). */
const MAX_CANDIDATES = 12
/** Scores further apart than this (in nats) are not worth reading the words for. */
const CONTEST_MARGIN = 8
/** Score added per Traditional-only (or Simplified-only) character, up to three. */
const HANZI_WEIGHT = 2.5
/** Words of a text the lexicon reads: past these the voters know the language well enough. */
const LEXICON_WORDS = 64
/**
 * A lone word is left to the voters: how often it is met inside sentences says little of it as
 * a whole text (Catalan's clitic "hi" made "Hi" Catalan at 0.98).
 */
const LEXICON_MIN_WORDS = 2
/**
 * The share of its weight the regression has on a lone word: at its full weight its n-grams made
 * "Hallo" Finnish and "Merci" Italian; at a fifth, with the everyday words' lists, the short
 * corpus's lone words gain and the greetings keep their languages (tuned on the tune part).
 */
const LONE_WORD_REGRESSION = 0.2
/** Texts of fewer letters ("ok", "Bye", "Sí") are shorter than any of the corpus: the voters' slips on them are unmeasured. */
const TINY = 4
/**
 * The most one voter's answer may cost a language, in nats, below the language it favours, on
 * such a text or one of at most DISSENT_WORDS words: none may veto alone (CLD2's Luganda vetoed
 * English for "Bye", eld's Polish for "ok", eld's Albanian for "Excuse me" against fastText and
 * CLD2). Not learned (the corpus cannot measure it): the weakest limit in whole nats under which
 * "ok" and "Bye" are English; "Oui", "Non", "Sim", "Nie" keep their languages. On one or two words
 * it costs the short corpus's core languages nothing and the further languages' short texts 2
 * points (docs/benchmarks.md, Greetings).
 */
const TINY_DISSENT = 4
const DISSENT_WORDS = 2
/** Texts longer than this are never read as one word said again. */
const REPEATED_MAX = 64

/** Texts of at most this many words are checked against the spelling dictionaries' word lists. */
const WORD_LIST_WORDS = 3
/**
 * Nats a language with a word list loses per word of the text its list lacks, and gains when
 * its list holds them all, for a lone word and for two or three (tuned on the short corpus's tune
 * part and the greetings test).
 */
export interface WordListWeights { miss: [number, number], hit: [number, number], everyday: [number, number] }
export const WORD_LIST_WEIGHTS: WordListWeights = { miss: [2, 4], hit: [1, 1], everyday: [8, 0] }

export type DetectFn = (text: string, only?: readonly string[]) => Candidate[]

interface Group {
  weight: number
  members: number[]
  words: Map<string, number[]>
  trigramWeight: number
  trigrams: Map<string, number[]>
}

/** The regression's key of its bias, beside words (which hold no control characters). */
export const REGRESSION_BIAS = '\u0001'
/** Letter n-grams the regression reads, of a space-padded word: 1 to this many letters. */
export const REGRESSION_GRAMS = 4

/** Builds the detection function over loaded voters and the learned model. */
/** Pictographs (emoji, ❤, ★), other symbols, and the joiners and variation selectors of emoji sequences. */
const HAS_SYMBOL = /\p{Extended_Pictographic}|\p{So}|\p{Emoji_Modifier}|\u200d|\ufe0e|\ufe0f/u
const SYMBOLS = /(?:\p{Extended_Pictographic}|\p{So}|\p{Emoji_Modifier}|\u200d|\ufe0e|\ufe0f)+/gu

export function createEnsemble (voters: readonly Voter[], data: ModelData, lexiconTable?: LexiconTable, regressionTable?: LexiconTable, wordLists?: WordLists, wordListWeights: WordListWeights = WORD_LIST_WEIGHTS): { detect: DetectFn, languages: string[] } {
  // only languages some voter can name: one none of them models would soak up every doubtful text
  const universe = new Set<string>()
  for (const voter of voters) for (const answer of voter.answers) for (const language of meaningsOf(answer)) universe.add(language)
  const languages = [...universe].sort()
  const index = new Map(languages.map((l, i) => [l, i]))
  const counted = new Set(data.counts.flatMap(b => Object.values(b).flatMap(v => Object.keys(v))))
  const prior = Float64Array.from(languages, l => counted.has(l) ? data.logPriors[l] ?? 0 : data.unseenLogPrior)
  // the learned tables only: the raw word lists, compiled below, are not kept alive with them
  const likelihoods = new Likelihoods({ ...data, groups: [], lexicon: undefined }, languages, new Map(voters.map(v => [v.name, new Set(v.answers)])))
  const bucketLimits = [...data.bucketLimits]
  const temperature = [...data.temperature]
  const usageWeight = [...data.usageWeight ?? []]
  // log share of speakers (CLDR): languages the table lacks count as the least spoken it holds
  const leastUsed = Math.min(0, ...Object.values(data.usage ?? {}))
  const usage = Float64Array.from(languages, l => data.usage?.[l] ?? leastUsed)

  // candidate languages per text script
  const byScript = new Map<string, number[]>()
  languages.forEach((l, i) => {
    const script = scriptOfLanguage(l)
    const list = byScript.get(script) ?? []
    list.push(i)
    byScript.set(script, list)
  })
  const ja = index.get('ja')
  if (ja !== undefined) byScript.set('Hani', [...(byScript.get('Hani') ?? []), ja])
  const all = languages.map((_, i) => i)

  const groups: Group[] = data.groups.map(g => ({
    weight: g.weight,
    members: g.languages.map(l => index.get(l) ?? -1),
    words: new Map(Object.entries(g.words)),
    trigramWeight: g.trigramWeight,
    trigrams: new Map(Object.entries(g.trigrams))
  }))
  const groupOf = new Map<number, Group>()
  for (const g of groups) for (const m of g.members) if (m >= 0) groupOf.set(m, g)
  // a lexicon in the model itself (as train-lexicon.ts tunes it) is read through the same compact form
  const table = lexiconTable ?? (data.lexicon === undefined ? undefined : decodeLexicon(encodeLexicon(data.lexicon)))
  const lexicon = table === undefined ? undefined : compileLexicon(table, index, languages.length)
  const regression = regressionTable === undefined ? undefined : compileRegression(regressionTable, index, languages.length)
  // per ensemble language: its word list's number (-1: none)
  const listOf = new Int16Array(languages.length).fill(-1)
  wordLists?.languages.forEach((language, j) => { const i = index.get(language); if (i !== undefined) listOf[i] = j })
  // per list: how many of the text's words it lacks
  const missing = new Uint8Array(wordLists?.languages.length ?? 0)
  const held = new Uint8Array(missing.length)
  // per list: the ensemble language whose everyday words it lists (-1: a spelling list, or none), and how many of the text's words it holds
  const everydayOf = Int16Array.from(wordLists?.languages ?? [], name => name.startsWith(EVERYDAY) ? index.get(name.slice(EVERYDAY.length)) ?? -1 : -1)
  const holding = new Uint8Array(missing.length)
  const zh = index.get('zh') ?? -1
  const zhHant = index.get('zh-Hant') ?? -1

  const scores = new Float64Array(languages.length)
  const profile: ScriptProfile = { counts: new Uint32Array(SCRIPTS.length), letters: 0, codePoints: 0 }

  function candidatesFor (script: string, only: readonly string[] | undefined): number[] {
    const forScript = byScript.get(script) ?? all
    if (only === undefined) return forScript
    const bases = new Set(only.map(tag => normalizedBase(tag)))
    const allowed = forScript.filter(i => bases.has(baseOf(languages[i]!)))
    // a client that limits the answer to languages of another script still gets one of them
    return allowed.length > 0 ? allowed : all.filter(i => bases.has(baseOf(languages[i]!)))
  }

  function detect (text: string, only?: readonly string[]): Candidate[] {
    // emoji and other symbols are no language's (a voter read "❤" as Croatian's)
    if (HAS_SYMBOL.test(text)) text = text.replace(SYMBOLS, ' ')
    const sample = text.length > SAMPLE ? sampleOf(text) : repeatedWord(text) ?? text
    scriptProfile(sample, profile)
    if (profile.letters === 0) return []
    const candidates = candidatesFor(dominantScript(profile), only)
    if (candidates.length === 0) return []
    if (candidates.length === 1) return [{ language: languages[candidates[0]!]!, confidence: 1 }]

    const bucket = bucketIndex(bucketLimits, profile.codePoints)
    const allowedBases = only === undefined ? undefined : new Set(only.map(normalizedBase))
    // the fewer words a text has, the more how widely a language is spoken decides
    const words = wordsIn(sample)
    const weight = usageWeight.length === 0 ? 0 : usageWeight[Math.min(words, usageWeight.length) - 1] ?? 0
    for (const i of candidates) scores[i] = prior[i]! + weight * usage[i]!
    // under TINY letters or on a word or two, one voter's answer may cost a language at most TINY_DISSENT below the one it favours
    const cap = profile.letters < TINY || words <= DISSENT_WORDS ? TINY_DISSENT : Infinity
    for (const voter of voters) {
      const table = likelihoods.table(bucket, voter.name, voter.top(sample, allowedBases) ?? '')
      let least = -Infinity
      if (cap !== Infinity) for (const i of candidates) least = Math.max(least, table[i]! - cap)
      for (const i of candidates) scores[i] = scores[i]! + Math.max(table[i]!, least)
    }

    if (wordLists !== undefined) addWordLists(wordLists, sample, words, candidates)
    if (lexicon !== undefined) addLexicon(lexicon, sample, candidates, bucket)
    if (regression !== undefined) addRegression(regression, sample, candidates, bucket, words >= LEXICON_MIN_WORDS ? 1 : LONE_WORD_REGRESSION)
    const best = argmax(candidates)
    const group = groupOf.get(best)
    if (group !== undefined && contested(group, best)) addWordEvidence(group, sample, candidates)
    if (best === zh || best === zhHant) {
      const balance = Math.max(-3, Math.min(3, traditionalBalance(sample)))
      if (zh >= 0 && zhHant >= 0) scores[zhHant] = scores[zhHant]! + balance * HANZI_WEIGHT
    }
    return calibrated(candidates, temperature[bucket] ?? 1)
  }

  // a language whose dictionary lacks a word of a short text is less likely; one that spells them all, a little more;
  // one whose everyday text often has a lone word, more
  function addWordLists (lists: WordLists, sample: string, all: number, candidates: readonly number[]): void {
    if (all > WORD_LIST_WORDS) return
    missing.fill(0)
    holding.fill(0)
    let checked = 0
    forEachWord(sample, word => {
      // longer words are in no list
      if (word.length > EVERYDAY_MAX_LETTERS) return
      lists.holders(word, held)
      for (let j = 0; j < held.length; j++) holding[j] = holding[j]! + held[j]!
      if (word.length > lists.maxLetters) return
      checked++
      for (let j = 0; j < missing.length; j++) missing[j] = missing[j]! + 1 - held[j]!
    })
    const k = all === 1 ? 0 : 1
    const everyday = wordListWeights.everyday[k]
    // (a language no candidate of this text gets a score that is reset before it is read)
    if (everyday !== 0) for (let j = 0; j < holding.length; j++) if (everydayOf[j]! >= 0 && holding[j] === all) scores[everydayOf[j]!] = scores[everydayOf[j]!]! + everyday
    if (checked === 0) return
    const miss = wordListWeights.miss[k]
    const hit = wordListWeights.hit[k]
    for (const i of candidates) {
      const j = listOf[i]!
      if (j >= 0) scores[i] = scores[i]! + (missing[j] === 0 ? hit : -miss * missing[j]!)
    }
  }

  // words only matter when another member of the group is still in reach of the best
  function contested (group: Group, best: number): boolean {
    for (const m of group.members) {
      if (m >= 0 && m !== best && scores[best]! - scores[m]! < CONTEST_MARGIN) return true
    }
    return false
  }

  function addWordEvidence (group: Group, sample: string, candidates: readonly number[]): void {
    const present = group.members.map(m => candidates.includes(m))
    const add = (weights: number[] | undefined, weight: number): void => {
      if (weights === undefined) return
      for (let j = 0; j < group.members.length; j++) {
        if (present[j]) scores[group.members[j]!] = scores[group.members[j]!]! + weight * weights[j]!
      }
    }
    forEachWord(sample, word => {
      add(group.words.get(word), group.weight)
      if (group.trigramWeight > 0) forEachTrigram(word, trigram => add(group.trigrams.get(trigram), group.trigramWeight))
    })
  }

  // each word (and its trigrams): every candidate gets its language's value, or its backoff where never seen
  function addLexicon (model: CompiledLexicon, sample: string, candidates: readonly number[], bucket: number): void {
    const wordWeight = model.weight[bucket] ?? 0
    const trigramWeight = model.trigramWeight[bucket] ?? 0
    if (wordWeight === 0 && trigramWeight === 0) return
    const { start, language, negLogProbability } = model.table
    const add = (feature: number, weight: number, backoff: Float64Array): void => {
      if (feature < 0 || weight === 0 || model.live[feature] === 0) return
      for (const i of candidates) scores[i] = scores[i]! + weight * backoff[i]!
      for (let k = start[feature]!; k < start[feature + 1]!; k++) {
        const i = model.to[language[k]!]!
        if (i >= 0 && model.mark[i] === model.stamp) scores[i] = scores[i]! + weight * (-negLogProbability[k]! / 10 - backoff[i]!)
      }
    }
    model.stamp = (model.stamp + 1) % 0x7fffffff
    if (model.stamp === 0) { model.mark.fill(0); model.stamp = 1 }
    for (const i of candidates) model.mark[i] = model.stamp
    let count = 0
    forEachWord(sample, () => { count++ })
    if (count < LEXICON_MIN_WORDS) return
    let words = 0
    forEachWord(sample, word => {
      if (++words > LEXICON_WORDS) return
      add(model.table.word(word), wordWeight, model.backoff)
      if (trigramWeight > 0) {
        // the trigrams of the space-padded word, looked up in place
        const padded = ` ${word} `
        for (let i = 0; i + 3 <= padded.length; i++) add(model.table.trigram(padded, i), trigramWeight, model.trigramBackoff)
      }
    })
  }

  // the regression over every language with Debian text: its log probabilities, the least of them for a language it lacks
  function addRegression (model: CompiledRegression, sample: string, candidates: readonly number[], bucket: number, share: number): void {
    const weight = (model.table.weight[bucket] ?? 0) * share
    if (weight === 0) return
    const { logits } = model
    const norm = regressionLogits(model.table, sample, logits)
    let top = -Infinity
    let least = Infinity
    for (let j = 0; j < logits.length; j++) { top = Math.max(top, logits[j]! * norm); least = Math.min(least, logits[j]! * norm) }
    let total = 0
    for (let j = 0; j < logits.length; j++) total += Math.exp(logits[j]! * norm - top)
    const logTotal = top + Math.log(total)
    for (const i of candidates) {
      const j = model.to[i]!
      scores[i] = scores[i]! + weight * ((j >= 0 ? logits[j]! * norm : least) - logTotal)
    }
  }

  /** Sums the regression's weights of the text's features into `logits`; answers the factor that scales them (features of unit length, stored units). */
  function regressionLogits (table: LexiconTable, sample: string, logits: Float64Array): number {
    const { start, language, negLogProbability: stored } = table
    logits.fill(0)
    let features = 0
    const add = (f: number): void => {
      if (f < 0) return
      features++
      for (let k = start[f]!; k < start[f + 1]!; k++) logits[language[k]!] = logits[language[k]!]! + table.zero - stored[k]!
    }
    add(table.word(REGRESSION_BIAS))
    let words = 0
    forEachWord(sample, word => {
      if (++words > LEXICON_WORDS) return
      add(table.word(word))
      const padded = ` ${word} `
      for (let n = 1; n <= REGRESSION_GRAMS; n++) {
        for (let i = 0; i + n <= padded.length; i++) if (n > 1 || padded.charCodeAt(i) !== 0x20) add(table.gram(padded, i, i + n))
      }
    })
    return 1 / (table.scale * Math.sqrt(Math.max(1, features)))
  }

  function argmax (candidates: readonly number[]): number {
    let best = candidates[0]!
    for (const i of candidates) if (scores[i]! > scores[best]!) best = i
    return best
  }

  // softmax at the calibrated temperature; only the best few are kept and sorted
  function calibrated (candidates: readonly number[], temperature: number): Candidate[] {
    const top = scores[argmax(candidates)]!
    let total = 0
    const kept: Candidate[] = []
    for (const i of candidates) {
      const weight = Math.exp((scores[i]! - top) / temperature)
      total += weight
      if (kept.length < MAX_CANDIDATES || weight > kept[kept.length - 1]!.confidence) {
        insertSorted(kept, { language: languages[i]!, confidence: weight })
      }
    }
    for (const c of kept) c.confidence /= total
    return kept
  }

  return { detect, languages }
}

interface CompiledLexicon {
  table: LexiconTable
  /** The ensemble's index of each lexicon language (-1: no voter names it). */
  to: Int16Array
  /** 1 for a feature seen in a language some voter names (the others tell nothing here). */
  live: Uint8Array
  /** Per ensemble language index: the log probability of an unseen word (languages the lexicon lacks: the mean). */
  backoff: Float64Array
  trigramBackoff: Float64Array
  weight: number[]
  trigramWeight: number[]
  /** Which languages are candidates of the detection under way (mark[i] === stamp). */
  mark: Int32Array
  stamp: number
}

/** The lexicon over the ensemble's language indexes; its languages no voter names are left out. */
function compileLexicon (table: LexiconTable, index: ReadonlyMap<string, number>, size: number): CompiledLexicon {
  const to = Int16Array.from(table.languages, l => index.get(l) ?? -1)
  const backoffs = (values: number[]): Float64Array => {
    const known = values.filter((_, j) => to[j]! >= 0)
    const out = new Float64Array(size).fill(known.reduce((a, b) => a + b, 0) / Math.max(1, known.length))
    values.forEach((b, j) => { if (to[j]! >= 0) out[to[j]!] = b })
    return out
  }
  const live = new Uint8Array(table.start.length - 1)
  for (let f = 0; f < live.length; f++) {
    for (let k = table.start[f]!; k < table.start[f + 1]!; k++) if (to[table.language[k]!]! >= 0) { live[f] = 1; break }
  }
  return {
    table,
    to,
    live,
    backoff: backoffs(table.backoff),
    trigramBackoff: backoffs(table.trigramBackoff),
    weight: table.weight,
    trigramWeight: table.trigramWeight,
    mark: new Int32Array(size),
    stamp: 0
  }
}

interface CompiledRegression {
  table: LexiconTable
  /** Per ensemble language: its index in the regression's languages (-1: none). */
  to: Int16Array
  logits: Float64Array
}

function compileRegression (table: LexiconTable, index: ReadonlyMap<string, number>, size: number): CompiledRegression {
  const to = new Int16Array(size).fill(-1)
  table.languages.forEach((language, j) => { const i = index.get(language); if (i !== undefined) to[i] = j })
  return { table, to, logits: new Float64Array(table.languages.length) }
}

/** How many words `text` has. */
function wordsIn (text: string): number {
  let count = 0
  forEachWord(text, () => { count++ })
  return count
}

/**
 * The word of a short text that is one word said again ("Bye bye", "No, no, no!"), as first
 * written: it is read as that lone word. Counted twice, an unseen word cost a language twice the
 * lexicon's backoff ("bye" ~33 nats for English each time, so "Bye bye" was Luganda).
 */
function repeatedWord (text: string): string | undefined {
  if (text.length > REPEATED_MAX) return undefined
  let first: string | undefined
  let count = 0
  let same = true
  forEachWord(text, word => {
    if (first === undefined) first = word
    else if (word !== first) same = false
    count++
  })
  if (!same || count < 2 || first === undefined) return undefined
  // as first written (the voters read letter case); the lower-cased word where lower-casing changed its length
  for (let at = 0; at + first.length <= text.length; at++) {
    const written = text.slice(at, at + first.length)
    if (written.toLowerCase() === first) return written
  }
  return first
}

/** SAMPLE units of a long text from its first letter on (a long run of numbers or symbols may lead). */
function sampleOf (text: string): string {
  let start = 0
  while (start < text.length && scriptIndexOf(text.charCodeAt(start)) === 0) start++
  return text.slice(start, start + SAMPLE)
}

function insertSorted (kept: Candidate[], candidate: Candidate): void {
  let at = kept.length
  while (at > 0 && kept[at - 1]!.confidence < candidate.confidence) at--
  kept.splice(at, 0, candidate)
  if (kept.length > MAX_CANDIDATES) kept.pop()
}

/** The base language a client's tag asks for, as the detector spells it ("no" -> "nb"). */
function normalizedBase (tag: string): string {
  const base = baseOf(tag).toLowerCase()
  return base === 'no' ? 'nb' : base
}
