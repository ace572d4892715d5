/**
 * Learns the detector's tie-breaker of near-identical languages (groups.bin): per group
 * (hr/bs/sr-Latn/sl, id/ms, da/nb/nn/sv, gl/es/pt/ca, cs/sk, ru/bg/uk/be/mk/sr, tr/az, fi/et), a
 * multinomial logistic regression over the words of a text, the letter 1-4-grams of its
 * space-padded words and the three voters' answers, each text's features scaled to unit length,
 * its languages weighed equally. The ensemble adds its log probabilities to those of the group's
 * members that are close to the best (src/providers/detector/ensemble.ts). DEV split only, as
 * train-lexicon.ts: "fit" (80%) learns the regressions, "tune" (20%) picks their weight per bucket.
 * Run after train.ts and train-lexicon.ts (it tunes on top of the shipped model and lexicon).
 *
 *   npx tsx bench/detect-accuracy/train-groups.ts [--out src/providers/detector/groups.bin]
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createEnsemble, TIE_BIAS, TIE_GRAMS, TIE_VOTER } from '../../src/providers/detector/ensemble.js'
import { decodeLexicon, encodeLexicon, type LexiconTable } from '../../src/providers/detector/lexicon.js'
import { bucketIndex, type Lexicon, type ModelData } from '../../src/providers/detector/model.js'
import type { Voter } from '../../src/providers/detector/voter.js'
import { loadVoters } from '../../src/providers/detector/voters/index.js'
import { forEachWord } from '../../src/providers/detector/words.js'
import { CORE_LANGUAGES, DEFAULT_POOL, DEFAULT_SHORT_CORPUS, readCorpus, type Sample } from './corpus.js'

const DETECTOR = new URL('../../src/providers/detector/', import.meta.url)
const { values: args } = parseArgs({
  options: {
    pool: { type: 'string', default: DEFAULT_POOL },
    short: { type: 'string', default: DEFAULT_SHORT_CORPUS },
    out: { type: 'string', default: fileURLToPath(new URL('groups.bin', DETECTOR)) }
  }
})
const GROUPS = [['hr', 'bs', 'sr-Latn', 'sl'], ['id', 'ms'], ['da', 'nb', 'nn', 'sv'], ['gl', 'es', 'pt', 'ca', 'ast', 'an'], ['cs', 'sk'],
  ['ru', 'bg', 'uk', 'be', 'mk', 'sr'], ['tr', 'az'], ['fi', 'et']]
/** AdaGrad: epochs, step, L2 penalty; features seen in fewer texts are left out. */
const EPOCHS = 6
const STEP = 0.3
const L2 = 1e-5
const MIN_TEXTS = 2
/** Stored as uint8 around 128 in steps of 1/20; smaller weights are dropped. */
const QUANTIZATION = { zero: 128, scale: 20 }
const TUNE_PER_CELL = 150
const CORE_SHARE = 0.97
const NAMES = /^cldr-(language|region|script|currency)$/

const base = JSON.parse(readFileSync(fileURLToPath(new URL('model.json', DETECTOR)), 'utf8')) as ModelData
const lexicon = decodeLexicon(readFileSync(new URL('lexicon.bin', DETECTOR)))
const isTune = (text: string): boolean => (createHash('sha256').update('tune\0').update(text).digest()[0] ?? 0) < 51
const cldr = existsSync(args.short) ? readCorpus(args.short, 'dev').filter(s => s.source.startsWith('cldr-')) : []
const pool = [...readCorpus(args.pool, 'dev'), ...cldr]
const bucketOf = (text: string): number => bucketIndex(base.bucketLimits, [...text].length)
const fit = pool.filter(s => !isTune(s.text))
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

/** The features as ensemble.ts's breakTie reads them. */
function featuresOf (text: string): string[] {
  const out = new Set<string>([TIE_BIAS])
  voters.forEach((v, i) => out.add(`${TIE_VOTER}${v.name}=${answersOf(text)[i]!}`))
  let words = 0
  forEachWord(text, word => {
    if (++words > 64) return
    out.add(`w${word}`)
    const padded = ` ${word} `
    for (let n = 1; n <= TIE_GRAMS; n++) {
      for (let i = 0; i + n <= padded.length; i++) if (n > 1 || padded[i] !== ' ') out.add(`g${padded.slice(i, i + n)}`)
    }
  })
  return [...out]
}

/** A reproducible shuffle (the same groups.bin from the same corpus). */
function shuffle (order: number[], seed: number): void {
  let state = seed
  for (let i = order.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    const j = state % (i + 1)
    ;[order[i], order[j]] = [order[j]!, order[i]!]
  }
}

interface Regression { languages: string[], features: string[], weights: Float64Array }

