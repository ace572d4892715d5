/**
 * The DeepL-compatible API as DeepL's clients call it, over real HTTP with the real Apertium
 * engine: deepl-python's requests (DeepLcom/deepl-python deepl/translator.py) replayed byte for
 * byte, the root mount its urljoin reaches, a GET's form body, model_type, DeepL's words for a
 * code it does not take; the official deepl-node client at the root; Mastodon's
 * (mastodon/mastodon app/lib/translation_service/deepl.rb) and Akkoma's
 * (AkkomaGang/akkoma lib/pleroma/akkoma/translators/deepl.ex) requests replayed; COMPAT_DEEPL_AT_ROOT.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { GlossaryEntries, Translator } from 'deepl-node'
import { testApp } from '../../../helpers/app.js'

const KEY = 'deepl-clients-key-0123456789'
const CLIENTS = JSON.stringify([{ id: 'deepl-client', api_keys: [KEY] }])
/** The headers deepl-python's requests session sends (http_client.py: User-Agent; translator.py: Authorization). */
const PYTHON_HEADERS = {
  'user-agent': 'deepl-python/1.28.0 (Linux-6.8.0-x86_64-with-glibc2.39) python/3.12.3 requests/2.32.3',
  'accept-encoding': 'gzip, deflate',
  accept: '*/*',
  authorization: `DeepL-Auth-Key ${KEY}`
}

interface Answer { status: number, headers: Record<string, unknown>, body: any }

