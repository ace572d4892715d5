import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, testApp, tokenFor } from '../../helpers/app.js'
import { TONES } from '../../../src/core/tones.js'

describe('locale routes', () => {
  let app: FastifyInstance
  let auth: Record<string, string>
  beforeAll(async () => {
    app = await testApp()
    auth = bearer(await tokenFor(app))
  })
  afterAll(async () => { await app.close() })
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { ...auth, ...headers } })

  it('GET /language/locale/{tag} answers CLDR parents, likely script and region, English names', async () => {
    expect((await get('/language/locale/en-GB')).json()).toMatchObject({ tag: 'en-GB', name: 'English (United Kingdom)', base: 'en', parent: 'en-001', region: { tag: 'GB' }, script: { tag: 'Latn', name: 'Latin' } })
    expect((await get('/language/locale/es-MX')).json()).toMatchObject({ tag: 'es-MX', parent: 'es-419' })
    expect((await get('/language/locale/pt-BR')).json()).toEqual({
      tag: 'pt-BR', name: 'Portuguese (Brazil)', region: { tag: 'BR', name: 'Brazil' }, script: { tag: 'Latn', name: 'Latin' }, base: 'pt', parent: 'pt'
    })
    expect((await get('/language/locale/pt')).json().parent).toBe('root')
    expect((await get('/language/locale/zh-TW')).json().script).toMatchObject({ tag: 'Hant', name: expect.stringMatching(/Traditional/) })
    expect((await get('/language/locale/EN-gb')).json().tag).toBe('en-GB')
  })

  it('gives names in the display language', async () => {
    const res = await get('/language/locale/pt-BR?display=fr')
    expect(res.json()).toMatchObject({ name: 'portugais (Brésil)', region: { name: 'Brésil' } })
  })

  it('answers a malformed tag with 400 and an unknown one with 404', async () => {
    const malformed = await get('/language/locale/en_US')
    expect(malformed.statusCode).toBe(400)
    expect(malformed.headers['content-type']).toMatch(/problem\+json/)
    expect(malformed.json().errors).toEqual([{ pointer: '/tag', in: 'path', message: expect.stringContaining('en_US') }])
    expect((await get('/language/locale/xx-YY')).statusCode).toBe(404)
    const display = await get('/language/locale/en?display=not_a_tag')
    expect(display.statusCode).toBe(400)
    expect(display.json().errors).toEqual([{ pointer: '/display', in: 'query', message: expect.stringContaining('not_a_tag') }])
  })

  it('answers codes known only to CLDR\'s likely subtags with 404, reads past extensions, names variants, refuses a display language without names', async () => {
    for (const tag of ['aaa', 'nil', 'abc']) expect((await get(`/language/locale/${tag}`)).statusCode, tag).toBe(404)
    const buddhist = await get('/language/locale/en-US-u-ca-buddhist')
    expect(buddhist.statusCode).toBe(200)
    expect(buddhist.json()).toEqual((await get('/language/locale/en-US')).json())
    expect((await get('/language/locale/oc-aranes')).json().name).toBe('Occitan (Aranes)')
    expect((await get('/language/locale/oc-gascon')).json().name).toBe('Occitan (Gascon)')
    for (const url of ['/language/locale/en?display=xx', '/language/locales?display=xx']) {
      const unknown = await get(url)
      expect(unknown.statusCode, url).toBe(400)
      expect(unknown.json().errors).toEqual([{ pointer: '/display', in: 'query', message: expect.stringContaining('"xx"') }])
    }
  })

  it('GET /language/locales lists every CLDR locale sorted by tag, with ETag, Cache-Control and 304', async () => {
    const res = await get('/language/locales')
    expect(res.statusCode).toBe(200)
    const list = res.json() as Array<{ tag: string, parent: string }>
    expect(list.length).toBeGreaterThan(700)
    const tags = list.map(l => l.tag)
    expect(tags).toEqual([...tags].sort((a, b) => a < b ? -1 : a > b ? 1 : 0))
    expect(tags).toContain('en-GB')
    expect(res.headers['etag']).toMatch(/^"[\w-]+"$/)
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/)
    const again = await get('/language/locales', { 'if-none-match': String(res.headers['etag']) })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    // the weak form a compressing proxy (nginx's gzip) sends back matches too (RFC 9110's weak comparison), among others
    const weak = await get('/language/locales', { 'if-none-match': `"other", W/${String(res.headers['etag'])}` })
    expect(weak.statusCode).toBe(304)
    expect((await get('/language/locales', { 'if-none-match': 'W/"other"' })).statusCode).toBe(200)
    const french = await get('/language/locales?display=fr')
    expect(french.headers['etag']).not.toBe(res.headers['etag'])
  })

  it('GET /language/edit/tones answers the 33 tones in order', async () => {
    const res = await get('/language/edit/tones')
    expect(res.json()).toEqual([...TONES])
    expect(res.json()).toHaveLength(33)
    expect(res.json()[0]).toBe('none')
    expect(res.json()[32]).toBe('sympathetic')
    expect(res.headers['etag']).toBeDefined()
  })
})
