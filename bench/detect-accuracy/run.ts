/**
 * Prints detection accuracy on the TEST split of the corpus per length bucket and per language,
 * next to franc's and a plain majority vote of the same voters, plus calibration and detections/s.
 *
 *   npx tsx bench/detect-accuracy/run.ts                       in-process, createDetector()
 *   npx tsx bench/detect-accuracy/run.ts --corpus bench/corpus/detect-short.jsonl   the short-text corpus (build-short-corpus.ts)
 *   npx tsx bench/detect-accuracy/run.ts --model FILE          a model other than the shipped one (train.ts --out FILE)
 *   npx tsx bench/detect-accuracy/run.ts --split tune --regression FILE   the dev split's tune part, another regression (train-regression.ts --out FILE)
 *   npx tsx bench/detect-accuracy/run.ts --lists FILE   other word lists (build-wordlists.ts or build-everyday.ts --out FILE)
 *   npx tsx bench/detect-accuracy/run.ts --url http://127.0.0.1:8080 --client-id ID --client-secret SECRET
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { francAll } from 'franc'
import { createDetector } from '../../src/providers/detector/index.js'
import { tagOf } from '../../src/providers/detector/codes.js'
import { traditionalBalance } from '../../src/providers/detector/hanzi.js'
import { loadVoters } from '../../src/providers/detector/voters/index.js'
import { BUCKETS, CORE_LANGUAGES, DEFAULT_CORPUS, readCorpus, type Sample } from './corpus.js'
import { accessToken } from '../lib/service.js'

const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string', default: DEFAULT_CORPUS },
    model: { type: 'string' },
    regression: { type: 'string' },
    lists: { type: 'string' },
    split: { type: 'string', default: 'test' },
    url: { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    concurrency: { type: 'string', default: '16' }
  }
})

// tune: the dev split's part the trainers tune on (not learned from), as train-*.ts pick it
const isTune = (text: string): boolean => (createHash('sha256').update('tune\0').update(text).digest()[0] ?? 0) < 51
const samples = args.split === 'tune'
  ? readCorpus(args.corpus, 'dev').filter(s => isTune(s.text))
  : readCorpus(args.corpus, args.split === 'all' ? undefined : args.split as 'dev' | 'test')
const shortCorpus = samples.some(s => s.source.startsWith('cldr-'))
console.log(`${new Date().toISOString()}: ${args.corpus}, ${args.split} split; ${cpus().length} x ${cpus()[0]?.model ?? 'CPU'}, Node ${process.versions.node}`)
console.log(shortCorpus
  ? 'buckets: short = 1-3 words and 4-30 characters, medium = other texts up to 100, long = 101-400'
  : 'buckets: short = 10-30 characters, medium = 31-100, long = 101-400')
type Answers = Map<Sample, { language: string, confidence: number }>

/** Detects every sample in-process; returns the answers and detections per second. */
async function inProcess (): Promise<{ answers: Answers, rate: number, shortRate: number }> {
  const started = performance.now()
  const detector = createDetector(args.model === undefined ? { regressionFile: args.regression, wordListsFile: args.lists } : { model: JSON.parse(readFileSync(args.model, 'utf8')) })
  await detector.ready()
  console.log(`detector ready in ${(performance.now() - started).toFixed(0)} ms`)
  const answers: Answers = new Map()
  const t0 = performance.now()
  for (const s of samples) {
    const best = (await detector.detect(s.text))[0]
    answers.set(s, { language: best?.language ?? 'und', confidence: best?.confidence ?? 0 })
  }
  const rate = samples.length / ((performance.now() - t0) / 1000)
  const short = samples.filter(s => s.bucket === 'short')
  const t1 = performance.now()
  for (let round = 0; round < 3; round++) for (const s of short) await detector.detect(s.text)
  const shortRate = (3 * short.length) / ((performance.now() - t1) / 1000)
  return { answers, rate, shortRate }
}

