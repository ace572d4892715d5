/**
 * The learned part of the detector: how each voter answers for each true language (counts from
 * the dev split of bench/detect-accuracy), word weights for the pairs the voters confuse, and the
 * calibration temperature. bench/detect-accuracy/train.ts writes model.json; this file reads it.
 */

/** model.json as written by bench/detect-accuracy/train.ts. */
export interface ModelData {
  /** Upper code-point length of each length bucket but the last ("short <= 30, medium <= 100, long"). */
  bucketLimits: number[]
  voters: string[]
  /** counts[bucket][voter][trueLanguage][answer]; the answer "" means the voter had none. */
  counts: Array<Record<string, Record<string, Record<string, number>>>>
  /** Per bucket and voter: how often a voter names the right language when it knows it (for languages without counts). */
  reliability: Array<Record<string, number>>
  /** Weight of the counts against the generic reliability model. */
  smoothing: number
  /** Least probability of any answer for any language: voters' rare slips must not veto a language. */
  floor: number
  /** Log prior of languages that have no counts. */
  unseenLogPrior: number
  /** Log prior of languages with counts, when not 0 (the long tail, less likely in requests). */
  logPriors: Record<string, number>
  /**
   * How widely each language is spoken: log(speakers / speakers of the most spoken one), from
   * CLDR's territory data (bench/detect-accuracy/usage.ts). Languages it lacks count as its least spoken.
   */
  usage?: Record<string, number>
  /**
   * The weight of `usage` in the prior for a text of 1, 2, ... words (the last for that many or
   * more; absent: 0): on the little evidence of a word or two a rare language must not win over a big one.
   */
  usageWeight?: number[]
  /** Softmax temperature per bucket that turns scores into calibrated confidences. */
  temperature: number[]
  /** Word evidence for languages the voters confuse with each other. */
  groups: WordGroup[]
  /** Word and letter-trigram evidence for every language with text in the dev split (absent: none). */
  lexicon?: Lexicon | undefined
}

/**
 * A sparse naive-Bayes model of words and letter trigrams over every language learned: what a
 * word or two tells when the voters, made for sentences, disagree ("Hello world", "Thank you").
 */
export interface Lexicon {
  languages: string[]
  /** Per language: log P(a word seen in no sample of it), the same for every such word. */
  backoff: number[]
  /** The same for trigrams. */
  trigramBackoff: number[]
  /** word -> [language index, log P(word | language), ...] for the languages it was seen in. */
  words: Record<string, number[]>
  /** trigram of a space-padded word -> the same. */
  trigrams: Record<string, number[]>
  /** Weight of the words per length bucket. */
  weight: number[]
  /** Weight of the trigrams per length bucket. */
  trigramWeight: number[]
}

export interface WordGroup {
  languages: string[]
  weight: number
  /** word -> log-likelihood per language of the group (centred), in `languages` order. */
  words: Record<string, number[]>
  /** Weight of the letter trigrams (they generalize to words never seen, e.g. "ije" against "e"). */
  trigramWeight: number
  /** trigram of a space-padded word -> centred log-likelihood per language. */
  trigrams: Record<string, number[]>
}

/** The length bucket of a text of `codePoints` code points. */
export function bucketIndex (limits: readonly number[], codePoints: number): number {
  for (let i = 0; i < limits.length; i++) if (codePoints <= limits[i]!) return i
  return limits.length
}

/**
 * log P(answer | language) tables over a fixed list of languages, built lazily per
 * (bucket, voter, answer) so a detection is a few array additions.
 */
export class Likelihoods {
  readonly languages: readonly string[]
  private readonly index = new Map<string, number>()
  private readonly tables = new Map<string, Float64Array>()

  constructor (private readonly data: ModelData, languages: readonly string[],
    private readonly voterAnswers: ReadonlyMap<string, ReadonlySet<string>>) {
    this.languages = languages
    languages.forEach((l, i) => this.index.set(l, i))
  }

  /** log P(voter answers `answer` | language) for every language, in `languages` order. */
  table (bucket: number, voter: string, answer: string): Float64Array {
    const key = `${bucket}\u0000${voter}\u0000${answer}`
    let table = this.tables.get(key)
    if (table === undefined) {
      table = this.build(bucket, voter, answer)
      this.tables.set(key, table)
    }
    return table
  }

  private build (bucket: number, voter: string, answer: string): Float64Array {
    const known = this.voterAnswers.get(voter) ?? new Set<string>()
    // answers the voter can give, plus "none"
    const k = known.size + 1
    const r = this.data.reliability[bucket]?.[voter] ?? 0.5
    const counts = this.data.counts[bucket]?.[voter] ?? {}
    const alpha = this.data.smoothing
    const table = new Float64Array(this.languages.length)
    for (let i = 0; i < this.languages.length; i++) {
      const language = this.languages[i]!
      // generic model: a voter that knows a language names it with probability r, else anything
      const generic = known.has(language) ? (answer === language ? r : (1 - r) / k) : 1 / k
      const seen = counts[language]
      let p = generic
      if (seen !== undefined) {
        let n = 0
        for (const a in seen) n += seen[a]!
        p = ((seen[answer] ?? 0) + alpha * generic) / (n + alpha)
      }
      table[i] = Math.log(Math.max(p, this.data.floor))
    }
    return table
  }
}
