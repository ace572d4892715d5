/**
 * The apertium-apy-compatible API over the app (app.inject) with the real Apertium engine:
 * listPairs in ISO 639-3 codes, translate by GET and POST with langpair, q, markUnknown and key,
 * its errors in apy's shape, COMPAT_APY, and the request shapes of Weblate's Apertium backend
 * (weblate/machinery/apertium.py) replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { testApp } from '../../../helpers/app.js'

const KEY = 'apy-key-0123456789abcdef'
const CLIENTS = JSON.stringify([{ id: 'apy-client', api_keys: [KEY] }, { id: 'apy-reader', api_keys: ['apy-reader-key-01234567'], scopes: ['read'] }])

describe('apertium-apy-compatible API', () => {
  let app: FastifyInstance
  beforeAll(async () => { app = await testApp({ AUTH_CLIENTS: CLIENTS }, { engines: true }) }, 60_000)
  afterAll(async () => { await app?.close() })

  const get = async (url: string): Promise<{ status: number, body: any }> => {
    const res = await app.inject({ method: 'GET', url })
    return { status: res.statusCode, body: res.json() }
  }

  it('listPairs: every pair in ISO 639-3 codes, with no key', async () => {
    const res = await get('/apy/listPairs')
    expect(res.status).toBe(200)
    expect(res.body.responseStatus).toBe(200)
    expect(res.body.responseDetails).toBeNull()
    const pairs = res.body.responseData as Array<{ sourceLanguage: string, targetLanguage: string }>
    expect(pairs).toContainEqual({ sourceLanguage: 'eng', targetLanguage: 'spa' })
    expect(pairs).toContainEqual({ sourceLanguage: 'spa', targetLanguage: 'cat' })
    for (const { sourceLanguage, targetLanguage } of pairs) {
      expect(sourceLanguage).toMatch(/^[a-z]{3}(_[A-Za-z0-9]+)*$/)
      expect(targetLanguage).toMatch(/^[a-z]{3}(_[A-Za-z0-9]+)*$/)
    }
    expect((await get('/apy/listPairs?key=wrong-key-0123456789')).status).toBe(403)
  })

  it('translate by GET and by POST (form), as the key\'s client', async () => {
    const res = await get(`/apy/translate?langpair=eng|spa&q=${encodeURIComponent('The red car is very fast.')}&markUnknown=no&key=${KEY}`)
    expect(res).toEqual({ status: 200, body: { responseData: { translatedText: 'El coche rojo es muy rápido.' }, responseDetails: null, responseStatus: 200 } })
    const post = await app.inject({ method: 'POST', url: '/apy/translate', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ langpair: 'spa|cat', q: 'El coche rojo', key: KEY }).toString() })
    expect(post.statusCode).toBe(200)
    expect(post.json().responseData.translatedText).toBe('El cotxe vermell')
    // the key in the query of a POST too; placeholders kept as on /language/translate
    const query = await app.inject({ method: 'POST', url: `/apy/translate?key=${KEY}&langpair=eng|spa`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'q=Hello+%7Bname%7D' })
    expect(query.json().responseData.translatedText).toContain('{name}')
    // everything in the query and no body at all, as apy (Tornado) reads it; without the key, still a 403
    const bare = await app.inject({ method: 'POST', url: `/apy/translate?key=${KEY}&langpair=spa|cat&q=${encodeURIComponent('El coche rojo')}` })
    expect(bare.statusCode, bare.body).toBe(200)
    expect(bare.json().responseData.translatedText).toBe('El cotxe vermell')
    expect((await app.inject({ method: 'POST', url: '/apy/translate?langpair=spa|cat&q=x' })).statusCode).toBe(403)
  })

  it('errors in apy\'s shape: 400 naming the parameter, 403 for no key, a wrong one or no access scope', async () => {
    const cases: Array<[string, number, RegExp]> = [
      ['/apy/translate?q=x&key=' + KEY, 400, /langpair/],
      ['/apy/translate?langpair=eng&q=x&key=' + KEY, 400, /^That pair is invalid, use e\.g\. eng\|spa$/],
      ['/apy/translate?langpair=eng|spa&key=' + KEY, 400, /q/],
      ['/apy/translate?langpair=eng|xxx&q=house&key=' + KEY, 400, /^That pair is not installed$/],
      ['/apy/translate?langpair=eng|spa&q=house', 403, /key/i],
      ['/apy/translate?langpair=eng|spa&q=house&key=wrong-key-0123456789', 403, /key/i],
      ['/apy/translate?langpair=eng|spa&q=house&key=apy-reader-key-01234567', 403, /scope/]
    ]
    for (const [url, status, explanation] of cases) {
      const res = await get(url)
      expect(res.status, url).toBe(status)
      expect(res.body, url).toMatchObject({ status: 'error', code: status })
      expect(Object.keys(res.body).sort()).toEqual(['code', 'explanation', 'message', 'status'])
      expect(res.body.explanation, url).toMatch(explanation)
    }
  })

  it('Weblate\'s Apertium backend: GET listPairs, then GET translate with langpair, q and markUnknown=no', async () => {
    // request_status("get", f"{url}/listPairs"); request_status("get", f"{url}/translate", params={"langpair", "q", "markUnknown": "no"})
    const pairs = (await get('/apy/listPairs')).body.responseData.map((p: { sourceLanguage: string, targetLanguage: string }) => `${p.sourceLanguage}|${p.targetLanguage}`)
    expect(pairs).toContain('eng|cat')
    const params = new URLSearchParams({ langpair: 'eng|cat', q: 'The red house', markUnknown: 'no', key: KEY })
    const res = await get(`/apy/translate?${params.toString()}`)
    expect(res.body.responseStatus).toBe(200)
    expect(res.body.responseData.translatedText).toBe('La casa vermella')
  })
})

describe('COMPAT_APY=false', () => {
  it('serves no /apy', async () => {
    const app = await testApp({ AUTH_CLIENTS: CLIENTS, COMPAT_APY: 'false' })
    try {
      expect((await app.inject({ method: 'GET', url: '/apy/listPairs' })).statusCode).toBe(404)
    } finally {
      await app.close()
    }
  })
})
