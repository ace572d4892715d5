/**
 * HTTP-level translation benchmark: our service against apertium-apy (Apertium's own HTTP server)
 * on the same real English sentences, at the same concurrency, in one run.
 *
 *   npm run bench:translate [-- --duration 15 --connections 8 --warmup 300 --bulk-requests 6 --profile]
 *
 * It builds the service when dist/ is missing or older than src/, starts it (node dist/server.js)
 * and apertium-apy on free 127.0.0.1 ports, warms both, then measures with autocannon:
 *   1. POST /language/translate en->es, one short sentence per request, cache off, against
 *      GET /translate?langpair=eng|spa on apertium-apy: req/s, p50, p99, ratio;
 *   2. the same with our cache on (every sentence repeats);
 *   3. the same with target = source (no engine): what HTTP, auth, validation and segmenting cost;
 *   4. POST /language/translate/bulk, 100 paragraphs per request, cache off, sequential and
 *      concurrent: source words/s;
 * with CPU time per request of each process (service, its pipelines, apy, this bench) and the
 * memory of the service and its pipelines before and after. Everything started is stopped at the
 * end, on failure and on Ctrl-C. `--profile` writes a CPU profile of the service to bench/out/.
 */
import { availableParallelism, loadavg } from 'node:os'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { apyPath, startApy, type Apy } from './lib/apy.js'
import { rememberTrees, stopAll, stopChildrenOnExit } from './lib/children.js'
import { englishCorpus, wordCount } from './lib/corpus.js'
import { cpuMsOf, memoryOf, processes, processTree } from './lib/proc.js'
import { accessToken, ROOT, startService, type Service } from './lib/service.js'

const TARGET_RATIO = 5
const TARGET_P99_MS = 50
const TARGET_BULK_WORDS_PER_S = 15_000
const BULK_DOCUMENTS = 100

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '300' },
    'bulk-requests': { type: 'string', default: '6' },
    'bulk-concurrency': { type: 'string', default: '2' },
    profile: { type: 'boolean', default: false }
  }
})
const positive = (name: keyof typeof flags): number => {
  const n = Number(flags[name])
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number above 0, got ${String(flags[name])}`)
  return n
}
const DURATION = positive('duration')
const CONNECTIONS = positive('connections')
const WARMUP = positive('warmup')
const BULK_REQUESTS = positive('bulk-requests')
const BULK_CONCURRENCY = positive('bulk-concurrency')

interface Measured {
  label: string
  reqPerS: number
  p50: number
  p99: number
  requests: number
  non2xx: number
  errors: number
  cpu: string
}

/** CPU milliseconds so far: the service's Node process, its pipelines, apertium-apy's tree, this bench. */
function cpuNow (service: Service, apy: Apy): { node: number, pipelines: number, apy: number, bench: number } {
  const all = processes()
  const serviceTree = processTree(service.child.pid, all)
  const usage = process.cpuUsage()
  return {
    node: cpuMsOf(new Set([service.child.pid]), all),
    pipelines: cpuMsOf(new Set(serviceTree.filter(p => p.pid !== service.child.pid).map(p => p.pid)), all),
    apy: cpuMsOf(new Set(processTree(apy.child.pid, all).map(p => p.pid)), all),
    bench: (usage.user + usage.system) / 1000
  }
}

/** CPU per unit since `before`, in microseconds, by process. */
function cpuPer (before: ReturnType<typeof cpuNow>, after: ReturnType<typeof cpuNow>, count: number, unit: string, ours: boolean): string {
  const us = (k: keyof typeof before): string => ((after[k] - before[k]) * 1000 / count).toFixed(0)
  const server = ours ? `service Node ${us('node')} + pipelines ${us('pipelines')}` : `apertium-apy ${us('apy')}`
  return `CPU us/${unit}: ${server}, bench ${us('bench')}`
}

/** autocannon at CONNECTIONS for DURATION seconds (or `amount` requests), rotating through `bodies` or `paths`. */
async function cannon (url: string, method: 'GET' | 'POST', rotate: { bodies?: string[], paths?: string[] }, headers: Record<string, string>, amount?: number): Promise<autocannon.Result> {
  let next = 0
  const list = rotate.bodies ?? rotate.paths!
  return autocannon({
    url,
    connections: CONNECTIONS,
    ...(amount === undefined ? { duration: DURATION } : { amount }),
    headers,
    requests: [{
      method,
      setupRequest: req => {
        const item = list[next++ % list.length]!
        return rotate.bodies ? { ...req, body: item } : { ...req, path: item }
      }
    }]
  })
}

/** A measured autocannon run, with CPU per request of each process. */
async function measure (label: string, run: () => Promise<autocannon.Result>, service: Service, apy: Apy, ours: boolean): Promise<Measured> {
  rememberTrees()
  const before = cpuNow(service, apy)
  const result = await run()
  const after = cpuNow(service, apy)
  const requests = result.requests.total
  const measured: Measured = {
    label,
    reqPerS: requests / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests,
    non2xx: result.non2xx,
    errors: result.errors,
    cpu: cpuPer(before, after, Math.max(1, requests), 'request', ours)
  }
  console.log(`${label.padEnd(44)} ${measured.reqPerS.toFixed(0).padStart(6)} req/s  p50 ${measured.p50.toFixed(2).padStart(6)} ms  ` +
    `p99 ${measured.p99.toFixed(2).padStart(6)} ms  ${requests} requests, ${measured.non2xx} non-2xx, ${measured.errors} errors`)
  console.log(`${''.padEnd(44)} ${measured.cpu}`)
  return measured
}

/** Memory of the service's Node process and of its pipelines (every process below it). */
function memoryLine (service: Service, when: string): string {
  const tree = processTree(service.child.pid)
  const node = memoryOf([service.child.pid])
  const pipelines = memoryOf(tree.filter(p => p.pid !== service.child.pid).map(p => p.pid))
  return `memory ${when.padEnd(22)} service Node RSS ${node.rssMb.toFixed(0)} MB; ` +
    `pipelines ${pipelines.processes} processes, RSS ${pipelines.rssMb.toFixed(0)} MB, PSS ${pipelines.pssMb.toFixed(0)} MB`
}

interface BulkBody { body: string, words: number }

/** Request bodies of BULK_DOCUMENTS paragraphs each, successive windows over the paragraphs. */
function bulkBodies (paragraphs: string[], count: number): BulkBody[] {
  return Array.from({ length: count }, (_, k) => {
    const docs = Array.from({ length: BULK_DOCUMENTS }, (_, i) => paragraphs[(k * BULK_DOCUMENTS + i) % paragraphs.length]!)
    return {
      body: JSON.stringify({ documents: docs.map(value => ({ value })), source: 'en', targets: ['es'], options: { cache: false } }),
      words: docs.reduce((n, d) => n + wordCount(d), 0)
    }
  })
}

/** `requests` bulk requests, `inFlight` at a time: source words per second. */
async function bulkRun (service: Service, token: string, bodies: BulkBody[], requests: number, inFlight: number, apy: Apy): Promise<number> {
  let next = 0
  let words = 0
  const times: number[] = []
  rememberTrees()
  const before = cpuNow(service, apy)
  const started = performance.now()
  const worker = async (): Promise<void> => {
    while (next < requests) {
      const { body, words: w } = bodies[next++ % bodies.length]!
      const t0 = performance.now()
      const res = await fetch(`${service.base}/language/translate/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body
      })
      const answer = await res.json() as unknown
      if (res.status !== 200 || !Array.isArray(answer) || answer.length !== BULK_DOCUMENTS) {
        throw new Error(`bulk request answered ${res.status}: ${JSON.stringify(answer).slice(0, 500)}`)
      }
      times.push(performance.now() - t0)
      words += w
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker))
  const elapsed = (performance.now() - started) / 1000
  const after = cpuNow(service, apy)
  const rate = words / elapsed
  console.log(`bulk ${BULK_DOCUMENTS} paragraphs/request, ${inFlight} in flight`.padEnd(44) +
    ` ${rate.toFixed(0).padStart(6)} words/s  ${requests} requests, ${words} words in ${elapsed.toFixed(2)} s; ` +
    `per request ${times.map(t => t.toFixed(0)).join(', ')} ms`)
  console.log(`${''.padEnd(44)} ${cpuPer(before, after, words, 'word', true)}`)
  return rate
}

