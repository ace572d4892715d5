/**
 * Offline moderation: the 16 moderation categories for a text from profane-word lists (obscenity,
 * cuss, @2toad/profanity and ours), phrase rules (threats, insults, self-harm, hate) and weighted
 * topic words, in English, French, German, Spanish, Italian, Portuguese and Dutch. Linear in the
 * text's length.
 */
import { OFFLINE_LANGUAGES } from '../languages.js'
import { functionWords } from '../entities/function-words.js'
import type { Scored } from '../../../core/analysis/results.js'
import { Evidence, RULE_EFFECTS, wordEffects, type RuleKind } from './effects.js'
import type { Listed, Obscenity } from './english.js'
import type { LanguageData } from './languages/types.js'
import { buildModel, type ExtraLists, type Idiom, type LanguageModel } from './model.js'
import { inSet, type RuleHit } from './rules.js'
import { tokenize, unleet, type Token } from './tokens.js'
import type { WordIndex } from './word-index.js'

/** Languages moderated natively (base subtags). */
export const MODERATION_LANGUAGES: readonly string[] = OFFLINE_LANGUAGES.moderation

interface Loaded {
  obscenity: Obscenity
  models: Map<string, LanguageModel>
}

let loaded: Loaded | undefined
let loading: Promise<void> | undefined

/** Loads the lists and builds every language's model, once; later calls return the same promise. */
export function loadModeration (): Promise<void> {
  loading ??= build().then(result => { loaded = result }, (err: unknown) => {
    loading = undefined
    throw err
  })
  return loading
}

type Cuss = Record<string, number>

async function build (): Promise<Loaded> {
  const [{ cuss: cussEn }, { cuss: cussFr }, { cuss: cussEs }, { cuss: cussIt }, { cuss: cussPt }, { cuss: cussPtPt }, { profaneWords }, languages] = await Promise.all([
    import('cuss'), import('cuss/fr'), import('cuss/es'), import('cuss/it'), import('cuss/pt'), import('cuss/pt-pt'),
    import('@2toad/profanity'), import('./languages/index.js')
  ])
  const { createObscenity } = await import('./english.js')
  const obscenity = createObscenity(word => cussEn[word])
  const toad = (language: string): string[] => profaneWords.get(language) ?? []
  const extras: Record<string, ExtraLists> = {
    fr: { cuss: cussFr, toad: toad('fr') },
    es: { cuss: cussEs, toad: toad('es') },
    it: { cuss: cussIt, toad: toad('it') },
    pt: { cuss: { ...cussPtPt, ...cussPt } as Cuss, toad: toad('pt') },
    de: { cuss: {}, toad: toad('de') }
  }
  const models = new Map<string, LanguageModel>()
  for (const [language, data] of Object.entries(languages.LANGUAGES) as Array<[string, LanguageData]>) {
    // English's cuss list rates our words and obscenity's only: it also rates ordinary words ("gun", "church").
    models.set(language, language === 'en'
      ? buildModel(data, { ratings: cussEn, masked: obscenity.words })
      : buildModel(data, { ratings: extras[language]?.cuss, lists: extras[language], masked: obscenity.words }))
  }
  return { obscenity, models }
}

// obscenity's English words are taken inside another language's text only as whole words, with
// English endings ("fucking"), not inside that language's own words (Italian "fagioli").
const ENGLISH_ENDINGS = new Set(['', 's', 'es', 'er', 'ers', 'ing', 'in', 'ed', 'y', 'head', 'face'])

