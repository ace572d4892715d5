/**
 * Fault injection under load over real HTTP (issue 12): the service runs as its own process with
 * LibreTranslate (a local fake) first and Apertium next in TRANSLATION_SERVICES, and dozens of
 * concurrent en->es requests (distinct sentences, cache off) arrive while the engine answers 429
 * to everything, answers garbage, or hangs. What must hold: every request answers in bounded time
 * (fallback 200 from apertium, or a problem+json 502/503/504 naming the engine, never a 500), the
 * engine's calls stay bounded (breaker, UPSTREAM_CONCURRENCY), /health stays fast, and the engine
 * is used again once it behaves and the breaker cooldown has passed. test/system/engines.test.ts has the
 * single-request cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeLibreTranslate, type FakeLibreTranslate, type MalformedAnswer } from '../fakes/libretranslate.js'
import { startFakeLlm, type FakeLlm } from '../fakes/openai.js'
import { startService, type RunningService } from '../helpers/service.js'

/** UPSTREAM_TIMEOUT_MS of every service here: small, so a storm lasts seconds. */
const TIMEOUT_MS = 2000
/** Retries of a 429/5xx after the first attempt (the default UPSTREAM_RETRIES). */
const RETRIES = 2
const BREAKER_FAILURES = 3
/** Room for a loaded machine (Apertium under load, scheduling): generous next to the timeout. */
const MARGIN_MS = 3000
/**
 * The longest a request may take, its fallback or error included: waiting in the batcher for a
 * free slot and the call that follows share one UPSTREAM_TIMEOUT_MS.
 */
const ANSWER_BOUND_MS = TIMEOUT_MS + MARGIN_MS

const SUBJECTS = ['The old man', 'My sister', 'The teacher', 'Our neighbour', 'The little girl', 'His brother', 'The doctor', 'Your friend']
const ACTIONS = ['reads a book', 'eats an apple', 'drinks water', 'writes a letter', 'buys bread', 'sings a song', 'opens the door', 'cleans the table']
const PLACES = ['in the garden', 'at home', 'in the kitchen', 'at school', 'in the park', 'at night', 'in the morning', 'on Sunday']
const WHEN = ['', ' today', ' again', ' every day', ' with joy', ' slowly', ' quietly', ' once more']
let sentences = 0

/** A short English sentence no earlier call of this file returned. */
function sentence (): string {
  const i = sentences++
  return `${SUBJECTS[i % 8]!} ${ACTIONS[(i >> 3) % 8]!}${WHEN[(i >> 9) % 8]!} ${PLACES[(i >> 6) % 8]!}.`
}

interface Answer {
  text: string
  fallback: boolean
  status: number
  headers: Headers
  /** The JSON answer, any shape: checked field by field. */
  json: Record<string, any>
  ms: number
}

