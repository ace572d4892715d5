/** The DeepL adapter against a fake DeepL API over real HTTP: tags, batching, options, languages and every failure mode. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CircuitOpenError, RateLimitedError, UpstreamError, UpstreamTimeoutError } from '../../../../src/errors.js'
import { createDeepl } from '../../../../src/providers/deepl/translator.js'
import type { RemoteOptions } from '../../../../src/upstream/index.js'
import type { Translator } from '../../../../src/core/ports.js'
import { startFakeDeepl, type FakeEngine } from '../../../fakes/deepl.js'

let fake: FakeEngine

beforeAll(async () => { fake = await startFakeDeepl() })
afterAll(async () => { await fake.close() })
beforeEach(() => { fake.reset() })

function deepl (remote: Partial<Omit<RemoteOptions, 'service'>> = {}, apiKey = fake.key): Translator {
  return createDeepl({ apiKey, serverUrl: fake.url, remote: { timeoutMs: 5000, backoffMs: 10, ...remote } })
}

const translateCalls = (): Array<Record<string, unknown>> =>
  fake.calls.filter(c => c.path === '/v2/translate').map(c => c.body as Record<string, unknown>)

async function failure (promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (err) {
    return err as Error
  }
  throw new Error('expected a rejection')
}

const signal = (): AbortSignal => new AbortController().signal

describe('deepl translate', () => {
  it('translates with tags sent as XML and kept in the answer', async () => {
    const segments = ['Click <g id="1">here</g> to pay <x id="2"/> now', 'Tom &amp; Jerry', '', 'a <g id="3">b <x id="4"/></g>']
    const answer = await deepl().translate({ from: 'en', to: 'de', segments }, signal())
    expect(answer).toEqual(['CLICK <g id="1">HERE</g> TO PAY <x id="2"/> NOW', 'TOM &amp; JERRY', '', 'A <g id="3">B <x id="4"/></g>'])
    const [body] = translateCalls()
    expect(translateCalls()).toHaveLength(1)
    expect(body).toMatchObject({ text: [segments[0], segments[1], segments[3]], source_lang: 'en', target_lang: 'de', tag_handling: 'xml', non_splitting_tags: 'g,x', split_sentences: 'nonewlines' })
    expect(fake.calls[0]!.method).toBe('POST')
  })

  it('splits 120 segments into 3 calls of at most 50, answered in order', async () => {
    const translator = deepl()
    expect(translator.batching).toEqual({ concurrency: 8, maxSegments: 50 })
    const segments = Array.from({ length: 120 }, (_, i) => `segment ${i}`)
    const answer = await translator.translate({ from: 'en', to: 'fr', segments }, signal())
    expect(answer).toEqual(segments.map(s => s.toUpperCase()))
    const sizes = translateCalls().map(b => (b['text'] as string[]).length)
    expect(sizes).toHaveLength(3)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(120)
  })

  it('keeps each call under 128 KiB', async () => {
    const segments = Array.from({ length: 10 }, (_, i) => `${i} ${'word '.repeat(6000)}`)
    const answer = await deepl().translate({ from: 'en', to: 'de', segments }, signal())
    expect(answer).toEqual(segments.map(s => s.toUpperCase()))
    const bodies = fake.calls.filter(c => c.path === '/v2/translate')
    expect(bodies.length).toBeGreaterThanOrEqual(3)
    for (const c of bodies) expect(c.bytes).toBeLessThan(128 * 1024)
  })

  it('sends formality and context', async () => {
    const translator = deepl()
    await translator.languages()
    expect(translator.supportsFormality?.({ from: 'en', to: 'de' })).toBe(true)
    expect(translator.supportsFormality?.({ from: 'de', to: 'en-US' })).toBe(false)
    expect(translator.supportsFormality?.({ from: 'en', to: 'pt' })).toBe(true)
    await translator.translate({ from: 'en', to: 'de', segments: ['Hello'], formality: 'more', context: 'A letter to a bank.' }, signal())
    await translator.translate({ from: 'en', to: 'de', segments: ['Hello'], formality: 'prefer_less' }, signal())
    // en-US has no formality: prefer_* and default are not sent
    await translator.translate({ from: 'de', to: 'en', segments: ['Hallo'], formality: 'prefer_more' }, signal())
    await translator.translate({ from: 'de', to: 'en-US', segments: ['Hallo'], formality: 'default' }, signal())
    const [first, second, third, fourth] = translateCalls()
    expect(first).toMatchObject({ formality: 'more', context: 'A letter to a bank.' })
    expect(second).toMatchObject({ formality: 'prefer_less' })
    expect(second!['context']).toBeUndefined()
    expect(third).toMatchObject({ target_lang: 'en-US' })
    expect(third!['formality']).toBeUndefined()
    expect(fourth!['formality']).toBeUndefined()
  })

  it('sends base targets en and pt as en-US and pt-PT', async () => {
    const translator = deepl()
    await translator.translate({ from: 'de', to: 'pt', segments: ['Hallo'] }, signal())
    await translator.translate({ from: 'pt-BR', to: 'zh-Hans', segments: ['Olá'] }, signal())
    expect(translateCalls().map(b => [b['source_lang'], b['target_lang']])).toEqual([['de', 'pt-PT'], ['pt', 'zh-HANS']])
  })

  it('lists languages as BCP 47 pairs and refetches on every call', async () => {
    const translator = deepl()
    const pairs = await translator.languages()
    const has = (from: string, to: string): boolean => pairs.some(p => p.from === from && p.to === to)
    expect(has('en', 'de')).toBe(true)
    expect(has('de', 'en-US')).toBe(true)
    expect(has('de', 'en-GB')).toBe(true)
    expect(has('de', 'en')).toBe(true)
    expect(has('en', 'pt-BR')).toBe(true)
    expect(has('en', 'pt')).toBe(true)
    expect(has('en', 'zh-Hans')).toBe(true)
    expect(has('ja', 'zh')).toBe(true)
    expect(has('en', 'en-US')).toBe(false)
    expect(has('pt', 'pt-BR')).toBe(false)
    expect(pairs.every(p => p.from === Intl.getCanonicalLocales(p.from)[0] && p.to === Intl.getCanonicalLocales(p.to)[0])).toBe(true)
    expect(fake.calls.map(c => [c.method, c.path, c.body])).toEqual(expect.arrayContaining([
      ['GET', '/v2/languages', {}],
      ['GET', '/v2/languages', { type: 'target' }]
    ]))
    await translator.languages()
    expect(fake.calls.filter(c => c.path === '/v2/languages')).toHaveLength(4)
  })
})

describe('deepl failures', () => {
  it('retries a 429 and then succeeds', async () => {
    fake.behaviour = 'rate-limit'
    fake.failTimes = 1
    const answer = await deepl().translate({ from: 'en', to: 'de', segments: ['hi'] }, signal())
    expect(answer).toEqual(['HI'])
    expect(translateCalls()).toHaveLength(2)
  })

  it('answers RateLimitedError when 429 persists', async () => {
    fake.behaviour = 'rate-limit'
    const err = await failure(deepl().translate({ from: 'en', to: 'de', segments: ['hi'] }, signal()))
    expect(err).toBeInstanceOf(RateLimitedError)
    expect(translateCalls()).toHaveLength(3)
  })

  it('retries a 5xx at most twice, then fails with 502', async () => {
    fake.behaviour = 'error500'
    const err = await failure(deepl().translate({ from: 'en', to: 'de', segments: ['hi'] }, signal()))
    expect(err).toBeInstanceOf(UpstreamError)
    expect((err as UpstreamError).status).toBe(502)
    expect(err.message).toContain('500')
    expect(translateCalls()).toHaveLength(3)
  })

  it('times out a hung call promptly', async () => {
    fake.behaviour = 'hang'
    const started = Date.now()
    const err = await failure(deepl({ timeoutMs: 300 }).translate({ from: 'en', to: 'de', segments: ['hi'] }, signal()))
    expect(err).toBeInstanceOf(UpstreamTimeoutError)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('gives up at once when the caller aborts', async () => {
    fake.latencyMs = 2000
    const controller = new AbortController()
    const started = Date.now()
    const pending = failure(deepl().translate({ from: 'en', to: 'de', segments: ['hi'] }, controller.signal))
    setTimeout(() => controller.abort(new Error('client went away')), 50)
    const err = await pending
    expect(err.message).toBe('client went away')
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('refuses a malformed answer without retrying', async () => {
    fake.behaviour = 'malformed'
    const err = await failure(deepl().translate({ from: 'en', to: 'de', segments: ['hi'] }, signal()))
    expect(err).toBeInstanceOf(UpstreamError)
    expect((err as UpstreamError).retryable).toBe(false)
    expect(translateCalls()).toHaveLength(1)
    const languages = await failure(deepl().languages())
    expect(languages).toBeInstanceOf(UpstreamError)
  })

  it('refuses an answer that dropped a tag', async () => {
    fake.behaviour = 'drop-tag'
    const err = await failure(deepl().translate({ from: 'en', to: 'de', segments: ['a <x id="1"/> b'] }, signal()))
    expect(err).toBeInstanceOf(UpstreamError)
    expect(err.message).toMatch(/markup|token/)
    expect(translateCalls()).toHaveLength(1)
  })

  it('says the quota is used up on 456', async () => {
    fake.behaviour = 'quota'
    const err = await failure(deepl().translate({ from: 'en', to: 'de', segments: ['hi'] }, signal()))
    expect(err).toBeInstanceOf(UpstreamError)
    expect(err.message).toMatch(/quota/)
    expect((err as UpstreamError).retryable).toBe(false)
    expect(translateCalls()).toHaveLength(1)
  })

  it('refuses a wrong key without naming it or the text', async () => {
    const key = 'wrong-secret-key-1234'
    const err = await failure(deepl({}, key).translate({ from: 'en', to: 'de', segments: ['private words'] }, signal()))
    expect(err).toBeInstanceOf(UpstreamError)
    expect(err.message).toContain('DEEPL_API_KEY')
    expect(err.message).not.toContain(key)
    expect(err.message.toLowerCase()).not.toContain('private words')
    expect(JSON.stringify(err)).not.toContain(key)
    expect(err.cause).toBeUndefined()
    expect(translateCalls()).toHaveLength(1)
  })

  it('opens the breaker after breakerFailures failed calls', async () => {
    fake.behaviour = 'error500'
    const translator = deepl({ retries: 0, breakerFailures: 2 })
    const job = { from: 'en', to: 'de', segments: ['hi'] }
    await failure(translator.translate(job, signal()))
    await failure(translator.translate(job, signal()))
    expect(translateCalls()).toHaveLength(2)
    const started = Date.now()
    const err = await failure(translator.translate(job, signal()))
    expect(err).toBeInstanceOf(CircuitOpenError)
    expect(Date.now() - started).toBeLessThan(1000)
    expect(translateCalls()).toHaveLength(2)
  })
})