/** The 16 moderation categories for `text` in `language` (a base subtag; others use English), in order. */
export function moderate (text: string, language: string): Scored[] {
  if (!loaded) throw new Error('moderation is not loaded: await loadModeration() first')
  const english = loaded.models.get('en') as LanguageModel
  const base = language.split(/[-_]/)[0]?.toLowerCase() ?? 'en'
  const model = loaded.models.get(base) ?? english
  const isEnglish = model === english
  const { tokens, spelled } = tokenize(text)
  const words = tokens.map(t => t.word)
  const n = tokens.length
  const evidence = new Evidence()

  const idiom = idiomsIn(model.idioms, tokens, text)
  const safe = coveredBy(model.ordinary, words).map((ordinary, i) => ordinary | idiom[i]!)

  // Profane words: our lists first, then obscenity for what they missed.
  const hits: Array<Listed | undefined> = Array.from({ length: n }, () => undefined)
  const continues = new Uint8Array(n)
  for (let i = 0; i < n;) {
    if (safe[i] === 1) { i++; continue }
    const word = words[i] as string
    const found = model.profane.at(words, i)
    if (found) {
      hits.fill(found.values[0], i, i + found.length)
      continues.fill(1, i + 1, i + found.length)
      i += found.length
      continue
    }
    const plain = unleet(word)
    hits[i] = (plain === undefined ? undefined : model.profane.word(plain)?.[0]) ?? (word.includes('*') ? model.masked.get(word) : undefined)
    i++
  }
  for (const match of loaded.obscenity.matches(text)) {
    const i = tokenAt(tokens, match.start)
    const token = tokens[i]
    if (!token || safe[i] === 1 || hits[i] !== undefined) continue
    const wholeWord = match.start <= token.start && ENGLISH_ENDINGS.has(text.slice(match.end, token.end).toLowerCase())
    // in English, a capitalised word that only starts like a swear word mid-sentence is a name (Dickerson, Fukuoka)
    if (isEnglish ? !wholeWord && token.capital && !token.sentenceStart && match.start <= token.start : !wholeWord) continue
    hits[i] = match.listed
  }

  // Phrase rules, with the flagged words as the targets of insults. A listed word written as a name is none, unless
  // a rule takes it for an insult's target ("Du Fick Idiot!").
  const flagged = (): boolean[] => hits.map((hit, i) => hit !== undefined && hit.cls !== 'mild' && hit.cls !== 'sexualMild' && !model.intensifiers.has(words[i] as string))
  const ruleText = { words, sentenceStart: tokens.map(t => t.sentenceStart), flagged: flagged() }
  let ruleHits = model.rules.matches(ruleText)
  // a language's small words: a capitalised one opens a sentence rather than a name ("Du", "Il")
  const small = functionWords(loaded.models.has(base) ? base : 'en')
  const named = hits.map((hit, i) => hit !== undefined && isName(tokens, i, model, small))
  if (named.includes(true)) {
    const targets = new Set(ruleHits.filter(hit => hit.value === 'insult').map(hit => hit.end - 1))
    for (let i = 0; i < n; i++) if (named[i] === true && !targets.has(i)) hits[i] = undefined
    ruleHits = model.rules.matches({ ...ruleText, flagged: flagged() })
  }

  for (let i = 0; i < n; i++) {
    const hit = hits[i]
    // a phrase counts once, on its first word
    if (hit === undefined || continues[i] === 1) continue
    evidence.add(wordEffects(hit.cls, hit.rating))
  }
  for (const run of spelled) {
    const found = model.profane.word(run)?.[0] ?? loaded.obscenity.matches(run)[0]?.listed
    if (found) evidence.add(wordEffects(found.cls, found.rating))
  }
  // a rule ending in an idiom is none ("estás muerto de miedo" is no "estás muerto")
  for (const hit of distinct(ruleHits)) if (idiom[hit.end - 1] !== 1) evidence.add(RULE_EFFECTS[hit.value])

  for (let i = 0; i < n;) {
    if (idiom[i] === 1) { i++; continue }
    const found = model.topics.at(words, i)
    if (found) {
      for (const effects of found.values) evidence.add(effects)
      i += found.length
    } else i++
  }
  return evidence.confidences()
}

/** 1 on the words that an entry of `index` covers, longest first from the left. */
function coveredBy (index: WordIndex<true>, words: readonly string[]): Uint8Array {
  const covered = new Uint8Array(words.length)
  for (let i = 0; i < words.length;) {
    const found = index.at(words, i)
    if (found) {
      covered.fill(1, i, i + found.length)
      i += found.length
    } else i++
  }
  return covered
}