/** Detects every sample through POST /language/detect with a client-credentials token. */
async function overHttp (url: string): Promise<{ answers: Answers, rate: number, shortRate?: number }> {
  const token = await accessToken({ base: url.replace(/\/+$/, ''), clientId: args['client-id'] ?? '', clientSecret: args['client-secret'] ?? '' })
  const answers: Answers = new Map()
  let next = 0
  async function worker (): Promise<void> {
    while (next < samples.length) {
      const s = samples[next++]!
      const response = await fetch(new URL('/language/detect', url), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ document: { value: s.text } })
      })
      if (!response.ok) throw new Error(`detect failed: ${response.status} ${await response.text()}`)
      const body = await response.json() as { language: string, confidence: number }
      answers.set(s, { language: body.language, confidence: body.confidence })
    }
  }
  const t0 = performance.now()
  await Promise.all(Array.from({ length: Number(args.concurrency) }, worker))
  return { answers, rate: samples.length / ((performance.now() - t0) / 1000) }
}

const FRANC_CODES: Record<string, string> = { als: 'sq', zlm: 'ms' }

/** franc's answer in the same terms: BCP 47, Latin Serbian and Traditional Chinese told by script. */
function francAnswer (text: string): string {
  const code = francAll(text)[0]?.[0] ?? 'und'
  // franc's own codes: Tosk Albanian for Albanian, Standard Malay for Malay
  let tag = FRANC_CODES[code] ?? tagOf(code) ?? 'und'
  if (tag === 'sr' && !/[\u0400-\u04ff]/.test(text)) tag = 'sr-Latn'
  if (tag === 'zh' && traditionalBalance(text) > 0) tag = 'zh-Hant'
  return tag
}

/** eld + fastText + CLD2 majority, falling back to eld when all disagree (the issue's baseline). */
async function majorityVote (): Promise<Map<Sample, string>> {
  const voters = await loadVoters()
  const answers = new Map<Sample, string>()
  for (const s of samples) {
    const [e, f, c] = voters.map(v => v.top(s.text) ?? 'und')
    let answer = f === c ? f! : e!
    if (answer === 'sr' && !/[\u0400-\u04ff]/.test(s.text)) answer = 'sr-Latn'
    if (answer === 'zh' && traditionalBalance(s.text) > 0) answer = 'zh-Hant'
    answers.set(s, answer)
  }
  return answers
}

function percent (right: number, all: number): string {
  return all === 0 ? '   -  ' : `${(100 * right / all).toFixed(1).padStart(5)}%`
}

interface Tally { right: number, all: number }
function tally (list: Sample[], isRight: (s: Sample) => boolean): Tally {
  return { right: list.filter(isRight).length, all: list.length }
}

function report (title: string, list: Sample[], columns: Array<[string, (s: Sample) => boolean]>): void {
  console.log(`\n${title} (${list.length} samples, ${new Set(list.map(s => s.lang)).size} languages)`)
  console.log(`${''.padEnd(10)}${columns.map(([name]) => name.padStart(10)).join('')}`)
  for (const bucket of [...BUCKETS.map(b => b.name), 'overall']) {
    const inBucket = bucket === 'overall' ? list : list.filter(s => s.bucket === bucket)
    console.log(`${bucket.padEnd(10)}${columns.map(([, f]) => { const t = tally(inBucket, f); return percent(t.right, t.all).padStart(10) }).join('')}`)
  }
}

const url = args.url
const run = url === undefined ? await inProcess() : await overHttp(url)
const answers = run.answers
const franc = new Map(samples.map(s => [s, francAnswer(s.text)]))
const vote = url === undefined ? await majorityVote() : undefined

const detectorRight = (s: Sample): boolean => answers.get(s)?.language === s.lang
const columns: Array<[string, (s: Sample) => boolean]> = [['detector', detectorRight], ['franc', s => franc.get(s) === s.lang]]
if (vote !== undefined) columns.splice(1, 0, ['vote', s => vote.get(s) === s.lang])

// CLDR's lists of names (languages, territories, scripts, currencies) are proper nouns, often the
// same or nearly so across languages ("Canada"): not texts whose language can be known, so they
// are reported apart from the headline
const NAMES = /^cldr-(language|region|script|currency)$/
const texts = samples.filter(s => !NAMES.test(s.source))
const names = samples.filter(s => NAMES.test(s.source))
const core = texts.filter(s => CORE_LANGUAGES.has(s.lang))
const tail = texts.filter(s => !CORE_LANGUAGES.has(s.lang))
report(`Accuracy on the ${args.split} split, core languages${shortCorpus ? ' (texts: CLDR name lists apart)' : ''}`, core, columns)
report('Long tail (other languages of the corpus)', tail, columns)
report('All languages', texts, columns)
if (shortCorpus) report('CLDR name lists (proper nouns), core languages', names.filter(s => CORE_LANGUAGES.has(s.lang)), columns)

