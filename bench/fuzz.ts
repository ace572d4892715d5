/**
 * Schema-driven fuzzing at scale: the generators and property of test/load/fuzz.test.ts, over real HTTP
 * against the service started as its own process (WORKERS=1), `--cases` requests spread over every
 * operation (and DeepL's translate with hostile markup, the drop-in APIs' routes with hostile forms) with `--concurrency` in flight. Prints answers per operation and status, /health
 * latency percentiles during the run, and each failure (with --shrink, shrunk by fast-check to a minimal case,
 * saved to bench/out/fuzz-failures/*.json). Exits 1 when anything failed.
 *
 *   npx tsx bench/fuzz.ts [--cases 100000] [--concurrency 8] [--seed 42] [--chunk 50] [--only 'POST /language/translate']
 *     [--node-options='--max-old-space-size=1024 --max-semi-space-size=2'] [--chunk-time-limit-ms 180000]
 *     [--first-chunk 1180] [--shrink] [--yield]
 *
 * Cases are made in chunks of `--chunk` (operation i mod n, seed + i), so a failing chunk replays
 * alone with the same seed. 100,000 cases take about an hour on two busy cores (3,638 s on 2026-11-25).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { CLIENT } from '../test/helpers/app.js'
import { startService } from '../test/helpers/service.js'
import { DEEPL_TRANSLATE, caseArbitrary, endpointsOf, formCaseArbitrary, markupCaseArbitrary, type Endpoint } from '../test/fuzz/arbitraries.js'
import { FULL_SCALE } from '../test/fuzz/hostile.js'
import { percentile, startHealthProbe, yieldCores } from '../test/fuzz/health-probe.js'
import { AnswerChecker } from '../test/fuzz/property.js'
import { KNOWN_FAILURES, knownFailure } from '../test/fuzz/known-failures.js'
import { FuzzStats, describeFailure, fuzzEndpoint, loadDocument, saveFailure, type FuzzFailure } from '../test/fuzz/run.js'
import type { OpenApiOperation } from '../test/fuzz/schema-arbitrary.js'

const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '8' },
    seed: { type: 'string', default: process.env['FUZZ_SEED'] ?? '20240612' },
    // runs per fast-check call: each call has its own seed (seed + chunk index), so a chunk replays alone
    chunk: { type: 'string', default: '50' },
    'timeout-ms': { type: 'string', default: '30000' },
    // failures shrunk (and saved) per operation; later ones are only counted
    'max-failures': { type: 'string', default: '5' },
    // a chunk (its shrinking included) stops after this long: heavy failing cases shrink slowly
    'chunk-time-limit-ms': { type: 'string', default: '180000' },
    // only the operations whose name contains this ("POST /language/translate/bulk")
    only: { type: 'string' },
    // start at this chunk (the cases before it are skipped): replays a stretch of a long run with the same seeds
    'first-chunk': { type: 'string', default: '0' },
    // failing cases shrunk to a minimal one (fast-check holds every candidate of a heavy case: megabytes each, gigabytes in all)
    shrink: { type: 'boolean', default: false },
    // the fuzzer's threads at a lower CPU priority than the service and the probe (nice 10)
    yield: { type: 'boolean', default: false },
    // the service's log level; its output is written to bench/out/fuzz-service.log at the end
    'log-level': { type: 'string', default: 'warn' },
    // Node flags for the service, e.g. npm start's heap limits: --node-options='--max-old-space-size=1024 --max-semi-space-size=2'
    'node-options': { type: 'string' }
  }
})

const totalCases = Number(args.cases)
const concurrency = Number(args.concurrency)
const seed = Number(args.seed)
const chunk = Number(args.chunk)
const timeoutMs = Number(args['timeout-ms'])
const outDir = fileURLToPath(new URL('./out/fuzz-failures/', import.meta.url))
/** A key of the fuzzing client, for DeepL's markup cases and the drop-in APIs' forms. */
const DEEPL_KEY = 'fuzz-deepl-key-0123456789abcdef'

