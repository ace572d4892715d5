/**
 * Offline sentiment: per-sentence scores in [-1, 1], a document score, magnitude and label, for English (rule engine
 * over VADER, AFINN and our lists, beside wink-nlp) and French, German, Spanish, Italian, Portuguese and Dutch
 * (rule engine over our core lists and nlp.js's lexicons). Load once with loadSentiment(); scoring is synchronous.
 */
import { OFFLINE_LANGUAGES } from '../languages.js'
import type { SentenceSentiment, SentimentLabel, SentimentScore } from '../../../core/analysis/results.js'
import type { EnglishAnalyser } from './english.js'
import type { NativeAnalyser } from './native.js'
import { sentencesOf, tokenize } from './tokens.js'

export const SENTIMENT_LANGUAGES: readonly string[] = OFFLINE_LANGUAGES.sentiment

/** Asked for a language the analyser does not cover. */
export class UnsupportedSentimentLanguageError extends Error {
  readonly language: string
  constructor (language: string) {
    super(`sentiment analysis does not support language "${language}" (supported: ${SENTIMENT_LANGUAGES.join(', ')})`)
    this.name = 'UnsupportedSentimentLanguageError'
    this.language = language
  }
}

/** Asked to score before loadSentiment() resolved. */
export class SentimentNotLoadedError extends Error {
  constructor (language: string) {
    super(`sentiment analysis for "${language}" is not loaded yet (await loadSentiment())`)
    this.name = 'SentimentNotLoadedError'
  }
}

/** VADER's normalisation constant: raw valence r becomes r / sqrt(r² + ALPHA). */
const ALPHA = 15
/** Each exclamation mark (up to three) adds to a sentence's intensity (VADER: 0.292 on its raw scale). */
const EXCLAMATION = 0.1
/** Below this absolute score, a text is labelled neutral (its score keeps its sign). */
const NEUTRAL_BAND = 0.05
/** A sentence at least this strong on each side makes a text mixed. */
const STRONG = 0.25

type Analyser = Pick<EnglishAnalyser, 'raw'> | Pick<NativeAnalyser, 'raw'>

const analysers = new Map<string, Analyser>()
let loading: Promise<void> | undefined

/** Loads every language's lexicons and wink-nlp's model, once; later calls return the same promise. */
export function loadSentiment (): Promise<void> {
  loading ??= (async () => {
    const [{ EnglishAnalyser }, { NativeAnalyser }] = await Promise.all([import('./english.js'), import('./native.js')])
    analysers.set('en', await EnglishAnalyser.load())
    for (const language of SENTIMENT_LANGUAGES) if (language !== 'en') analysers.set(language, new NativeAnalyser(language))
  })()
  loading.catch(() => { loading = undefined })
  return loading
}

/** The base language subtag of a BCP 47 tag, lower case ("pt-BR" -> "pt"). */
function baseLanguage (tag: string): string {
  const dash = tag.search(/[-_]/)
  return (dash === -1 ? tag : tag.slice(0, dash)).toLowerCase()
}

/** A score rounded to 4 decimals that stays off 0 when there was evidence. */
function rounded (score: number): number {
  if (score === 0) return 0
  const r = Math.round(score * 10_000) / 10_000
  return r === 0 ? Math.sign(score) * 0.0001 : r
}

/** The sentiment of a text in a supported language; throws UnsupportedSentimentLanguageError or SentimentNotLoadedError. */
export function scoreSentiment (text: string, language: string): SentimentScore {
  const base = baseLanguage(language)
  if (!SENTIMENT_LANGUAGES.includes(base)) throw new UnsupportedSentimentLanguageError(language)
  const analyser = analysers.get(base)
  if (analyser === undefined) throw new SentimentNotLoadedError(base)
  const sentences: SentenceSentiment[] = []
  let weighted = 0
  let magnitude = 0
  let strongPositive = false
  let strongNegative = false
  for (const sentence of sentencesOf(tokenize(text))) {
    const { raw, exclamations } = analyser.raw(text, sentence)
    const r = raw * (1 + EXCLAMATION * exclamations)
    const score = rounded(r / Math.sqrt(r * r + ALPHA))
    sentences.push({ offset: sentence.start, length: sentence.end - sentence.start, score })
    weighted += score * Math.abs(score)
    magnitude += Math.abs(score)
    if (score >= STRONG) strongPositive = true
    if (score <= -STRONG) strongNegative = true
  }
  // strong sentences weigh more than weak ones, and sentences with no evidence do not dilute the rest
  const score = magnitude === 0 ? 0 : rounded(weighted / magnitude)
  let sentiment: SentimentLabel = 'neutral'
  if (strongPositive && strongNegative) sentiment = 'mixed'
  else if (score >= NEUTRAL_BAND) sentiment = 'positive'
  else if (score <= -NEUTRAL_BAND) sentiment = 'negative'
  return { score, magnitude: Math.round(magnitude * 10_000) / 10_000, sentiment, sentences }
}
