/** The free Google Translate adapter against a fake translate.google.com over real https. */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CircuitOpenError, RateLimitedError, UpstreamError, UpstreamTimeoutError } from '../../../../src/errors.js'
import { createGoogle, MAX_SEGMENTS, type GoogleOptions } from '../../../../src/providers/google/translator.js'
import { decodeAnswer, planCall, type Request } from '../../../../src/providers/google/tokens.js'
import type { Translator } from '../../../../src/core/ports.js'
import { startFakeGoogle, type FakeEngine } from '../../../fakes/google.js'

let fake: FakeEngine
const open: Translator[] = []

beforeAll(async () => { fake = await startFakeGoogle() })
afterAll(async () => { await fake.close() })
afterEach(async () => {
  await Promise.all(open.splice(0).map(async t => await t.close?.()))
  fake.behaviour = 'ok'
  fake.failTimes = Infinity
  fake.padTokens = false
  fake.retryAfterSeconds = 1
  fake.calls.length = 0
})

/** A translator for the fake; `ca: null` leaves out the test CA. */
function google (remote: Partial<GoogleOptions['remote']> = {}, ca: string | null = fake.ca): Translator {
  const translator = createGoogle({ host: fake.host, remote: { timeoutMs: 5000, backoffMs: 10, ...remote }, ...(ca === null ? {} : { ca }) })
  open.push(translator)
  return translator
}

async function translate (translator: Translator, segments: string[], signal = AbortSignal.timeout(10_000)): Promise<string[]> {
  return await translator.translate({ from: 'en', to: 'de', segments }, signal)
}

/** The form the fake got in its n-th call. */
function sent (n = 0): { sl: string, tl: string, q: string } {
  return fake.calls[n]!.body as { sl: string, tl: string, q: string }
}

describe('google: markup', () => {
  it('round-trips <g>, <x/> and escaped text, canonical, sending Google plain text', async () => {
    const out = await translate(google(), [
      'Hello <g id="1">bold &amp; brave</g> world<x id="2"/>!',
      'a &lt; b &gt; c &#38; "q"',
      "<g id='3'>Click</g> <g id=\"4\">here <g id=\"5\">now</g></g>"
    ])
    expect(out).toEqual([
      'HELLO <g id="1">BOLD &amp; BRAVE</g> WORLD<x id="2"/>!',
      'A &lt; B &gt; C &amp; "Q"',
      '<g id="3">CLICK</g> <g id="4">HERE <g id="5">NOW</g></g>'
    ])
    expect(fake.calls).toHaveLength(1)
    const { q, sl, tl } = sent()
    expect({ sl, tl }).toEqual({ sl: 'en', tl: 'de' })
    expect(q).toContain('bold & brave')
    expect(q).toContain('a < b > c & "q"')
    expect(q).not.toMatch(/&amp;|&lt;|<g|<x/)
    expect(fake.calls[0]!.path).toBe('/translate_a/single?client=at&dt=t&dt=rm&dj=1')
  })

  it('keeps text that looks like its tokens as text', async () => {
    const out = await translate(google(), ['See [1] and [ 2 ]<x id="1"/> then <g id="3">[3]</g> or ［4］'])
    expect(out).toEqual(['SEE [1] AND [ 2 ]<x id="1"/> THEN <g id="3">[3]</g> OR ［4］'])
    const numbers = [...sent().q.matchAll(/\[(\d+)\]/g)].map(m => Number(m[1]))
    // its own tokens skip the numbers the text holds
    expect(numbers.filter(n => n > 4)).toHaveLength(3)
  })

  it('puts whitespace the engine adds inside a pair outside it, and keeps edges as sent', async () => {
    fake.padTokens = true
    const out = await translate(google(), ['Hello<g id="1">world</g>!', '  Click <g id="2">here</g> now<x id="3"/>x \n'])
    expect(out).toEqual(['HELLO <g id="1">WORLD</g>!', '  CLICK <g id="2">HERE</g> NOW <x id="3"/> X \n'])
  })

  it('does not ask about segments without letters', async () => {
    const out = await translate(google(), ['', '<x id="1"/>', ' 42 ', "<g id='1'>:)</g>"])
    expect(out).toEqual(['', '<x id="1"/>', ' 42 ', '<g id="1">:)</g>'])
    expect(fake.calls).toHaveLength(0)
  })

  it('refuses an answer that lost a token', async () => {
    fake.behaviour = 'drop-tag'
    const error = await translate(google(), ['Secret <g id="1">words</g> here']).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(UpstreamError)
    expect((error as UpstreamError).retryable).toBe(false)
    expect((error as Error).message).toMatch(/markup/)
    expect((error as Error).message).not.toMatch(/secret|words/i)
    expect(fake.calls).toHaveLength(1)
  })
})

