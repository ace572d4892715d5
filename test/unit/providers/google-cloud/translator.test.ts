/** The google-cloud adapter over real HTTP against a fake Cloud Translation v2 server. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CircuitOpenError, RateLimitedError, UpstreamError, UpstreamTimeoutError } from '../../../../src/errors.js'
import { createGoogleCloud } from '../../../../src/providers/google-cloud/translator.js'
import type { RemoteOptions } from '../../../../src/upstream/index.js'
import type { Translator } from '../../../../src/core/ports.js'
import { startFakeGoogleCloud, type FakeEngine } from '../../../fakes/google-cloud.js'

let fake: FakeEngine
const signal = new AbortController().signal

beforeAll(async () => { fake = await startFakeGoogleCloud() })
afterAll(async () => { await fake.close() })
beforeEach(() => {
  fake.behaviour = 'ok'
  fake.failTimes = Infinity
  fake.retryAfterSeconds = 1
  fake.latencyMs = 0
  fake.calls.length = 0
})

function google (remote: Partial<Omit<RemoteOptions, 'service'>> = {}, apiKey = fake.key): Translator {
  return createGoogleCloud({ apiKey, url: fake.url, remote: { timeoutMs: 5000, backoffMs: 10, ...remote } })
}
const translateCalls = (): Array<{ method: string, path: string, body: unknown }> => fake.calls.filter(c => c.path === '/language/translate/v2')
const qOf = (call: { body: unknown }): string[] => (call.body as { q: string[] }).q

const SEGMENT = 'Don\'t <g id="1">click</g> "here"<x id="2"/> &amp; &lt;stay&gt;'

describe('google-cloud translator', () => {
  it('sends html, keeps markup and tokens, and answers canonical tagged text', async () => {
    const out = await google().translate({ from: 'en', to: 'es', segments: [SEGMENT, 'plain'], context: 'ignored' }, signal)
    expect(out).toEqual(['DON\'T <g id="1">CLICK</g> "HERE"<x id="2"/> &amp; &lt;STAY&gt;', 'PLAIN'])
    const [call] = translateCalls()
    expect(call!.method).toBe('POST')
    expect(call!.body).toEqual({ q: [SEGMENT, 'plain'], source: 'en', target: 'es', format: 'html' })
    // the key travels in a header, not the URL
    expect(call!.path).not.toContain(fake.key)
  })

  it('answers nothing for no segments without calling', async () => {
    expect(await google().translate({ from: 'en', to: 'es', segments: [] }, signal)).toEqual([])
    expect(fake.calls).toHaveLength(0)
  })

  it('batches 128 segments per call, in parallel, answers in order', async () => {
    fake.latencyMs = 500
    const segments = Array.from({ length: 300 }, (_, i) => `segment ${i}`)
    const started = Date.now()
    const out = await google().translate({ from: 'en', to: 'fr', segments }, signal)
    expect(out).toEqual(segments.map(s => s.toUpperCase()))
    expect(translateCalls().map(c => qOf(c).length).sort()).toEqual([128, 128, 44])
    // one after another they would take 1.5 s
    expect(Date.now() - started).toBeLessThan(1200)
  })

  it('keeps each call under 30,000 characters', async () => {
    const segments = Array.from({ length: 5 }, (_, i) => `${i}`.repeat(10_000))
    const out = await google().translate({ from: 'en', to: 'fr', segments }, signal)
    expect(out).toEqual(segments)
    expect(translateCalls().map(c => qOf(c).length).sort()).toEqual([2, 3])
  })

  it('lists BCP 47 pairs, refetched on every call, and sends Google its own codes', async () => {
    const translator = google()
    const pairs = await translator.languages()
    for (const [from, to] of [['en', 'es'], ['es', 'en'], ['en', 'zh-CN'], ['zh-TW', 'ja'], ['en', 'he'], ['jv', 'en'], ['fil', 'de'], ['en', 'mni-Mtei'], ['zh', 'pt']]) {
      expect(pairs, `${from}->${to}`).toContainEqual({ from, to })
    }
    const tags = new Set(pairs.map(p => p.from))
    expect(tags.has('iw')).toBe(false)
    expect(tags.has('jw')).toBe(false)
    expect(pairs.some(p => p.from === p.to)).toBe(false)
    expect(pairs).toHaveLength(tags.size * (tags.size - 1))
    await translator.languages()
    expect(fake.calls.filter(c => c.path.startsWith('/language/translate/v2/languages'))).toHaveLength(2)
    expect(fake.calls[0]!.path).toBe('/language/translate/v2/languages?target=en')

    await translator.translate({ from: 'jv', to: 'he', segments: ['x'] }, signal)
    // "he" is listed as such next to the legacy "iw"; Javanese only as "jw"
    expect(translateCalls()[0]!.body).toMatchObject({ source: 'jw', target: 'he' })
  })

  it('retries a 429 after its Retry-After, then succeeds', async () => {
    fake.behaviour = 'rate-limit'
    fake.failTimes = 1
    const started = Date.now()
    expect(await google().translate({ from: 'en', to: 'es', segments: ['hi'] }, signal)).toEqual(['HI'])
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(translateCalls()).toHaveLength(2)
  })

  it('a 429 that lasts is a RateLimitedError', async () => {
    fake.behaviour = 'rate-limit'
    fake.retryAfterSeconds = 0
    await expect(google().translate({ from: 'en', to: 'es', segments: ['hi'] }, signal)).rejects.toBeInstanceOf(RateLimitedError)
    expect(translateCalls()).toHaveLength(3)
  })

  it('retries a 5xx at most twice, then fails with UpstreamError', async () => {
    fake.behaviour = 'error500'
    const err = await google().translate({ from: 'en', to: 'es', segments: ['hi'] }, signal).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    expect((err as UpstreamError).message).toMatch(/google-cloud: answered HTTP 500/)
    expect(translateCalls()).toHaveLength(3)
  })

  it('gives up on a hanging engine at the timeout', async () => {
    fake.behaviour = 'hang'
    const started = Date.now()
    await expect(google({ timeoutMs: 300 }).translate({ from: 'en', to: 'es', segments: ['hi'] }, signal)).rejects.toBeInstanceOf(UpstreamTimeoutError)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('rejects with the caller\'s reason when the caller gives up', async () => {
    fake.behaviour = 'hang'
    const caller = new AbortController()
    const reason = new Error('client left')
    setTimeout(() => caller.abort(reason), 50)
    await expect(google().translate({ from: 'en', to: 'es', segments: ['hi'] }, caller.signal)).rejects.toBe(reason)
  })

  it('a malformed answer is a final UpstreamError', async () => {
    fake.behaviour = 'malformed'
    const err = await google().translate({ from: 'en', to: 'es', segments: ['hi'] }, signal).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    expect((err as UpstreamError).retryable).toBe(false)
    expect(translateCalls()).toHaveLength(1)
  })

  it('an answer that lost a tag is a final UpstreamError, never a mangled segment', async () => {
    fake.behaviour = 'drop-tag'
    const err = await google().translate({ from: 'en', to: 'es', segments: ['ok', SEGMENT] }, signal).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    expect((err as UpstreamError).message).toMatch(/segment 2 of 2/)
    expect((err as UpstreamError).message).not.toMatch(/CLICK|click/)
    expect(translateCalls()).toHaveLength(1)
  })

  it('a wrong key is an UpstreamError that does not show the key', async () => {
    const wrong = 'AIza-wrong-key-0123456789'
    const translator = google({}, wrong)
    const err = await translator.translate({ from: 'en', to: 'es', segments: ['secret text'] }, signal).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    const message = (err as UpstreamError).message
    expect(message).toMatch(/403/)
    expect(message).not.toContain(wrong)
    expect(message).not.toContain('secret text')
    expect(translateCalls()).toHaveLength(1)
    await expect(translator.languages()).rejects.toBeInstanceOf(UpstreamError)
  })

  it('opens the breaker after breakerFailures failures and then skips the engine', async () => {
    fake.behaviour = 'error500'
    const translator = google({ retries: 0, breakerFailures: 2 })
    for (let i = 0; i < 2; i++) {
      await expect(translator.translate({ from: 'en', to: 'es', segments: ['hi'] }, signal)).rejects.not.toBeInstanceOf(CircuitOpenError)
    }
    await expect(translator.translate({ from: 'en', to: 'es', segments: ['hi'] }, signal)).rejects.toBeInstanceOf(CircuitOpenError)
    expect(translateCalls()).toHaveLength(2)
  })
})