/** One en->es translation of `text` with the cache off; the hang guard is far above every bound checked. */
async function translate (service: RunningService, text: string, options: Record<string, unknown> = {}): Promise<Answer> {
  const started = performance.now()
  const res = await fetch(`${service.base}/language/translate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ source: 'en', targets: ['es'], document: { value: text }, options: { cache: false, ...options } }),
    signal: AbortSignal.timeout(25_000)
  })
  const json = await res.json() as Record<string, any>
  return { text, fallback: options['fallback'] !== false, status: res.status, headers: res.headers, json, ms: performance.now() - started }
}

/** `n` requests at once, distinct sentences; every other one (odd indexes) with `fallback: false`. */
async function burst (service: RunningService, n: number, options: Record<string, unknown> = {}): Promise<Answer[]> {
  return await Promise.all(Array.from({ length: n }, async (_, i) =>
    await translate(service, sentence(), i % 2 === 1 ? { ...options, fallback: false } : options)))
}

const describeAnswer = (a: Answer): string => `${a.status} after ${Math.round(a.ms)} ms: ${JSON.stringify(a.json).slice(0, 300)}`

/** A fallback answer: 200, served by Apertium, a real translation (not the fake's upper-casing). */
function expectApertium (a: Answer): void {
  expect(a.status, describeAnswer(a)).toBe(200)
  expect(a.json['extra'].services, describeAnswer(a)).toEqual({ es: 'apertium' })
  const value = a.json['results'].es.value as string
  expect(value.length).toBeGreaterThan(0)
  expect(value).not.toBe(a.text)
  expect(value).not.toBe(a.text.toUpperCase())
}

/** An error answer: one of `statuses` as problem+json naming `service`, with Retry-After on a 503. */
function expectProblem (a: Answer, service: string, statuses: number[]): void {
  expect(statuses, describeAnswer(a)).toContain(a.status)
  expect(a.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  expect(a.json['status']).toBe(a.status)
  expect(a.json['detail']).toMatch(new RegExp(`^Translating en->es failed: ${service}: `))
  if (a.status === 503) expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
}

/** Latencies of /health asked one after another until `stop` is called. */
function watchHealth (service: RunningService): { stop: () => Promise<number[]> } {
  const latencies: number[] = []
  const done = new AbortController()
  const loop = (async () => {
    while (!done.signal.aborted) {
      const started = performance.now()
      const res = await fetch(`${service.base}/health`, { signal: AbortSignal.timeout(10_000) })
      await res.arrayBuffer()
      expect(res.status).toBe(200)
      latencies.push(performance.now() - started)
      await new Promise(resolve => setTimeout(resolve, 10))
    }
  })()
  return {
    async stop () {
      done.abort()
      await loop
      return latencies
    }
  }
}

const sleep = async (ms: number): Promise<void> => await new Promise(resolve => setTimeout(resolve, ms))

/** Settings every service here shares: LibreTranslate first, Apertium next; no client rate limit in the way. */
function serviceEnv (libre: FakeLibreTranslate, more: Record<string, string>): Record<string, string> {
  return {
    LIBRETRANSLATE_URL: libre.url,
    LIBRETRANSLATE_API_KEY: libre.key,
    TRANSLATION_SERVICES: 'libretranslate,apertium',
    UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
    BREAKER_FAILURES: String(BREAKER_FAILURES),
    RATE_LIMIT_MAX: '1000000',
    ...more
  }
}

const translateCalls = (fake: FakeLibreTranslate): number => fake.calls.filter(c => c.method === 'POST' && c.path.startsWith('/translate')).length

// one engine and one service per kind of fault, so that a breaker opened by one does not hide another
let stormEngine: FakeLibreTranslate
let garbageEngine: FakeLibreTranslate
let hangEngine: FakeLibreTranslate
let llm: FakeLlm
let stormService: RunningService
let garbageService: RunningService
let hangService: RunningService

const STORM_CONCURRENCY = 4
const STORM_COOLDOWN_MS = 8000
const HANG_CONCURRENCY = 3

beforeAll(async () => {
  [stormEngine, garbageEngine, hangEngine, llm] = await Promise.all([
    startFakeLibreTranslate(), startFakeLibreTranslate(), startFakeLibreTranslate(), startFakeLlm()
  ])
  ;[stormService, garbageService, hangService] = await Promise.all([
    startService(serviceEnv(stormEngine, { UPSTREAM_CONCURRENCY: String(STORM_CONCURRENCY), BREAKER_COOLDOWN_MS: String(STORM_COOLDOWN_MS) })),
    // a breaker that never opens: every kind of garbage reaches the engine
    startService(serviceEnv(garbageEngine, {
      UPSTREAM_CONCURRENCY: '4',
      BREAKER_FAILURES: '1000',
      TRANSLATION_SERVICES: 'libretranslate,apertium,openai',
      OPENAI_BASE_URL: llm.url,
      OPENAI_API_KEY: llm.key,
      OPENAI_MODEL: llm.model
    })),
    startService(serviceEnv(hangEngine, { UPSTREAM_CONCURRENCY: String(HANG_CONCURRENCY), BREAKER_COOLDOWN_MS: '600000' }))
  ])
}, 90_000)

afterAll(async () => {
  await Promise.all([stormService, garbageService, hangService].filter(Boolean).map(async s => await s.stop()))
  await Promise.all([stormEngine, garbageEngine, hangEngine, llm].filter(Boolean).map(async f => await f.close()))
})

describe('a 429 storm', () => {
  it('falls back to apertium for every request, and 503s without fallback, in bounded time and with bounded engine calls', async () => {
    stormEngine.behaviour = 'rate-limit'
    stormEngine.retryAfterSeconds = 1
    stormEngine.peakInFlight = 0
    const before = translateCalls(stormEngine)
    const answers = await burst(stormService, 64)
    for (const a of answers) {
      if (a.fallback) expectApertium(a)
      else expectProblem(a, 'libretranslate', [502, 503, 504])
      expect(a.ms, describeAnswer(a)).toBeLessThan(ANSWER_BOUND_MS)
    }
    // calls started before the breaker opened: at most BREAKER_FAILURES failed ones and those then in flight, each with its retries
    const calls = translateCalls(stormEngine) - before
    expect(calls).toBeGreaterThan(0)
    expect(calls).toBeLessThanOrEqual((BREAKER_FAILURES + STORM_CONCURRENCY - 1) * (RETRIES + 1))
    expect(stormEngine.peakInFlight).toBeLessThanOrEqual(STORM_CONCURRENCY)
  }, 30_000)

  it('skips the engine once its breaker is open: no call per request, and answers without waiting for the timeout', async () => {
    const before = translateCalls(stormEngine)
    const answers = await burst(stormService, 32)
    for (const a of answers) {
      if (a.fallback) expectApertium(a)
      else {
        expectProblem(a, 'libretranslate', [503])
        expect(a.json['detail']).toMatch(new RegExp(`libretranslate: failed ${BREAKER_FAILURES} calls in a row`))
      }
      // waiting for the timeout would take TIMEOUT_MS and then the fallback: below it is room for a busy machine
      expect(a.ms, describeAnswer(a)).toBeLessThan(TIMEOUT_MS)
    }
    expect(translateCalls(stormEngine)).toBe(before)
  }, 30_000)

  it('serves requests from the engine again once it behaves and the cooldown has passed', async () => {
    stormEngine.behaviour = 'ok'
    const before = translateCalls(stormEngine)
    // still open: the healthy engine is not asked yet, and the client is told when to come back
    const open = await translate(stormService, sentence(), { fallback: false })
    expectProblem(open, 'libretranslate', [503])
    expect(translateCalls(stormEngine)).toBe(before)
    const retryAfter = Number(open.headers.get('retry-after'))
    expect(retryAfter).toBeLessThanOrEqual(STORM_COOLDOWN_MS / 1000)
    await sleep(retryAfter * 1000 + 250)

    const answers = await burst(stormService, 40)
    for (const a of answers) {
      expect(a.status, describeAnswer(a)).toBe(200)
      expect(a.json['extra'].services).toEqual({ es: 'libretranslate' })
      // the fake translates by upper-casing
      expect(a.json['results'].es.value).toBe(a.text.toUpperCase())
    }
    const calls = translateCalls(stormEngine) - before
    expect(calls).toBeGreaterThan(0)
    expect(calls).toBeLessThanOrEqual(40)
  }, 30_000)
})

describe('garbage answers', () => {
  const kinds: MalformedAnswer[] = ['html', 'truncated-json', 'wrong-shape', 'wrong-count', 'empty']

  it.each(kinds)('a 200 with %s: apertium serves with fallback, 502 naming the engine without, never a 500', async (kind) => {
    garbageEngine.behaviour = 'malformed'
    garbageEngine.malformedAs = kind
    const before = translateCalls(garbageEngine)
    try {
      const answers = await burst(garbageService, 24)
      for (const a of answers) {
        if (a.fallback) expectApertium(a)
        else {
          expectProblem(a, 'libretranslate', [502])
          expect(a.json['detail']).toMatch(/libretranslate: answered /)
        }
        // an unusable answer is final: nothing waits for the timeout
        expect(a.ms, describeAnswer(a)).toBeLessThan(TIMEOUT_MS)
      }
      expect(translateCalls(garbageEngine)).toBeGreaterThan(before)
    } finally {
      garbageEngine.behaviour = 'ok'
    }
  }, 30_000)

  it.each(['malformed', 'wrong-count'] as const)('an LLM answering %s content: apertium serves with fallback, 502 naming openai without', async (behaviour) => {
    llm.behaviour = behaviour
    llm.failTimes = Infinity
    const before = llm.completions().length
    try {
      const answers = await burst(garbageService, 16, { service: ['openai', 'apertium'] })
      for (const a of answers) {
        if (a.fallback) expectApertium(a)
        else expectProblem(a, 'openai', [502])
        expect(a.ms, describeAnswer(a)).toBeLessThan(TIMEOUT_MS)
      }
      expect(llm.completions().length).toBeGreaterThan(before)
    } finally {
      llm.reset()
    }
  }, 30_000)

  it('keeps serving afterwards: /health, an en->en request, and the engine itself', async () => {
    const health = await fetch(`${garbageService.base}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const same = await garbageService.post('/language/translate', { source: 'en', targets: ['en'], document: { value: 'Still here.' } })
    expect(same.status).toBe(200)
    expect(same.json['results'].en.value).toBe('Still here.')
    const text = sentence()
    const engine = await translate(garbageService, text, { fallback: false })
    expect(engine.status, describeAnswer(engine)).toBe(200)
    expect(engine.json['extra'].services).toEqual({ es: 'libretranslate' })
    expect(engine.json['results'].es.value).toBe(text.toUpperCase())
  })
})

