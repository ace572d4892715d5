/**
 * The drop-in APIs' key gate and bodies (issue 32, finding 2), over the app: a key in a header or
 * the query is checked before the body is read; a locked-out address gets its 429 without its body
 * being read; every failure before a key is accepted counts against the address (a body that fails
 * the schema with a bad key or none, a body that is not JSON, a form of too many fields); forms
 * have a field cap, answered in each API's own error shape; large bodies, read on the pool, fail
 * their schema after the key check too. Latency beside large-form senders: test/load/compat-bodies.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { MAX_FORM_FIELDS } from '../../../src/http/forms.js'
import { testApp } from '../../helpers/app.js'

const KEY = 'gate-key-0123456789abcdef'
const CLIENTS = JSON.stringify([{ id: 'gate-client', api_keys: [KEY] }])
const json = { 'content-type': 'application/json' }
const form = { 'content-type': 'application/x-www-form-urlencoded' }
let addresses = 0
/** A fresh address per test: the counts are per address. */
const nextAddress = (): string => `203.0.113.${++addresses}`

/** A multipart body of `fields` ([name, value] pairs), as a browser's FormData posts it. */
async function multipart (fields: Array<[string, string]>): Promise<{ payload: Buffer, headers: Record<string, string> }> {
  const data = new FormData()
  for (const [name, value] of fields) data.append(name, value)
  const request = new Request('http://localhost/', { method: 'POST', body: data })
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } }
}

/** A url-encoded form of `n` fields. */
const manyFields = (n: number, extra = ''): string => Array.from({ length: n }, (_, i) => `f${i}=v`).join('&') + extra

describe('the drop-in APIs\' key gate', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: CLIENTS, AUTH_FAILURES_MAX: '3', ADDRESS_RATE_LIMIT_MAX: '100' })
  })
  afterAll(async () => { await app?.close() })

  it('checks a key in a header or the query before the body is read: a wrong one is a 403 whatever the body', async () => {
    const remoteAddress = nextAddress()
    const deepl = await app.inject({ method: 'POST', url: '/deepl/v2/translate', remoteAddress, headers: { ...json, authorization: 'DeepL-Auth-Key wrong-key-0123456789' }, payload: '{"text": ' })
    expect(deepl.statusCode).toBe(403)
    expect(Object.keys(deepl.json())).toEqual(['message'])
    const lt = await app.inject({ method: 'POST', url: '/libretranslate/translate?api_key=wrong-key-0123456789', remoteAddress, headers: form, payload: manyFields(MAX_FORM_FIELDS + 10) })
    expect(lt.statusCode).toBe(403)
    expect(Object.keys(lt.json())).toEqual(['error'])
    // the right key in the header: the body is read, and its fault answered
    const right = await app.inject({ method: 'POST', url: '/deepl/v2/translate', remoteAddress, headers: { ...json, authorization: `DeepL-Auth-Key ${KEY}` }, payload: '{"text": ' })
    expect(right.statusCode).toBe(400)
  })

  it('counts a body that fails the schema with a bad key, or none, toward AUTH_FAILURES_MAX (the key is checked before the schema)', async () => {
    const remoteAddress = nextAddress()
    const send = async (payload: Record<string, unknown>): Promise<{ statusCode: number, json: () => any }> =>
      await app.inject({ method: 'POST', url: '/libretranslate/translate', remoteAddress, payload })
    const bad = await send({ api_key: 'wrong-key-0123456789-0', target: 123 })
    expect(bad.statusCode).toBe(403)
    expect(bad.json().error).toMatch(/key/i)
    expect((await send({ q: ['x', 7], api_key: 'wrong-key-0123456789-1' })).statusCode).toBe(403)
    // no key: LibreTranslate's own answer (a 400 naming the key), counted as a refused key
    const none = await send({ target: ['not', 'a', 'code'] })
    expect([400, 403]).toContain(none.statusCode)
    expect(none.json().error).toMatch(/key/i)
    // three failures: the address is locked out, the right key with a right body included
    const locked = await send({ q: 'The house', source: 'en', target: 'es', api_key: KEY })
    expect(locked.statusCode).toBe(429)
    expect(Object.keys(locked.json())).toEqual(['error'])
  })

  it('answers a locked-out address 429 before its body is read: a body that would be a 400 or a 413 is a 429', async () => {
    const remoteAddress = nextAddress()
    for (let i = 0; i < 3; i++) {
      expect((await app.inject({ method: 'POST', url: '/deepl/v2/translate', remoteAddress, headers: { authorization: `DeepL-Auth-Key wrong-key-0123456789-${i}` }, payload: { text: 'x', target_lang: 'ES' } })).statusCode).toBe(403)
    }
    const cases: Array<{ url: string, headers: Record<string, string>, payload: string | Buffer }> = [
      { url: '/libretranslate/translate', headers: json, payload: '{"q": ' },
      { url: '/translate', headers: form, payload: manyFields(MAX_FORM_FIELDS * 2) },
      { url: '/deepl/v2/translate', headers: json, payload: JSON.stringify({ text: 'a'.repeat(900_000), target_lang: 'ES' }) },
      { url: '/apy/translate', headers: form, payload: 'langpair=eng|spa&q=%%%' },
      { url: '/libretranslate/detect', ...await multipart([['q', 'x'], ['api_key', KEY]]) }
    ]
    for (const c of cases) {
      const res = await app.inject({ method: 'POST', remoteAddress, ...c })
      expect(res.statusCode, c.url).toBe(429)
      expect(Number(res.headers['retry-after']), c.url).toBeGreaterThanOrEqual(1)
    }
    // another address is not concerned
    expect((await app.inject({ method: 'POST', url: '/libretranslate/translate', remoteAddress: nextAddress(), headers: json, payload: '{"q": ' })).statusCode).toBe(400)
  })
})