if (shortCorpus) {
  console.log('\nShort texts (core) by source, detector / franc:')
  const withNames = samples.filter(s => CORE_LANGUAGES.has(s.lang) && s.bucket === 'short')
  const kinds = [...new Set(withNames.map(s => s.source.startsWith('cldr-') ? s.source : 'debian'))].sort()
  for (const kind of kinds) {
    const mine = withNames.filter(s => s.source === kind || (kind === 'debian' && !s.source.startsWith('cldr-')))
    const t = tally(mine, detectorRight)
    const f = tally(mine, s => franc.get(s) === s.lang)
    console.log(`${kind.padEnd(16)} ${percent(t.right, t.all)} ${percent(f.right, f.all)}  (${t.all})`)
  }
  const t = tally(withNames, detectorRight)
  console.log(`${'with names'.padEnd(16)} ${percent(t.right, t.all)}  (${t.all}: the short bucket with CLDR's name lists in it)`)
}

console.log('\nPer language (core), detector short/medium/long/all, franc all:')
for (const lang of [...new Set(core.map(s => s.lang))].sort()) {
  const mine = core.filter(s => s.lang === lang)
  const cells = BUCKETS.map(b => { const t = tally(mine.filter(s => s.bucket === b.name), detectorRight); return percent(t.right, t.all) })
  const all = tally(mine, detectorRight)
  const theirs = tally(mine, s => franc.get(s) === s.lang)
  console.log(`${lang.padEnd(8)} ${cells.join(' ')}  ${percent(all.right, all.all)}   franc ${percent(theirs.right, theirs.all)}`)
}

const confusions = new Map<string, number>()
for (const s of core) {
  const got = answers.get(s)?.language ?? 'und'
  if (got !== s.lang) confusions.set(`${s.lang}->${got}`, (confusions.get(`${s.lang}->${got}`) ?? 0) + 1)
}
console.log(`\nMost frequent confusions (core): ${[...confusions].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, n]) => `${k} ${n}`).join(', ')}`)
// languages a word or two often cannot tell apart: how much of what is left is inside them
const NEAR = [['bs', 'hr', 'sr-Latn', 'sl'], ['id', 'ms'], ['da', 'nb', 'nn', 'sv'], ['gl', 'es', 'pt', 'ca'], ['cs', 'sk'], ['ru', 'bg', 'uk', 'be', 'sr'], ['tr', 'az'], ['zh', 'zh-Hant']]
const near = (a: string, b: string): boolean => NEAR.some(g => g.includes(a) && g.includes(b))
for (const bucket of ['short', 'overall']) {
  const list = bucket === 'overall' ? core : core.filter(s => s.bucket === bucket)
  const wrong = list.filter(s => !detectorRight(s))
  const inside = wrong.filter(s => near(s.lang, answers.get(s)?.language ?? 'und')).length
  console.log(`${bucket} (core): ${wrong.length} wrong, ${inside} of them a near-identical language (${NEAR.map(g => g.join('/')).join(', ')}); ` +
    `${percent(list.length - wrong.length + inside, list.length).trim()} if those counted as right`)
}

console.log('\nCalibration (core languages): confidence bin, samples, mean confidence, accuracy')
let ece = 0
for (let bin = 0; bin < 10; bin++) {
  const lo = bin / 10
  const inBin = core.filter(s => { const c = answers.get(s)?.confidence ?? 0; return c >= lo && (c < lo + 0.1 || bin === 9) })
  if (inBin.length === 0) continue
  const mean = inBin.reduce((a, s) => a + (answers.get(s)?.confidence ?? 0), 0) / inBin.length
  const acc = inBin.filter(detectorRight).length / inBin.length
  ece += Math.abs(mean - acc) * inBin.length / core.length
  console.log(`  ${lo.toFixed(1)}-${(lo + 0.1).toFixed(1)}  ${String(inBin.length).padStart(6)}  ${mean.toFixed(3)}  ${acc.toFixed(3)}`)
}
console.log(`  expected calibration error ${ece.toFixed(3)}`)
console.log(`\ndetections/s ${url === undefined ? 'in-process' : `over HTTP (concurrency ${args.concurrency})`}: ${run.rate.toFixed(0)} (all buckets)` +
  (run.shortRate === undefined ? '' : `, ${run.shortRate.toFixed(0)} on short texts`))
