/**
 * The translation cache across clients, over HTTP with the real Apertium engine (issue 24, finding
 * 1): a client cannot plant a translation that another client's text is then answered with; and
 * with the LibreTranslate fake, whose calls tell hits from misses (issue 32, finding 9): a client's
 * cache is its own unless TRANSLATION_CACHE_SHARED=true.
 */
import { createHash, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createLibreTranslate } from '../../../src/providers/libretranslate/translator.js'
import { emptyRegistry } from '../../../src/registry.js'
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../../fakes/libretranslate.js'
import { bearer, CLIENT, testApp, tokenFor } from '../../helpers/app.js'

const OTHER = { id: 'other-client', secret: 'other-client-secret' }

let app: FastifyInstance
beforeAll(async () => {
  app = await testApp({
    AUTH_CLIENTS: JSON.stringify([
      { id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'] },
      { id: OTHER.id, secret: OTHER.secret, scopes: ['access'] }
    ])
  }, { engines: true })
}, 60_000)
afterAll(async () => { await app?.close() })

async function translate (token: string, value: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/language/translate',
    headers: bearer(token),
    payload: { document: { value }, source: 'en', targets: ['es'], options: { service: 'apertium' } }
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().results.es.value as string
}

describe('the translation cache across clients', () => {
  it('never answers one client\'s long sentence with what another client\'s lookalike of its key was translated to', async () => {
    // one sentence of 252 characters, which the old keys hashed: "#" + base64url(SHA-256)
    const sentence = 'The red car that my neighbour bought last year is parked in front of the big house at the end of our quiet street, ' +
      'and every morning he washes it carefully before driving to the office where he has worked for more than twenty long years now, all alone.'
    expect(sentence).toHaveLength(252)
    const lookalike = '#' + createHash('sha256').update(sentence).digest('base64url')
    const [attacker, victim] = [await tokenFor(app, CLIENT), await tokenFor(app, OTHER)]

    const planted = await translate(attacker, lookalike)
    expect(planted).toContain(lookalike.slice(1))
    const answer = await translate(victim, sentence)
    expect(answer).not.toContain(lookalike.slice(1))
    for (const word of [/coche/, /rojo/, /casa/, /calle/]) expect(answer).toMatch(word)
    // and the other way round: the lookalike is still answered with its own translation
    expect(await translate(attacker, lookalike)).toBe(planted)
  })
})

describe('whose the cache is (issue 32, finding 9): each client\'s own unless TRANSLATION_CACHE_SHARED=true', () => {
  let libre: FakeLibreTranslate
  beforeAll(async () => { libre = await startFakeLibreTranslate() })
  afterAll(async () => { await libre?.close() })

  /** An app whose one translator is the LibreTranslate fake (its calls counted), and its two clients' tokens. */
  async function outsideApp (env: Record<string, string>): Promise<{ app: FastifyInstance, translate: (token: string, value: string) => Promise<void>, tokens: [string, string] }> {
    const translator = createLibreTranslate({ url: libre.url, apiKey: libre.key, remote: { timeoutMs: 5000 } })
    const outside = await testApp({
      AUTH_CLIENTS: JSON.stringify([
        { id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'] },
        { id: OTHER.id, secret: OTHER.secret, scopes: ['access'] }
      ]),
      ...env
    }, { registry: { ...emptyRegistry(), translators: [translator] } })
    const translate = async (token: string, value: string): Promise<void> => {
      const res = await outside.inject({ method: 'POST', url: '/language/translate', headers: bearer(token), payload: { document: { value }, source: 'en', targets: ['es'] } })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().results.es.value).toBe(value.toUpperCase())
    }
    return { app: outside, translate, tokens: [await tokenFor(outside, CLIENT), await tokenFor(outside, OTHER)] }
  }
  const engineCalls = (): number => libre.calls.filter(c => c.path.startsWith('/translate')).length

  it('by default a sentence one client had translated is translated again for another (no hit tells it what the first sent)', async () => {
    const { app: outside, translate, tokens: [first, second] } = await outsideApp({})
    try {
      const sentence = `Only the first client wrote this ${randomUUID()}.`
      const before = engineCalls()
      await translate(first, sentence)
      await translate(first, sentence)
      // the first client's repeat is its own hit
      expect(engineCalls()).toBe(before + 1)
      await translate(second, sentence)
      expect(engineCalls()).toBe(before + 2)
      await translate(second, sentence)
      expect(engineCalls()).toBe(before + 2)
    } finally {
      await outside.close()
    }
  })

  it('TRANSLATION_CACHE_SHARED=true: one cache for every client (a hit for the second)', async () => {
    const { app: outside, translate, tokens: [first, second] } = await outsideApp({ TRANSLATION_CACHE_SHARED: 'true' })
    try {
      const sentence = `Both clients share this ${randomUUID()}.`
      const before = engineCalls()
      await translate(first, sentence)
      await translate(second, sentence)
      expect(engineCalls()).toBe(before + 1)
    } finally {
      await outside.close()
    }
  })
})
