/** The libretranslate adapter over real HTTP against a fake LibreTranslate server. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CircuitOpenError, UpstreamError, UpstreamTimeoutError } from '../../../../src/errors.js'
import { createLibreTranslate } from '../../../../src/providers/libretranslate/translator.js'
import type { RemoteOptions } from '../../../../src/upstream/index.js'
import type { Translator } from '../../../../src/core/ports.js'
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../../../fakes/libretranslate.js'

let fake: FakeLibreTranslate
const signal = new AbortController().signal

beforeAll(async () => { fake = await startFakeLibreTranslate() })
afterAll(async () => { await fake.close() })
beforeEach(() => {
  fake.behaviour = 'ok'
  fake.failTimes = Infinity
  fake.retryAfterSeconds = 1
  fake.latencyMs = 0
  fake.legacyLanguages = false
  fake.calls.length = 0
})

/** `apiKey` null: no key at all. */
function libre (remote: Partial<Omit<RemoteOptions, 'service'>> = {}, apiKey: string | null = fake.key): Translator {
  return createLibreTranslate({ url: `${fake.url}/`, ...(apiKey === null ? {} : { apiKey }), remote: { timeoutMs: 5000, backoffMs: 10, ...remote } })
}
const translateCalls = (): Array<{ method: string, path: string, body: unknown }> => fake.calls.filter(c => c.path === '/translate')
const qOf = (call: { body: unknown }): string[] => (call.body as { q: string[] }).q

const SEGMENT = 'Don\'t <g id="1">click</g> "here"<x id="2"/> &amp; &lt;stay&gt;'

