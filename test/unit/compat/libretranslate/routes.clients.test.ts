/**
 * The LibreTranslate-compatible API as LibreTranslate's clients call it: the codes they send
 * (LibreTranslate's own `pb`, `zt`, and tags in any case, libretranslate/language.py) through an
 * outside engine that has them (the LibreTranslate fake), the list in LibreTranslate's codes, a
 * missing key answered as LibreTranslate's app.py answers it; Mastodon's current requests
 * (mastodon/mastodon app/lib/translation_service/libre_translate.rb: `q` an array, GET languages
 * with a JSON content type) and Akkoma's (AkkomaGang/akkoma
 * lib/pleroma/akkoma/translators/libre_translate.ex: the URL's path replaced) replayed through Apertium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createLibreTranslate } from '../../../../src/providers/libretranslate/translator.js'
import { emptyRegistry } from '../../../../src/registry.js'
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../../../fakes/libretranslate.js'
import { testApp } from '../../../helpers/app.js'

const KEY = 'lt-clients-key-0123456789'
const CLIENTS = JSON.stringify([{ id: 'lt-client', api_keys: [KEY] }])

describe('LibreTranslate-compatible API: the codes LibreTranslate\'s clients send', () => {
  let libre: FakeLibreTranslate
  let app: FastifyInstance
  beforeAll(async () => {
    libre = await startFakeLibreTranslate()
    const translator = createLibreTranslate({ url: libre.url, apiKey: libre.key, remote: { timeoutMs: 5000 } })
    app = await testApp({ AUTH_CLIENTS: CLIENTS }, { registry: { ...emptyRegistry(), translators: [translator] } })
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await libre?.close()
  })

  const translate = async (payload: Record<string, unknown>): Promise<{ status: number, body: any }> => {
    const res = await app.inject({ method: 'POST', url: '/libretranslate/translate', payload: { api_key: KEY, ...payload } })
    return { status: res.statusCode, body: res.json() }
  }

  it('takes pb and zt (LibreTranslate\'s model codes) and pt-BR, zh-Hant in any case, as targets and sources', async () => {
    const cases: Array<[string, string]> = [['pb', 'pt-BR'], ['pt-BR', 'pt-BR'], ['pt-br', 'pt-BR'], ['zt', 'zt'], ['zh-Hant', 'zt'], ['ZH-HANT', 'zt'], ['zh-Hans', 'zh'], ['zh', 'zh']]
    for (const [target, sent] of cases) {
      const before = libre.calls.length
      // a text of its own each time: the translation cache would answer a repeat without the engine
      const res = await translate({ q: `The house of ${target}`, source: 'en', target })
      expect(res.status, target).toBe(200)
      expect(res.body.translatedText, target).toBe(`THE HOUSE OF ${target.toUpperCase()}`)
      // what reached the engine: its own code for that language
      expect((libre.calls.slice(before).find(c => c.path === '/translate')?.body as { target: string }).target, target).toBe(sent)
    }
    const from = await translate({ q: 'A casa', source: 'pb', target: 'en' })
    expect(from.status).toBe(200)
    expect((libre.calls.at(-1)?.body as { source: string }).source).toBe('pt-BR')
    const unknown = await translate({ q: 'The house', source: 'en', target: 'constructor' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toMatch(/^target: /)
  })

  it('lists the languages as LibreTranslate\'s /languages does: pt-BR, zh-Hans, zh-Hant (never pb, zt or a bare zh)', async () => {
    const list = (await app.inject({ method: 'GET', url: '/libretranslate/languages' })).json() as Array<{ code: string, targets: string[] }>
    const codes = list.map(l => l.code)
    expect(codes).toEqual(expect.arrayContaining(['en', 'pt', 'pt-BR', 'zh-Hans', 'zh-Hant']))
    for (const code of ['pb', 'zt', 'zh']) expect(codes).not.toContain(code)
    expect(new Set(codes).size).toBe(codes.length)
    const english = list.find(l => l.code === 'en')!
    expect(english.targets).toEqual(expect.arrayContaining(['pt-BR', 'zh-Hans', 'zh-Hant']))
    expect(english.targets).not.toContain('zh')
    // every code listed is taken back
    for (const code of english.targets) expect((await translate({ q: 'The garden', source: 'en', target: code })).status, code).toBe(200)
  })
})

describe('LibreTranslate-compatible API: its clients\' requests through Apertium', () => {
  let app: FastifyInstance
  beforeAll(async () => { app = await testApp({ AUTH_CLIENTS: CLIENTS }, { engines: true }) }, 60_000)
  afterAll(async () => { await app?.close() })

  it('a missing key is LibreTranslate\'s 400 "Please contact the server operator to get an API key"; a wrong one stays a 403', async () => {
    for (const payload of [{ q: 'The house', source: 'en', target: 'es' }, { q: 'The house', source: 'en', target: 'es', api_key: '' }]) {
      const res = await app.inject({ method: 'POST', url: '/libretranslate/translate', payload })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'Please contact the server operator to get an API key' })
    }
    const detect = await app.inject({ method: 'POST', url: '/detect', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'q=The+house' })
    expect(detect.statusCode).toBe(400)
    expect(detect.json().error).toMatch(/API key/)
    const wrong = await app.inject({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'The house', source: 'en', target: 'es', api_key: 'not-a-key-0123456789' } })
    expect(wrong.statusCode).toBe(403)
    expect(Object.keys(wrong.json())).toEqual(['error'])
  })

  it('Mastodon: POST translate JSON with q an array, format html; GET languages with Content-Type: application/json and no body', async () => {
    // Oj.dump(q: texts, source: source_language.presence || 'auto', target:, format: 'html', api_key:); req.add_headers('Content-Type': 'application/json')
    const res = await app.inject({
      method: 'POST',
      url: '/libretranslate/translate',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ q: ['<p>The red car is very fast.</p>', '<p>The house is big.</p>'], source: 'auto', target: 'es', format: 'html', api_key: KEY })
    })
    expect(res.statusCode).toBe(200)
    // data['translatedText'].map.with_index; data.dig('detectedLanguage', index, 'language')
    expect(res.json().translatedText).toEqual(['<p>El coche rojo es muy rápido.</p>', '<p>La casa es grande.</p>'])
    expect(res.json().detectedLanguage.map((d: { language: string }) => d.language)).toEqual(['en', 'en'])
    const languages = await app.inject({ method: 'GET', url: '/libretranslate/languages', headers: { 'content-type': 'application/json' } })
    expect(languages.statusCode).toBe(200)
    // languages: [code, targets.without(code)]
    const english = (languages.json() as Array<{ code: string, targets: string[] }>).find(l => l.code === 'en')
    expect(english?.targets).toContain('es')
  })

  it('deep-translator: POST translate with every field in the query and no body (requests.post(url, params=params)), at the root and /libretranslate', async () => {
    // LibreTranslator.translate: params = {q, source, target, format: 'text'} (+ api_key); requests.post(base_url + 'translate', params=params)
    const query = new URLSearchParams({ q: 'The red car is very fast.', source: 'en', target: 'es', format: 'text', api_key: KEY })
    for (const prefix of ['', '/libretranslate']) {
      const res = await app.inject({ method: 'POST', url: `${prefix}/translate?${query}` })
      expect(res.statusCode, prefix).toBe(200)
      expect(res.json(), prefix).toEqual({ translatedText: 'El coche rojo es muy rápido.' })
    }
    // a field missing from the query is named as LibreTranslate names it
    const missing = await app.inject({ method: 'POST', url: `/translate?${new URLSearchParams({ q: 'The house', source: 'en', api_key: KEY })}` })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ error: 'Invalid request: missing target parameter' })
  })

  it('Nextcloud integration_libretranslate: POST detect?q=...&api_key=... with an empty form body, at the root and /libretranslate', async () => {
    // jefs42/libretranslate: '/detect?' . http_build_query(['q' => $text, 'api_key' => $key]), POSTed with no fields
    const query = new URLSearchParams({ q: 'El cotxe vermell és molt ràpid i la casa és gran.', api_key: KEY })
    for (const prefix of ['', '/libretranslate']) {
      const res = await app.inject({ method: 'POST', url: `${prefix}/detect?${query}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })
      expect(res.statusCode, prefix).toBe(200)
      expect(res.json()[0].language, prefix).toBe('ca')
    }
  })

  it('reads a form\'s fields from the query too, the query\'s first (Flask\'s request.values); a JSON body\'s from the JSON only', async () => {
    const form = await app.inject({
      method: 'POST',
      url: '/translate?target=es&format=text',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ q: 'The red car is very fast.', source: 'en', target: 'ca', api_key: KEY }).toString()
    })
    expect(form.statusCode).toBe(200)
    expect(form.json()).toEqual({ translatedText: 'El coche rojo es muy rápido.' })
    const json = await app.inject({
      method: 'POST',
      url: '/translate?target=ca&format=pdf',
      payload: { q: 'The red car is very fast.', source: 'en', target: 'es', api_key: KEY }
    })
    expect(json.statusCode).toBe(200)
    expect(json.json()).toEqual({ translatedText: 'El coche rojo es muy rápido.' })
  })

  it('n8n-nodes-libretranslate-api: an empty api_key (its key field left empty) on languages is no key: the list', async () => {
    // qs: { api_key: '' } on every request when the key is left empty
    for (const url of ['/languages?api_key=', '/libretranslate/languages?api_key=']) {
      const res = await app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect((res.json() as Array<{ code: string }>).map(l => l.code), url).toContain('en')
    }
    const post = await app.inject({ method: 'POST', url: '/languages', payload: { api_key: '' } })
    expect(post.statusCode).toBe(200)
    expect((post.json() as Array<{ code: string }>).map(l => l.code)).toContain('en')
    // an empty key is still no key where one is needed
    const translate = await app.inject({ method: 'POST', url: '/translate?api_key=', payload: { q: 'The house', source: 'en', target: 'es' } })
    expect(translate.statusCode).toBe(400)
    expect(translate.json()).toEqual({ error: 'Please contact the server operator to get an API key' })
  })

  it('Akkoma: the URL\'s path replaced by /translate and /languages (the root), JSON, source "auto" when unknown', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/translate',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ q: '<p>The red house</p>', source: 'auto', target: 'ca', format: 'html', api_key: KEY })
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ translatedText: '<p>La casa vermella</p>', detectedLanguage: expect.objectContaining({ language: 'en' }) })
    const languages = (await app.inject({ method: 'GET', url: '/languages' })).json() as Array<{ code: string, name: string }>
    expect(languages).toContainEqual(expect.objectContaining({ code: 'es', name: 'Spanish' }))
  })
})