// the service's deadline under the fuzzer's: a request it cannot finish in time is a 503 naming the setting, not a hang
const service = await startService({ AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'], api_keys: [DEEPL_KEY] }]), RATE_LIMIT_MAX: '1000000000', ADDRESS_RATE_LIMIT_MAX: '1000000000', AUTH_FAILURES_MAX: '1000000', HANDLER_TIMEOUT_MS: String(timeoutMs - 5_000), LOG_LEVEL: args['log-level'], ...(args['node-options'] === undefined ? {} : { NODE_OPTIONS: args['node-options'] }) })
// Ctrl-C: the service is our child, stop it too
process.once('SIGINT', () => { service.stop().finally(() => process.exit(130)).catch(() => {}) })
const failures: FuzzFailure[] = []
try {
  const document = await loadDocument(service.base)
  const checker = new AnswerChecker(document)
  // the operations under /language and /oauth, DeepL's translate with hostile markup (issue 32, item 1),
  // and the drop-in APIs' routes with hostile forms (item 2; each case names its route's operation)
  const deepl: Endpoint = { name: DEEPL_TRANSLATE, method: 'POST', path: '/deepl/v2/translate', operation: document.paths['/deepl/v2/translate']?.['post'] as OpenApiOperation }
  const forms: Endpoint = { name: 'drop-in forms', method: 'POST', path: '/libretranslate/translate', operation: document.paths['/libretranslate/translate']?.['post'] as OpenApiOperation }
  const endpoints = [...endpointsOf(document), deepl, forms].filter(e => args.only === undefined || e.name.includes(args.only))
  if (endpoints.length === 0) throw new Error(`no operation matches --only ${args.only}`)
  const arbitraries = new Map(endpoints.map(e => [e.name, e === deepl ? markupCaseArbitrary(DEEPL_KEY, FULL_SCALE) : e === forms ? formCaseArbitrary(DEEPL_KEY, FULL_SCALE) : caseArbitrary(e, document, { credentials: CLIENT, scale: FULL_SCALE })]))
  const stats = new FuzzStats()
  const failuresPer = new Map<string, number>()
  console.log(`fuzzing ${endpoints.length} operations, ${totalCases} cases, concurrency ${concurrency}, seed ${seed} (FUZZ_SEED or --seed to change), chunks of ${chunk}`)

  // chunks in a fixed order: chunk i is operation i mod n with seed + i
  const chunks: Array<{ endpoint: Endpoint, seed: number, runs: number }> = []
  for (let i = Number(args['first-chunk']), left = totalCases; left > 0; i++) {
    const runs = Math.min(chunk, left)
    chunks.push({ endpoint: endpoints[i % endpoints.length]!, seed: seed + i, runs })
    left -= runs
  }
  const probe = startHealthProbe(service.base, 50, timeoutMs)
  // the fuzzer shares the service's cores here; in production the clients are elsewhere
  if (args.yield) await yieldCores()
  // the service's resident memory, sampled every second (Linux)
  let peakRssMb = 0
  const rssTimer = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${service.child.pid}/status`, 'utf8')
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
      peakRssMb = Math.max(peakRssMb, kb / 1024)
    } catch {
      // not Linux, or the process is gone
    }
  }, 1000)
  // the fuzzer's own event loop: while it is blocked (making or checking a case of megabytes), the
  // answers it waits for sit unread and their timeouts fire late, so "no answer" may be its own stall
  const started = performance.now()
  const lag = monitorEventLoopDelay({ resolution: 20 })
  lag.enable()
  let lastTick = started
  const stallTimer = setInterval(() => {
    const now = performance.now()
    if (now - lastTick > 5_000) console.log(`  the fuzzer's own event loop was blocked for ${((now - lastTick) / 1000).toFixed(1)} s (at ${((now - started) / 1000).toFixed(0)} s)`)
    lastTick = now
  }, 1000)
  let next = 0
  let lastReport = started
  const slot = async (): Promise<void> => {
    while (next < chunks.length) {
      const job = chunks[next++]!
      const failure = await fuzzEndpoint({
        endpoint: job.endpoint,
        arbitrary: arbitraries.get(job.endpoint.name)!,
        checker,
        target: { base: service.base, token: service.token },
        stats,
        seed: job.seed,
        numRuns: job.runs,
        timeoutMs,
        timeLimitMs: Number(args['chunk-time-limit-ms']),
        known: knownFailure,
        // shrinking holds every candidate of a heavy case (megabytes each) for minutes: only when asked, for failures still reported
        shrink: args.shrink && (failuresPer.get(job.endpoint.name) ?? 0) < Number(args['max-failures'])
      }).catch((err: Error): FuzzFailure => ({
        // the generator itself failed: report it as a failure of this chunk, keep going
        endpoint: job.endpoint.name,
        seed: job.seed,
        error: `the fuzzer failed: ${err.stack ?? err.message}`,
        case: { endpoint: job.endpoint.name, method: job.endpoint.method, url: job.endpoint.path, headers: {}, mutations: [] }
      }))
      if (failure !== undefined) {
        const seen = (failuresPer.get(failure.endpoint) ?? 0) + 1
        failuresPer.set(failure.endpoint, seen)
        if (seen <= Number(args['max-failures'])) {
          failures.push(failure)
          console.log('\nFAILURE ' + describeFailure(failure, saveFailure(outDir, failure)))
        }
      }
      if (performance.now() - lastReport > 10_000) {
        lastReport = performance.now()
        // the fuzzer's own heap too: a run of 100,000 cases must not outgrow it
        console.log(`  ${stats.cases} cases in ${((lastReport - started) / 1000).toFixed(0)} s; fuzzer heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, slot))
  const seconds = (performance.now() - started) / 1000
  clearInterval(stallTimer)
  lag.disable()
  const health = await probe.stop()
  clearInterval(rssTimer)

  console.log(`\n${stats.cases} cases in ${seconds.toFixed(1)} s (${(stats.cases / seconds).toFixed(0)}/s)\n`)
  console.log('answers per operation and status:')
  console.log(stats.table())
  console.log('\nanswers per mutation:')
  for (const [kind, statuses] of [...stats.kinds].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${kind.padEnd(48)} ${[...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}: ${n}`).join('  ')}`)
  }
  console.log('\nslowest answers:')
  for (const s of stats.slowest) console.log(`  ${s.ms.toFixed(0).padStart(6)} ms  ${s.status}  ${s.endpoint}  ${s.mutations.join('; ').slice(0, 140)}`)
  const l = health.latencies
  console.log(`\n/health during the run: ${l.length} probes, p50 ${percentile(l, 50).toFixed(1)} ms, p90 ${percentile(l, 90).toFixed(1)} ms, ` +
    `p99 ${percentile(l, 99).toFixed(1)} ms, p99.9 ${percentile(l, 99.9).toFixed(1)} ms, max ${percentile(l, 100).toFixed(1)} ms, ` +
    `over 50 ms: ${l.filter(ms => ms > 50).length}, failed: ${health.failures}`)
  const known = [...stats.counts.values()].flatMap(statuses => [...statuses].filter(([s]) => s.endsWith('known'))).reduce((n, [, k]) => n + k, 0)
  if (known > 0) console.log(`\n${known} answers were known failures (counted as "<status> known" above):\n${KNOWN_FAILURES.map(k => `  ${k.id}: ${k.description}`).join('\n')}`)
  if (peakRssMb > 0) console.log(`\nthe service's peak RSS during the run: ${peakRssMb.toFixed(0)} MB`)
  console.log(`the fuzzer's own event loop delay: p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms, max ${(lag.max / 1e6).toFixed(0)} ms`)
  const counted = [...failuresPer].map(([e, n]) => `${e}: ${n}`).join(', ')
  console.log(failures.length === 0 ? '\nno failures' : `\n${[...failuresPer.values()].reduce((a, b) => a + b, 0)} failing chunks (${counted}); minimal cases in ${outDir}`)
} finally {
  if (service.child.exitCode !== null || service.child.signalCode !== null) {
    console.log(`\nthe service exited (${service.child.exitCode ?? service.child.signalCode}); its last output:\n${service.output().slice(-4000)}`)
  }
  await service.stop()
  mkdirSync(new URL('./out/', import.meta.url), { recursive: true })
  writeFileSync(new URL('./out/fuzz-service.log', import.meta.url), service.output())
}
process.exitCode = failures.length > 0 ? 1 : 0