describe('google: batching', () => {
  it('declares its batching and sends several segments per request under 5,000 characters', async () => {
    const translator = google({ concurrency: 3 })
    expect(translator.batching).toEqual({ concurrency: 3, maxSegments: MAX_SEGMENTS })
    // 50 segments of ~150 characters: 7,500 characters plus tokens, so two requests
    const segments = Array.from({ length: 50 }, (_, i) => `Segment ${i} <g id="1">bold</g> ${'lorem ipsum '.repeat(11)}end.`)
    const out = await translate(translator, segments)
    expect(out).toEqual(segments.map(s => s.toUpperCase().replace(/<G ID="1">BOLD<\/G>/, '<g id="1">BOLD</g>')))
    expect(fake.calls).toHaveLength(2)
    for (let n = 0; n < 2; n++) expect(sent(n).q.length).toBeLessThanOrEqual(5000)
  })

  it('sends a segment longer than a request alone', async () => {
    const long = 'word '.repeat(1100).trim()
    const out = await translate(google(), ['short one', long, 'another'])
    expect(out).toEqual(['SHORT ONE', long.toUpperCase(), 'ANOTHER'])
    expect(fake.calls).toHaveLength(3)
  })
})

describe('google: failures', () => {
  it('retries a 429 after the Retry-After it gave', async () => {
    fake.behaviour = 'rate-limit'
    fake.failTimes = 1
    const started = Date.now()
    expect(await translate(google(), ['hello'])).toEqual(['HELLO'])
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(fake.calls).toHaveLength(2)
  })

  it('answers RateLimitedError with the wait Google asked for when 429s go on', async () => {
    fake.behaviour = 'rate-limit'
    fake.retryAfterSeconds = 7
    const error = await translate(google({ retries: 0 }), ['hello']).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(RateLimitedError)
    expect((error as RateLimitedError).retryAfterMs).toBe(7000)
    expect((error as Error).message).not.toMatch(/127\.0\.0\.1|hello/)
  })

  it('retries a 5xx at most twice, then fails with UpstreamError', async () => {
    fake.behaviour = 'error500'
    const error = await translate(google(), ['hello secret']).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error).not.toBeInstanceOf(UpstreamTimeoutError)
    expect((error as UpstreamError).message).toMatch(/HTTP 500/)
    expect((error as Error).message).not.toMatch(/secret/)
    expect(fake.calls).toHaveLength(3)
  })

  it('answers after a 5xx that passes', async () => {
    fake.behaviour = 'error500'
    fake.failTimes = 2
    expect(await translate(google(), ['hello'])).toEqual(['HELLO'])
    expect(fake.calls).toHaveLength(3)
  })

  it('gives up on a hanging engine at the deadline', async () => {
    fake.behaviour = 'hang'
    const started = Date.now()
    const error = await translate(google({ timeoutMs: 300 }), ['hello']).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(UpstreamTimeoutError)
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('stops when the caller gives up, with its reason', async () => {
    fake.behaviour = 'hang'
    const caller = new AbortController()
    const pending = translate(google(), ['hello'], caller.signal).catch((err: unknown) => err)
    setTimeout(() => caller.abort(new Error('client left')), 100)
    expect(((await pending) as Error).message).toBe('client left')
  })

  it('fails a body it cannot parse without retrying', async () => {
    fake.behaviour = 'malformed'
    const error = await translate(google(), ['hello']).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(UpstreamError)
    expect((error as UpstreamError).retryable).toBe(false)
    expect(fake.calls).toHaveLength(1)
  })

  it('opens its breaker after breakerFailures failures, then skips the engine', async () => {
    fake.behaviour = 'error500'
    const translator = google({ retries: 0, breakerFailures: 3, breakerCooldownMs: 60_000 })
    for (let i = 0; i < 3; i++) await expect(translate(translator, ['hello'])).rejects.toBeInstanceOf(UpstreamError)
    expect(fake.calls).toHaveLength(3)
    await expect(translate(translator, ['hello'])).rejects.toBeInstanceOf(CircuitOpenError)
    expect(fake.calls).toHaveLength(3)
  })

  it('does not trust the engine without its CA', async () => {
    const error = await translate(google({ retries: 0 }, null), ['hello']).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(UpstreamError)
    expect((error as Error).message).toMatch(/SELF_SIGNED|UNABLE_TO|CERT/)
    expect(fake.calls).toHaveLength(0)
  })

  it('trusts a CA given by NODE_EXTRA_CA_CERTS (a child process)', async () => {
    const code = `
      const { createGoogle } = await import('./src/providers/google/translator.ts')
      const t = createGoogle({ host: process.env.GOOGLE_TRANSLATE_HOST, remote: { timeoutMs: 5000 } })
      console.log(JSON.stringify(await t.translate({ from: 'en', to: 'fr', segments: ['hi <x id="1"/>'] }, AbortSignal.timeout(5000))))
      await t.close()`
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: process.cwd(),
      env: { ...process.env, NODE_EXTRA_CA_CERTS: fake.caPath, GOOGLE_TRANSLATE_HOST: fake.host },
      timeout: 10_000
    })
    expect(JSON.parse(stdout)).toEqual(['HI <x id="1"/>'])
    expect(sent()).toMatchObject({ sl: 'en', tl: 'fr' })
  })
})

