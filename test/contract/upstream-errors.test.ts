/**
 * What a client and the log get of an outside engine's failure (issue 24, finding 2), over HTTP
 * against a local fake of each engine that answers an error quoting its API key (as it is, in an
 * HTML page, base64-encoded, spaced out) and the texts it was sent: the client gets the engine's
 * name, the HTTP status and our own words; the log gets the engine's words with the key and every
 * client text replaced.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { startFakeDeepl } from '../fakes/deepl.js'
import { startFakeGoogleCloud } from '../fakes/google-cloud.js'
import { startFakeGoogle } from '../fakes/google.js'
import { startFakeLibreTranslate } from '../fakes/libretranslate.js'
import { startFakeLlm } from '../fakes/openai.js'
import type { QuoteForm } from '../fakes/engine-server.js'
import { bearer, CLIENT, testApp, tokenFor } from '../helpers/app.js'
import { emptyRegistry, type Registry } from '../../src/registry.js'
import { createDeepl } from '../../src/providers/deepl/translator.js'
import { createGoogleCloud } from '../../src/providers/google-cloud/translator.js'
import { createGoogle } from '../../src/providers/google/translator.js'
import { createLibreTranslate } from '../../src/providers/libretranslate/translator.js'
import { createOpenAi } from '../../src/providers/openai/index.js'
import { createOfflineAnalyzer } from '../../src/providers/offline-analyzer/index.js'

type Started<T extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<T>>

const OTHER = { id: 'other-client', secret: 'other-client-secret' }
/** Keys shaped as each engine's are, so that shape-based redaction alone would not do. */
const LLM_KEY = 'sk-proj-QUOTEDKEY-7f3a9c2e5b8d1f4a6c0e'

let deepl: Started<typeof startFakeDeepl>
let googleCloud: Started<typeof startFakeGoogleCloud>
let google: Started<typeof startFakeGoogle>
let libre: Started<typeof startFakeLibreTranslate>
let llm: Started<typeof startFakeLlm>
let app: FastifyInstance
let tokens: { one: string, other: string }
const lines: string[] = []