// only spaces, apostrophes and hyphens join the words of an idiom ("you're dead, right?" holds no "dead right")
const JOINING = /^[ \t\u00a0'’-]*$/
/**
 * How far an idiom's excluded words reach, across punctuation: a word or a comma between them
 * does not make a threat idiomatic ("find your dog and I will kill it", "es la bomba, en tu coche").
 */
const NOT_BEFORE_REACH = 3
const NOT_AFTER_REACH = 2

/** 1 on the words of the idioms written in `text`, each joined up and with none of the words it excludes near it. */
function idiomsIn (index: WordIndex<Idiom>, tokens: readonly Token[], text: string): Uint8Array {
  const words = tokens.map(t => t.word)
  const joined = (k: number): boolean => k > 0 && k < tokens.length && JOINING.test(text.slice((tokens[k - 1] as Token).end, (tokens[k] as Token).start))
  const near = (set: Idiom['notBefore'], from: number, to: number): boolean => words.slice(Math.max(0, from), to).some(word => inSet(set, word))
  const covered = new Uint8Array(words.length)
  for (let i = 0; i < words.length;) {
    const found = index.at(words, i)
    const end = i + (found?.length ?? 0)
    let whole = found !== undefined
    for (let k = i + 1; whole && k < end; k++) whole = joined(k)
    const fits = (idiom: Idiom): boolean => !near(idiom.notBefore, i - NOT_BEFORE_REACH, i) && !near(idiom.notAfter, end, end + NOT_AFTER_REACH)
    if (found && whole && found.values.some(fits)) {
      covered.fill(1, i, end)
      i = end
    } else i++
  }
  return covered
}

/** The token holding UTF-16 offset `at`, or the next one when `at` falls between tokens. */
function tokenAt (tokens: readonly Token[], at: number): number {
  let lo = 0
  let hi = tokens.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((tokens[mid] as Token).end <= at) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Titles before a surname: "Mr. Cumming" is a name whatever the sentence segmenter makes of the full stop. */
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mister', 'dr', 'prof', 'sir', 'lady', 'lord', 'herr', 'frau', 'monsieur', 'madame', 'señor', 'señora'])

/**
 * Whether token i, a profane word that the language's names or places list holds, is written as a name there (see
 * LanguageData): never in capitals throughout ("FICK DICH"), nor at a sentence's start beside a word that only its
 * capital makes a name ("Fick Deine Mutter" in German).
 */
function isName (tokens: readonly Token[], i: number, model: LanguageModel, small: ReadonlySet<string>): boolean {
  const token = tokens[i] as Token
  if (!token.capital || token.shouted || !(inSet(model.names, token.word) || inSet(model.places, token.word))) return false
  const previous = tokens[i - 1]
  const next = tokens[i + 1]
  const nameLike = (t: Token | undefined): boolean => t !== undefined && t.capital && !t.shouted && !small.has(t.word)
  if (previous !== undefined && previous.capital && TITLES.has(previous.word)) return true
  if (nameLike(next) && next?.sentenceStart === false && (!token.sentenceStart || !model.capitalisedNouns)) return true
  if (token.sentenceStart || previous === undefined) return false
  return nameLike(previous) || model.nameParticles.has(previous.word) ||
    (inSet(model.places, token.word) && !small.has(previous.word))
}

/** Rule hits without a second hit of the same kind overlapping an earlier one. */
function distinct (hits: ReadonlyArray<RuleHit<RuleKind>>): Array<RuleHit<RuleKind>> {
  const lastEnd = new Map<RuleKind, number>()
  const out: Array<RuleHit<RuleKind>> = []
  for (const hit of hits) {
    if ((lastEnd.get(hit.value) ?? -1) > hit.start) continue
    lastEnd.set(hit.value, hit.end)
    out.push(hit)
  }
  return out
}
