/**
 * Conformance gaps a black-box probe found (issue 12): echoes that say what was sent, limits that
 * count what they say they count, errors that point at the field to fix, and endpoints that agree
 * with each other. Real app, real Apertium and detector.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, testApp, tokenFor } from '../helpers/app.js'

let app: FastifyInstance
let auth: Record<string, string>
beforeAll(async () => {
  app = await testApp({}, { engines: true })
  auth = bearer(await tokenFor(app))
})
afterAll(async () => { await app.close() })

const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: auth, payload: payload as object })
const get = (url: string) => app.inject({ method: 'GET', url, headers: auth })
const pointers = (res: { json: () => { errors?: Array<{ pointer: string }> } }): string[] => (res.json().errors ?? []).map(e => e.pointer)

describe('Swagger UI static files', () => {
  it('answers a missing file with 404, not 405, and still 405 for a method the route lacks', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const missing = await app.inject({ method, url: '/docs/static/no-such-file.js' })
      expect(missing.statusCode, method).toBe(404)
      expect(missing.headers['content-type'], method).toMatch(/^application\/problem\+json/)
      expect(missing.headers.allow, method).toBeUndefined()
    }
    expect((await app.inject({ method: 'GET', url: '/docs/static/index.css' })).statusCode).toBe(200)
    const wrongMethod = await app.inject({ method: 'DELETE', url: '/docs/static/index.css' })
    expect(wrongMethod.statusCode).toBe(405)
    expect(wrongMethod.headers.allow).toMatch(/GET/)
    expect((await app.inject({ method: 'POST', url: '/language/locales', headers: auth })).statusCode).toBe(405)
  })
})

describe('original echoes the request as sent', () => {
  const document = { value: { title: 'The red car', count: 3, tags: ['house', null, true] }, mime_type: 'application/json', meta: { id: 7 } }

  it('on /translate, with and without options, adding no default', async () => {
    for (const options of [undefined, { cache: false }, { formality: 'prefer_less', context: 'cars' }, {}]) {
      const body = { document, source: 'en', targets: ['es'], meta: { ticket: 'T-1' }, ...(options === undefined ? {} : { options }) }
      const res = await post('/language/translate', body)
      expect(res.statusCode, JSON.stringify(options)).toBe(200)
      expect(res.json().original, JSON.stringify(options)).toStrictEqual(body)
    }
  })

  it('on /translate/bulk, each document\'s request', async () => {
    const shared = { source: 'en', targets: ['es', 'en'], options: { preserve_placeholders: false }, substitutions: [{ text: 'red', substitution: 'rojo' }] }
    const documents = [{ value: 'The house.' }, document]
    const res = await post('/language/translate/bulk', { documents, ...shared })
    expect(res.statusCode).toBe(200)
    res.json().forEach((result: { original: unknown }, i: number) => expect(result.original).toStrictEqual({ ...shared, document: documents[i] }))
  })

  it('on /substitute and /edit', async () => {
    const substituted = await post('/language/substitute', { document: { value: 'The red car', language: 'en' }, substitutions: [{ text: 'red', substitution: 'blue' }], options: {} })
    expect(substituted.statusCode).toBe(200)
    expect(substituted.json().original).toStrictEqual({ value: 'The red car', language: 'en' })
    const edited = await post('/language/edit', { document: { value: 'Their going home.', language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(edited.statusCode).toBe(200)
    expect(edited.json().original).toStrictEqual({ value: 'Their going home.', language: 'en' })
  })
})

describe('MAX_TARGETS counts distinct languages', () => {
  // English variants: identity translations, so that the test needs no 20 engine pairs
  const twenty = ['en', 'en-GB', 'en-US', 'en-AU', 'en-CA', 'en-IE', 'en-NZ', 'en-IN', 'en-ZA', 'en-SG',
    'en-001', 'en-150', 'en-HK', 'en-MT', 'en-PH', 'en-JM', 'en-KE', 'en-NG', 'en-PK', 'en-GH']

  it('takes 21 targets that are 20 once a duplicate is removed (also in another case)', async () => {
    for (const extra of ['en-GB', 'EN-gb']) {
      const res = await post('/language/translate', { document: { value: 'Hello.' }, source: 'en', targets: [...twenty, extra] })
      expect(res.statusCode, extra).toBe(200)
      expect(Object.keys(res.json().results), extra).toEqual(twenty)
    }
    const bulk = await post('/language/translate/bulk', { documents: [{ value: 'Hello.' }], source: 'en', targets: [...twenty, 'en'] })
    expect(bulk.statusCode).toBe(200)
  })

  it('refuses 21 distinct ones at /targets', async () => {
    const res = await post('/language/translate', { document: { value: 'Hello.' }, source: 'en', targets: [...twenty, 'en-BZ'] })
    expect(res.statusCode).toBe(400)
    expect(pointers(res)).toEqual(['/targets'])
    expect(res.json().detail).toMatch(/20/)
  })
})

describe('an unsupported source points at where the source came from', () => {
  it('/source when given, /document/language or /documents/i/language when taken from there, /targets when only the pair fails', async () => {
    const given = await post('/language/translate', { document: { value: 'Hallo Welt.' }, source: 'de', targets: ['es'] })
    expect(given.statusCode).toBe(400)
    expect(pointers(given)).toEqual(['/source'])
    expect(given.json().detail).toMatch(/de->es/)
    const unknown = await post('/language/translate', { document: { value: 'Hello.' }, source: 'xx', targets: ['es', 'fr'] })
    expect(pointers(unknown)).toEqual(['/source'])
    const documentLanguage = await post('/language/translate', { document: { value: 'Hallo Welt.', language: 'de' }, targets: ['es'] })
    expect(pointers(documentLanguage)).toEqual(['/document/language'])
    const bulk = await post('/language/translate/bulk', { documents: [{ value: 'Hello.', language: 'en' }, { value: 'Hallo Welt.', language: 'de' }], targets: ['es'] })
    expect(pointers(bulk)).toEqual(['/documents/1/language'])
    // detected with certainty: giving `source` is the fix
    const detected = await post('/language/translate', { document: { value: 'Guten Morgen, wie geht es dir heute? Das Wetter ist schön.' }, targets: ['es'] })
    expect(detected.statusCode).toBe(400)
    expect(pointers(detected)).toEqual(['/source'])
    // a source some service takes, a target none reaches from it
    const pair = await post('/language/translate', { document: { value: 'Hello.' }, source: 'en', targets: ['es', 'ru'] })
    expect(pairPointers(pair)).toEqual(['/targets'])
  })

  const pairPointers = pointers
})

describe('translate/locales/supported and translate agree', () => {
  it('on same-language, regional, unknown and unsupported pairs', async () => {
    const cases: Array<[string, string[]]> = [
      ['en', ['en']], ['en', ['en-GB']], ['EN-gb', ['en']], ['pt', ['pt-BR']], ['de', ['de']], ['xx', ['xx']],
      ['en', ['en', 'es']], ['en', ['es']], ['en', ['ru']], ['en', ['en', 'ru']], ['de', ['es']], ['es', ['pt', 'ca']]
    ]
    for (const [source, targets] of cases) {
      const supported = await get(`/language/translate/locales/supported?source=${source}&target=${targets.join(',')}`)
      expect(supported.statusCode).toBe(200)
      const translated = await post('/language/translate', { document: { value: 'Hello.' }, source, targets })
      const what = `${source} -> ${targets.join(',')}`
      expect(supported.json().supported, what).toBe(translated.statusCode === 200)
      if (translated.statusCode === 200) {
        // every service supported names can serve the request
        for (const service of supported.json().services as string[]) {
          expect((await post('/language/translate', { document: { value: 'Hello.' }, source, targets, options: { service, fallback: false } })).statusCode, `${what} by ${service}`).toBe(200)
        }
      } else {
        expect(translated.statusCode, what).toBe(400)
      }
    }
  })
})

describe('translate/locales and /language/locale/{tag}', () => {
  it('every listed tag resolves as a locale, with the same name', async () => {
    const { source, target } = (await get('/language/translate/locales')).json() as Record<'source' | 'target', Array<{ tag: string, name: string }>>
    expect(source.length).toBeGreaterThan(10)
    for (const entry of [...source, ...target]) {
      const locale = await get(`/language/locale/${entry.tag}`)
      expect(locale.statusCode, entry.tag).toBe(200)
      expect(locale.json().tag, entry.tag).toBe(entry.tag)
      expect(locale.json().name, entry.tag).toBe(entry.name)
    }
  })
})

describe('limit_results', () => {
  it('does not make a restricted guess look certain', async () => {
    const spanish = 'El gobierno anunció ayer nuevas medidas para ayudar a las pequeñas empresas durante el invierno.'
    const restricted = (await post('/language/detect', { document: { value: spanish }, limit_results: ['pt', 'it'] })).json()
    expect(['pt', 'it']).toContain(restricted.language)
    expect(restricted.confidence).toBeLessThan(0.5)
    const sum = restricted.confidence + restricted.alternatives.reduce((s: number, a: { confidence: number }) => s + a.confidence, 0)
    expect(sum).toBeLessThanOrEqual(1 + 1e-9)
    // a restriction that holds keeps its confidence
    const allowed = (await post('/language/detect', { document: { value: spanish }, limit_results: ['es', 'pt', 'it'] })).json()
    expect(allowed.language).toBe('es')
    expect(allowed.confidence).toBeGreaterThan(0.9)
  })
})
