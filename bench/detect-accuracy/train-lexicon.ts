/**
 * Learns the detector's lexicon (words and letter trigrams over every language, see
 * src/providers/detector/model.ts) on top of the shipped model: its counts, priors, word groups
 * and the long texts' temperature are kept; the lexicon's weights and the temperature of the
 * buckets it weighs in are tuned. DEV split only: the Debian pool and the CLDR strings of the
 * short-text corpus; "fit" (80%) learns the lexicon, "tune" (20%) picks weights, as train.ts.
 * The lexicon goes to lexicon.bin in its compact form (src/providers/detector/lexicon.ts), the
 * tuned temperatures to model.json.
 *
 *   npx tsx bench/detect-accuracy/train-lexicon.ts [--out src/providers/detector/model.json] [--lexicon-out src/providers/detector/lexicon.bin]
 *   npx tsx bench/detect-accuracy/train-lexicon.ts --out FILE --lexicon-out ''   (one JSON file with the lexicon in it, for run.ts --model)
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createEnsemble } from '../../src/providers/detector/ensemble.js'
import { encodeLexicon } from '../../src/providers/detector/lexicon.js'
import { bucketIndex, type Lexicon, type ModelData } from '../../src/providers/detector/model.js'
import type { Voter } from '../../src/providers/detector/voter.js'
import { loadVoters } from '../../src/providers/detector/voters/index.js'
import { forEachTrigram, forEachWord } from '../../src/providers/detector/words.js'
import { CORE_LANGUAGES, CORE_SHARE, DEFAULT_POOL, DEFAULT_SHORT_CORPUS, readCorpus, type Sample, weightedAccuracy } from './corpus.js'
import { usageTable } from './usage.js'

const MODEL = fileURLToPath(new URL('../../src/providers/detector/model.json', import.meta.url))
const LEXICON = fileURLToPath(new URL('../../src/providers/detector/lexicon.bin', import.meta.url))
const { values: args } = parseArgs({
  options: {
    pool: { type: 'string', default: DEFAULT_POOL },
    short: { type: 'string', default: DEFAULT_SHORT_CORPUS },
    model: { type: 'string', default: MODEL },
    out: { type: 'string', default: MODEL },
    'lexicon-out': { type: 'string', default: LEXICON }
  }
})
/** Features kept per language (the most frequent; fewer for the long tail) and how often one must be seen. */
const WORDS = { core: 6000, tail: 1500 }
const TRIGRAMS = { core: 2000, tail: 800 }
const MIN_COUNT = 2
/** Buckets the lexicon weighs in: up to 100 characters (past it the voters read the language well). */
const LEXICON_BUCKETS = 2
const TUNE_PER_CELL = 150
/** CLDR's lists of names (languages, territories, scripts, currencies): proper nouns, not texts. */
const NAMES = /^cldr-(language|region|script|currency)$/
/** Texts of up to this many words get the usage prior (tuned per count). */
const USAGE_WORDS = 3

const base = JSON.parse(readFileSync(args.model, 'utf8')) as ModelData
delete base.lexicon
const isTune = (text: string): boolean => (createHash('sha256').update('tune\0').update(text).digest()[0] ?? 0) < 51
const cldr = existsSync(args.short) ? readCorpus(args.short, 'dev').filter(s => s.source.startsWith('cldr-')) : []
const pool = [...readCorpus(args.pool, 'dev'), ...cldr]
const bucketOf = (text: string): number => bucketIndex(base.bucketLimits, [...text].length)
const fit = pool.filter(s => !isTune(s.text))
const taken = new Map<string, number>()
const tune = pool.filter(s => isTune(s.text) && bucketOf(s.text) < LEXICON_BUCKETS).filter(s => {
  const key = `${s.lang}\0${bucketOf(s.text)}`
  taken.set(key, (taken.get(key) ?? 0) + 1)
  return taken.get(key)! <= TUNE_PER_CELL
})
console.log(`fit ${fit.length}, tune ${tune.length} (buckets under ${LEXICON_BUCKETS})`)