describe('failures before a key is accepted count against the address (ADDRESS_RATE_LIMIT_MAX)', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: CLIENTS, AUTH_FAILURES_MAX: '100', ADDRESS_RATE_LIMIT_MAX: '4' })
  })
  afterAll(async () => { await app?.close() })

  it('counts bodies that are not JSON, forms of too many fields and unreadable multipart; past the limit 429, and a right key in a header is still served', async () => {
    const remoteAddress = nextAddress()
    const statuses: number[] = []
    const send = async (url: string, headers: Record<string, string>, payload: string): Promise<number> =>
      (await app.inject({ method: 'POST', url, remoteAddress, headers, payload })).statusCode
    statuses.push(await send('/libretranslate/translate', json, '{"q": '))
    statuses.push(await send('/deepl/v2/translate', form, manyFields(MAX_FORM_FIELDS + 1)))
    statuses.push(await send('/apy/translate', { 'content-type': 'multipart/form-data; boundary=xyz' }, 'not multipart at all'))
    statuses.push(await send('/libretranslate/detect', { 'content-type': 'text/plain' }, 'q=x'))
    expect(statuses).toEqual([400, 413, 400, 415])
    expect(await send('/libretranslate/translate', json, '{"q": ')).toBe(429)
    expect(await send('/libretranslate/translate', json, JSON.stringify({ q: 'x', target: 'es', api_key: KEY }))).toBe(429)
    // valid credentials are never refused by the address limit: a key the gate reads before the body
    const served = await app.inject({ method: 'GET', url: '/deepl/v2/usage', remoteAddress, headers: { authorization: `DeepL-Auth-Key ${KEY}` } })
    expect(served.statusCode).toBe(200)
  })
})

