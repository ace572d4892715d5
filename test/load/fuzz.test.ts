/**
 * Schema-driven fuzzing of every operation over real HTTP (the service as its own process,
 * WORKERS=1): requests generated from the OpenAPI document's request schemas, then mutated (wrong
 * types, missing and extra fields, 200 KB strings, 1,000 levels of nesting, lone surrogates,
 * bidi and zero-width marks, NUL, emoji, hostile HTML, Markdown and JSON documents); DeepL's
 * translate with hostile markup (kept elements past the bound, a megabyte of open elements), and
 * the drop-in APIs' routes with hostile forms (120,000 fields, huge fields, broken multipart). Every
 * answer must be a 2xx matching its response schema or a 4xx problem (RFC 6749 errors on the token
 * endpoint, DeepL's {message}), never a 5xx (a 503 only when its detail names the setting that enables the
 * capability) and never a hang; /health must stay fast meanwhile.
 *
 * The seed is fixed so CI is reproducible: FUZZ_SEED=<n> runs another one, FUZZ_RUNS=<n> changes
 * the runs per operation. A failure is shrunk to a minimal request, saved under
 * test-results/fuzz-failures/. bench/fuzz.ts runs the same property for 100,000 cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT } from '../helpers/app.js'
import { startService, type RunningService } from '../helpers/service.js'
import { DEEPL_TRANSLATE, caseArbitrary, endpointsOf, formCaseArbitrary, markupCaseArbitrary, type FuzzCase } from '../fuzz/arbitraries.js'
import { FULL_SCALE, nested } from '../fuzz/hostile.js'
import { percentile, startHealthProbe, type HealthProbe } from '../fuzz/health-probe.js'
import { knownFailure } from '../fuzz/known-failures.js'
import { AnswerChecker, send } from '../fuzz/property.js'
import { FuzzStats, describeFailure, fuzzEndpoint, loadDocument, saveFailure } from '../fuzz/run.js'
import type { OpenApiDocument, OpenApiOperation } from '../fuzz/schema-arbitrary.js'

const SEED = Number(process.env['FUZZ_SEED'] ?? 20240612)
/** Runs per operation: the POST operations do the heavy work; the GETs and the token endpoint are quick. */
const RUNS = process.env['FUZZ_RUNS'] === undefined ? { post: 200, get: 120 } : { post: Number(process.env['FUZZ_RUNS']), get: Number(process.env['FUZZ_RUNS']) }
/** A slower machine runs a prefix of each operation's cases (at least a quarter of them) within this time. */
const TIME_LIMIT_MS = Number(process.env['FUZZ_TIME_LIMIT_MS'] ?? 75_000)
/** An answer later than this is a hang (the service's own request timeout is 120 s). */
const HANG_MS = 30_000
/**
 * How much slower than idle /health may get (p99) while the fuzzing runs. What this guards is
 * liveness: before documents, analysis, editing and Apertium left the event loop, one heavy request
 * held every other for seconds (p99 ~2 s). The figure itself (issue 12 asks for under 50 ms) is
 * measured by bench/fuzz.ts, not by a timed test: on shared 2-core machines this run printed a p99
 * of 50 ms (idle 30 ms) one day and 314 ms (idle 81 ms) on a fresh machine another.
 */
const HEALTH_STALL_MS = 500

/** Every operation of the API; the document must not have more (a new one would go unfuzzed). */
const OPERATIONS = [
  'POST /language/translate', 'POST /language/translate/bulk', 'POST /language/detect', 'POST /language/substitute',
  'POST /language/edit', 'POST /language/analyze', 'POST /language/analyze/sentiment',
  'GET /language/translate/locales', 'GET /language/translate/locales/supported', 'GET /language/locale/{tag}',
  'GET /language/locales', 'GET /language/edit/tones', 'POST /oauth/token',
  // document jobs: posted ones run in the background while the rest is fuzzed (JOB_MAX_PER_CLIENT, then 429s)
  'POST /language/translate/jobs', 'GET /language/translate/jobs/{id}', 'DELETE /language/translate/jobs/{id}'
]

/** A key of the fuzzing client, for DeepL's markup cases and the drop-in APIs' forms. */
const DEEPL_KEY = 'fuzz-deepl-key-0123456789abcdef'

let service: RunningService
let document: OpenApiDocument
let checker: AnswerChecker
let probe: HealthProbe | undefined
let idleP99 = 0
const stats = new FuzzStats()
const started = performance.now()

beforeAll(async () => {
  // no rate limit nor throttles: thousands of requests (and failed token requests) from one address in a minute are the point here
  // its deadline under the fuzzer's: a request the service cannot finish in time is a 503 naming it, not a hang
  const clients = JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'], api_keys: [DEEPL_KEY] }])
  service = await startService({ AUTH_CLIENTS: clients, RATE_LIMIT_MAX: '1000000000', ADDRESS_RATE_LIMIT_MAX: '1000000000', AUTH_FAILURES_MAX: '1000000', HANDLER_TIMEOUT_MS: String(HANG_MS - 5_000) })
  document = await loadDocument(service.base)
  checker = new AnswerChecker(document)
  // what /health costs on this machine with nothing else to do (a shared CI machine is noisy)
  const idle = startHealthProbe(service.base, 50, HANG_MS)
  await new Promise(resolve => setTimeout(resolve, 2_000))
  idleP99 = percentile((await idle.stop()).latencies, 99)
  console.log(`fuzz seed ${SEED} (FUZZ_SEED to change), ${RUNS.post} runs per POST operation, ${RUNS.get} per GET and the token endpoint; idle /health p99 ${idleP99.toFixed(1)} ms`)
  // a probe fails only when it gets no 200 at all within HANG_MS; slowness is what the latencies measure
  probe = startHealthProbe(service.base, 50, HANG_MS)
}, 90_000)