describe('google: languages', () => {
  it('answers every pair among its static list of canonical tags, and sends Google its own codes', async () => {
    const translator = google()
    const pairs = await translator.languages()
    const tags = [...new Set(pairs.map(p => p.from))]
    expect(tags.length).toBeGreaterThanOrEqual(130)
    expect(pairs).toHaveLength(tags.length * (tags.length - 1))
    for (const tag of ['en', 'de', 'he', 'jv', 'fil', 'zh-CN', 'zh-TW', 'zh-Hant', 'mni-Mtei', 'kok']) expect(tags).toContain(tag)
    for (const tag of tags) expect(Intl.getCanonicalLocales(tag)[0]).toBe(tag)
    expect(translator.supportsFormality?.({ from: 'en', to: 'de' })).toBe(false)

    await translator.translate({ from: 'he', to: 'zh-Hant', segments: ['shalom'] }, AbortSignal.timeout(5000))
    expect(sent()).toMatchObject({ sl: 'iw', tl: 'zh-TW' })
  })
})

describe('google: tokens', () => {
  const plan = (segments: string[]): Request => planCall(segments).requests[0]!

  it('reads back tokens Google re-spaced, in full-width brackets or native digits', () => {
    const request = plan(['a <g id="1">b</g> c'])
    expect(request.text).toBe('a [1]b[2] c')
    expect(decodeAnswer(request, 'x ［١］y【 2 】 z')).toEqual(['x <g id="1">y</g> z'])
  })

  it('refuses pairs no longer nested, tokens moved between segments or repeated', () => {
    const nested = plan(['<g id="1">a <g id="2">b</g></g>'])
    expect(nested.text).toBe('[1]a [2]b[3][4]')
    expect(() => decodeAnswer(nested, '[1]A [2]B[4][3]')).toThrow(/reordered/)
    expect(() => decodeAnswer(nested, '[3]A [2]B[1][4]')).toThrow(/reordered/)

    const two = plan(['one<x id="1"/>', 'two'])
    expect(two.text).toBe('one[1]\n[2]\ntwo')
    expect(decodeAnswer(two, 'EINS[1]\n[2]\nZWEI')).toEqual(['EINS<x id="1"/>', 'ZWEI'])
    expect(() => decodeAnswer(two, 'EINS\n[2]\nZWEI[1]')).toThrow(/moved/)
    expect(() => decodeAnswer(two, 'EINS[1][1]\n[2]\nZWEI')).toThrow(/repeated/)
    expect(() => decodeAnswer(two, 'EINS[1] ZWEI')).toThrow(/dropped/)
  })
})
