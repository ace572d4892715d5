/**
 * The DeepL-API-v2-compatible API over the app (app.inject) with the real Apertium engine and
 * detector: every field and error of v2/translate, v2/languages, v2/usage and
 * v2/glossary-language-pairs, the key as DeepL's clients send it, the quota (456), COMPAT_DEEPL;
 * the official deepl-node client over real HTTP (app.listen); and Weblate's DeepL backend's
 * requests (weblate/machinery/deepl.py) replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { AuthorizationError, QuotaExceededError, Translator } from 'deepl-node'
import { hashSecret } from '../../../../src/http/auth/secrets.js'
import { testApp } from '../../../helpers/app.js'

const KEY = 'deepl-key-0123456789abcdef'
const HASHED_KEY = 'deepl-hashed-key-01234567'
const READ_KEY = 'deepl-read-only-key-0123'
const auth = (key: string): Record<string, string> => ({ authorization: `DeepL-Auth-Key ${key}` })
const form = { 'content-type': 'application/x-www-form-urlencoded' }

async function clients (): Promise<string> {
  return JSON.stringify([
    { id: 'deepl-client', api_keys: [KEY] },
    { id: 'deepl-hashed', api_key_hashes: [await hashSecret(HASHED_KEY)] },
    { id: 'deepl-reader', api_keys: [READ_KEY], scopes: ['read'] }
  ])
}

describe('DeepL-compatible API', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: await clients() }, { engines: true })
  }, 60_000)
  afterAll(async () => { await app?.close() })

  const send = async (request: InjectOptions & { url: string }, key: string | null = KEY): Promise<{ status: number, body: any, headers: Record<string, unknown> }> => {
    const res = await app.inject({ method: 'POST', ...request, headers: { ...(key === null ? {} : auth(key)), ...(request.headers ?? {}) } })
    return { status: res.statusCode, body: res.json(), headers: res.headers }
  }
  const translate = async (payload: Record<string, unknown> | string, headers: Record<string, string> = {}, key?: string): Promise<{ status: number, body: any, headers: Record<string, unknown> }> =>
    await send({ url: '/deepl/v2/translate', payload, headers }, key ?? KEY)

  it('translates a text (JSON) through Apertium, source given in any case, with DeepL\'s answer shape', async () => {
    const res = await translate({ text: 'The red car is very fast.', source_lang: 'en', target_lang: 'ES' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ translations: [{ detected_source_language: 'EN', text: 'El coche rojo es muy rápido.' }] })
    expect(res.headers['ratelimit-limit']).toBeDefined()
  })

  it('detects the source per text when source_lang is missing, and answers it in DeepL\'s upper-case codes', async () => {
    const res = await translate({ text: ['The red car is very fast and the house is big.', 'El coche rojo es muy rápido y la casa es grande.'], target_lang: 'ca' })
    expect(res.status).toBe(200)
    expect(res.body.translations.map((t: { detected_source_language: string }) => t.detected_source_language)).toEqual(['EN', 'ES'])
    expect(res.body.translations[1].text).toMatch(/cotxe vermell/)
  })

  it('a batch with the source detected is not failed by a short text or one with nothing to detect (issue 31)', async () => {
    // each short text is read among the languages that reach the target: "Hello world" was Nynorsk, failing the batch
    const res = await translate({ text: ['The red car is very fast.', 'Hello world', 'Thank you', '2024', '🎉 https://example.com/x'], target_lang: 'ES' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const out = res.body.translations as Array<{ detected_source_language: string, text: string }>
    expect(out.map(t => t.detected_source_language)).toEqual(['EN', 'EN', 'EN', 'EN', 'EN'])
    expect(out[1]!.text).toMatch(/hola/i)
    expect(out[2]!.text).toMatch(/gracias/i)
    // nothing to detect: the text as it was (answered EN, as DeepL always names a language)
    expect(out.slice(3).map(t => t.text)).toEqual(['2024', '🎉 https://example.com/x'])
  })

  it('takes form bodies (text repeated), DeepL\'s regional targets, bare EN, and show_billed_characters', async () => {
    const res = await translate('text=The+house&text=The+red+car+is+very+fast.&source_lang=EN&target_lang=PT-BR&show_billed_characters=1&split_sentences=nonewlines&preserve_formatting=1&model_type=quality_optimized', form)
    expect(res.status).toBe(200)
    expect(res.body.translations).toEqual([
      { detected_source_language: 'EN', text: 'A casa', billed_characters: 9, model_type_used: 'quality_optimized' },
      { detected_source_language: 'EN', text: 'O carro vermelho é muito rápido.', billed_characters: 25, model_type_used: 'quality_optimized' }
    ])
    // bare EN (DeepL's "unspecified variant") is en-US here; Apertium's English serves it
    const english = await translate({ text: 'El coche rojo', source_lang: 'ES', target_lang: 'EN' })
    expect(english.body.translations[0].text).toBe('The red car')
    const gb = await translate({ text: 'El coche rojo', source_lang: 'es', target_lang: 'en-gb', split_sentences: '0', preserve_formatting: true, context: 'Cars for sale', formality: 'prefer_less' })
    expect(gb.status).toBe(200)
    expect(gb.body.translations[0].text).toBe('The red car')
  })

  it('tag_handling html keeps markup; ignore_tags keeps those elements\' content untouched', async () => {
    const html = await translate({ text: '<p>The <b>red</b> car</p>', source_lang: 'EN', target_lang: 'ES', tag_handling: 'html' })
    expect(html.body.translations[0].text).toBe('<p>El coche <b>rojo</b></p>')
    const ignored = await translate({ text: 'The red car <keep class="x">the house</keep> is fast.', source_lang: 'EN', target_lang: 'ES', tag_handling: 'html', ignore_tags: 'keep,other' })
    expect(ignored.status).toBe(200)
    expect(ignored.body.translations[0].text).toContain('<keep class="x">the house</keep>')
    expect(ignored.body.translations[0].text).toMatch(/^El coche rojo /)
    // without ignore_tags the same content is translated
    const translated = await translate({ text: 'The red car <span>the house</span>', source_lang: 'EN', target_lang: 'ES', tag_handling: 'html' })
    expect(translated.body.translations[0].text).toContain('la casa')
    // plain text: markup is text, left to the engine as /language/translate leaves plain text
    const plain = await translate({ text: 'The house', source_lang: 'EN', target_lang: 'ES', ignore_tags: ['x'] })
    expect(plain.body.translations[0].text).toBe('La casa')
  })

  it('tag_handling xml: self-closing elements kept as written, and no HTML-only entity written', async () => {
    const res = await translate({ text: 'The red car<br/> is <ph id="1"/> very fast.', source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' })
    expect(res.status).toBe(200)
    const text = res.body.translations[0].text as string
    expect(text).toContain('<ph id="1"/>')
    expect(text).toContain('<br/>')
    expect(text).toMatch(/coche rojo/)
    expect(text).not.toContain('</ph>')
    const nbsp = await translate({ text: '<t>The\u00a0house</t>', source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' })
    expect(nbsp.body.translations[0].text).not.toContain('&nbsp;')
  })

  it('formality: prefer_* is accepted where no service honours it, more/less is a 400 naming formality', async () => {
    expect((await translate({ text: 'The house', source_lang: 'EN', target_lang: 'ES', formality: 'prefer_more' })).body.translations[0].text).toBe('La casa')
    const strict = await translate({ text: 'The house', source_lang: 'EN', target_lang: 'ES', formality: 'more' })
    expect(strict.status).toBe(400)
    expect(strict.body.message).toMatch(/^formality: /)
  })

  it('takes a hashed key, and auth_key in the body (form) or the query', async () => {
    expect((await translate({ text: 'The house', source_lang: 'EN', target_lang: 'ES' }, {}, HASHED_KEY)).body.translations[0].text).toBe('La casa')
    const body = await send({ url: '/deepl/v2/translate', headers: form, payload: `text=The+house&source_lang=EN&target_lang=ES&auth_key=${KEY}` }, null)
    expect(body.status).toBe(200)
    const query = await send({ url: `/deepl/v2/translate?auth_key=${KEY}`, payload: { text: 'The house', source_lang: 'EN', target_lang: 'ES' } }, null)
    expect(query.status).toBe(200)
  })

  it('refuses no key, a wrong key, another scheme and a client without the access scope: 403 {"message"}', async () => {
    const payload = { text: 'The house', source_lang: 'EN', target_lang: 'ES' }
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{}, /key/i],
      [auth('wrong-key-0123456789'), /key/i],
      [{ authorization: `Bearer ${KEY}` }, /key/i],
      [auth(READ_KEY), /scope/]
    ]
    for (const [headers, message] of cases) {
      const res = await send({ url: '/deepl/v2/translate', payload, headers }, null)
      expect(res.status, JSON.stringify(headers)).toBe(403)
      expect(Object.keys(res.body)).toEqual(['message'])
      expect(res.body.message).toMatch(message)
    }
    // the other routes need the key too: the compatible APIs are never open
    for (const url of ['/deepl/v2/languages', '/deepl/v2/usage', '/deepl/v2/glossary-language-pairs']) {
      expect((await send({ method: 'GET', url }, null)).status, url).toBe(403)
    }
  })

  it('answers a 400 {"message"} naming the field', async () => {
    const cases: Array<[Record<string, unknown> | string, RegExp]> = [
      [{ target_lang: 'ES' }, /missing text/],
      [{ text: 'x' }, /missing target_lang/],
      [{ text: 'The house', source_lang: 'EN', target_lang: 'xx' }, /^target_lang: Value for 'target_lang' not supported/],
      [{ text: 'The house', source_lang: 'qq', target_lang: 'ES' }, /^source_lang: Value for 'source_lang' not supported/],
      [{ text: 'The house', target_lang: 'ES', tag_handling: 'markdown' }, /tag_handling: must be "html" or "xml"/],
      [{ text: 'The house', target_lang: 'ES', tag_handling: 'html', ignore_tags: ['x', 'a b'] }, /^ignore_tags: "a b"/],
      [{ text: 'The house', target_lang: 'ES', formality: 'very' }, /formality: must be/],
      [{ text: 'The house', target_lang: 'ES', split_sentences: '2' }, /split_sentences: must be/],
      [{ text: 'The house', target_lang: 'ES', preserve_formatting: 'maybe' }, /preserve_formatting: must be/],
      [{ text: Array.from({ length: 51 }, () => 'x'), target_lang: 'ES' }, /text: must be a string, or an array of 1 to 50/],
      [{ text: ['The house', 7], target_lang: 'ES' }, /^Invalid request: text/],
      [{ text: [], target_lang: 'ES' }, /^Invalid request: text/]
    ]
    for (const [payload, message] of cases) {
      const res = await translate(payload)
      expect(res.status, JSON.stringify(payload).slice(0, 100)).toBe(400)
      expect(Object.keys(res.body)).toEqual(['message'])
      expect(res.body.message, JSON.stringify(payload).slice(0, 100)).toMatch(message)
    }
    const bad = await send({ url: '/deepl/v2/translate', payload: '{"text": ', headers: { 'content-type': 'application/json' } })
    expect(bad.status).toBe(400)
    expect(typeof bad.body.message).toBe('string')
    const type = await send({ url: '/deepl/v2/translate', payload: 'x', headers: { 'content-type': 'text/plain' } })
    expect(type.status).toBe(415)
    expect(typeof type.body.message).toBe('string')
    const languages = await send({ method: 'GET', url: '/deepl/v2/languages?type=both' })
    expect(languages.status).toBe(400)
    expect(languages.body.message).toMatch(/type: must be "source" or "target"/)
  })

  it('reads a POST with no body at all as an empty form: the field missing is named (a probe\'s got "body: must be object")', async () => {
    const id = '00000000-0000-4000-8000-000000000000'
    const expected: Record<string, RegExp> = {
      '/deepl/v2/translate': /^Invalid request: missing text parameter$/,
      '/deepl/v2/document': /^Invalid request: missing file parameter$/,
      [`/deepl/v2/document/${id}`]: /^Invalid request: missing document_key parameter$/,
      [`/deepl/v2/document/${id}/result`]: /^Invalid request: missing document_key parameter$/
    }
    for (const [url, message] of Object.entries(expected)) {
      const bare = await send({ url, headers: { 'content-length': '0' } })
      expect(bare.status, url).toBe(400)
      expect(bare.body, url).toEqual({ message: expect.stringMatching(message) })
      expect(await send({ url, headers: form, payload: '' }), url).toMatchObject({ status: 400, body: bare.body })
    }
  })

  it('v2/languages: sources by base code, targets with regions and supports_formality, by GET or POST', async () => {
    const sources = await send({ method: 'GET', url: '/deepl/v2/languages' })
    expect(sources.status).toBe(200)
    expect(sources.body).toContainEqual({ language: 'EN', name: 'English' })
    expect(sources.body).toContainEqual({ language: 'ES', name: 'Spanish' })
    for (const l of sources.body) expect(l.language).toMatch(/^[A-Z]{2,3}$/)
    expect((await send({ method: 'GET', url: '/deepl/v2/languages?type=source' })).body).toEqual(sources.body)

    const targets = await send({ method: 'GET', url: '/deepl/v2/languages?type=target' })
    expect(targets.body).toContainEqual({ language: 'ES', name: 'Spanish', supports_formality: false })
    expect(targets.body).toContainEqual({ language: 'EN-US', name: 'English (United States)', supports_formality: false })
    expect(targets.body).toContainEqual({ language: 'EN-GB', name: 'English (United Kingdom)', supports_formality: false })
    expect(targets.body).toContainEqual({ language: 'PT-BR', name: 'Portuguese (Brazil)', supports_formality: false })
    expect(targets.body.map((l: { language: string }) => l.language)).not.toContain('EN')
    const posted = await send({ url: '/deepl/v2/languages', headers: form, payload: 'type=target' })
    expect(posted.body).toEqual(targets.body)
    expect((await send({ url: '/deepl/v2/languages?type=target', payload: {} })).body).toEqual(targets.body)
    // a POST with no body at all (curl -X POST, a fetch without one) reads the query (a probe's got "body: must be object"); the key is still needed
    const bare = await send({ url: '/deepl/v2/languages?type=target' })
    expect(bare.status, JSON.stringify(bare.body)).toBe(200)
    expect(bare.body).toEqual(targets.body)
    expect((await send({ url: '/deepl/v2/languages?type=target' }, null)).status).toBe(403)
  })

  it('v2/glossary-language-pairs: none, since no glossary is stored here (Weblate lists and creates glossaries for a pair listed, and failed on every string)', async () => {
    const res = await send({ method: 'GET', url: '/deepl/v2/glossary-language-pairs' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ supported_languages: [] })
  })

  it('v2/usage: the characters this client had translated, and the limit', async () => {
    const before = (await send({ method: 'GET', url: '/deepl/v2/usage' }, HASHED_KEY)).body
    expect(before.character_limit).toBe(1_000_000_000_000)
    await translate({ text: ['The house', 'The red car'], source_lang: 'EN', target_lang: 'ES' }, {}, HASHED_KEY)
    const after = (await send({ method: 'GET', url: '/deepl/v2/usage' }, HASHED_KEY)).body
    expect(after.character_count - before.character_count).toBe('The house'.length + 'The red car'.length)
    // a refused request counts nothing
    await translate({ text: 'The house', source_lang: 'EN', target_lang: 'xx' }, {}, HASHED_KEY)
    expect((await send({ method: 'GET', url: '/deepl/v2/usage' }, HASHED_KEY)).body.character_count).toBe(after.character_count)
  })

  it('the official deepl-node client, over real HTTP, gets Apertium\'s translations', async () => {
    const serverUrl = `${await app.listen({ port: 0, host: '127.0.0.1' })}/deepl`
    const translator = new Translator(KEY, { serverUrl, maxRetries: 0 })
    const html = await translator.translateText('<p>The <b>red</b> car is very fast.</p>', 'en', 'es', { tagHandling: 'html' })
    expect(html.text).toBe('<p>El coche <b>rojo</b> es muy rápido.</p>')
    expect(html.detectedSourceLang).toBe('en')
    const two = await translator.translateText(['The red car is very fast and the house is big.', 'The house is big.'], null, 'es')
    expect(two.map(r => r.text)).toEqual(['El coche rojo es muy rápido y la casa es grande.', 'La casa es grande.'])
    expect(two.map(r => r.detectedSourceLang)).toEqual(['en', 'en'])
    expect(two[1]!.billedCharacters).toBe('The house is big.'.length)
    const short = await translator.translateText(['Good morning', 'proton beam', '12345'], null, 'es')
    expect(short.map(r => r.detectedSourceLang)).toEqual(['en', 'en', 'en'])
    expect(short[2]!.text).toBe('12345')
    const pt = await translator.translateText('The red car', 'en', 'pt-BR', { formality: 'prefer_less', context: 'A car shop', preserveFormatting: true, splitSentences: 'nonewlines' })
    expect(pt.text).toBe('O carro vermelho')

    const sources = await translator.getSourceLanguages()
    expect(sources.map(l => l.code)).toContain('en')
    expect(sources.find(l => l.code === 'es')?.name).toBe('Spanish')
    const targets = await translator.getTargetLanguages()
    expect(targets.map(l => l.code)).toEqual(expect.arrayContaining(['en-US', 'en-GB', 'es', 'ca', 'pt-BR']))
    expect(targets.find(l => l.code === 'es')?.supportsFormality).toBe(false)
    const usage = await translator.getUsage()
    expect(usage.character?.count).toBeGreaterThan(0)
    expect(usage.character?.limit).toBe(1_000_000_000_000)
    expect(usage.anyLimitReached()).toBe(false)
    expect(await translator.getGlossaryLanguagePairs()).toEqual([])

    await expect(new Translator('not-a-key-0123456789', { serverUrl, maxRetries: 0 }).translateText('The house', 'en', 'es')).rejects.toBeInstanceOf(AuthorizationError)
  })

  describe('recorded requests of DeepL clients, replayed', () => {
    it('Weblate (weblate/machinery/deepl.py): JSON, upper-case codes, tag_handling xml, ignore_tags ["x"], placeholders <x id="n"></x>', async () => {
      // download_languages: GET languages?type=source, then ?type=target (supports_formality read)
      const sources = (await send({ method: 'GET', url: '/deepl/v2/languages?type=source' })).body.map((l: { language: string }) => l.language)
      expect(sources).toContain('EN')
      const targets = (await send({ method: 'GET', url: '/deepl/v2/languages?type=target' })).body
      expect(targets.every((l: Record<string, unknown>) => typeof l.supports_formality === 'boolean')).toBe(true)
      // is_glossary_supported: GET glossary-language-pairs; none listed, so it never asks for glossaries (which fail here)
      expect((await send({ method: 'GET', url: '/deepl/v2/glossary-language-pairs' })).body.supported_languages).toEqual([])
      // download_multiple_translations: format_replacement writes each placeholder as <x id="{start}"></x>
      const res = await send({
        url: '/deepl/v2/translate',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          text: ['Hello <x id="6"></x>, the car is red.', 'You have <x id="9"></x> new messages.'],
          source_lang: 'EN',
          target_lang: 'ES',
          formality: 'default',
          tag_handling: 'xml',
          ignore_tags: ['x'],
          context: 'A messaging app'
        })
      })
      expect(res.status).toBe(200)
      expect(res.body.translations).toEqual([
        { detected_source_language: 'EN', text: 'Hola <x id="6"></x>, el coche es rojo.' },
        { detected_source_language: 'EN', text: 'Has <x id="9"></x> mensajes nuevos.' }
      ])
    })

    it('Weblate with a placeholder holding text, and its @FORMAL variants sent as formality more (a 400 where no service honours it)', async () => {
      const res = await translate({ text: ['The <x id="3">%(name)s house</x> is red.'], source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml', ignore_tags: ['x'] })
      expect(res.body.translations[0].text).toContain('<x id="3">%(name)s house</x>')
      const formal = await translate({ text: ['The house'], source_lang: 'EN', target_lang: 'ES', formality: 'more', tag_handling: 'xml', ignore_tags: ['x'] })
      expect(formal.status).toBe(400)
      expect(formal.body.message).toMatch(/formality/)
    })
  })
})

describe('DeepL-compatible API: rate limits', () => {
  it('counts a key\'s requests against its client\'s rate limit: 429 {"message"} with Retry-After', async () => {
    const app = await testApp({ AUTH_CLIENTS: await clients(), RATE_LIMIT_MAX: '2' })
    try {
      const send = async (): Promise<{ statusCode: number, json: () => any, headers: Record<string, unknown> }> => await app.inject({ method: 'GET', url: '/deepl/v2/usage', headers: auth(KEY) })
      expect((await send()).statusCode).toBe(200)
      expect((await send()).statusCode).toBe(200)
      const limited = await send()
      expect(limited.statusCode).toBe(429)
      expect(Object.keys(limited.json())).toEqual(['message'])
      expect(limited.headers['retry-after']).toBeDefined()
    } finally {
      await app.close()
    }
  })

  it('failed keys count against the address: past AUTH_FAILURES_MAX a minute, 429 even for a right key', async () => {
    const app = await testApp({ AUTH_CLIENTS: await clients(), AUTH_FAILURES_MAX: '3' })
    try {
      const send = async (key: string): Promise<number> => (await app.inject({ method: 'GET', url: '/deepl/v2/usage', headers: auth(key) })).statusCode
      for (let i = 0; i < 3; i++) expect(await send(`wrong-key-0123456789-${i}`)).toBe(403)
      expect(await send('wrong-key-0123456789-x')).toBe(429)
      expect(await send(KEY)).toBe(429)
    } finally {
      await app.close()
    }
  })
})

describe('COMPAT_DEEPL_CHARACTER_LIMIT', () => {
  it('answers 456 once a client has had that many characters translated', async () => {
    const app = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: 'deepl-client', api_keys: [KEY] }]), COMPAT_DEEPL_CHARACTER_LIMIT: '20' }, { engines: true })
    try {
      const post = async (text: string): Promise<{ statusCode: number, json: () => any }> => await app.inject({ method: 'POST', url: '/deepl/v2/translate', headers: auth(KEY), payload: { text, source_lang: 'EN', target_lang: 'ES' } })
      expect((await post('The red car')).statusCode).toBe(200)
      const over = await post('The red house')
      expect(over.statusCode).toBe(456)
      // refused for what it would add: 11 of 20 are used
      expect(over.json().message).toBe('Quota exceeded: this request would take this key\'s client past its 20 characters (COMPAT_DEEPL_CHARACTER_LIMIT)')
      const usage = (await app.inject({ method: 'GET', url: '/deepl/v2/usage', headers: auth(KEY) })).json()
      expect(usage).toEqual({ character_count: 11, character_limit: 20 })
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      await expect(new Translator(KEY, { serverUrl: `${address}/deepl`, maxRetries: 0 }).translateText('The red house', 'en', 'es')).rejects.toBeInstanceOf(QuotaExceededError)
    } finally {
      await app.close()
    }
  }, 60_000)
})

describe('COMPAT_DEEPL=false', () => {
  it('serves no /deepl', async () => {
    const app = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: 'deepl-client', api_keys: [KEY] }]), COMPAT_DEEPL: 'false' })
    try {
      expect((await app.inject({ method: 'POST', url: '/deepl/v2/translate', headers: auth(KEY), payload: { text: 'x', target_lang: 'ES' } })).statusCode).toBe(404)
      expect((await app.inject({ method: 'GET', url: '/deepl/v2/usage', headers: auth(KEY) })).statusCode).toBe(404)
    } finally {
      await app.close()
    }
  })
})