/** One sentence translated by both, to show they do the same work. */
async function sample (service: Service, token: string, apy: Apy, sentence: string): Promise<void> {
  const ours = await fetch(`${service.base}/language/translate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ document: { value: sentence }, source: 'en', targets: ['es'], options: { cache: false } })
  })
  const ourBody = await ours.json() as { results?: { es?: { value?: unknown } } }
  const theirs = await fetch(apy.base + apyPath('eng|spa', sentence))
  const theirBody = await theirs.json() as { responseData?: { translatedText?: unknown } }
  if (ours.status !== 200 || typeof ourBody.results?.es?.value !== 'string') throw new Error(`our service answered ${ours.status}: ${JSON.stringify(ourBody)}`)
  if (theirs.status !== 200 || typeof theirBody.responseData?.translatedText !== 'string') throw new Error(`apertium-apy answered ${theirs.status}: ${JSON.stringify(theirBody)}`)
  console.log(`sample  en: ${sentence}\n  ours   es: ${ourBody.results.es.value}\n  apy    es: ${theirBody.responseData.translatedText}`)
}

const verdict = (ok: boolean): string => ok ? 'met' : 'MISSED'

async function main (): Promise<void> {
  stopChildrenOnExit()
  const corpus = englishCorpus()
  if (corpus.sentences.length < 200 || corpus.paragraphs.length < BULK_DOCUMENTS) {
    throw new Error(`too little text: ${corpus.sentences.length} sentences, ${corpus.paragraphs.length} paragraphs in ${corpus.source}`)
  }
  console.log(`machine: ${availableParallelism()} cores, load average ${loadavg().map(l => l.toFixed(2)).join(' ')}, Node ${process.version}`)
  console.log(`text: ${corpus.sentences.length} sentences of 4-15 words, ${corpus.paragraphs.length} paragraphs of 20-60 words, from ${corpus.source}`)
  console.log(`load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per measurement, after ${WARMUP} warm-up requests; autocannon runs on the same cores\n`)

  const outDir = join(ROOT, 'bench/out')
  if (flags.profile) mkdirSync(outDir, { recursive: true })
  const service = await startService({ nodeArgs: flags.profile ? ['--cpu-prof', '--cpu-prof-dir', outDir] : [] })
  const token = await accessToken(service)
  console.log(memoryLine(service, 'at start'))
  const apy = await startApy()

  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const bodyFor = (cache: boolean, target = 'es') => (value: string): string =>
    JSON.stringify({ document: { value }, source: 'en', targets: [target], options: { cache } })
  const uncached = corpus.sentences.map(bodyFor(false))
  const cached = corpus.sentences.map(bodyFor(true))
  const identity = corpus.sentences.map(bodyFor(false, 'en'))
  const apyPaths = corpus.sentences.map(s => apyPath('eng|spa', s))
  const ours = `${service.base}/language/translate`

  await sample(service, token, apy, corpus.sentences[0]!)
  const warm = [
    await cannon(ours, 'POST', { bodies: uncached }, auth, WARMUP),
    await cannon(apy.base, 'GET', { paths: apyPaths }, {}, WARMUP),
    await cannon(ours, 'POST', { bodies: cached }, auth, Math.max(WARMUP, cached.length)),
    await cannon(ours, 'POST', { bodies: identity }, auth, WARMUP)
  ]
  const warmFailures = warm.reduce((n, r) => n + r.non2xx + r.errors, 0)
  if (warmFailures > 0) throw new Error(`${warmFailures} warm-up requests failed`)
  console.log(memoryLine(service, 'after warm-up'))
  console.log()

  const runs: Measured[] = []
  runs.push(await measure('ours  POST /language/translate, cache off', () => cannon(ours, 'POST', { bodies: uncached }, auth), service, apy, true))
  runs.push(await measure('apy   GET /translate eng|spa', () => cannon(apy.base, 'GET', { paths: apyPaths }, {}), service, apy, false))
  runs.push(await measure('ours  POST /language/translate, cache on', () => cannon(ours, 'POST', { bodies: cached }, auth), service, apy, true))
  runs.push(await measure('ours  en->en (no engine: HTTP+auth+checks)', () => cannon(ours, 'POST', { bodies: identity }, auth), service, apy, true))
  const [off, theirs] = runs as [Measured, Measured]
  const ratio = off.reqPerS / theirs.reqPerS
  console.log(`ratio ours (cache off) / apertium-apy: ${ratio.toFixed(2)}x\n`)

  const bodies = bulkBodies(corpus.paragraphs, Math.max(BULK_REQUESTS, 2))
  // one bulk request first: the engine sees longer sentences than in the short runs
  await bulkRun(service, token, bodies.slice(0, 1), 1, 1, apy)
  const sequential = await bulkRun(service, token, bodies, BULK_REQUESTS, 1, apy)
  const concurrent = await bulkRun(service, token, bodies, BULK_REQUESTS, BULK_CONCURRENCY, apy)
  console.log(memoryLine(service, 'after bulk'))

  console.log('\ntargets (issue 4):')
  console.log(`  ours >= ${TARGET_RATIO}x apertium-apy req/s at concurrency ${CONNECTIONS}: ${ratio.toFixed(2)}x (${off.reqPerS.toFixed(0)} vs ${theirs.reqPerS.toFixed(0)}) ${verdict(ratio >= TARGET_RATIO)}`)
  console.log(`  p99 < ${TARGET_P99_MS} ms at concurrency ${CONNECTIONS}: ${off.p99.toFixed(2)} ms ${verdict(off.p99 < TARGET_P99_MS)}`)
  const bestBulk = Math.max(sequential, concurrent)
  console.log(`  bulk >= ${TARGET_BULK_WORDS_PER_S} words/s en->es: ${bestBulk.toFixed(0)} words/s (sequential ${sequential.toFixed(0)}, ${BULK_CONCURRENCY} in flight ${concurrent.toFixed(0)}) ${verdict(bestBulk >= TARGET_BULK_WORDS_PER_S)}`)
  console.log(`  load average after the run: ${loadavg().map(l => l.toFixed(2)).join(' ')}`)

  const failed = runs.filter(r => r.non2xx > 0 || r.errors > 0)
  if (failed.length > 0) {
    throw new Error(`requests failed: ${failed.map(r => `${r.label}: ${r.non2xx} non-2xx, ${r.errors} errors`).join('; ')}`)
  }
  if (flags.profile) console.log(`\nCPU profile of the service: ${outDir}/CPU.*.cpuprofile (written when it stops)`)
}

try {
  await main()
} catch (err) {
  process.exitCode = 1
  console.error(`\nbench failed: ${(err as Error).stack ?? String(err)}`)
} finally {
  await stopAll()
}