/** One request over real HTTP, a GET with a body included (fetch refuses those; requests sends them). */
async function send (url: URL, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return await new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...headers, ...(body === undefined || headers['transfer-encoding'] !== undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } }, res => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('DeepL-compatible API: the clients\' own requests', () => {
  let app: FastifyInstance
  let address: string
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: CLIENTS }, { engines: true })
    address = await app.listen({ port: 0, host: '127.0.0.1' })
  }, 60_000)
  afterAll(async () => { await app?.close() })

  /** deepl-python's _api_call: urllib.parse.urljoin(server_url, "v2/...") (WHATWG URL resolves these alike). */
  const python = (serverUrl: string, path: string): URL => new URL(path, serverUrl)

  it('deepl-python with the documented server_url="http://host/deepl": urljoin calls /v2/..., served at the root', async () => {
    const serverUrl = `${address}/deepl`
    expect(python(serverUrl, 'v2/translate').pathname).toBe('/v2/translate')
    // translate_text(["...", "..."], target_lang="ES", model_type="quality_optimized"): json=request_data
    const body = JSON.stringify({ target_lang: 'ES', text: ['The red car is very fast.', 'The house is big.'], show_billed_characters: true, model_type: 'quality_optimized' })
    const res = await send(python(serverUrl, 'v2/translate'), 'POST', { ...PYTHON_HEADERS, 'content-type': 'application/json' }, body)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      translations: [
        { detected_source_language: 'EN', text: 'El coche rojo es muy rápido.', billed_characters: 25, model_type_used: 'quality_optimized' },
        { detected_source_language: 'EN', text: 'La casa es grande.', billed_characters: 17, model_type_used: 'quality_optimized' }
      ]
    })
    // get_usage, get_glossary_languages: GET with no body
    const usage = await send(python(serverUrl, 'v2/usage'), 'GET', PYTHON_HEADERS)
    expect(usage.status).toBe(200)
    expect(usage.body.character_count).toBeGreaterThanOrEqual(42)
    const pairs = await send(python(serverUrl, 'v2/glossary-language-pairs'), 'GET', PYTHON_HEADERS)
    expect(pairs.body).toEqual({ supported_languages: [] })
    // with a trailing slash urljoin keeps /deepl/: the same answers there, and one usage count for both
    const kept = await send(python(`${serverUrl}/`, 'v2/usage'), 'GET', PYTHON_HEADERS)
    expect(new URL(python(`${serverUrl}/`, 'v2/usage')).pathname).toBe('/deepl/v2/usage')
    expect(kept.body).toEqual(usage.body)
  })

  it('deepl-python\'s get_target_languages: GET v2/languages with the form body type=target gets the targets', async () => {
    const sources = await send(python(address, 'v2/languages'), 'GET', PYTHON_HEADERS)
    expect(sources.status).toBe(200)
    expect(sources.body).toContainEqual({ language: 'EN', name: 'English' })
    // data = {"type": "target"}; self._api_call("v2/languages", method="GET", data=data)
    const targets = await send(python(address, 'v2/languages'), 'GET', { ...PYTHON_HEADERS, 'content-type': 'application/x-www-form-urlencoded' }, 'type=target')
    expect(targets.status).toBe(200)
    expect(targets.body).toContainEqual({ language: 'EN-GB', name: 'English (United Kingdom)', supports_formality: false })
    expect(targets.body.every((l: Record<string, unknown>) => typeof l.supports_formality === 'boolean')).toBe(true)
    expect(targets.body.map((l: { language: string }) => l.language)).not.toContain('EN')
    // the same through /deepl, and a bad type in the body is a 400 naming it
    const prefixed = await send(new URL('/deepl/v2/languages', address), 'GET', { ...PYTHON_HEADERS, 'content-type': 'application/x-www-form-urlencoded' }, 'type=target')
    expect(prefixed.body).toEqual(targets.body)
    const bad = await send(new URL('/v2/languages', address), 'GET', { ...PYTHON_HEADERS, 'content-type': 'application/x-www-form-urlencoded' }, 'type=both')
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/^type: must be "source" or "target"/)
    // a GET's body is read up to 4 KiB, whether its length is declared or it comes chunked
    const big = await send(new URL('/v2/languages', address), 'GET', { ...PYTHON_HEADERS, 'content-type': 'application/x-www-form-urlencoded' }, `type=target&pad=${'x'.repeat(5000)}`)
    expect(big.status).toBe(413)
    expect(typeof big.body.message).toBe('string')
    const chunked = await send(new URL('/v2/languages', address), 'GET', { ...PYTHON_HEADERS, 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' }, `type=target&pad=${'x'.repeat(5000)}`)
    expect(chunked.status).toBe(413)
  })

  it('errors as DeepL words them, which the SDKs\' tests match: "target_lang.*not supported", "source_lang.*not supported"', async () => {
    const post = async (payload: Record<string, unknown>): Promise<Answer> =>
      await send(python(address, 'v2/translate'), 'POST', { ...PYTHON_HEADERS, 'content-type': 'application/json' }, JSON.stringify({ show_billed_characters: true, ...payload }))
    // tests/test_translate_text.py test_invalid_language: target_lang="XX" with no source
    const target = await post({ target_lang: 'XX', text: ['Hello, world!'] })
    expect(target.status).toBe(400)
    expect(target.body.message).toMatch(/^target_lang: Value for 'target_lang' not supported/)
    const source = await post({ target_lang: 'ES', source_lang: 'XX', text: ['Hello, world!'] })
    expect(source.status).toBe(400)
    expect(source.body.message).toMatch(/source_lang.*not supported/)
    // a source with a variant is refused, as DeepL refuses it; its base language is taken
    for (const code of ['EN-GB', 'en-us', 'PT-BR', 'ZH-HANS']) {
      const variant = await post({ target_lang: 'ES', source_lang: code, text: ['The house'] })
      expect(variant.status, code).toBe(400)
      expect(variant.body.message, code).toMatch(/^source_lang: Value for 'source_lang' not supported: .* a source is a base language \([A-Z]{2}\)$/)
    }
    expect((await post({ target_lang: 'ES', source_lang: 'EN', text: ['The house'] })).status).toBe(200)
    const model = await post({ target_lang: 'ES', text: ['The house'], model_type: 'fastest' })
    expect(model.status).toBe(400)
    expect(model.body.message).toMatch(/model_type: must be "quality_optimized", "prefer_quality_optimized" or "latency_optimized"/)
    for (const [asked, used] of [['latency_optimized', 'latency_optimized'], ['prefer_quality_optimized', 'quality_optimized']]) {
      const res = await post({ target_lang: 'ES', source_lang: 'EN', text: ['The house'], model_type: asked })
      expect(res.body.translations[0].model_type_used).toBe(used)
    }
    // without model_type, no model_type_used (as DeepL)
    expect((await post({ target_lang: 'ES', source_lang: 'EN', text: ['The house'] })).body.translations[0]).not.toHaveProperty('model_type_used')
  })

  it('deepl-node with the server URL at the root (no path) gets the same answers', async () => {
    const translator = new Translator(KEY, { serverUrl: address, maxRetries: 0 })
    const result = await translator.translateText('The red car', 'en', 'es', { modelType: 'latency_optimized' })
    expect(result.text).toBe('El coche rojo')
    expect(result.modelTypeUsed).toBe('latency_optimized')
    expect((await translator.getTargetLanguages()).map(l => l.code)).toContain('en-GB')
    await expect(translator.translateText('The red car', null, 'xx' as 'es')).rejects.toThrow(/target_lang.*not supported/)
  })

  it('deepl-node with tagHandling xml gets a CDATA section and an entity reference back as written, only the prose translated (a probe got them translated and escaped)', async () => {
    const translator = new Translator(KEY, { serverUrl: address, maxRetries: 0 })
    const cdata = '<![CDATA[<b>bold</b> if (a > b)]]>'
    const withCdata = (await translator.translateText(`<doc><p>The red car.</p>${cdata}</doc>`, 'en', 'es', { tagHandling: 'xml' })).text
    expect(withCdata).toMatch(/^<doc><p>[^<]+<\/p>/)
    expect(withCdata.slice(withCdata.indexOf('</p>'))).toBe(`</p>${cdata}</doc>`)
    expect(withCdata).not.toContain('The red car')
    const withEntity = (await translator.translateText('<doc><p>The &product; car.</p></doc>', 'en', 'es', { tagHandling: 'xml' })).text
    expect(withEntity).toMatch(/^<doc><p>[^<&]*&product;[^<&]*<\/p><\/doc>$/)
    expect(withEntity).not.toContain(' car.')
  })

  it('deepl-node\'s glossary methods get a clear "not stored here", not "Glossary not found" (a probe\'s createGlossary and listGlossaries did)', async () => {
    const translator = new Translator(KEY, { serverUrl: address, maxRetries: 0 })
    const notServed = /Bad request, message: Glossaries are not stored here/
    await expect(translator.createGlossary('terms', 'en', 'es', new GlossaryEntries({ entries: { car: 'coche' } }))).rejects.toThrow(notServed)
    await expect(translator.listGlossaries()).rejects.toThrow(notServed)
    await expect(translator.getGlossary('a6f7ba1a-4b8b-4b7b-9c3b-1b1e7a1f7c11')).rejects.toThrow(notServed)
    await expect(translator.deleteGlossary('a6f7ba1a-4b8b-4b7b-9c3b-1b1e7a1f7c11')).rejects.toThrow(notServed)
    // v3's multilingual glossaries, at /deepl too; without a key it is DeepL's 403 first
    const v3 = await fetch(`${address}/deepl/v3/glossaries`, { headers: { authorization: `DeepL-Auth-Key ${KEY}` } })
    expect(v3.status).toBe(400)
    expect(await v3.json()).toEqual({ message: expect.stringMatching(/substitutions/) })
    expect((await fetch(`${address}/deepl/v3/glossaries`)).status).toBe(403)
  })

  it('Mastodon (app/lib/translation_service/deepl.rb): form text repeated, source upper-case, tag_handling html; GET languages?type=', async () => {
    const form = new URLSearchParams([['text', '<p>The red car</p>'], ['text', '<p>The house is big.</p>'], ['source_lang', 'EN'], ['target_lang', 'es'], ['tag_handling', 'html']]).toString()
    const res = await send(new URL('/v2/translate', address), 'POST', { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': 'application/x-www-form-urlencoded' }, form)
    expect(res.status).toBe(200)
    expect(res.body.translations).toEqual([
      { detected_source_language: 'EN', text: '<p>El coche rojo</p>' },
      { detected_source_language: 'EN', text: '<p>La casa es grande.</p>' }
    ])
    // a status without a language: http.rb writes source_lang (nil) as a bare key; empty and JSON null are no source either (detected)
    for (const [body, type] of [['text=The+red+car&target_lang=es&source_lang', 'application/x-www-form-urlencoded'], ['text=The+red+car&target_lang=es&source_lang=&formality=', 'application/x-www-form-urlencoded'],
      [JSON.stringify({ text: ['The red car'], target_lang: 'ES', source_lang: null, context: null }), 'application/json']] as const) {
      const bare = await send(new URL('/v2/translate', address), 'POST', { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': type }, body)
      expect(bare.status, JSON.stringify(bare.body)).toBe(200)
      expect(bare.body.translations).toEqual([{ detected_source_language: 'EN', text: 'El coche rojo' }])
    }
    for (const type of ['source', 'target']) {
      const list = await send(new URL(`/v2/languages?type=${type}`, address), 'GET', { authorization: `DeepL-Auth-Key ${KEY}` })
      expect(list.status).toBe(200)
      expect(list.body.length).toBeGreaterThan(1)
    }
  })

  it('Akkoma (lib/pleroma/akkoma/translators/deepl.ex): base_url ".../v2/", form with rfc3986 encoding, no source_lang', async () => {
    const body = 'tag_handling=html&target_lang=ES&text=The%20red%20car%20is%20very%20fast.'
    const res = await send(new URL('/deepl/v2/translate', address), 'POST', { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': 'application/x-www-form-urlencoded' }, body)
    expect(res.body).toEqual({ translations: [{ detected_source_language: 'EN', text: 'El coche rojo es muy rápido.' }] })
    const targets = await send(new URL('/deepl/v2/languages?type=target', address), 'GET', { authorization: `DeepL-Auth-Key ${KEY}` })
    expect(targets.body.every((l: Record<string, unknown>) => typeof l.language === 'string' && typeof l.name === 'string')).toBe(true)
  })
})

describe('DeepL-compatible API with no translation service', () => {
  it('answers 503 (nothing configured), not a 400 blaming target_lang', async () => {
    const app = await testApp({ AUTH_CLIENTS: CLIENTS })
    try {
      const res = await app.inject({ method: 'POST', url: '/v2/translate', headers: { authorization: `DeepL-Auth-Key ${KEY}` }, payload: { text: 'The house', target_lang: 'ES' } })
      expect(res.statusCode).toBe(503)
      expect(res.json().message).not.toMatch(/not supported/)
    } finally {
      await app.close()
    }
  })
})

describe('COMPAT_DEEPL_AT_ROOT=false', () => {
  it('serves DeepL\'s API at /deepl only', async () => {
    const app = await testApp({ AUTH_CLIENTS: CLIENTS, COMPAT_DEEPL_AT_ROOT: 'false' })
    try {
      const headers = { authorization: `DeepL-Auth-Key ${KEY}` }
      expect((await app.inject({ method: 'GET', url: '/v2/usage', headers })).statusCode).toBe(404)
      expect((await app.inject({ method: 'POST', url: '/v2/translate', headers, payload: { text: 'x', target_lang: 'ES' } })).statusCode).toBe(404)
      expect((await app.inject({ method: 'GET', url: '/deepl/v2/usage', headers })).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })
})
