/**
 * Mixed workload at a fixed rate (open loop: requests start on schedule whether or not earlier ones
 * answered), through the service with auth: detect, translate en->es, bulk (10 documents),
 * substitute, a locale, and sentiment analysis, in fixed proportions. Prints per route: requests,
 * errors, p50 and p99; the service's RSS before and after (every Node process of it). With
 * --soak SECONDS it runs that long and prints RSS every 30 s, judging whether it stays flat after
 * warm-up (the first quarter): within 10% of the RSS at the end of warm-up.
 *
 *   npx tsx bench/load.ts [--rate 200 --duration 60 --workers 1] [--soak 600]
 */
import { parseArgs } from 'node:util'
import { englishCorpus } from './lib/corpus.js'
import { memoryOf, processes } from './lib/proc.js'
import { accessToken, startService, type Service } from './lib/service.js'
import { stopAll, stopChildrenOnExit } from './lib/children.js'

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    duration: { type: 'string', default: '60' },
    soak: { type: 'string' },
    workers: { type: 'string', default: '1' }
  }
})
const RATE = Number(args.rate)
const SECONDS = Number(args.soak ?? args.duration)
const SOAK = args.soak !== undefined

interface Route {
  name: string
  /** Share of the requests. */
  weight: number
  method: 'GET' | 'POST'
  path: (i: number) => string
  body?: (i: number) => unknown
}

const corpus = englishCorpus()
const sentences = corpus.sentences
const FOREIGN = ['Der Zug nach Berlin hatte heute wieder Verspätung.', 'Le musée est fermé le lundi.', 'El restaurante abre a las ocho.',
  'Il treno per Roma è in ritardo.', 'O livro está em cima da mesa.', 'De winkel is op zondag gesloten.']
const TAGS = ['en', 'en-GB', 'fr-CA', 'pt-BR', 'es-419', 'zh-Hant', 'sr-Latn', 'de-CH', 'ja', 'ar-EG']
const sentence = (i: number): string => sentences[i % sentences.length]!

const ROUTES: Route[] = [
  { name: 'detect', weight: 25, method: 'POST', path: () => '/language/detect', body: i => ({ document: { value: i % 2 === 0 ? sentence(i) : FOREIGN[i % FOREIGN.length] } }) },
  { name: 'translate en->es', weight: 30, method: 'POST', path: () => '/language/translate', body: i => ({ document: { value: sentence(i) }, source: 'en', targets: ['es'] }) },
  {
    name: 'bulk 10 en->es',
    weight: 5,
    method: 'POST',
    path: () => '/language/translate/bulk',
    body: i => ({ documents: Array.from({ length: 10 }, (_, k) => ({ value: sentence(i * 10 + k) })), source: 'en', targets: ['es'] })
  },
  {
    name: 'substitute',
    weight: 10,
    method: 'POST',
    path: () => '/language/substitute',
    body: i => ({ document: { value: sentence(i), language: 'en' }, substitutions: [{ text: 'the', substitution: 'THE' }, { text: 'file', substitution: 'document' }] })
  },
  { name: 'locale', weight: 10, method: 'GET', path: i => `/language/locale/${TAGS[i % TAGS.length]}` },
  { name: 'analyze/sentiment', weight: 20, method: 'POST', path: () => '/language/analyze/sentiment', body: i => ({ document: { value: sentence(i), language: 'en' } }) }
]
const TOTAL_WEIGHT = ROUTES.reduce((n, r) => n + r.weight, 0)
/** The route of request i: a fixed, interleaved pattern with the weights above. */
const schedule: Route[] = ROUTES.flatMap(r => Array.from({ length: r.weight }, () => r))
  .map((r, k) => ({ r, key: (k * 7919) % TOTAL_WEIGHT })).sort((a, b) => a.key - b.key).map(x => x.r)

interface Stats { latencies: number[], errors: number, statuses: Map<number, number> }
const stats = new Map<string, Stats>(ROUTES.map(r => [r.name, { latencies: [], errors: 0, statuses: new Map() }]))

const nodePids = (service: Service): number[] => [service.child.pid, ...processes().filter(p => p.ppid === service.child.pid).map(p => p.pid)]
const rss = (service: Service): number => memoryOf(nodePids(service)).rssMb