function train (group: string[]): Regression | undefined {
  const languages = group.filter(l => fit.some(s => s.lang === l))
  if (languages.length < 2) return undefined
  const data = fit.filter(s => languages.includes(s.lang))
  const raw = data.map(s => featuresOf(s.text))
  const texts = new Map<string, number>()
  for (const x of raw) for (const f of x) texts.set(f, (texts.get(f) ?? 0) + 1)
  const features = [...texts].filter(([key, n]) => n >= MIN_TEXTS || key === TIE_BIAS).map(([key]) => key)
  const id = new Map(features.map((f, i) => [f, i]))
  const X = raw.map(x => Int32Array.from(x.filter(f => id.has(f)).map(f => id.get(f)!)))
  const y = data.map(s => languages.indexOf(s.lang))
  const perLanguage = languages.map(l => data.filter(s => s.lang === l).length)
  // each language weighs the same, whatever its share of the corpus
  const sampleWeight = y.map(k => data.length / languages.length / perLanguage[k]!)
  const K = languages.length
  const weights = new Float64Array(features.length * K)
  const squares = new Float64Array(features.length * K)
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
      for (const f of x) {
        for (let k = 0; k < K; k++) {
          const at = f * K + k
          const gradient = sampleWeight[i]! * (z[k]! / total - (k === y[i] ? 1 : 0)) * unit + L2 * weights[at]!
          squares[at] = squares[at]! + gradient * gradient
          weights[at] = weights[at]! - STEP * gradient / Math.sqrt(squares[at]! + 1e-8)
        }
      }
    }
  }
  console.log(`${languages.join('/')}: ${data.length} texts (${perLanguage.join(', ')}), ${features.length} features`)
  return { languages, features, weights }
}

const started = performance.now()
const regressions = GROUPS.map(train).filter(r => r !== undefined)
console.log(`trained in ${((performance.now() - started) / 1000).toFixed(0)} s`)

/** The regressions in the lexicon's compact form: features whose weights all round to 0 are dropped. */
function tieBreakerOf (weight: number[]): { lexicon: Lexicon, groups: string[][] } {
  const languages = regressions.flatMap(r => r.languages)
  const out: Lexicon = { languages, backoff: [], trigramBackoff: [], words: {}, trigrams: {}, weight, trigramWeight: [] }
  let offset = 0
  for (const r of regressions) {
    const K = r.languages.length
    r.features.forEach((feature, f) => {
      const entries: number[] = []
      for (let k = 0; k < K; k++) {
        const w = Math.max(-127, Math.min(127, Math.round(QUANTIZATION.scale * r.weights[f * K + k]!)))
        if (w !== 0) entries.push(offset + k, w / QUANTIZATION.scale)
      }
      if (entries.length === 0) return
      const into = feature.startsWith('g') ? out.trigrams : out.words
      const key = feature.startsWith('g') || feature.startsWith('w') ? feature.slice(1) : feature
      ;(into[key] ??= []).push(...entries)
    })
    offset += K
  }
  return { lexicon: out, groups: regressions.map(r => r.languages) }
}

let current = ''
const replay: Voter[] = voters.map((v, i) => ({ name: v.name, answers: v.answers, top: () => answersOf(current)[i] || undefined }))
function accuracy (table: LexiconTable | undefined, samples: Sample[]): number {
  const { detect } = createEnsemble(replay, base, lexicon, table)
  const right = { core: 0, tail: 0 }
  const all = { core: 0, tail: 0 }
  for (const s of samples) {
    current = s.text
    const kind = CORE_LANGUAGES.has(s.lang) ? 'core' : 'tail'
    all[kind]++
    if (detect(s.text)[0]?.language === s.lang) right[kind]++
  }
  return CORE_SHARE * right.core / Math.max(1, all.core) + (1 - CORE_SHARE) * right.tail / Math.max(1, all.tail)
}

const buckets = base.bucketLimits.length + 1
const weight = Array<number>(buckets).fill(0)
for (let b = 0; b < buckets; b++) {
  const inBucket = tune.filter(s => bucketOf(s.text) === b)
  const without = accuracy(undefined, inBucket)
  let best = { w: 0, score: without }
  const tried: string[] = []
  for (const w of [0.25, 0.5, 1, 1.5, 2, 3, 4]) {
    weight[b] = w
    const { lexicon: l, groups } = tieBreakerOf(weight)
    const score = accuracy(decodeLexicon(encodeLexicon(l, QUANTIZATION, groups)), inBucket)
    tried.push(`${w}: ${(100 * score).toFixed(2)}%`)
    if (score > best.score) best = { w, score }
  }
  weight[b] = best.w
  console.log(`bucket ${b} (${inBucket.length} tune texts): without ${(100 * without).toFixed(2)}%; ${tried.join(', ')} -> weight ${best.w}`)
}
const { lexicon: final, groups } = tieBreakerOf(weight)
const bytes = encodeLexicon(final, QUANTIZATION, groups)
writeFileSync(args.out, bytes)
console.log(`wrote ${args.out} (${(bytes.length / 1e6).toFixed(1)} MB, ${Object.keys(final.words).length} words and other keys, ${Object.keys(final.trigrams).length} n-grams)`)
