/**
 * Learns the detector's model (src/providers/detector/model.json) from the DEV split only:
 * how each voter answers for each true language per length bucket, word weights for the
 * language groups the voters confuse, and the calibration temperatures. The test split is
 * never read here; run.ts reports on it.
 *
 *   npx tsx bench/detect-accuracy/train.ts [--pool bench/corpus/dev-pool.jsonl]
 */
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createEnsemble } from '../../src/providers/detector/ensemble.js'
import { bucketIndex, type ModelData, type WordGroup } from '../../src/providers/detector/model.js'
import type { Voter } from '../../src/providers/detector/voter.js'
import { loadVoters } from '../../src/providers/detector/voters/index.js'
import { forEachTrigram, forEachWord } from '../../src/providers/detector/words.js'
import { CORE_LANGUAGES, CORE_SHARE, DEFAULT_POOL, readCorpus, type Sample, weightedAccuracy } from './corpus.js'

const MODEL = fileURLToPath(new URL('../../src/providers/detector/model.json', import.meta.url))
/** Languages the voters are known to confuse; word evidence decides inside each group. */
const GROUPS = [['hr', 'bs', 'sr-Latn', 'sl'], ['id', 'ms'], ['da', 'nb', 'nn', 'sv'], ['gl', 'es', 'pt', 'ca', 'ast', 'an'], ['cs', 'sk'], ['ru', 'bg', 'uk', 'be', 'mk', 'sr'], ['tr', 'az'], ['fi', 'et']]
const BUCKET_LIMITS = [30, 100]
const TUNE_PER_CELL = 150
/**
 * Expected share of requests in the core (widely used) languages: the long tail gets a lower prior
 * so that, say, Italian is not answered as Friulian. Only used to weigh the tuning objective.
 */

const { values: args } = parseArgs({ options: { pool: { type: 'string', default: DEFAULT_POOL }, out: { type: 'string', default: MODEL } } })

// the dev pool splits again: "fit" (80%) learns the counts, "tune" (20%) picks weights and temperatures
function isTune (text: string): boolean {
  return (createHash('sha256').update('tune\0').update(text).digest()[0] ?? 0) < 51
}

const pool = readCorpus(args.pool, 'dev')
const voters = await loadVoters()
console.log(`dev pool ${pool.length} samples; asking ${voters.map(v => v.name).join(', ')}`)
const answers = new Map<string, string[]>()
for (const s of pool) answers.set(s.text, voters.map(v => v.top(s.text) ?? ''))

const fit = pool.filter(s => !isTune(s.text))
const tune = balancedSubset(pool.filter(s => isTune(s.text)), TUNE_PER_CELL)
console.log(`fit ${fit.length}, tune ${tune.length}`)

function balancedSubset (samples: Sample[], perCell: number): Sample[] {
  const taken = new Map<string, number>()
  return samples.filter(s => {
    const key = `${s.lang}\0${s.bucket}`
    const n = taken.get(key) ?? 0
    taken.set(key, n + 1)
    return n < perCell
  })
}

function bucketOfText (text: string): number {
  return bucketIndex(BUCKET_LIMITS, [...text].length)
}

// counts[bucket][voter][true][answer]
const counts: ModelData['counts'] = [{}, {}, {}]
const hits = [0, 1, 2].map(() => voters.map(() => ({ right: 0, all: 0 })))
for (const s of fit) {
  const b = bucketOfText(s.text)
  const given = answers.get(s.text)!
  voters.forEach((v, i) => {
    const byTrue = (counts[b]![v.name] ??= {})
    const byAnswer = (byTrue[s.lang] ??= {})
    const answer = given[i]!
    byAnswer[answer] = (byAnswer[answer] ?? 0) + 1
    if (v.answers.includes(s.lang)) {
      hits[b]![i]!.all++
      if (answer === s.lang) hits[b]![i]!.right++
    }
  })
}
const reliability = hits.map(perVoter => Object.fromEntries(voters.map((v, i) => [v.name, round(perVoter[i]!.right / Math.max(1, perVoter[i]!.all))])))

function wordsOf (text: string): Set<string> {
  const words = new Set<string>()
  forEachWord(text, w => words.add(w))
  return words
}

function trigramsOf (text: string): Set<string> {
  const trigrams = new Set<string>()
  forEachWord(text, w => forEachTrigram(w, t => trigrams.add(t)))
  return trigrams
}

/**
 * Naive-Bayes log-likelihoods per group language of features (each counted once per sample),
 * centred, keeping the `keep` most frequent features seen at least `minCount` times that lean
 * towards some member by at least `minLean`.
 */
function featureWeights (languages: string[], featuresOf: (text: string) => Set<string>, minCount: number, minLean: number, keep: number): Record<string, number[]> {
  const perLanguage = languages.map(() => new Map<string, number>())
  const totals = languages.map(() => 0)
  for (const s of fit) {
    const j = languages.indexOf(s.lang)
    if (j === -1) continue
    for (const f of featuresOf(s.text)) {
      perLanguage[j]!.set(f, (perLanguage[j]!.get(f) ?? 0) + 1)
      totals[j]!++
    }
  }
  const vocabulary = new Set(perLanguage.flatMap(m => [...m.keys()]))
  const kept: Array<[string, number[], number]> = []
  for (const f of vocabulary) {
    const seen = perLanguage.map(m => m.get(f) ?? 0)
    const total = seen.reduce((a, b) => a + b, 0)
    if (total < minCount) continue
    const logs = seen.map((c, j) => Math.log((c + 0.5) / (totals[j]! + 0.5 * vocabulary.size)))
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length
    const centred = logs.map(l => round(l - mean))
    if (Math.max(...centred.map(Math.abs)) >= minLean) kept.push([f, centred, total])
  }
  kept.sort((a, b) => b[2] - a[2])
  return Object.fromEntries(kept.slice(0, keep).map(([f, w]) => [f, w]))
}

