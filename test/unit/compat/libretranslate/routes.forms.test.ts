/**
 * LibreTranslate's API takes multipart/form-data on every route (issue 31, part 3): its own web page
 * (libretranslate/static/js/app.js) posts a FormData of q, source, target, format and api_key with
 * XMLHttpRequest. Replayed over real HTTP with the platform's FormData (the bytes a browser sends),
 * through Apertium and the detector. The form field cap and the key gate: compat/keyed.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { testApp } from '../../../helpers/app.js'

const KEY = 'lt-form-key-0123456789abcdef'

describe('LibreTranslate-compatible API: multipart/form-data, as its web page posts it', () => {
  let app: FastifyInstance
  let base: string
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: 'lt-form-client', api_keys: [KEY] }]) }, { engines: true })
    base = await app.listen({ port: 0, host: '127.0.0.1' })
  }, 60_000)
  afterAll(async () => { await app?.close() })

  /** POSTs `fields` as the web page does: a FormData, its multipart boundary chosen by the client. */
  const post = async (path: string, fields: Record<string, string>): Promise<{ status: number, body: any }> => {
    const data = new FormData()
    for (const [name, value] of Object.entries(fields)) data.append(name, value)
    const res = await fetch(base + path, { method: 'POST', body: data })
    return { status: res.status, body: await res.json() }
  }

  it('translate: q, source, target, format and api_key of the web page, at the root and at /libretranslate', async () => {
    for (const path of ['/translate', '/libretranslate/translate']) {
      const res = await post(path, { q: 'The red car is very fast.', source: 'en', target: 'es', format: 'text', api_key: KEY })
      expect(res.status, path).toBe(200)
      expect(res.body).toEqual({ translatedText: 'El coche rojo es muy rápido.' })
    }
    const html = await post('/translate', { q: '<p>The <b>red</b> car</p>', source: 'en', target: 'es', format: 'html', api_key: KEY })
    expect(html.body).toEqual({ translatedText: '<p>El coche <b>rojo</b></p>' })
    const auto = await post('/translate', { q: 'The red car is very fast and the house is big.', source: 'auto', target: 'es', format: 'text', api_key: KEY })
    expect(auto.status).toBe(200)
    expect(auto.body.detectedLanguage.language).toBe('en')
  })

  it('detect and languages take a FormData too; the key in it is checked (the web page sends "" when it has none)', async () => {
    const detect = await post('/detect', { q: 'Ceci est une phrase en français, assez longue pour être reconnue.', api_key: KEY })
    expect(detect.status).toBe(200)
    expect(detect.body[0].language).toBe('fr')
    const languages = await post('/languages', { api_key: KEY })
    expect(languages.status).toBe(200)
    expect(languages.body.find((l: { code: string }) => l.code === 'en').targets).toContain('es')
    const none = await post('/translate', { q: 'The house', source: 'en', target: 'es', format: 'text', api_key: '' })
    expect([400, 403]).toContain(none.status)
    expect(none.body.error).toMatch(/key/i)
  })

  it('a large FormData (read on the pool) translates as a small one', async () => {
    const q = Array.from({ length: 40 }, () => 'The house is big. ').join('') + 'x'.repeat(70_000)
    const res = await post('/libretranslate/detect', { q, api_key: KEY })
    expect(res.status).toBe(200)
    expect(Array.isArray(res.body)).toBe(true)
  })
})