describe('libretranslate translator', () => {
  it('sends html with the key, keeps markup and tokens, and answers canonical tagged text', async () => {
    const out = await libre().translate({ from: 'en', to: 'es', segments: [SEGMENT, 'plain'], context: 'ignored' }, signal)
    expect(out).toEqual(['DON\'T <g id="1">CLICK</g> "HERE"<x id="2"/> &amp; &lt;STAY&gt;', 'PLAIN'])
    const [call] = translateCalls()
    expect(call!.method).toBe('POST')
    expect(call!.body).toEqual({ q: [SEGMENT, 'plain'], source: 'en', target: 'es', format: 'html', api_key: fake.key })
  })

  it('works without a key on a server that does not require one', async () => {
    expect(await libre({}, null).translate({ from: 'en', to: 'de', segments: ['hi'] }, signal)).toEqual(['HI'])
    expect(translateCalls()[0]!.body).not.toHaveProperty('api_key')
  })

  it('batches 50 segments per call, in parallel, answers in order', async () => {
    fake.latencyMs = 500
    const segments = Array.from({ length: 300 }, (_, i) => `segment ${i}`)
    const started = Date.now()
    const out = await libre().translate({ from: 'en', to: 'fr', segments }, signal)
    expect(out).toEqual(segments.map(s => s.toUpperCase()))
    expect(translateCalls().map(c => qOf(c).length)).toEqual([50, 50, 50, 50, 50, 50])
    // one after another they would take 3 s
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('keeps each call under 30,000 characters', async () => {
    const segments = Array.from({ length: 5 }, (_, i) => `${i}`.repeat(10_000))
    expect(await libre().translate({ from: 'en', to: 'fr', segments }, signal)).toEqual(segments)
    expect(translateCalls().map(c => qOf(c).length).sort()).toEqual([2, 3])
  })

  it('lists BCP 47 pairs from each language\'s targets, refetched on every call, and sends LibreTranslate its own codes', async () => {
    const translator = libre()
    const pairs = await translator.languages()
    for (const [from, to] of [['en', 'es'], ['es', 'en'], ['en', 'zh-Hant'], ['zh-Hant', 'zh'], ['pt-BR', 'de'], ['ja', 'en'], ['en', 'ja']]) {
      expect(pairs, `${from}->${to}`).toContainEqual({ from, to })
    }
    // Japanese pairs with English only on this server
    expect(pairs).not.toContainEqual({ from: 'ja', to: 'es' })
    expect(pairs).not.toContainEqual({ from: 'es', to: 'ja' })
    expect(pairs.some(p => p.from === 'zt' || p.to === 'zt' || p.from === p.to)).toBe(false)
    await translator.languages()
    expect(fake.calls.filter(c => c.path === '/languages')).toHaveLength(2)

    expect(await translator.translate({ from: 'en', to: 'zh-Hant', segments: ['hi'] }, signal)).toEqual(['HI'])
    expect(translateCalls()[0]!.body).toMatchObject({ source: 'en', target: 'zt' })
  })

  it('pairs every language with every other when the server lists no targets', async () => {
    fake.legacyLanguages = true
    const pairs = await libre().languages()
    expect(pairs).toContainEqual({ from: 'ja', to: 'es' })
    expect(pairs).toHaveLength(9 * 8)
  })

  it('retries a 429 after its Retry-After, then succeeds', async () => {
    fake.behaviour = 'rate-limit'
    fake.failTimes = 1
    const started = Date.now()
    expect(await libre().translate({ from: 'en', to: 'es', segments: ['hi'] }, signal)).toEqual(['HI'])
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(translateCalls()).toHaveLength(2)
  })

  it('retries a 5xx at most twice, then fails with UpstreamError', async () => {
    fake.behaviour = 'error500'
    const err = await libre().translate({ from: 'en', to: 'es', segments: ['hi'] }, signal).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    expect((err as UpstreamError).message).toMatch(/libretranslate: answered HTTP 500/)
    expect(translateCalls()).toHaveLength(3)
  })

  it('gives up on a hanging engine at the timeout', async () => {
    fake.behaviour = 'hang'
    const started = Date.now()
    await expect(libre({ timeoutMs: 300 }).translate({ from: 'en', to: 'es', segments: ['hi'] }, signal)).rejects.toBeInstanceOf(UpstreamTimeoutError)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('stops the other batches when one fails', async () => {
    fake.behaviour = 'error500'
    fake.failTimes = 1
    const segments = Array.from({ length: 200 }, (_, i) => `s${i}`)
    // one call at a time over 4 batches: those still waiting for a slot are not sent (the one the
    // slot passes to may be aborted just after it started, hence at most 2)
    const err = await libre({ retries: 0, concurrency: 1 }).translate({ from: 'en', to: 'es', segments }, signal).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    expect((err as UpstreamError).message).toMatch(/HTTP 500/)
    expect(translateCalls().length).toBeLessThanOrEqual(2)
  })

  it('a malformed answer is a final UpstreamError', async () => {
    fake.behaviour = 'malformed'
    const err = await libre().translate({ from: 'en', to: 'es', segments: ['hi'] }, signal).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    expect((err as UpstreamError).retryable).toBe(false)
    expect(translateCalls()).toHaveLength(1)
  })

  it('an answer that lost a tag is a final UpstreamError, never a mangled segment', async () => {
    fake.behaviour = 'drop-tag'
    const err = await libre().translate({ from: 'en', to: 'es', segments: [SEGMENT] }, signal).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    expect((err as UpstreamError).message).toMatch(/segment 1 of 1/)
    expect(translateCalls()).toHaveLength(1)
  })

  it('a wrong key is an UpstreamError that does not show the key', async () => {
    const wrong = 'libre-wrong-key-0123456789'
    const err = await libre({}, wrong).translate({ from: 'en', to: 'es', segments: ['secret text'] }, signal).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    const message = (err as UpstreamError).message
    // our words for the client; the server's own, for the log
    expect(message).toBe('libretranslate: answered HTTP 403 (check its API key)')
    expect((err as UpstreamError).engineMessage).toMatch(/Invalid API key/)
    for (const said of [message, JSON.stringify(err)]) {
      expect(said).not.toContain(wrong)
      expect(said).not.toContain('secret text')
    }
    expect(translateCalls()).toHaveLength(1)
  })

  it('opens the breaker after breakerFailures failures and then skips the engine', async () => {
    fake.behaviour = 'error500'
    const translator = libre({ retries: 0, breakerFailures: 2 })
    for (let i = 0; i < 2; i++) {
      await expect(translator.translate({ from: 'en', to: 'es', segments: ['hi'] }, signal)).rejects.not.toBeInstanceOf(CircuitOpenError)
    }
    await expect(translator.translate({ from: 'en', to: 'es', segments: ['hi'] }, signal)).rejects.toBeInstanceOf(CircuitOpenError)
    expect(translateCalls()).toHaveLength(2)
  })
})