async function one (service: Service, token: string, i: number): Promise<void> {
  const route = schedule[i % schedule.length]!
  const s = stats.get(route.name)!
  const t0 = performance.now()
  try {
    const res = await fetch(service.base + route.path(i), {
      method: route.method,
      headers: { authorization: `Bearer ${token}`, ...(route.body ? { 'content-type': 'application/json' } : {}) },
      ...(route.body ? { body: JSON.stringify(route.body(i)) } : {}),
      signal: AbortSignal.timeout(30_000)
    })
    await res.arrayBuffer()
    s.statuses.set(res.status, (s.statuses.get(res.status) ?? 0) + 1)
    if (res.status >= 400) s.errors++
  } catch {
    s.errors++
  }
  s.latencies.push(performance.now() - t0)
}

const pct = (sorted: number[], p: number): number => sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

async function main (): Promise<void> {
  stopChildrenOnExit()
  const service = await startService({ env: { WORKERS: args.workers } })
  // every worker loads its engines; /ready answered for the first one
  await new Promise(resolve => setTimeout(resolve, 3000))
  const token = await accessToken(service)
  const before = rss(service)
  console.log(`mixed load: ${RATE} req/s for ${SECONDS} s, WORKERS=${args.workers}; routes: ${ROUTES.map(r => `${r.name} ${Math.round(r.weight / TOTAL_WEIGHT * 100)}%`).join(', ')}`)
  console.log(`service RSS before: ${before.toFixed(0)} MB`)

  const samples: Array<[number, number]> = []
  const inFlight = new Set<Promise<void>>()
  const started = performance.now()
  const total = Math.round(RATE * SECONDS)
  let nextSample = 30_000
  for (let i = 0; i < total; i++) {
    const due = started + (i / RATE) * 1000
    const wait = due - performance.now()
    if (wait > 1) await new Promise(resolve => setTimeout(resolve, wait))
    const p = one(service, token, i).finally(() => inFlight.delete(p))
    inFlight.add(p)
    if (SOAK && performance.now() - started >= nextSample) {
      samples.push([Math.round((performance.now() - started) / 1000), rss(service)])
      console.log(`  t=${samples.at(-1)![0]} s  RSS ${samples.at(-1)![1].toFixed(0)} MB  in flight ${inFlight.size}`)
      nextSample += 30_000
    }
  }
  await Promise.all(inFlight)
  const elapsed = (performance.now() - started) / 1000
  const after = rss(service)

  console.log(`\n${total} requests in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)} req/s achieved)`)
  console.log(`${'route'.padEnd(20)} ${'requests'.padStart(8)} ${'errors'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  statuses`)
  let errors = 0
  for (const route of ROUTES) {
    const s = stats.get(route.name)!
    const sorted = [...s.latencies].sort((a, b) => a - b)
    errors += s.errors
    console.log(`${route.name.padEnd(20)} ${String(sorted.length).padStart(8)} ${String(s.errors).padStart(7)} ${pct(sorted, 0.5).toFixed(1).padStart(8)} ${pct(sorted, 0.99).toFixed(1).padStart(8)}  ` +
      [...s.statuses].map(([status, n]) => `${status}: ${n}`).join(', '))
  }
  console.log(`service RSS: before ${before.toFixed(0)} MB, after ${after.toFixed(0)} MB`)
  if (SOAK && samples.length >= 4) {
    const warm = samples[Math.floor(samples.length / 4)]!
    const last = samples.at(-1)!
    const growth = (last[1] - warm[1]) / warm[1]
    console.log(`soak: RSS ${warm[1].toFixed(0)} MB after warm-up (t=${warm[0]} s) -> ${last[1].toFixed(0)} MB at t=${last[0]} s: ${(growth * 100).toFixed(1)}% ` +
      (Math.abs(growth) <= 0.1 ? '(flat: within 10%)' : '(NOT flat: more than 10%)'))
  }
  await service.child.stop()
  if (errors > 0) process.exitCode = 1
}

try {
  await main()
} finally {
  await stopAll()
}