describe('form bodies of the drop-in APIs', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    // a low LARGE_REQUEST_BYTES: the pool's path is taken by bodies of a few kilobytes
    app = await testApp({ AUTH_CLIENTS: CLIENTS, LARGE_REQUEST_BYTES: '4096', AUTH_FAILURES_MAX: '1000', ADDRESS_RATE_LIMIT_MAX: '1000' })
  })
  afterAll(async () => { await app?.close() })

  it(`refuses a form of more than ${MAX_FORM_FIELDS} fields with a 413 in each API's own shape, url-encoded or multipart, small or large`, async () => {
    const shapes: Array<[string, string[]]> = [
      [`/libretranslate/translate?api_key=${KEY}`, ['error']],
      ['/translate', ['error']],
      ['/deepl/v2/translate', ['message']],
      [`/apy/translate?key=${KEY}`, ['status', 'code', 'message', 'explanation']]
    ]
    const bodies = [
      { headers: form, payload: manyFields(MAX_FORM_FIELDS + 1) },
      { headers: form, payload: '&'.repeat(MAX_FORM_FIELDS) },
      await multipart(Array.from({ length: MAX_FORM_FIELDS + 1 }, (_, i): [string, string] => [`f${i}`, 'v']))
    ]
    for (const [url, keys] of shapes) {
      for (const body of bodies) {
        const res = await app.inject({ method: 'POST', url, remoteAddress: nextAddress(), headers: { ...body.headers, authorization: `DeepL-Auth-Key ${KEY}` }, payload: body.payload })
        expect(res.statusCode, url).toBe(413)
        expect(Object.keys(res.json()), url).toEqual(keys)
        expect(JSON.stringify(res.json()), url).toContain(`more than ${MAX_FORM_FIELDS} fields`)
      }
    }
  })

  it('reads the key from a url-encoded or multipart body, small or large (the pool\'s), and the fields a route names', async () => {
    const large = 'word '.repeat(2000)
    for (const q of ['x', large]) {
      const wrong = await app.inject({ method: 'POST', url: '/libretranslate/detect', remoteAddress: nextAddress(), ...await multipart([['q', q], ['api_key', 'wrong-key-0123456789']]) })
      expect(wrong.statusCode, wrong.body + q.length).toBe(403)
      expect(wrong.json().error).toMatch(/not valid/)
      const wrongForm = await app.inject({ method: 'POST', url: '/apy/translate', remoteAddress: nextAddress(), headers: form, payload: `langpair=eng|spa&q=${q}&key=wrong-key-0123456789` })
      expect(wrongForm.statusCode).toBe(403)
      // the right key, and a field that fails the schema: named, in the API's shape
      const invalid = await app.inject({ method: 'POST', url: '/libretranslate/translate', remoteAddress: nextAddress(), ...await multipart([['q', q], ['target', 'es'], ['format', 'pdf'], ['api_key', KEY]]) })
      expect(invalid.statusCode, q.slice(0, 10)).toBe(400)
      expect(invalid.json().error).toBe('Invalid request: format: must be "text" or "html"')
    }
  })

  it('reads a LibreTranslate form\'s fields from its query too, the query\'s first, small or large (the pool\'s), a file part the form\'s alone', async () => {
    const large = 'word '.repeat(20_000)
    for (const q of ['x', large]) {
      const invalid = await app.inject({ method: 'POST', url: `/libretranslate/translate?format=pdf&api_key=${KEY}`, remoteAddress: nextAddress(), ...await multipart([['q', q], ['target', 'es'], ['format', 'text']]) })
      expect(invalid.statusCode, q.slice(0, 10)).toBe(400)
      expect(invalid.json().error).toBe('Invalid request: format: must be "text" or "html"')
      const missing = await app.inject({ method: 'POST', url: '/libretranslate/translate?target=', remoteAddress: nextAddress(), headers: form, payload: `q=${q}&target=es&api_key=${KEY}` })
      expect(missing.statusCode, q.slice(0, 10)).toBe(400)
      expect(missing.json().error).toMatch(/^Invalid request: target: /)
    }
    const file = await app.inject({ method: 'POST', url: `/libretranslate/translate_file?file=x&api_key=${KEY}`, remoteAddress: nextAddress(), ...await multipart([['target', 'es']]) })
    expect(file.statusCode).toBe(400)
    expect(file.json().error).toBe('Invalid request: missing file parameter')
  })

  it('an apy POST form read on the pool keeps the fields of its route (listLanguageNames\' locale and languages, not only translate\'s)', async () => {
    const payload = `filler=${'x'.repeat(5000)}&locale=spa&languages=eng+cat`
    const res = await app.inject({ method: 'POST', url: '/apy/listLanguageNames', remoteAddress: nextAddress(), headers: form, payload })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ eng: 'inglés', cat: 'catalán' })
  })

  it('an empty key where the key is optional (a language list) is no key: LibreTranslate\'s api_key=, apy\'s key=', async () => {
    for (const url of ['/libretranslate/languages?api_key=', '/apy/list?key=', '/apy/listPairs?q=pairs&key=']) {
      const res = await app.inject({ method: 'GET', url, remoteAddress: nextAddress() })
      expect(res.statusCode, url).toBe(200)
    }
    // a wrong one is still checked
    const wrong = await app.inject({ method: 'GET', url: '/libretranslate/languages?api_key=wrong-key-0123456789', remoteAddress: nextAddress() })
    expect(wrong.statusCode).toBe(403)
  })

  it('large JSON bodies: read on the pool, a schema failure answered after the key check (a bad key is the 403, counted)', async () => {
    const filler = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`unknown${i}`, i]))
    const remoteAddress = nextAddress()
    const bad = await app.inject({ method: 'POST', url: '/libretranslate/translate', remoteAddress, payload: { ...filler, q: 'x', target: 7, api_key: 'wrong-key-0123456789' } })
    expect(bad.statusCode).toBe(403)
    const right = await app.inject({ method: 'POST', url: '/libretranslate/translate', remoteAddress, payload: { ...filler, q: 'x', target: 7, api_key: KEY } })
    expect(right.statusCode).toBe(400)
    expect(right.json().error).toBe('Invalid request: target: must be a language code')
    const deepl = await app.inject({ method: 'POST', url: '/deepl/v2/translate', remoteAddress, headers: { authorization: `DeepL-Auth-Key ${KEY}` }, payload: { ...filler, text: ['x', 7], target_lang: 'ES' } })
    expect(deepl.statusCode).toBe(400)
    expect(deepl.json().message).toMatch(/^Invalid request: text/)
    const notJson = await app.inject({ method: 'POST', url: '/libretranslate/translate', remoteAddress, headers: json, payload: '{"q": "' + 'x'.repeat(5000) })
    expect(notJson.statusCode).toBe(400)
    expect(Object.keys(notJson.json())).toEqual(['error'])
  })

  it('a multipart body with a file part or no boundary is a 400 naming what is wrong', async () => {
    const data = new FormData()
    data.append('q', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt')
    const request = new Request('http://localhost/', { method: 'POST', body: data })
    const file = await app.inject({ method: 'POST', url: `/libretranslate/detect?api_key=${KEY}`, remoteAddress: nextAddress(), headers: { 'content-type': request.headers.get('content-type')! }, payload: Buffer.from(await request.arrayBuffer()) })
    expect(file.statusCode).toBe(400)
    expect(file.json().error).toMatch(/^q: a file is not read/)
    const noBoundary = await app.inject({ method: 'POST', url: `/libretranslate/detect?api_key=${KEY}`, remoteAddress: nextAddress(), headers: { 'content-type': 'multipart/form-data' }, payload: 'x' })
    expect(noBoundary.statusCode).toBe(400)
    expect(noBoundary.json().error).toMatch(/boundary/)
  })
})