function features (text: string): { words: Set<string>, trigrams: Set<string> } {
  const words = new Set<string>()
  const trigrams = new Set<string>()
  forEachWord(text, w => { words.add(w); forEachTrigram(w, t => trigrams.add(t)) })
  return { words, trigrams }
}

function round (x: number): number {
  return Math.round(x * 1000) / 1000
}

/** Naive-Bayes log probabilities per language of features (each counted once per sample), sparse and pruned. */
function lexiconOf (samples: Sample[]): Lexicon {
  const languages = [...new Set(samples.map(s => s.lang))].sort()
  const at = new Map(languages.map((l, j) => [l, j]))
  const seen = languages.map(() => ({ words: new Map<string, number>(), trigrams: new Map<string, number>() }))
  for (const s of samples) {
    const mine = seen[at.get(s.lang)!]!
    const { words, trigrams } = features(s.text)
    for (const w of words) mine.words.set(w, (mine.words.get(w) ?? 0) + 1)
    for (const t of trigrams) mine.trigrams.set(t, (mine.trigrams.get(t) ?? 0) + 1)
  }
  const alpha = 0.5
  const size = {
    words: new Set(seen.flatMap(m => [...m.words.keys()])).size,
    trigrams: new Set(seen.flatMap(m => [...m.trigrams.keys()])).size
  }
  const lexicon: Lexicon = { languages, backoff: [], trigramBackoff: [], words: {}, trigrams: {}, weight: [], trigramWeight: [] }
  const keep = (counts: Map<string, number>, max: number, vocabulary: number, into: Record<string, number[]>, j: number): number => {
    let total = 0
    for (const c of counts.values()) total += c
    const denominator = total + alpha * vocabulary
    const kept = [...counts].filter(([, c]) => c >= MIN_COUNT).sort((a, b) => b[1] - a[1]).slice(0, max)
    for (const [f, c] of kept) (into[f] ??= []).push(j, Math.round(10 * Math.log((c + alpha) / denominator)) / 10)
    return round(Math.log(alpha / denominator))
  }
  seen.forEach((mine, j) => {
    const kind = CORE_LANGUAGES.has(languages[j]!) ? 'core' : 'tail'
    lexicon.backoff.push(keep(mine.words, WORDS[kind], size.words, lexicon.words, j))
    lexicon.trigramBackoff.push(keep(mine.trigrams, TRIGRAMS[kind], size.trigrams, lexicon.trigrams, j))
  })
  return lexicon
}

const shortTexts = existsSync(args.short)
  ? readCorpus(args.short, 'dev').filter(s => s.bucket === 'short' && !NAMES.test(s.source) && isTune(s.text))
  : []
const voters = await loadVoters()
const answers = new Map([...tune, ...shortTexts].map(s => [s.text, voters.map(v => v.top(s.text) ?? '')]))
let current = ''
const replay: Voter[] = voters.map((v, i) => ({ name: v.name, answers: v.answers, top: () => answers.get(current)?.[i] || undefined }))

/** Accuracy on tune samples, core and long tail weighted by CORE_SHARE. */
function accuracy (model: ModelData, samples: Sample[]): number {
  return weightedAccuracy(createEnsemble(replay, model).detect, samples, text => { current = text })
}

