/**
 * English: our rule engine over VADER's and AFINN's lexicons, beside wink-nlp's sentiment of the same sentence,
 * combined with weights fitted on the dev set (bench/sentiment/fit.ts).
 */
import type { WinkMethods } from 'wink-nlp'
import { englishWink } from '../wink.js'
import { analyseSentence, CompiledRules } from './engine.js'
import type { SentenceEvidence, WordLexicon } from './engine.js'
import { ENGLISH_SUPPLEMENT } from './english-lexicon.js'
import { afinnLexicon, emojiLexicon, listLexicon, vaderLexicon } from './lexicons.js'
import { RULES } from './rules.js'
import type { Sentence, Token } from './tokens.js'

const CONTRAST = new Set(RULES.en!.contrast)

/** The features of one English sentence, in the order of ENGLISH_WEIGHTS. */
export interface EnglishFeatures {
  vader: number
  afinn: number
  own: number
  wink: number
  fixed: number
  bareNegations: number
  hits: number
  exclamations: number
}

/** Weights of the features in a sentence's raw valence (VADER's scale); fitted by bench/sentiment/fit.ts. */
export const ENGLISH_WEIGHTS: Readonly<Omit<EnglishFeatures, 'hits' | 'exclamations'>> = {
  vader: 1,
  afinn: 0.24,
  own: 2.12,
  wink: 3.04,
  // emoji, emoticons and idioms are rated on the scale of our own list (the dev set has next to no emoji)
  fixed: 2.12,
  // fitted: -3.1; at -2 the dev accuracy is the same within 0.1 point, and a lone "don't" is less extreme
  bareNegations: -2
}

/** Longest token, and most tokens at once, given to wink-nlp. */
const WINK_TOKEN = 40
const WINK_CHUNK = 120

export class EnglishAnalyser {
  private readonly rules = new CompiledRules(RULES.en!, 'en')
  private readonly lexicons: WordLexicon[]
  private readonly emoji: Map<string, number>
  private readonly wink: WinkMethods

  private constructor (wink: WinkMethods) {
    this.lexicons = [vaderLexicon(), afinnLexicon(), listLexicon(ENGLISH_SUPPLEMENT)]
    this.emoji = emojiLexicon()
    this.wink = wink
  }

  /** Loads the lexicons and wink-nlp's model (shared with the entities: ../wink.ts). */
  static async load (): Promise<EnglishAnalyser> {
    return new EnglishAnalyser(await englishWink())
  }

  /** The engine's evidence and wink-nlp's score for one sentence of a text. */
  features (text: string, sentence: Sentence): EnglishFeatures {
    const evidence: SentenceEvidence = analyseSentence(sentence.tokens, this.rules, this.lexicons, this.emoji, false)
    const wink = this.winkScore(sentence, evidence.subjectNegations)
    return {
      vader: evidence.sums[0]!,
      afinn: evidence.sums[1]!,
      own: evidence.sums[2]!,
      wink,
      fixed: evidence.fixed,
      bareNegations: evidence.bareNegations,
      hits: evidence.hits,
      exclamations: evidence.exclamations
    }
  }

  /**
   * wink-nlp's sentiment of a sentence, read from our tokens: its tokenizer is quadratic on long runs without spaces
   * ("-----", "a'a'a'"), so it gets short tokens only, repeated punctuation once, and long sentences in chunks.
   */
  private winkScore (sentence: Sentence, subjectNegations: readonly number[]): number {
    // wink-nlp reads "none" as a negator but not "nothing" or "nobody": it gets "none" for the subjects the rules read as negators
    const subjects = new Set(subjectNegations)
    const tokens = subjects.size === 0
      ? sentence.tokens
      : sentence.tokens.map((token, i) => subjects.has(i) && token.lower !== 'none' ? { ...token, text: 'none', lower: 'none' } : token)
    // wink-nlp knows no contrast: score the parts around the last "but" apart, weighted as the engine weighs them
    let cut = -1
    tokens.forEach((token, i) => { if (i > 0 && CONTRAST.has(token.lower)) cut = i })
    if (cut > 0) return 0.5 * this.winkTokens(tokens.slice(0, cut)) + 1.5 * this.winkTokens(tokens.slice(cut + 1))
    return this.winkTokens(tokens)
  }

  /** wink-nlp's sentiment of a run of tokens (0 for none). */
  private winkTokens (tokens: readonly Token[]): number {
    let sum = 0
    let chunks = 0
    let parts: string[] = []
    let previous = ''
    const flush = (): void => {
      if (parts.length === 0) return
      const score = this.wink.readDoc(parts.join(' ')).out(this.wink.its.sentiment) as unknown as number
      if (score !== 0) {
        sum += score
        chunks += 1
      }
      parts = []
    }
    for (const token of tokens) {
      if (token.text.length > WINK_TOKEN || ((token.kind === 'pause' || token.kind === 'end') && token.text === previous)) continue
      parts.push(token.text)
      previous = token.text
      if (parts.length >= WINK_CHUNK) flush()
    }
    flush()
    return chunks === 0 ? 0 : sum / chunks
  }

  /** A sentence's raw valence (the weighted features) and its exclamation marks. */
  raw (text: string, sentence: Sentence): { raw: number, exclamations: number } {
    const e = analyseSentence(sentence.tokens, this.rules, this.lexicons, this.emoji, false)
    const w = ENGLISH_WEIGHTS
    let raw = w.vader * e.sums[0]! + w.afinn * e.sums[1]! + w.own * e.sums[2]! + w.fixed * e.fixed + w.bareNegations * e.bareNegations
    // wink-nlp's score is within [-2, 2] (contrast-weighted parts in [-1, 1]): past that bound it cannot turn the sign,
    // so it is read only where the rules are unsure, which saves most of its cost
    if (Math.abs(raw) < 2 * w.wink) raw += w.wink * this.winkScore(sentence, e.subjectNegations)
    return { raw, exclamations: e.exclamations }
  }
}
