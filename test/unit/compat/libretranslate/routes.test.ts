/**
 * The LibreTranslate-compatible API over the app (app.inject), with the real Apertium engine and
 * detector: every field and error of translate, detect, languages and frontend/settings, keys
 * (plain and hashed), the root mount and the settings that switch them off, and request shapes
 * recorded from Mastodon's, Discourse's and Weblate's LibreTranslate clients, replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import translateClient from 'translate'
import { hashSecret } from '../../../../src/http/auth/secrets.js'
import { testApp } from '../../../helpers/app.js'

const KEY = 'lt-key-0123456789abcdef'
const HASHED_KEY = 'lt-hashed-key-0123456789'
const READ_KEY = 'lt-read-only-key-0123456'
const form = { 'content-type': 'application/x-www-form-urlencoded' }

async function clients (): Promise<string> {
  return JSON.stringify([
    { id: 'lt-client', secret: 'lt-client-secret', api_keys: [KEY] },
    { id: 'lt-hashed', api_key_hashes: [await hashSecret(HASHED_KEY)] },
    { id: 'lt-reader', api_keys: [READ_KEY], scopes: ['read'] }
  ])
}

describe('LibreTranslate-compatible API', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: await clients() }, { engines: true })
  }, 60_000)
  afterAll(async () => { await app?.close() })

  const translate = async (payload: Record<string, unknown> | string, headers: Record<string, string> = {}, url = '/libretranslate/translate'): Promise<{ status: number, body: any, headers: Record<string, unknown> }> => {
    const res = await app.inject({ method: 'POST', url, payload, headers })
    return { status: res.statusCode, body: res.json(), headers: res.headers }
  }

  it('translates a string (JSON) through Apertium, with the source given', async () => {
    const res = await translate({ q: 'The red car is very fast.', source: 'en', target: 'es', api_key: KEY })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ translatedText: 'El coche rojo es muy rápido.' })
    expect(res.headers['ratelimit-limit']).toBeDefined()
  })

  it('detects the source with auto, and answers detectedLanguage (one per text for an array)', async () => {
    const one = await translate({ q: 'The red car is very fast and the house is big.', source: 'auto', target: 'es', api_key: KEY })
    expect(one.status).toBe(200)
    expect(one.body.translatedText).toBe('El coche rojo es muy rápido y la casa es grande.')
    expect(one.body.detectedLanguage.language).toBe('en')
    expect(one.body.detectedLanguage.confidence).toBeGreaterThan(50)
    expect(one.body.detectedLanguage.confidence).toBeLessThanOrEqual(100)

    const many = await translate({ q: ['The red car is very fast and the house is big.', 'El coche rojo es muy rápido y la casa es grande.'], target: 'ca', api_key: KEY })
    expect(many.status).toBe(200)
    expect(many.body.translatedText).toHaveLength(2)
    expect(many.body.detectedLanguage.map((d: { language: string }) => d.language)).toEqual(['en', 'es'])
    expect(many.body.translatedText[1]).toMatch(/cotxe vermell/)
  })

  it('short texts with source auto are read among the languages that reach the target; text with nothing to detect comes back unchanged, as LibreTranslate answers it', async () => {
    // Mastodon's request for a short post (issue 31: "Hello world" was read as Nynorsk, a 400)
    const hello = await translate({ q: 'Hello world', source: 'auto', target: 'es', format: 'html', api_key: KEY })
    expect(hello.status, JSON.stringify(hello.body)).toBe(200)
    expect(hello.body.translatedText).toMatch(/hola/i)
    expect(hello.body.detectedLanguage.language).toBe('en')
    // LibreTranslate detects 'en' at confidence 0 when there is nothing to detect, and translates the text as it is
    const numbers = await translate({ q: '1234 5678', source: 'auto', target: 'es', api_key: KEY })
    expect(numbers.status).toBe(200)
    expect(numbers.body).toEqual({ translatedText: '1234 5678', detectedLanguage: { confidence: 0, language: 'en' } })
    const many = await translate({ q: ['The red car is very fast.', '🎉', 'https://example.com/a'], source: 'auto', target: 'es', api_key: KEY })
    expect(many.status).toBe(200)
    expect(many.body.translatedText).toEqual(['El coche rojo es muy rápido.', '🎉', 'https://example.com/a'])
    expect(many.body.detectedLanguage.slice(1)).toEqual([{ confidence: 0, language: 'en' }, { confidence: 0, language: 'en' }])
    for (const q of ['12345', '👍👍', 'https://example.com/foo']) {
      const detect = await app.inject({ method: 'POST', url: '/libretranslate/detect', payload: { q, api_key: KEY } })
      expect(detect.statusCode).toBe(200)
      expect(detect.json(), q).toEqual([{ confidence: 0, language: 'en' }])
    }
  })

  it('takes form bodies (q repeated for an array), format html, and alternatives (answered empty)', async () => {
    const html = await translate(`q=${encodeURIComponent('<p>The <b>red</b> car</p>')}&source=en&target=es&format=html&api_key=${KEY}&alternatives=3`, form)
    expect(html.status).toBe(200)
    expect(html.body).toEqual({ translatedText: '<p>El coche <b>rojo</b></p>', alternatives: [] })
    const many = await translate(`q=Good+morning&q=The+house&source=en&target=es&api_key=${KEY}`, form)
    expect(many.status).toBe(200)
    expect(many.body.translatedText).toEqual(['Buenos días', 'La casa'])
    // placeholders are kept, as on /language/translate
    const kept = await translate({ q: 'Hello {name}, the car is red.', source: 'en', target: 'es', api_key: KEY })
    expect(kept.body.translatedText).toContain('{name}')
  })

  it('takes a hashed key, and the key in the query', async () => {
    const hashed = await translate({ q: 'The house', source: 'en', target: 'es', api_key: HASHED_KEY })
    expect(hashed.status).toBe(200)
    expect(hashed.body.translatedText).toBe('La casa')
    const query = await translate({ q: 'The house', source: 'en', target: 'es' }, {}, `/libretranslate/translate?api_key=${KEY}`)
    expect(query.status).toBe(200)
  })

  it('refuses a wrong key and a client without the access scope: 403 {"error"}; no key is LibreTranslate\'s 400', async () => {
    for (const key of [undefined, '']) {
      const res = await translate({ q: 'The house', source: 'en', target: 'es', ...(key === undefined ? {} : { api_key: key }) })
      expect(res.status, String(key)).toBe(400)
      expect(res.body).toEqual({ error: 'Please contact the server operator to get an API key' })
    }
    for (const key of ['not-a-key-of-anyone-here', 'short', READ_KEY]) {
      const res = await translate({ q: 'The house', source: 'en', target: 'es', ...(key === undefined ? {} : { api_key: key }) })
      expect(res.status, String(key)).toBe(403)
      expect(Object.keys(res.body)).toEqual(['error'])
      expect(res.body.error).toMatch(/key/i)
    }
    const detect = await app.inject({ method: 'POST', url: '/libretranslate/detect', payload: { q: 'The house' } })
    expect(detect.statusCode).toBe(400)
  })

  it('answers bad input with 400 {"error"} naming the field', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ source: 'en', target: 'es' }, /^Invalid request: missing q parameter$/],
      [{ q: '', source: 'en', target: 'es' }, /missing q/],
      [{ q: 'x', source: 'en' }, /^Invalid request: missing target parameter$/],
      [{ q: 'The house', source: 'en', target: 'xx' }, /target/],
      [{ q: 'The house', source: 'not a tag!', target: 'es' }, /source/],
      [{ q: 'x', source: 'en', target: 'es', format: 'pdf' }, /^Invalid request: format: must be "text" or "html"$/],
      [{ q: 'x', source: 'en', target: 'es', alternatives: 'many' }, /alternatives: must be a whole number/],
      [{ q: [1, 2], source: 'en', target: 'es' }, /q: must be a string, or an array/],
      [{ q: [], source: 'en', target: 'es' }, /q: must be a string, or an array/]
    ]
    for (const [payload, message] of cases) {
      const res = await translate({ ...payload, api_key: KEY })
      expect(res.status, JSON.stringify(payload)).toBe(400)
      expect(Object.keys(res.body)).toEqual(['error'])
      expect(res.body.error, JSON.stringify(payload)).toMatch(message)
    }
    const notJson = await app.inject({ method: 'POST', url: '/libretranslate/translate', payload: '{"q": ', headers: { 'content-type': 'application/json' } })
    expect(notJson.statusCode).toBe(400)
    expect(Object.keys(notJson.json())).toEqual(['error'])
  })

  it('detect: [{confidence, language}], most likely first (JSON and form)', async () => {
    const res = await app.inject({ method: 'POST', url: '/libretranslate/detect', payload: { q: 'Ceci est une phrase en français, assez longue pour être reconnue.', api_key: KEY } })
    expect(res.statusCode).toBe(200)
    const list = res.json() as Array<{ confidence: number, language: string }>
    expect(list[0]!.language).toBe('fr')
    expect(list[0]!.confidence).toBeGreaterThan(50)
    const byForm = await app.inject({ method: 'POST', url: '/libretranslate/detect', payload: `q=${encodeURIComponent('El coche rojo es muy rápido y la casa es grande.')}&api_key=${KEY}`, headers: form })
    expect(byForm.json()[0].language).toBe('es')
    const empty = await app.inject({ method: 'POST', url: '/libretranslate/detect', payload: { q: '', api_key: KEY } })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().error).toBe('Invalid request: missing q parameter')
    // /detect reads one text: its error says so (not translate's "or an array")
    const many = await app.inject({ method: 'POST', url: '/libretranslate/detect', payload: { q: ['Bonjour tout le monde'], api_key: KEY } })
    expect(many.statusCode).toBe(400)
    expect(many.json().error).toBe('Invalid request: q: must be a string')
  })

  it('detect answers as LibreTranslate (detect.py): one candidate for a text under 20 characters, else at most 3, none at 0, only languages translated from', async () => {
    const detect = async (q: string): Promise<Array<{ confidence: number, language: string }>> => {
      const res = await app.inject({ method: 'POST', url: '/libretranslate/detect', headers: form, payload: new URLSearchParams({ q, api_key: KEY }).toString() })
      expect(res.statusCode, q).toBe(200)
      return res.json()
    }
    const sources = new Set(((await app.inject({ method: 'GET', url: '/libretranslate/languages' })).json() as Array<{ code: string, targets: string[] }>)
      .filter(l => l.targets.length > 0).map(l => l.code))
    // the Go client SnakeSel/libretranslate fails unless a short text gets exactly one
    for (const q of ['Hello world', 'Bonjour', 'Buenos días']) {
      const short = await detect(q)
      expect(short, q).toHaveLength(1)
      expect(short[0]!.confidence, q).toBeGreaterThan(0)
      expect(sources, q).toContain(short[0]!.language)
    }
    expect((await detect('Hello world'))[0]!.language).toBe('en')
    for (const q of ['The house is big and the car is red, and we are going home now.', 'Ceci est une phrase en français, assez longue pour être reconnue.']) {
      const long = await detect(q)
      expect(long.length, q).toBeGreaterThanOrEqual(1)
      expect(long.length, q).toBeLessThanOrEqual(3)
      for (const { confidence, language } of long) {
        expect(confidence, q).toBeGreaterThan(0)
        expect(sources, q).toContain(language)
      }
      expect(long.map(c => c.confidence), q).toEqual([...long.map(c => c.confidence)].sort((a, b) => b - a))
    }
    // a text in a language no service translates from: LibreTranslate's answer for nothing detected
    const untranslated: Array<[string, string]> = [['de', 'Das ist ein deutscher Satz über das Wetter von morgen.'], ['de', 'Guten Tag'], ['ja', 'これは日本語の文章です。それほど長くはありません。']]
    for (const [language, q] of untranslated) if (!sources.has(language)) expect(await detect(q), q).toEqual([{ confidence: 0, language: 'en' }])
  })

  it('languages (GET and POST): [{code, name, targets}] without a key; a wrong key given is a 403', async () => {
    const res = await app.inject({ method: 'GET', url: '/libretranslate/languages' })
    expect(res.statusCode).toBe(200)
    const list = res.json() as Array<{ code: string, name: string, targets: string[] }>
    const en = list.find(l => l.code === 'en')!
    expect(en.name).toBe('English')
    expect(en.targets).toContain('es')
    expect(en.targets).not.toContain('en')
    // every language a service translates into is an entry too, as LibreTranslate lists every language it loaded:
    // Weblate takes the codes as what it may translate from and into, the npm libretranslate package refuses a target not among them
    const codes = new Set(list.map(l => l.code))
    const targets = new Set(list.flatMap(l => l.targets))
    expect(targets.size).toBeGreaterThan(0)
    for (const target of targets) expect(codes, target).toContain(target)
    expect(codes.size).toBe(list.length)
    for (const { code, name, targets } of list) {
      expect(name, code).not.toBe('')
      // a language only translated into has no targets
      if (targets.length === 0) expect(list.some(l => l.targets.includes(code)), code).toBe(true)
    }
    const post = await app.inject({ method: 'POST', url: '/libretranslate/languages', payload: { api_key: KEY } })
    expect(post.json()).toEqual(list)
    const wrong = await app.inject({ method: 'GET', url: '/libretranslate/languages?api_key=wrong-key-0123456789' })
    expect(wrong.statusCode).toBe(403)
    expect(Object.keys(wrong.json())).toEqual(['error'])
  })

  it('frontend/settings as LibreTranslate answers it: keys required', async () => {
    const res = await app.inject({ method: 'GET', url: '/libretranslate/frontend/settings' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ apiKeys: true, keyRequired: true, filesTranslation: true, language: { source: { code: 'auto' }, target: { code: 'en', name: 'English' } } })
    expect(res.json().charLimit).toBeGreaterThan(0)
  })

  it('is served at the root too: /translate, /detect, /languages, /frontend/settings', async () => {
    const res = await translate({ q: 'The house', source: 'en', target: 'es', api_key: KEY }, {}, '/translate')
    expect(res.body).toEqual({ translatedText: 'La casa' })
    expect((await app.inject({ method: 'POST', url: '/detect', payload: { q: 'The house is big and the car is red.', api_key: KEY } })).json()[0].language).toBe('en')
    expect((await app.inject({ method: 'GET', url: '/languages' })).statusCode).toBe(200)
    expect((await app.inject({ method: 'GET', url: '/frontend/settings' })).statusCode).toBe(200)
  })

  it('the `translate` npm package\'s libre engine, over real HTTP, gets Apertium\'s translation', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const url = `${address}/libretranslate/translate`
    // its options as its README gives them: engine, key and url on an instance, from and to per call
    const client = (key: string): typeof translateClient => translateClient.Translate({ engine: 'libre', key, url } as Parameters<typeof translateClient.Translate>[0])
    expect(await client(KEY)('The red car is very fast.', { from: 'en', to: 'es' })).toBe('El coche rojo es muy rápido.')
    expect(await client(HASHED_KEY)('The red house', { from: 'english', to: 'catalan' })).toBe('La casa vermella')
    await expect(client('not-a-key-0123456789')('The house', { from: 'en', to: 'es' })).rejects.toThrow()
  })

  describe('recorded requests of LibreTranslate clients, replayed', () => {
    it('Mastodon (app/lib/translation_service/libre_translate.rb): JSON with format html, reads translatedText', async () => {
      // Oj.dump(q:, source: source_language.presence || 'auto', target:, format: 'html', api_key:), Content-Type: application/json
      const res = await translate(JSON.stringify({ q: '<p>The red car is very fast.</p>', source: 'auto', target: 'es', format: 'html', api_key: KEY }), { 'content-type': 'application/json' })
      expect(res.status).toBe(200)
      expect(res.body.translatedText).toBe('<p>El coche rojo es muy rápido.</p>')
      expect(res.body.detectedLanguage.language).toBe('en')
    })

    it('Discourse (discourse-translator): detect and translate form-urlencoded, languages with no key', async () => {
      // Excon.get(support_uri) with no key; Excon.post(url, body: URI.encode_www_form(body), Content-Type: application/x-www-form-urlencoded)
      const languages = await app.inject({ method: 'GET', url: '/libretranslate/languages' })
      expect(languages.json().some((l: { code: string }) => l.code === 'en')).toBe(true)
      const text = 'The red car is very fast and the house is big.'
      const detect = await app.inject({ method: 'POST', url: '/libretranslate/detect', headers: form, payload: new URLSearchParams({ q: text, api_key: KEY }).toString() })
      expect(detect.json()[0].language).toBe('en')
      const res = await translate(new URLSearchParams({ q: `<p>${text}</p>`, source: 'en', target: 'es', format: 'html', api_key: KEY }).toString(), form)
      expect(res.body.translatedText).toBe('<p>El coche rojo es muy rápido y la casa es grande.</p>')
    })

    it('Weblate (weblate/machinery/libretranslate.py): form q, source, target, api_key; GET languages', async () => {
      // requests.post(url, data={"api_key", "q", "source", "target"})
      const res = await translate(new URLSearchParams({ api_key: KEY, q: 'The red house', source: 'en', target: 'es' }).toString(), form)
      expect(res.status).toBe(200)
      expect(res.body.translatedText).toBe('La casa roja')
      const codes = (await app.inject({ method: 'GET', url: '/libretranslate/languages' })).json().map((l: { code: string }) => l.code)
      expect(codes).toContain('es')
    })
  })
})

describe('LibreTranslate-compatible API: limits and settings', () => {
  it('counts a key\'s requests against its client\'s rate limit: 429 {"error"} with Retry-After', async () => {
    const app = await testApp({ AUTH_CLIENTS: await clients(), RATE_LIMIT_MAX: '2' })
    try {
      const send = async (): Promise<{ statusCode: number, json: () => any, headers: Record<string, unknown> }> => await app.inject({ method: 'POST', url: '/libretranslate/detect', payload: { q: 'x', api_key: KEY } })
      await send()
      await send()
      const limited = await send()
      expect(limited.statusCode).toBe(429)
      expect(Object.keys(limited.json())).toEqual(['error'])
      expect(limited.headers['retry-after']).toBeDefined()
    } finally {
      await app.close()
    }
  })

  it('failed keys count against the address: past AUTH_FAILURES_MAX a minute, 429 even for a right key', async () => {
    const app = await testApp({ AUTH_CLIENTS: await clients(), AUTH_FAILURES_MAX: '3' })
    try {
      const send = async (key: string): Promise<number> => (await app.inject({ method: 'POST', url: '/libretranslate/detect', payload: { q: 'The house is big.', api_key: key } })).statusCode
      for (let i = 0; i < 3; i++) expect(await send(`wrong-key-0123456789-${i}`)).toBe(403)
      expect(await send('wrong-key-0123456789-x')).toBe(429)
      expect(await send(KEY)).toBe(429)
    } finally {
      await app.close()
    }
  })

  it('COMPAT_LIBRETRANSLATE_AT_ROOT=false: /libretranslate only; COMPAT_LIBRETRANSLATE=false: neither', async () => {
    const notRoot = await testApp({ AUTH_CLIENTS: await clients(), COMPAT_LIBRETRANSLATE_AT_ROOT: 'false' })
    try {
      expect((await notRoot.inject({ method: 'GET', url: '/languages' })).statusCode).toBe(404)
      expect((await notRoot.inject({ method: 'GET', url: '/libretranslate/languages' })).statusCode).toBe(200)
    } finally {
      await notRoot.close()
    }
    const off = await testApp({ AUTH_CLIENTS: await clients(), COMPAT_LIBRETRANSLATE: 'false' })
    try {
      expect((await off.inject({ method: 'GET', url: '/languages' })).statusCode).toBe(404)
      expect((await off.inject({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'x', target: 'es', api_key: KEY } })).statusCode).toBe(404)
    } finally {
      await off.close()
    }
  })
})