const lexicon = lexiconOf(fit)
const buckets = base.bucketLimits.length + 1
lexicon.weight = Array(buckets).fill(0)
lexicon.trigramWeight = Array(buckets).fill(0)
console.log(`lexicon: ${lexicon.languages.length} languages, ${Object.keys(lexicon.words).length} words, ${Object.keys(lexicon.trigrams).length} trigrams`)
const model: ModelData = { ...base, temperature: [...base.temperature], lexicon }
model.usage = usageTable(createEnsemble(voters, model).languages)
// languages without Debian text (train.ts could not learn their prior) do have CLDR strings here
{
  let best = { prior: model.unseenLogPrior, score: -1 }
  const texts = tune.filter(s => !NAMES.test(s.source))
  for (const prior of [-2, -3, -4, -5]) {
    const score = accuracy({ ...model, unseenLogPrior: prior }, texts)
    if (score > best.score) best = { prior, score }
  }
  model.unseenLogPrior = best.prior
  console.log(`log prior of languages without counts: ${best.prior} (${(100 * best.score).toFixed(2)}%, lexicon off)`)
}
for (let b = 0; b < LEXICON_BUCKETS; b++) {
  const inBucket = tune.filter(s => bucketOf(s.text) === b)
  const without = accuracy(model, inBucket)
  let best = { weight: 0, trigram: 0, score: without }
  for (const weight of [0, 0.25, 0.5, 0.75, 1, 1.5, 2]) {
    for (const trigram of [0, 0.1, 0.25, 0.5]) {
      if (weight === 0 && trigram === 0) continue
      lexicon.weight[b] = weight
      lexicon.trigramWeight[b] = trigram
      const score = accuracy(model, inBucket)
      if (score > best.score) best = { weight, trigram, score }
    }
  }
  lexicon.weight[b] = best.weight
  lexicon.trigramWeight[b] = best.trigram
  if (b === 0) tuneUsage()
  // the temperature that gives the right answer its most likely confidence, weighted as the accuracy
  let bestT = { t: model.temperature[b]!, nll: Infinity }
  const share = { core: inBucket.filter(s => CORE_LANGUAGES.has(s.lang)).length, tail: inBucket.filter(s => !CORE_LANGUAGES.has(s.lang)).length }
  for (let t = 0.5; t <= 6; t += 0.25) {
    const { detect } = createEnsemble(replay, { ...model, temperature: model.temperature.map((x, i) => i === b ? t : x) })
    let nll = 0
    for (const s of inBucket) {
      current = s.text
      const p = detect(s.text).find(c => c.language === s.lang)?.confidence ?? 1e-4
      nll -= (CORE_LANGUAGES.has(s.lang) ? CORE_SHARE / share.core : (1 - CORE_SHARE) / share.tail) * Math.log(Math.max(p, 1e-4))
    }
    if (nll < bestT.nll) bestT = { t, nll }
  }
  model.temperature[b] = bestT.t
  console.log(`bucket ${b}: without the lexicon ${(100 * without).toFixed(2)}%, words ${best.weight}, trigrams ${best.trigram} -> ${(100 * best.score).toFixed(2)}%, ` +
    `temperature ${bestT.t}`)
}

if (args['lexicon-out'] === '') {
  writeFileSync(args.out, JSON.stringify(model) + '\n')
} else {
  writeFileSync(args['lexicon-out'], encodeLexicon(lexicon))
  writeFileSync(args.out, JSON.stringify({ ...model, lexicon: undefined }) + '\n')
  console.log(`wrote ${args['lexicon-out']}`)
}
console.log(`wrote ${args.out}`)

/**
 * How much how widely a language is spoken weighs in for texts of 1 to USAGE_WORDS words, tuned on
 * the short texts of the short-text corpus's tune part (the traffic it stands for: chat lines, UI
 * strings; Debian's pool has few of them, CLDR's name lists are proper nouns, not texts).
 */
function tuneUsage (): void {
  const texts = shortTexts
  let best = { weight: 0, score: -1 }
  const scores: string[] = []
  for (const weight of [0, 0.25, 0.5, 0.75, 1, 1.5]) {
    model.usageWeight = Array(USAGE_WORDS).fill(weight)
    const score = accuracy(model, texts)
    scores.push(`${weight}: ${(100 * score).toFixed(2)}%`)
    if (score > best.score) best = { weight, score }
  }
  model.usageWeight = [...Array(USAGE_WORDS).fill(best.weight), 0]
  console.log(`1-${USAGE_WORDS} words (${texts.length} short texts): usage weight ${best.weight} (${scores.join(', ')})`)
}