describe('a hang storm', () => {
  beforeAll(() => {
    hangEngine.behaviour = 'hang'
  })

  // found by this test: a request queued behind hung calls waited for them, then had a whole timeout of its own
  it('answers every request (apertium, or 503/504 without fallback) within UPSTREAM_TIMEOUT_MS, waiting for a slot included; keeps /health fast and the calls in flight bounded', async () => {
    hangEngine.peakInFlight = 0
    const health = watchHealth(hangService)
    // UPSTREAM_CONCURRENCY calls hang; the requests queued behind them must not wait for those and then a call of their own
    const answers = await burst(hangService, 48)
    const latencies = (await health.stop()).sort((a, b) => a - b)
    for (const a of answers) {
      if (a.fallback) expectApertium(a)
      else {
        expectProblem(a, 'libretranslate', [503, 504])
        if (a.status === 504) expect(a.json['detail']).toMatch(new RegExp(`libretranslate: did not answer within ${TIMEOUT_MS} ms`))
      }
      // the bug it guards against took a timeout waiting for a slot and then one of its own (2x);
      // what is left of the bound is the fallback's, which 48 requests at once on a busy machine need
      expect(a.ms, describeAnswer(a)).toBeLessThan(2 * TIMEOUT_MS)
    }
    expect(latencies.length).toBeGreaterThan(20)
    const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1]!
    // a stalled event loop would hold /health for the engine's timeout (2 s); a busy machine adds its own delays
    expect(p99).toBeLessThan(TIMEOUT_MS / 2)
    expect(hangEngine.peakInFlight).toBeGreaterThan(0)
    expect(hangEngine.peakInFlight).toBeLessThanOrEqual(HANG_CONCURRENCY)
  }, 30_000)

  // found by this test: the batcher's deadline ran out before the service's own, and the service took it for a
  // caller giving up, so timeouts never opened the breaker and every request of a hang storm waited the timeout
  it('opens the breaker on calls that timed out: later requests skip the engine and answer without waiting for the timeout', async () => {
    const before = translateCalls(hangEngine)
    const answers = await burst(hangService, 32)
    for (const a of answers) {
      if (a.fallback) expectApertium(a)
      else expectProblem(a, 'libretranslate', [503])
      // waiting for the timeout would take TIMEOUT_MS and then the fallback: below it is room for a busy machine
      expect(a.ms, describeAnswer(a)).toBeLessThan(TIMEOUT_MS)
    }
    expect(translateCalls(hangEngine)).toBe(before)
  }, 30_000)
})
