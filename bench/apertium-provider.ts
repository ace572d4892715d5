/**
 * Benchmarks the embedded Apertium translator (src/providers/apertium) directly,
 * and apertium-apy (Apertium's own HTTP server) on the same sentences for comparison.
 *
 *   npm run bench:apertium            (BENCH_SECONDS=10 by default)
 *
 * 1. provider, short en->es sentences, 8 concurrent callers: req/s, p50, p99;
 * 2. provider, bulk: the GPL-3 text shipped with Debian, one translate() call of every
 *    sentence: words/s;
 * 3. apertium-apy on 127.0.0.1 (installed with apt-get when missing; it is bench-only),
 *    autocannon at concurrency 8 on the same sentences: req/s, p50, p99.
 * The provider runs in-process and apertium-apy over HTTP: the comparison is the engine cost a
 * caller sees, not an HTTP-to-HTTP one (bench/translate measures that through the service).
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import autocannon from 'autocannon'
import { escapeText } from '../src/core/tagged.js'
import { createApertium } from '../src/providers/apertium/index.js'
import { apyPath, startApy } from './lib/apy.js'
import { stopChildrenOnExit } from './lib/children.js'
import { cpuMsOf, memoryOf, processes } from './lib/proc.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONCURRENCY = 8

const SENTENCES = [
  'Please send me the invoice before Friday.',
  'The meeting has been moved to next week.',
  'Your order has been shipped.',
  'We could not find the page you were looking for.',
  'Thank you for your message.',
  'The file is too large to upload.',
  'Do you want to save your changes?',
  'The password must contain at least eight characters.',
  'Our office is closed on public holidays.',
  'The train leaves at seven in the morning.',
  'I would like to book a table for two people.',
  'Check your email to confirm your account.',
  'The weather will be sunny tomorrow.',
  'This product is not available in your country.',
  'Click the button below to continue.',
  'She works in a small hospital near the river.',
  'The children are playing in the garden.',
  'We need more time to finish the report.',
  'The price includes breakfast and dinner.',
  'Your session has expired, please sign in again.',
  'The library opens at nine and closes at six.',
  'He bought a new car last month.',
  'The results will be published on our website.',
  'Please turn off your phone during the film.',
  'The company hired twenty new employees this year.',
  'My brother lives in a big city.',
  'The museum is free on the first Sunday of every month.',
  'You can change the language in the settings.',
  'The road is closed because of the snow.',
  'We will answer your question as soon as possible.',
  'The new version fixes several problems.',
  'Dinner is ready.'
]

/** The pipelines this process started: process groups led by a child of ours. */
function pipelinePids (): Set<number> {
  const all = processes()
  const leaders = new Set(all.filter(p => p.ppid === process.pid && p.pgrp === p.pid).map(p => p.pid))
  return new Set(all.filter(p => leaders.has(p.pgrp)).map(p => p.pid))
}

/**
 * CPU milliseconds used so far by this process and by the pipelines it started: robust where
 * wall-clock figures are not, on a machine shared with other work.
 */
function cpuMs (): { node: number, pipelines: number } {
  const node = process.cpuUsage()
  return { node: (node.user + node.system) / 1000, pipelines: cpuMsOf(pipelinePids()) }
}

/** Memory of the pipelines this process started, in MB (proportional set size: shared pages split between processes). */
function pipelinePssMb (): number {
  return memoryOf([...pipelinePids()]).pssMb
}

function cpuPer (before: { node: number, pipelines: number }, count: number, unit: string): string {
  const after = cpuMs()
  const node = (after.node - before.node) * 1000 / count
  const pipelines = (after.pipelines - before.pipelines) * 1000 / count
  return `CPU per ${unit}: pipeline ${pipelines.toFixed(1)} us + Node ${node.toFixed(1)} us`
}

function percentile (sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}

/** Sentences of the GPL-3 text Debian ships in every installation. */
function bulkSentences (): string[] {
  const text = readFileSync('/usr/share/common-licenses/GPL-3', 'utf8').replace(/\s+/g, ' ')
  return (text.match(/[^.!?;:]+[.!?;:]/g) ?? []).map(s => s.trim()).filter(Boolean)
}

async function benchProviderShort (): Promise<void> {
  const translator = createApertium()
  const signal = new AbortController().signal
  await translator.translate({ from: 'en', to: 'es', segments: SENTENCES.map(escapeText) }, signal)
  const latencies: number[] = []
  const deadline = performance.now() + SECONDS * 1000
  let next = 0
  const caller = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const sentence = SENTENCES[next++ % SENTENCES.length]!
      const t0 = performance.now()
      await translator.translate({ from: 'en', to: 'es', segments: [escapeText(sentence)] }, signal)
      latencies.push(performance.now() - t0)
    }
  }
  const cpu0 = cpuMs()
  const t0 = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, caller))
  const elapsed = (performance.now() - t0) / 1000
  latencies.sort((a, b) => a - b)
  console.log(`provider  en->es short, ${CONCURRENCY} callers: ${(latencies.length / elapsed).toFixed(0)} req/s, ` +
    `p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms (${latencies.length} requests; ` +
    `${cpuPer(cpu0, latencies.length, 'request')})`)
  console.log(`provider  eng-spa pipeline memory (PSS): ${pipelinePssMb().toFixed(0)} MB`)

  const bulk = bulkSentences().map(escapeText)
  const words = bulk.reduce((n, s) => n + s.split(/\s+/).length, 0)
  const rates: number[] = []
  const cpu1 = cpuMs()
  for (let i = 0; i < 3; i++) {
    const b0 = performance.now()
    await translator.translate({ from: 'en', to: 'es', segments: bulk }, signal)
    rates.push(words / ((performance.now() - b0) / 1000))
  }
  console.log(`provider  en->es bulk, ${bulk.length} segments / ${words} words per call: ` +
    `${rates.map(r => r.toFixed(0)).join(', ')} words/s (best ${Math.max(...rates).toFixed(0)}; ${cpuPer(cpu1, 3 * words, 'word')})`)
  await translator.close!()
}

async function benchApy (): Promise<void> {
  const apy = await startApy()
  const path = (s: string): string => apyPath('eng|spa', s)
  try {
    for (const s of SENTENCES) await fetch(apy.base + path(s))
    let next = 0
    const result = await autocannon({
      url: apy.base,
      connections: CONCURRENCY,
      duration: SECONDS,
      requests: [{ method: 'GET', setupRequest: req => ({ ...req, path: path(SENTENCES[next++ % SENTENCES.length]!) }) }]
    })
    console.log(`apy       en->es short, autocannon c=${CONCURRENCY}: ${result.requests.average.toFixed(0)} req/s, ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (${result.non2xx} non-2xx, ${result.errors} errors)`)
  } finally {
    await apy.child.stop()
  }
}

stopChildrenOnExit()
console.log(`load average before the run: ${loadavg().map(l => l.toFixed(2)).join(' ')} (${SECONDS} s per measurement)`)
await benchProviderShort()
if (process.env.BENCH_SKIP_APY !== '1') await benchApy()