beforeAll(async () => {
  [deepl, googleCloud, google, libre, llm] = await Promise.all([
    startFakeDeepl(), startFakeGoogleCloud(), startFakeGoogle(), startFakeLibreTranslate(), startFakeLlm({ key: LLM_KEY })
  ])
  // the engines as Config would build them (the free Google fake needs its test CA, which Config has no setting for)
  const remote = { timeoutMs: 5000, retries: 0, breakerFailures: 1000, concurrency: 1 }
  const openai = createOpenAi({ baseUrl: llm.url, apiKey: llm.key, model: llm.model, remote })
  const translators = [
    createDeepl({ apiKey: deepl.key, serverUrl: deepl.url, remote }),
    createGoogleCloud({ apiKey: googleCloud.key, url: googleCloud.url, remote }),
    createGoogle({ host: google.host, ca: google.ca, remote }),
    createLibreTranslate({ url: libre.url, apiKey: libre.key, remote }),
    openai.translator!
  ]
  const registry: Registry = {
    ...emptyRegistry(),
    translators,
    analyzers: [openai.analyzer!, createOfflineAnalyzer()],
    close: async () => { await Promise.all(translators.map(async t => await t.close?.())) }
  }
  app = await testApp({
    AUTH_CLIENTS: JSON.stringify([
      { id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'] },
      { id: OTHER.id, secret: OTHER.secret, scopes: ['access'] }
    ]),
    LOG_LEVEL: 'info'
  }, { registry, logger: true, logStream: { write: line => { lines.push(line) } } })
  tokens = { one: await tokenFor(app, CLIENT), other: await tokenFor(app, OTHER) }
  // every engine has listed its languages
  for (let i = 0; i < 100; i++) {
    const res = await app.inject({ method: 'GET', url: '/language/translate/locales', headers: bearer(tokens.one) })
    const ja = (res.json().target as Array<{ tag: string, services: string[] }>).find(t => t.tag === 'ja')
    if (ja?.services.length === 5) break
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}, 60_000)

afterAll(async () => {
  await app?.close()
  await Promise.all([deepl, googleCloud, google, libre, llm].filter(Boolean).map(async f => await f.close()))
})

beforeEach(() => { lines.length = 0 })

/** Every form in which a key must not appear anywhere. */
function keyForms (key: string): string[] {
  const bytes = Buffer.from(key)
  return [key, bytes.toString('base64'), bytes.toString('base64url'), Buffer.from(`Bearer ${key}`).toString('base64'), Array.from(key).join(' ')]
}

/** The log lines (parsed) of one request. */
function logOf (requestId: string): Array<Record<string, any>> {
  return lines.map(line => JSON.parse(line) as Record<string, any>).filter(entry => entry['request_id'] === requestId)
}

/** What a client's answer and the whole log must not hold: the key in any form, the client's texts, the engine's own words. */
function expectNothingOf (where: string, label: string, secrets: { key: string, texts: readonly string[], engineWords?: readonly string[] }): void {
  for (const form of secrets.key === '' ? [] : keyForms(secrets.key)) expect(where, `${label}: key as ${form.slice(0, 12)}...`).not.toContain(form)
  for (const text of secrets.texts) expect(where, `${label}: client text`).not.toContain(text)
  for (const words of secrets.engineWords ?? []) expect(where, `${label}: engine words`).not.toContain(words)
}

const translate = async (token: string, service: string, value: string): Promise<LightMyRequestResponse> => await app.inject({
  method: 'POST',
  url: '/language/translate',
  headers: bearer(token),
  payload: { document: { value }, source: 'en', targets: ['ja'], options: { service, fallback: false, cache: false } }
})

/** The engine words every fake's 'quote-error' answer holds (see quotingWords, quotingPage). */
const ENGINE_WORDS = ['not valid', 'Cannot process', 'Request refused', 'Request:']

describe('an outside engine that quotes its key and the texts in an error', () => {
  const cases: Array<{ service: string, forms: QuoteForm[], key: () => string, fake: () => { behaviour: string, quoteAs: string }, status: string }> = [
    { service: 'deepl', forms: ['json', 'html'], key: () => deepl.key, fake: () => deepl, status: 'answered HTTP 400' },
    { service: 'google-cloud', forms: ['json', 'html'], key: () => googleCloud.key, fake: () => googleCloud, status: 'answered HTTP 400' },
    { service: 'libretranslate', forms: ['json', 'html'], key: () => libre.key, fake: () => libre, status: 'answered HTTP 400' },
    { service: 'openai', forms: ['json', 'html', 'base64', 'spaced'], key: () => llm.key, fake: () => llm, status: 'answered HTTP 401 (check its API key)' },
    { service: 'google', forms: ['html', 'json'], key: () => '', fake: () => google, status: 'answered HTTP 400' }
  ]

  for (const { service, forms, key, fake, status } of cases) {
    it.each(forms)(`${service}, quoting as %s: a 502 in our words; the log has the engine's words redacted`, async (form) => {
      const engine = fake()
      engine.behaviour = 'quote-error'
      engine.quoteAs = form
      const texts = [`My account password is hunter2-${service}-${form}`, 'and my card is 4111-1111-1111-1111.']
      try {
        const res = await translate(tokens.one, service, texts.join(' '))
        expect(res.statusCode, res.body).toBe(502)
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
        const body = res.json()
        expect(body.detail).toBe(`Translating en->ja failed: ${service}: ${status}`)
        expectNothingOf(res.body, 'answer', { key: key(), texts, engineWords: ENGINE_WORDS })

        const logged = logOf(body.request_id).find(entry => entry['msg'] === 'request failed')
        expect(logged, lines.join('')).toBeDefined()
        const said = String(logged!['err'].engineMessage)
        // the engine's words are there, with its key and the client's texts replaced
        expect(said).toMatch(/not valid|Cannot process|Request refused|Request:/)
        expect(said).toContain('[text]')
        if (key() !== '') expect(said).toContain('[redacted]')
        expectNothingOf(lines.join(''), 'log', { key: key(), texts: ['hunter2', '4111-1111'] })
      } finally {
        engine.behaviour = 'ok'
      }
    })
  }

  it('two clients whose texts went into one call each get a 502 with neither text, and the log has neither', async () => {
    googleCloud.behaviour = 'quote-error'
    googleCloud.quoteAs = 'json'
    googleCloud.latencyMs = 300
    googleCloud.calls.length = 0
    try {
      const first = translate(tokens.one, 'google-cloud', 'A first request that holds the only slot.')
      // UPSTREAM_CONCURRENCY 1: while the first call runs, both of these wait and go in one call
      await new Promise(resolve => setTimeout(resolve, 100))
      const [mine, theirs] = await Promise.all([
        translate(tokens.one, 'google-cloud', 'Private note of client one: salary 91,000.'),
        translate(tokens.other, 'google-cloud', 'Private note of client two: diagnosis pending.')
      ])
      await first
      const batched = googleCloud.calls.find(c => JSON.stringify(c.body).includes('client one') && JSON.stringify(c.body).includes('client two'))
      expect(batched, 'both texts went into one call').toBeDefined()
      for (const res of [mine, theirs]) {
        expect(res.statusCode).toBe(502)
        expectNothingOf(res.body, 'answer', { key: googleCloud.key, texts: ['client one', 'salary', 'client two', 'diagnosis'], engineWords: ENGINE_WORDS })
      }
      expectNothingOf(lines.join(''), 'log', { key: googleCloud.key, texts: ['client one', 'salary', 'client two', 'diagnosis'] })
      expect(logOf(theirs.json().request_id).find(entry => entry['msg'] === 'request failed')?.['err'].engineMessage).toMatch(/^\{"error".*not valid: \[redacted\].*\[text\]/)
    } finally {
      googleCloud.behaviour = 'ok'
      googleCloud.latencyMs = 0
    }
  })
})

describe('analyze when the model fails with an error quoting its key and the text', () => {
  it.each(['json', 'base64', 'spaced'] as const)('falls back with a reason in our words (quoting as %s); the log has the model\'s words redacted', async (form) => {
    llm.behaviour = 'quote-error'
    llm.quoteAs = form
    const text = 'The surgery on patient Jane Roe went well and she is happy.'
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/language/analyze',
        headers: bearer(tokens.other),
        payload: { document: { value: text, language: 'en' }, analyses: ['sentiment'] }
      })
      expect(res.statusCode, res.body).toBe(200)
      const meta = res.json().sentiment.meta
      expect(meta).toMatchObject({ analyzer: 'offline', fallback_from: 'openai', fallback_reason: 'openai: answered HTTP 401 (check its API key)' })
      expectNothingOf(res.body.replace(JSON.stringify(text), ''), 'answer', { key: llm.key, texts: [], engineWords: ENGINE_WORDS })

      const logged = lines.map(line => JSON.parse(line) as Record<string, any>).find(entry => entry['msg'] === 'analyzer failed; the offline analysers answered')
      expect(logged, lines.join('')).toMatchObject({ level: 40, analyzer: 'openai', reason: meta.fallback_reason })
      expect(logged!['engineMessage']).toMatch(/not valid: \[redacted\].*\[text\]/)
      expectNothingOf(lines.join(''), 'log', { key: llm.key, texts: ['Jane Roe', 'surgery'] })
    } finally {
      llm.reset()
    }
  })
})
