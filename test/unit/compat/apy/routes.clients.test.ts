/**
 * The apertium-apy-compatible API as apy's clients call it, with the real Apertium engine and
 * detector: JSONP (`callback`, apertium_apy/handlers/base.py send_response and write_error),
 * `/list?q=pairs` and its alias `/listPairs` (handlers/list_modes.py), `/identifyLang`
 * (handlers/identify_lang.py), `/listLanguageNames` (handlers/list_language_names.py), and the
 * errors in apy's words (handlers/translate.py get_pair_or_error); requests as apy's own test
 * suite makes them (apertium/apertium-apy tests/test.py) replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { testApp } from '../../../helpers/app.js'

const KEY = 'apy-clients-key-0123456789'
const CLIENTS = JSON.stringify([{ id: 'apy-client', api_keys: [KEY] }])

describe('apertium-apy-compatible API: what apy\'s clients call', () => {
  let app: FastifyInstance
  beforeAll(async () => { app = await testApp({ AUTH_CLIENTS: CLIENTS }, { engines: true }) }, 60_000)
  afterAll(async () => { await app?.close() })

  const get = async (url: string, headers: Record<string, string> = {}): Promise<{ status: number, type: string, text: string }> => {
    const res = await app.inject({ method: 'GET', url, headers })
    return { status: res.statusCode, type: String(res.headers['content-type']), text: res.body }
  }

  it('JSONP: a callback wraps the answer, errors too, as application/javascript (tests/test.py test_valid_pair_jsonp)', async () => {
    const name = 'callback123456'
    const res = await get(`/apy/translate?q=government&langpair=eng|spa&callback=${name}&key=${KEY}`)
    expect(res.status).toBe(200)
    expect(res.type).toMatch(/^application\/javascript; charset=utf-8/)
    expect(res.text.startsWith(`${name}(`)).toBe(true)
    expect(res.text.endsWith(')')).toBe(true)
    // (apy's own test data capitalizes it: Gobierno)
    expect(JSON.parse(res.text.slice(name.length + 1, -1)).responseData.translatedText).toBe('gobierno')
    // names with dots and dollars, as jQuery writes them; an error is wrapped too, with its status
    const error = await get(`/apy/translate?q=x&langpair=eng|xxx&callback=jQuery.cb$1_2&key=${KEY}`)
    expect(error.status).toBe(400)
    expect(error.text).toMatch(/^jQuery\.cb\$1_2\(\{.*\}\)$/)
    expect(JSON.parse(error.text.slice('jQuery.cb$1_2('.length, -1))).toEqual({ status: 'error', code: 400, message: 'Bad Request', explanation: 'That pair is not installed' })
    const pairs = await get('/apy/list?callback=cb')
    expect(pairs.text.startsWith('cb({"responseData":[')).toBe(true)
    // a page of another origin loads it as a script (no-cors): the resource policy lets it (same-origin blocked it in a probe's Chromium)
    for (const url of ['/apy/list?callback=cb', `/apy/translate?q=x&langpair=eng|xxx&callback=cb&key=${KEY}`]) {
      expect((await app.inject({ method: 'GET', url })).headers['cross-origin-resource-policy'], url).toBe('cross-origin')
    }
    expect((await app.inject({ method: 'GET', url: '/apy/list' })).headers['cross-origin-resource-policy']).toBe('same-origin')
    // POST: the callback in the form body
    const post = await app.inject({ method: 'POST', url: '/apy/translate', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `q=government&langpair=eng|spa&callback=cb&key=${KEY}` })
    expect(post.body).toMatch(/^cb\(\{"responseData"/)
  })

  it('apertium-html-tools (www.apertium.org\'s bundle: callApy -> $.jsonp, callbackParameter "callback", jquery.jsonp\'s name _jqjsp, a _<time>= cache breaker)', async () => {
    // translateText: callApy({ data: { q, markUnknown: 'no', langpair } }, '/translate'); the key is what a proxy adds here
    const translated = await get(`/apy/translate?q=The+red+house&markUnknown=no&langpair=eng%7Ccat&callback=_jqjsp&_1700000000000=&key=${KEY}`)
    expect(translated.status).toBe(200)
    expect(translated.text).toBe('_jqjsp({"responseData":{"translatedText":"La casa vermella"},"responseDetails":null,"responseStatus":200})')
    // localizeLanguageNames: $.jsonp({ url: APY_URL + '/listLanguageNames?locale=' + locale + '&languages=' + languages.join('+') })
    const names = await get('/apy/listLanguageNames?locale=spa&languages=eng+cat+por_BR&callback=_jqjsp&_1700000000001=')
    expect(names.text.startsWith('_jqjsp(')).toBe(true)
    expect(JSON.parse(names.text.slice('_jqjsp('.length, -1))).toEqual({ eng: 'inglés', cat: 'catalán', por_BR: 'portugués (Brasil)' })
  })

  it('apertium-html-tools (React, src/util/index.ts apyFetch): every call a url-encoded POST, as apy answers a POST with its GET (handlers/base.py)', async () => {
    // axios.post(`${apyURL}/${path}`, params ? queryString.stringify(params) : '', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })
    const post = async (path: string, params?: Record<string, string>): Promise<{ status: number, text: string, json: () => any }> => {
      const res = await app.inject({ method: 'POST', url: `/apy/${path}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: params === undefined ? '' : new URLSearchParams(params).toString() })
      return { status: res.statusCode, text: res.body, json: () => res.json() }
    }
    const pairs = JSON.parse((await get('/apy/list?q=pairs')).text)
    for (const path of ['list', 'listPairs']) {
      const res = await post(path, { q: 'pairs' })
      expect(res.status, path).toBe(200)
      expect(res.json(), path).toEqual(pairs)
    }
    expect((await post('list')).json()).toEqual(pairs)
    const fromSpa = (await post('list', { q: 'pairs', src: 'spa' })).json().responseData as Array<{ sourceLanguage: string }>
    expect(fromSpa.length).toBeGreaterThan(0)
    expect(fromSpa.every(p => p.sourceLanguage === 'spa')).toBe(true)
    // the key in the form, as the translate route reads it (what a proxy in front of html-tools adds)
    const identified = await post('identifyLang', { q: 'The house is big and the car is red.', key: KEY })
    expect(identified.status, identified.text).toBe(200)
    expect(Object.keys(identified.json())[0]).toBe('eng')
    expect((await post('identifyLang', { q: 'The house is big and the car is red.' })).status).toBe(403)
    expect((await post('identifyLang', { key: KEY })).json().explanation).toBe('Missing q argument')
    const names = await post('listLanguageNames', { locale: 'spa', languages: 'eng cat' })
    expect(names.status).toBe(200)
    expect(names.json()).toEqual({ eng: 'inglés', cat: 'catalán' })
    expect((await post('listLanguageNames')).json().en).toBe('English')
    // getLocale: the browser's languages, as apy's GetLocaleHandler lists them (html-tools picks its interface language from them)
    const locale = await app.inject({ method: 'POST', url: '/apy/getLocale', headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ca-ES,ca;q=0.9, en;q=0.8' }, payload: '' })
    expect(locale.statusCode, locale.body).toBe(200)
    expect(locale.json()).toEqual(['ca-ES', 'ca', 'en'])
    expect((await post('getLocale')).json().explanation).toBe('Accept-Language missing from request headers')
    const translated = await post('translate', { q: 'The red house', langpair: 'eng|cat', markUnknown: 'no', key: KEY })
    expect(translated.json().responseData.translatedText).toBe('La casa vermella')
    // JSONP and the query read as for GET: apy's get() reads both
    expect((await post('identifyLang', { q: 'The house is big and the car is red.', key: KEY, callback: 'cb' })).text).toMatch(/^cb\(\{"eng":/)
    const byQuery = await app.inject({ method: 'POST', url: `/apy/identifyLang?q=${encodeURIComponent('The house is big and the car is red.')}&key=${KEY}` })
    expect(byQuery.statusCode, byQuery.body).toBe(200)
    expect(Object.keys(byQuery.json())[0]).toBe('eng')
  })

  it('JSONP: a callback name with anything but letters, digits, _ . $ is a 400, never echoed', async () => {
    for (const name of ['alert(1);x', 'a b', '</script>', 'cb()', 'x"y', 'a-b', '', 'a'.repeat(101), 'ü']) {
      const res = await get(`/apy/listPairs?callback=${encodeURIComponent(name)}`)
      expect(res.status, name).toBe(400)
      expect(res.type, name).toMatch(/^application\/json/)
      const body = JSON.parse(res.text)
      expect(body, name).toMatchObject({ status: 'error', code: 400 })
      expect(body.explanation, name).toMatch(/^callback: /)
      if (name !== '') expect(res.text, name).not.toContain(name)
    }
    const post = await app.inject({ method: 'POST', url: '/apy/translate', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `q=x&langpair=eng|spa&key=${KEY}&callback=${encodeURIComponent('a;b')}` })
    expect(post.statusCode).toBe(400)
  })

  it('/list?q=pairs (the default) with src and include_deprecated_codes; /listPairs is its alias; other kinds of mode are {}', async () => {
    const list = JSON.parse((await get('/apy/list?q=pairs')).text)
    expect(list.responseStatus).toBe(200)
    expect(list.responseData).toContainEqual({ sourceLanguage: 'eng', targetLanguage: 'spa' })
    expect(JSON.parse((await get('/apy/list')).text)).toEqual(list)
    expect(JSON.parse((await get('/apy/listPairs')).text)).toEqual(list)
    const fromSpa = JSON.parse((await get('/apy/list?q=pairs&src=spa')).text).responseData as Array<{ sourceLanguage: string }>
    expect(fromSpa.length).toBeGreaterThan(0)
    expect(fromSpa.every(p => p.sourceLanguage === 'spa')).toBe(true)
    const deprecated = JSON.parse((await get('/apy/list?q=pairs&include_deprecated_codes=true')).text).responseData
    expect(deprecated).toContainEqual({ sourceLanguage: 'eng', targetLanguage: 'spa' })
    expect(deprecated).toContainEqual({ sourceLanguage: 'en', targetLanguage: 'es' })
    for (const q of ['analyzers', 'analysers', 'generators', 'taggers', 'spellers', 'guessers']) expect(JSON.parse((await get(`/apy/list?q=${q}`)).text), q).toEqual({})
    const bad = await get('/apy/list?q=nonsense')
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.text).explanation).toBe('Expecting q argument to be one of analysers, generators, guessers, spellers, disambiguators, or pairs')
  })

  it('errors in apy\'s words: "That pair is invalid, use e.g. eng|spa", "That pair is not installed" (tests/test.py test_invalid_pair)', async () => {
    for (const langpair of ['typomode', 'eng|spa|cat', 'eng|', '|spa']) {
      const res = JSON.parse((await get(`/apy/translate?q=ignored&langpair=${encodeURIComponent(langpair)}&key=${KEY}`)).text)
      expect(res, langpair).toEqual({ status: 'error', code: 400, message: 'Bad Request', explanation: 'That pair is invalid, use e.g. eng|spa' })
    }
    for (const langpair of ['eng|xxx', 'xxx|spa', 'eng|constructor', 'a!|spa']) {
      const res = JSON.parse((await get(`/apy/translate?q=ignored&langpair=${encodeURIComponent(langpair)}&key=${KEY}`)).text)
      expect(res, langpair).toEqual({ status: 'error', code: 400, message: 'Bad Request', explanation: 'That pair is not installed' })
    }
  })

  it('/identifyLang: {code: confidence} in ISO 639-3, the most likely first; needs a key', async () => {
    const res = await get(`/apy/identifyLang?q=${encodeURIComponent('The house is big and the car is red.')}&key=${KEY}`)
    expect(res.status).toBe(200)
    const answer = JSON.parse(res.text) as Record<string, number>
    expect(Object.keys(answer)[0]).toBe('eng')
    expect(answer.eng).toBeGreaterThan(0.5)
    for (const [code, confidence] of Object.entries(answer)) {
      expect(code).toMatch(/^[a-z]{3}(_[A-Za-z0-9]+)*$/)
      expect(confidence).toBeGreaterThanOrEqual(0)
      expect(confidence).toBeLessThanOrEqual(1)
    }
    expect(JSON.parse((await get(`/apy/identifyLang?q=12345&key=${KEY}`)).text)).toEqual({})
    expect(JSON.parse((await get(`/apy/identifyLang?key=${KEY}`)).text).explanation).toBe('Missing q argument')
    expect((await get('/apy/identifyLang?q=house')).status).toBe(403)
  })

  it('/listLanguageNames as apy\'s tests call it: locale, languages, Accept-Language, none (no key needed)', async () => {
    const english = JSON.parse((await get('/apy/listLanguageNames?locale=eng')).text) as Record<string, string>
    expect(english.en).toBe('English')
    expect(Object.keys(english).length).toBeGreaterThan(50)
    expect(JSON.parse((await get('/apy/listLanguageNames?locale=eng&languages=spa%20arg%20cat')).text)).toEqual({ spa: 'Spanish', arg: 'Aragonese', cat: 'Catalan' })
    expect(JSON.parse((await get('/apy/listLanguageNames')).text).en).toBe('English')
    const french = JSON.parse((await get('/apy/listLanguageNames', { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5' })).text)
    expect(french.en).toBe('anglais')
    // a code CLDR does not name is left out; a locale no names are known in is a 400
    expect(JSON.parse((await get('/apy/listLanguageNames?locale=eng&languages=spa%20qqq')).text)).toEqual({ spa: 'Spanish' })
    const bad = await get('/apy/listLanguageNames?locale=qqq')
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.text).explanation).toMatch(/^locale: /)
  })
})
