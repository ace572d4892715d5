/**
 * The compatible APIs' operations (LibreTranslate's, apertium-apy's, DeepL's) against openapi.yaml, as
 * openapi-conformance.test.ts checks the /language ones: real answers of the real app (Apertium,
 * the detector), each status declared for its operation, its body valid against the declared
 * schema, its required headers present; and every operation under their tags exercised with its 200.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { parse } from 'yaml'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { testApp } from '../helpers/app.js'

interface Header { required?: boolean, $ref?: string }
interface Response { headers?: Record<string, Header>, content?: Record<string, { schema: Record<string, unknown> }> }
interface Operation { operationId: string, tags?: string[], responses: Record<string, Response> }
interface Spec { paths: Record<string, Record<string, Operation>>, components: { headers?: Record<string, Header> } }

const spec = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as Spec
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema({ $id: 'openapi.json', components: spec.components })
const absolute = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(absolute)
  if (schema === null || typeof schema !== 'object') return schema
  return Object.fromEntries(Object.entries(schema).map(([key, value]) =>
    [key, key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `openapi.json${value}` : absolute(value)]))
}

const KEY = 'conformance-key-0123456789'
const TAGS = ['LibreTranslate compatible', 'apertium-apy compatible', 'DeepL compatible']
const exercised = new Set<string>()

describe('OpenAPI conformance: the compatible APIs', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: 'lt', api_keys: [KEY] }, { id: 'reader', api_keys: ['reader-key-0123456789'], scopes: ['read'] }]), AUTH_FAILURES_MAX: '100' }, { engines: true })
  }, 60_000)
  afterAll(async () => { await app?.close() })

  const send = async (request: InjectOptions & { method: string, url: string }, status: number): Promise<Awaited<ReturnType<FastifyInstance['inject']>>> => {
    const res = await app.inject(request)
    const where = `${request.method} ${request.url} -> ${res.statusCode} ${res.body.slice(0, 300)}`
    expect(res.statusCode, where).toBe(status)
    const path = request.url.split('?')[0]!
    // a path with a parameter ({document_id}) is matched by its template
    const template = Object.keys(spec.paths).find(t => t === path) ??
      Object.keys(spec.paths).find(t => new RegExp('^' + t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$').test(path))
    const operation = template === undefined ? undefined : spec.paths[template]?.[request.method.toLowerCase()]
    expect(operation, where).toBeDefined()
    expect(TAGS).toContain(operation!.tags?.[0])
    const declared = operation!.responses[String(status)]
    expect(declared, `${operation!.operationId} declares ${status}`).toBeDefined()
    for (const [name, given] of Object.entries(declared!.headers ?? {})) {
      const header = given.$ref === undefined ? given : spec.components.headers![given.$ref.split('/').pop()!]!
      if (header.required === true) expect(res.headers[name.toLowerCase()], `${name}: ${where}`).toBeDefined()
    }
    const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim()
    const media = declared!.content?.[type]
    expect(media, `${type} declared: ${where}`).toBeDefined()
    if (/json/.test(type)) {
      const validate = ajv.compile(absolute(media!.schema) as Record<string, unknown>)
      expect(validate(res.json()), `${JSON.stringify(validate.errors)}: ${where}`).toBe(true)
    }
    exercised.add(`${operation!.operationId} ${status}`)
    return res
  }

  it('LibreTranslate\'s operations: their results and errors', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    await send({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'The red car is very fast.', source: 'en', target: 'es', api_key: KEY } }, 200)
    await send({ method: 'POST', url: '/libretranslate/translate', payload: { q: ['Good morning', 'The red house'], target: 'es', api_key: KEY, alternatives: 2 } }, 200)
    await send({ method: 'POST', url: '/libretranslate/translate', headers: form, payload: `q=Hello&source=en&target=ca&format=html&api_key=${KEY}` }, 200)
    await send({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'x', source: 'en', api_key: KEY } }, 400)
    // no key: LibreTranslate's own 400
    await send({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'x', source: 'en', target: 'es' } }, 400)
    await send({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'x', source: 'en', target: 'es', api_key: 'reader-key-0123456789' } }, 403)
    await send({ method: 'POST', url: '/libretranslate/translate', headers: { 'content-type': 'text/plain' }, payload: 'x' }, 415)
    await send({ method: 'POST', url: '/libretranslate/detect', payload: { q: 'Ceci est une phrase en français, assez longue pour être reconnue.', api_key: KEY } }, 200)
    await send({ method: 'POST', url: '/libretranslate/detect', payload: { api_key: KEY } }, 400)
    await send({ method: 'POST', url: '/libretranslate/detect', payload: { q: 'x', api_key: 'wrong-key-0123456789' } }, 403)
    await send({ method: 'GET', url: '/libretranslate/languages' }, 200)
    await send({ method: 'GET', url: '/libretranslate/languages?api_key=wrong-key-0123456789' }, 403)
    await send({ method: 'POST', url: '/libretranslate/languages', payload: { api_key: KEY } }, 200)
    await send({ method: 'GET', url: '/libretranslate/frontend/settings' }, 200)
    // a file: translated, then downloaded by the link (no key)
    const upload = new FormData()
    upload.append('file', new Blob(['The red car is very fast.']), 'car.txt')
    upload.append('target', 'es')
    upload.append('api_key', KEY)
    const multipart = new Response(upload)
    const link = (await send({ method: 'POST', url: '/libretranslate/translate_file', headers: { 'content-type': multipart.headers.get('content-type')! }, payload: Buffer.from(await multipart.arrayBuffer()) }, 200)).json().translatedFileUrl as string
    await send({ method: 'GET', url: new URL(link).pathname }, 200)
    await send({ method: 'GET', url: '/libretranslate/download_file/nothing.txt' }, 404)
  })

  it('apertium-apy\'s operations: their results and errors', async () => {
    await send({ method: 'GET', url: '/apy/listPairs' }, 200)
    await send({ method: 'GET', url: '/apy/listPairs?key=wrong-key-0123456789' }, 403)
    await send({ method: 'GET', url: '/apy/list?q=pairs&src=eng' }, 200)
    await send({ method: 'GET', url: '/apy/list?q=analysers' }, 200)
    await send({ method: 'GET', url: '/apy/list?q=nonsense' }, 400)
    await send({ method: 'GET', url: `/apy/identifyLang?q=${encodeURIComponent('The house is big and the car is red.')}&key=${KEY}` }, 200)
    await send({ method: 'GET', url: `/apy/identifyLang?key=${KEY}` }, 400)
    await send({ method: 'GET', url: '/apy/identifyLang?q=house' }, 403)
    await send({ method: 'GET', url: '/apy/listLanguageNames?locale=eng&languages=spa%20cat' }, 200)
    await send({ method: 'GET', url: '/apy/listLanguageNames?locale=qqq' }, 400)
    await send({ method: 'GET', url: `/apy/translate?langpair=eng|spa&q=The+red+car&markUnknown=no&key=${KEY}` }, 200)
    await send({ method: 'GET', url: `/apy/translate?langpair=eng|spa&key=${KEY}` }, 400)
    await send({ method: 'GET', url: '/apy/translate?langpair=eng|spa&q=x' }, 403)
    await send({ method: 'POST', url: '/apy/translate', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `langpair=spa|cat&q=El+coche+rojo&key=${KEY}` }, 200)
    await send({ method: 'POST', url: '/apy/translate', headers: { 'content-type': 'text/plain' }, payload: 'x' }, 415)
    // every route by POST too, a form as html-tools posts it
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    await send({ method: 'POST', url: '/apy/list', headers: form, payload: 'q=pairs&src=eng' }, 200)
    await send({ method: 'POST', url: '/apy/listPairs', headers: form, payload: '' }, 200)
    await send({ method: 'POST', url: '/apy/identifyLang', headers: form, payload: `q=The+house+is+big+and+the+car+is+red.&key=${KEY}` }, 200)
    await send({ method: 'POST', url: '/apy/identifyLang', headers: form, payload: 'q=house' }, 403)
    await send({ method: 'POST', url: '/apy/listLanguageNames', headers: form, payload: 'locale=eng&languages=spa+cat' }, 200)
    await send({ method: 'POST', url: '/apy/listLanguageNames', headers: form, payload: 'locale=qqq' }, 400)
    await send({ method: 'GET', url: '/apy/getLocale', headers: { 'accept-language': 'ca-ES,ca;q=0.9' } }, 200)
    await send({ method: 'GET', url: '/apy/getLocale' }, 400)
    await send({ method: 'POST', url: '/apy/getLocale', headers: { ...form, 'accept-language': 'ca' }, payload: '' }, 200)
    await send({ method: 'POST', url: '/apy/getLocale', headers: form, payload: '' }, 400)
    // JSONP: the answer, errors too, as application/javascript
    expect((await send({ method: 'GET', url: `/apy/translate?langpair=eng|spa&q=The+red+car&callback=cb&key=${KEY}` }, 200)).body).toMatch(/^cb\(\{/)
    await send({ method: 'GET', url: '/apy/translate?langpair=eng|spa&q=x&callback=cb' }, 403)
    await send({ method: 'GET', url: '/apy/listPairs?callback=cb' }, 200)
  })

  it('DeepL\'s operations: their results and errors', async () => {
    const auth = { authorization: `DeepL-Auth-Key ${KEY}` }
    const form = { ...auth, 'content-type': 'application/x-www-form-urlencoded' }
    await send({ method: 'POST', url: '/deepl/v2/translate', headers: auth, payload: { text: ['The red car is very fast.', 'The house'], target_lang: 'ES', show_billed_characters: true } }, 200)
    await send({ method: 'POST', url: '/deepl/v2/translate', headers: form, payload: 'text=%3Cp%3EThe+%3Cx+id%3D%221%22%3E%3C%2Fx%3E+house%3C%2Fp%3E&source_lang=EN&target_lang=CA&tag_handling=xml&ignore_tags=x' }, 200)
    await send({ method: 'POST', url: '/deepl/v2/translate', headers: auth, payload: { text: 'x', source_lang: 'EN' } }, 400)
    await send({ method: 'POST', url: '/deepl/v2/translate', headers: auth, payload: { text: 'x', source_lang: 'EN', target_lang: 'ES', formality: 'more' } }, 400)
    await send({ method: 'POST', url: '/deepl/v2/translate', payload: { text: 'x', source_lang: 'EN', target_lang: 'ES' } }, 403)
    await send({ method: 'POST', url: '/deepl/v2/translate', headers: { authorization: 'DeepL-Auth-Key reader-key-0123456789' }, payload: { text: 'x', target_lang: 'ES' } }, 403)
    await send({ method: 'POST', url: '/deepl/v2/translate', headers: { ...auth, 'content-type': 'text/plain' }, payload: 'x' }, 415)
    await send({ method: 'GET', url: '/deepl/v2/languages', headers: auth }, 200)
    await send({ method: 'GET', url: '/deepl/v2/languages?type=target', headers: auth }, 200)
    await send({ method: 'GET', url: '/deepl/v2/languages?type=all', headers: auth }, 400)
    await send({ method: 'GET', url: '/deepl/v2/languages' }, 403)
    await send({ method: 'POST', url: '/deepl/v2/languages', headers: form, payload: 'type=target' }, 200)
    await send({ method: 'GET', url: '/deepl/v2/usage', headers: auth }, 200)
    await send({ method: 'GET', url: '/deepl/v2/usage?auth_key=wrong-key-0123456789' }, 403)
    await send({ method: 'GET', url: '/deepl/v2/glossary-language-pairs', headers: auth }, 200)
    // a document: uploaded (multipart), its status until done, its result; a wrong key is a 404
    const upload = new FormData()
    upload.append('file', new Blob(['The red car is very fast.']), 'car.txt')
    upload.append('target_lang', 'ES')
    const multipart = new Response(upload)
    const handle = (await send({ method: 'POST', url: '/deepl/v2/document', headers: { ...auth, 'content-type': multipart.headers.get('content-type')! }, payload: Buffer.from(await multipart.arrayBuffer()) }, 200)).json()
    const key = { ...auth, 'content-type': 'application/json' }
    const statusUrl = `/deepl/v2/document/${String(handle.document_id)}`
    for (let i = 0; i < 600; i++) {
      if ((await send({ method: 'POST', url: statusUrl, headers: key, payload: { document_key: handle.document_key } }, 200)).json().status === 'done') break
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    await send({ method: 'POST', url: `${statusUrl}/result`, headers: key, payload: { document_key: handle.document_key } }, 200)
    await send({ method: 'POST', url: statusUrl, headers: key, payload: { document_key: 'wrong' } }, 404)
  })

  it('exercised every operation of the tag with its 200', () => {
    for (const operations of Object.values(spec.paths)) {
      for (const op of Object.values(operations)) {
        if (!TAGS.includes(op.tags?.[0] ?? '')) continue
        expect([...exercised], op.operationId).toContain(`${op.operationId} 200`)
      }
    }
    expect(exercised.size).toBeGreaterThanOrEqual(26)
  })
})