afterAll(async () => {
  await probe?.stop()
  await service?.stop()
})

it('fuzzes every operation the OpenAPI document has', () => {
  expect(endpointsOf(document).map(e => e.name).sort()).toEqual([...OPERATIONS].sort())
})

describe.concurrent('every answer is a 2xx matching its response schema or a 4xx problem; no 5xx, no hang', () => {
  for (const name of OPERATIONS) {
    it(name, async () => {
      const endpoint = endpointsOf(document).find(e => e.name === name)!
      const failure = await fuzzEndpoint({
        endpoint,
        arbitrary: caseArbitrary(endpoint, document, { credentials: CLIENT, scale: FULL_SCALE }),
        checker,
        target: { base: service.base, token: service.token },
        stats,
        // one seed per operation, derived from the run's seed
        seed: SEED + OPERATIONS.indexOf(name),
        numRuns: name.startsWith('POST /language/') ? RUNS.post : RUNS.get,
        timeoutMs: HANG_MS,
        timeLimitMs: TIME_LIMIT_MS,
        known: knownFailure
      })
      if (failure !== undefined) {
        const file = saveFailure('test-results/fuzz-failures', failure)
        expect.fail(`the fuzzing property failed; minimal case:\n${describeFailure(failure, file)}\n${service.output().slice(-2_000)}`)
      }
      const answers = [...stats.counts.get(name)?.values() ?? []].reduce((a, b) => a + b, 0)
      expect(answers).toBeGreaterThanOrEqual(Math.ceil((name.startsWith('POST /language/') ? RUNS.post : RUNS.get) / 4))
    }, TIME_LIMIT_MS + 2 * HANG_MS)
  }

  // DeepL's markup (issue 32, item 1): kept elements past the bound, a megabyte of open elements, forged stand-ins
  it(`${DEEPL_TRANSLATE} with hostile markup`, async () => {
    const operation = document.paths['/deepl/v2/translate']?.['post'] as OpenApiOperation
    const failure = await fuzzEndpoint({
      endpoint: { name: DEEPL_TRANSLATE, method: 'POST', path: '/deepl/v2/translate', operation },
      arbitrary: markupCaseArbitrary(DEEPL_KEY, FULL_SCALE),
      checker,
      target: { base: service.base, token: service.token },
      stats,
      seed: SEED + OPERATIONS.length,
      numRuns: RUNS.post,
      timeoutMs: HANG_MS,
      timeLimitMs: TIME_LIMIT_MS,
      known: knownFailure
    })
    if (failure !== undefined) {
      const file = saveFailure('test-results/fuzz-failures', failure)
      expect.fail(`the fuzzing property failed; minimal case:\n${describeFailure(failure, file)}\n${service.output().slice(-2_000)}`)
    }
    const answers = [...stats.counts.get(DEEPL_TRANSLATE)?.values() ?? []].reduce((a, b) => a + b, 0)
    expect(answers).toBeGreaterThanOrEqual(Math.ceil(RUNS.post / 4))
  }, TIME_LIMIT_MS + 2 * HANG_MS)

  // the drop-in APIs' forms (issue 32, item 2): 120,000 fields, huge fields, broken multipart, to each API with and without its key
  it('the drop-in APIs\' routes with hostile forms', async () => {
    const operation = document.paths['/libretranslate/translate']?.['post'] as OpenApiOperation
    let made = 0
    const failure = await fuzzEndpoint({
      endpoint: { name: 'POST /libretranslate/translate', method: 'POST', path: '/libretranslate/translate', operation },
      arbitrary: formCaseArbitrary(DEEPL_KEY, FULL_SCALE).map(c => { made++; return c }),
      checker,
      target: { base: service.base, token: service.token },
      stats,
      seed: SEED + OPERATIONS.length + 1,
      numRuns: RUNS.post,
      timeoutMs: HANG_MS,
      timeLimitMs: TIME_LIMIT_MS,
      known: knownFailure
    })
    if (failure !== undefined) {
      const file = saveFailure('test-results/fuzz-failures', failure)
      expect.fail(`the fuzzing property failed; minimal case:\n${describeFailure(failure, file)}\n${service.output().slice(-2_000)}`)
    }
    expect(made).toBeGreaterThanOrEqual(Math.ceil(RUNS.post / 4))
  }, TIME_LIMIT_MS + 2 * HANG_MS)
})

let health: { latencies: number[], failures: number } | undefined

it('answers every /health probe while the fuzzing runs', async () => {
  health = await probe!.stop()
  probe = undefined
  const { latencies, failures } = health
  console.log(`${stats.cases} cases in ${((performance.now() - started) / 1000).toFixed(1)} s\n${stats.table()}\n` +
    `/health while fuzzing: ${latencies.length} probes, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ` +
    `max ${percentile(latencies, 100).toFixed(1)} ms, failed ${failures} (idle p99 ${idleP99.toFixed(1)} ms)`)
  expect(failures).toBe(0)
  expect(latencies.length).toBeGreaterThan(100)
  // documents are worked off the event loop (a document thread pool): no request stalls liveness
  expect(percentile(latencies, 99)).toBeLessThan(idleP99 + HEALTH_STALL_MS)
})

describe('regressions the fuzzing found', () => {
  it('answers a token request nested deeper than the limit with an RFC 6749 invalid_request, not a 500', async () => {
    const c: FuzzCase = {
      endpoint: 'POST /oauth/token',
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_secret: nested(600, 'array', 'x') }),
      mutations: ['deep: /client_secret (600 arrays)']
    }
    const answer = await send(service.base, service.token, c, HANG_MS)
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'invalid_request' })
    expect(checker.check(c, answer)).toBeUndefined()
  })
})