function wordGroup (languages: string[]): WordGroup {
  return {
    languages,
    weight: 1,
    words: featureWeights(languages, wordsOf, 3, 0.7, 20_000),
    trigramWeight: 0,
    trigrams: featureWeights(languages, trigramsOf, 5, 0.5, 4000)
  }
}

function round (x: number): number {
  return Math.round(x * 1000) / 1000
}

// replay voters answer from the cache, so tuning runs the real ensemble code quickly
let current = ''
const replay: Voter[] = voters.map((v, i) => ({ name: v.name, answers: v.answers, top: () => answers.get(current)?.[i] || undefined }))

const model: ModelData = {
  bucketLimits: BUCKET_LIMITS,
  voters: voters.map(v => v.name),
  counts,
  reliability,
  smoothing: 2,
  floor: 1e-4,
  unseenLogPrior: -2,
  logPriors: {},
  temperature: [1, 1, 1],
  groups: GROUPS.map(g => wordGroup(g.filter(l => fit.some(s => s.lang === l))))
}

/** Accuracy on the tune set, core and long-tail languages weighted by CORE_SHARE. */
function accuracy (m: ModelData, samples = tune): number {
  return weightedAccuracy(createEnsemble(replay, m).detect, samples, text => { current = text })
}

function tailPriors (logPrior: number): Record<string, number> {
  const tail = new Set(fit.map(s => s.lang).filter(l => !CORE_LANGUAGES.has(l)))
  return Object.fromEntries([...tail].map(l => [l, logPrior]))
}

console.log(`tune accuracy, plain vote counts: ${(100 * accuracy({ ...model, groups: [] })).toFixed(2)}%`)
let bestSmoothing = { smoothing: model.smoothing, score: 0 }
for (const smoothing of [0.5, 1, 2, 5, 10, 20]) {
  const score = accuracy({ ...model, smoothing, groups: [] })
  console.log(`  smoothing ${smoothing}: ${(100 * score).toFixed(2)}%`)
  if (score > bestSmoothing.score) bestSmoothing = { smoothing, score }
}
model.smoothing = bestSmoothing.smoothing
let bestFloor = { floor: model.floor, score: 0 }
for (const floor of [1e-6, 1e-5, 1e-4, 5e-4, 2e-3, 1e-2]) {
  const score = accuracy({ ...model, floor, groups: [] })
  console.log(`  floor ${floor}: ${(100 * score).toFixed(2)}%`)
  if (score > bestFloor.score) bestFloor = { floor, score }
}
model.floor = bestFloor.floor
let bestPrior = { prior: 0, score: 0 }
for (const prior of [0, -1, -2, -3, -4, -5]) {
  const score = accuracy({ ...model, logPriors: tailPriors(prior), groups: [] })
  console.log(`  long-tail log prior ${prior}: ${(100 * score).toFixed(2)}%`)
  if (score > bestPrior.score) bestPrior = { prior, score }
}
model.logPriors = tailPriors(bestPrior.prior)
for (const group of model.groups) {
  let best = { weight: 0, score: accuracy({ ...model, groups: model.groups.map(g => g === group ? { ...g, weight: 0 } : g) }) }
  for (const weight of [0.5, 1, 1.5, 2, 3, 4, 5]) {
    group.weight = weight
    const score = accuracy(model)
    if (score > best.score) best = { weight, score }
  }
  group.weight = best.weight
  let bestTrigram = { weight: 0, score: best.score }
  for (const weight of [0.1, 0.2, 0.35, 0.5, 0.75, 1, 1.5, 2]) {
    group.trigramWeight = weight
    const score = accuracy(model)
    if (score > bestTrigram.score) bestTrigram = { weight, score }
  }
  group.trigramWeight = bestTrigram.weight
  if (group.trigramWeight === 0) group.trigrams = {}
  console.log(`  ${group.languages.join('/')}: words weight ${best.weight} (${Object.keys(group.words).length} words), ` +
    `trigrams weight ${bestTrigram.weight} (${Object.keys(group.trigrams).length}) -> ${(100 * bestTrigram.score).toFixed(2)}%`)
}
model.groups = model.groups.filter(g => g.weight > 0 || g.trigramWeight > 0)

// temperature per bucket: minimise the negative log-likelihood of the right answer
for (let b = 0; b < 3; b++) {
  const inBucket = tune.filter(s => bucketOfText(s.text) === b)
  let best = { t: 1, nll: Infinity }
  for (let t = 0.5; t <= 12; t += 0.25) {
    const { detect } = createEnsemble(replay, { ...model, temperature: [t, t, t] })
    // weighted like the accuracy objective: the long tail is rarer in requests than in the corpus
    const share = { core: 0, tail: 0 }
    for (const s of inBucket) share[CORE_LANGUAGES.has(s.lang) ? 'core' : 'tail']++
    let nll = 0
    for (const s of inBucket) {
      current = s.text
      const p = detect(s.text).find(c => c.language === s.lang)?.confidence ?? 1e-4
      const weight = CORE_LANGUAGES.has(s.lang) ? CORE_SHARE / share.core : (1 - CORE_SHARE) / share.tail
      nll -= weight * Math.log(Math.max(p, 1e-4))
    }
    if (nll < best.nll) best = { t, nll }
  }
  model.temperature[b] = best.t
}
console.log(`temperatures ${model.temperature.join(', ')}; tune accuracy ${(100 * accuracy(model)).toFixed(2)}%`)
writeFileSync(args.out, JSON.stringify(model) + '\n')
console.log(`wrote ${args.out}`)
