/**
 * Schema-driven conformance (what Schemathesis would check): real requests to the real app, with
 * its engines, each answer checked against openapi.yaml. Its status must be declared for the
 * operation (a method the path does not take: 405, declared by the path's operations; a path the
 * document does not name: a 404 problem), its content type declared for that status, its body
 * valid against the declared schema, and every header declared as required present and valid.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { parse } from 'yaml'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { CLIENT, READ_ONLY, bearer, testApp, tokenFor } from '../helpers/app.js'

interface Header { required?: boolean, schema?: Record<string, unknown>, $ref?: string }
interface Response { description: string, headers?: Record<string, Header>, content?: Record<string, { schema: Record<string, unknown> }> }
interface Operation { operationId: string, responses: Record<string, Response> }
interface Spec {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, unknown>, headers?: Record<string, Header> }
}

const spec = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as Spec
const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true })
addFormats.default(ajv)
// every component under its own reference, as the document writes it
ajv.addSchema({ $id: 'openapi.json', components: spec.components })
const validators = new Map<Record<string, unknown>, ReturnType<typeof ajv.compile>>()

/** A schema with its #/components references made absolute. */
function absolute (schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(absolute)
  if (schema === null || typeof schema !== 'object') return schema
  return Object.fromEntries(Object.entries(schema).map(([key, value]) =>
    [key, key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `openapi.json${value}` : absolute(value)]))
}

function validator (schema: Record<string, unknown>): ReturnType<typeof ajv.compile> {
  let validate = validators.get(schema)
  if (validate === undefined) {
    validate = ajv.compile(absolute(schema) as Record<string, unknown>)
    validators.set(schema, validate)
  }
  return validate
}

const templates = Object.keys(spec.paths).map(template => ({
  template,
  matcher: new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '/?$')
}))

/** What one answer was checked against, for the coverage check at the end. */
const exercised = new Set<string>()

/** Checks one answer against the document; returns the operation and status it was checked as. */
function conforms (request: { method: string, url: string }, res: LightMyRequestResponse): string {
  const path = request.url.split('?')[0]!
  const where = `${request.method} ${request.url} -> ${res.statusCode} ${res.body.slice(0, 300)}`
  const template = templates.find(t => t.matcher.test(path))?.template
  let declared: Response | undefined
  let label: string
  if (template === undefined) {
    // a path the document does not name: the service's 404 problem is all there is to say
    expect(res.statusCode, where).toBe(404)
    expect(res.headers['content-type'], where).toMatch(/^application\/problem\+json/)
    expect(res.headers['x-request-id'], where).toBeDefined()
    label = `(undocumented path) ${res.statusCode}`
    exercised.add(label)
    return label
  }
  const operations = spec.paths[template]!
  const operation = operations[request.method.toLowerCase()]
  if (operation === undefined) {
    // a method the path does not take: every operation of the path declares the 405
    expect(res.statusCode, where).toBe(405)
    for (const op of Object.values(operations)) expect(op.responses['405'], `${op.operationId} declares 405`).toBeDefined()
    declared = Object.values(operations)[0]!.responses['405']
    label = `${template} (other method) 405`
  } else {
    const status = String(res.statusCode)
    declared = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses['default']
    expect(declared, `${operation.operationId} declares ${status}: ${where}`).toBeDefined()
    label = `${operation.operationId} ${status}`
  }
  checkResponse(declared!, res, where)
  exercised.add(label)
  return label
}

function checkResponse (declared: Response, res: LightMyRequestResponse, where: string): void {
  for (const [name, given] of Object.entries(declared.headers ?? {})) {
    const header = given.$ref === undefined ? given : spec.components.headers![given.$ref.split('/').pop()!]!
    const value = res.headers[name.toLowerCase()]
    if (header.required === true) expect(value, `header ${name}: ${where}`).toBeDefined()
    if (value === undefined || header.schema === undefined) continue
    const typed = header.schema['type'] === 'integer' ? Number(value) : String(value)
    const validate = validator(header.schema)
    expect(validate(typed), `header ${name}: ${String(value)} ${JSON.stringify(validate.errors)}: ${where}`).toBe(true)
  }
  if (declared.content === undefined) {
    expect(res.body, `no body is declared: ${where}`).toBe('')
    return
  }
  const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim()
  const media = declared.content[type]
  expect(media, `content type ${type} declared (${Object.keys(declared.content).join(', ')}): ${where}`).toBeDefined()
  if (!/json/.test(type)) return
  const validate = validator(media!.schema)
  const body: unknown = res.json()
  expect(validate(body), `body: ${JSON.stringify(validate.errors)}: ${where}`).toBe(true)
}

const basic = (client: { id: string, secret: string }): string => 'Basic ' + Buffer.from(`${client.id}:${client.secret}`).toString('base64')
const json = { 'content-type': 'application/json' }

describe('OpenAPI conformance: real answers match openapi.yaml', () => {
  let app: FastifyInstance
  let token: string
  let readOnly: string

  /** Sends a request, checks it conforms, and returns the answer. */
  const send = async (request: InjectOptions & { method: string, url: string }, status?: number): Promise<LightMyRequestResponse> => {
    const res = await app.inject(request)
    conforms(request, res)
    if (status !== undefined) expect(res.statusCode, `${request.method} ${request.url}: ${res.body.slice(0, 300)}`).toBe(status)
    return res
  }

  beforeAll(async () => {
    app = await testApp({ BODY_LIMIT: String(64 * 1024) }, { engines: true })
    token = await tokenFor(app)
    readOnly = await tokenFor(app, READ_ONLY)
  }, 60_000)
  afterAll(async () => { await app?.close() })

  it('the token endpoint: a token, OAuth errors (400, 401) and problems (405, 413, 415)', async () => {
    const url = '/oauth/token'
    await send({ method: 'POST', url, headers: { authorization: basic(CLIENT) }, payload: { grant_type: 'client_credentials' } }, 200)
    await send({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `grant_type=client_credentials&client_id=${CLIENT.id}&client_secret=${CLIENT.secret}` }, 200)
    await send({ method: 'POST', url, headers: { authorization: basic(CLIENT) }, payload: { grant_type: 'password' } }, 400)
    await send({ method: 'POST', url, headers: { authorization: basic({ id: CLIENT.id, secret: 'wrong' }) }, payload: { grant_type: 'client_credentials' } }, 401)
    await send({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'grant_type=client_credentials' }, 415)
    await send({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=client_credentials&pad=' + 'x'.repeat(20_000) }, 413)
    await send({ method: 'GET', url }, 405)
  })

  it('every /language operation: its result', async () => {
    const auth = { ...bearer(token), ...json }
    const document = { value: 'Hello world. This is a good day.', language: 'en' }
    await send({ method: 'POST', url: '/language/translate', headers: auth, payload: { document, targets: ['es'] } }, 200)
    await send({ method: 'POST', url: '/language/translate/bulk', headers: auth, payload: { documents: [document, { value: 'Good morning' }], source: 'en', targets: ['es'] } }, 200)
    await send({ method: 'GET', url: '/language/translate/locales', headers: bearer(token) }, 200)
    await send({ method: 'GET', url: '/language/translate/locales?source=en', headers: bearer(token) }, 200)
    await send({ method: 'GET', url: '/language/translate/locales/supported?source=en&target=es', headers: bearer(token) }, 200)
    await send({ method: 'POST', url: '/language/detect', headers: auth, payload: { document: { value: 'Ceci est une phrase en français, assez longue pour être reconnue.' } } }, 200)
    await send({ method: 'POST', url: '/language/substitute', headers: auth, payload: { document, substitutions: [{ text: 'world', substitution: 'World' }] } }, 200)
    await send({ method: 'POST', url: '/language/edit', headers: auth, payload: { document: { value: 'Hello .It works.', language: 'en' }, edits: [{ type: 'syntax' }] } }, 200)
    await send({ method: 'POST', url: '/language/analyze', headers: auth, payload: { document } }, 200)
    await send({ method: 'POST', url: '/language/analyze/sentiment', headers: auth, payload: { document } }, 200)
    // a job: accepted, its state until done (with its result), then removed; a job that is none of the client's is a 404
    const job = await send({ method: 'POST', url: '/language/translate/jobs', headers: auth, payload: { document, targets: ['es'] } }, 202)
    const url = String(job.headers.location)
    for (let i = 0; i < 600; i++) {
      const state = await send({ method: 'GET', url, headers: bearer(token) }, 200)
      if (state.json().status === 'done') break
      expect(state.json().status).toMatch(/^(queued|running)$/)
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    await send({ method: 'DELETE', url, headers: bearer(token) }, 204)
    await send({ method: 'GET', url, headers: bearer(token) }, 404)
    await send({ method: 'DELETE', url, headers: bearer(token) }, 404)
  })

  it('cached answers: 200 with an ETag, then 304 for If-None-Match', async () => {
    for (const url of ['/language/edit/tones', '/language/locale/pt-BR', '/language/locales?display=fr']) {
      const first = await send({ method: 'GET', url, headers: bearer(token) }, 200)
      await send({ method: 'GET', url, headers: { ...bearer(token), 'if-none-match': String(first.headers.etag) } }, 304)
    }
  })

  it('errors: 400, 401, 403, 404, 405, 413, 415 and 503 as declared problems', async () => {
    const auth = { ...bearer(token), ...json }
    await send({ method: 'POST', url: '/language/translate', headers: auth, payload: { targets: ['es'] } }, 400)
    await send({ method: 'POST', url: '/language/detect', headers: auth, payload: '{"document": ' }, 400)
    await send({ method: 'GET', url: '/language/translate/locales/supported?source=en', headers: bearer(token) }, 400)
    await send({ method: 'GET', url: '/language/locale/not_a_tag!', headers: bearer(token) }, 400)
    await send({ method: 'POST', url: '/language/detect', headers: json, payload: { document: { value: 'x' } } }, 401)
    await send({ method: 'GET', url: '/language/locales', headers: { authorization: 'Bearer not.a.token' } }, 401)
    await send({ method: 'POST', url: '/language/analyze', headers: { ...bearer(readOnly), ...json }, payload: { document: { value: 'x' } } }, 403)
    await send({ method: 'GET', url: '/language/locale/aaa', headers: bearer(token) }, 404)
    await send({ method: 'GET', url: '/language/translate', headers: bearer(token) }, 405)
    await send({ method: 'POST', url: '/language/locales', headers: auth, payload: {} }, 405)
    await send({ method: 'POST', url: '/language/substitute', headers: auth, payload: { document: { value: 'x'.repeat(70 * 1024) }, substitutions: [] } }, 413)
    await send({ method: 'POST', url: '/language/detect', headers: { ...bearer(token), 'content-type': 'text/plain' }, payload: 'hello' }, 415)
    await send({ method: 'POST', url: '/language/detect', headers: { ...auth, 'content-encoding': 'gzip' }, payload: 'not really gzip' }, 415)
    // a tone edit needs a model, and none is configured
    await send({ method: 'POST', url: '/language/edit', headers: auth, payload: { document: { value: 'Hello there.', language: 'en' }, edits: [{ type: 'tone', tone: 'friendly' }] } }, 503)
    await send({ method: 'GET', url: '/no/such/path', headers: bearer(token) }, 404)
  })

  it('QUERY without a Content-Type: 405 with Allow on a known path, 404 on an unknown one (was a 400 everywhere)', async () => {
    const known = await send({ method: 'QUERY', url: '/language/detect', headers: bearer(token) }, 405)
    expect(known.headers.allow).toBe('POST')
    await send({ method: 'QUERY', url: '/language/locales', headers: bearer(token), payload: 'x' }, 405)
    await send({ method: 'QUERY', url: '/no/such/path' }, 404)
  })
})

describe('OpenAPI conformance: rate limits', () => {
  let app: FastifyInstance
  beforeAll(async () => { app = await testApp({ RATE_LIMIT_MAX: '2' }) })
  afterAll(async () => { await app?.close() })

  it('answers 429 with Retry-After and RateLimit-* as declared', async () => {
    const token = await tokenFor(app)
    const request = { method: 'GET', url: '/language/edit/tones', headers: bearer(token) } as const
    for (const status of [200, 200, 429]) {
      const res = await app.inject(request)
      expect(conforms(request, res)).toBe(`edit_tones ${status}`)
    }
    const tokenRequest = { method: 'POST', url: '/oauth/token', headers: { authorization: basic(CLIENT) }, payload: { grant_type: 'client_credentials' } } as const
    await app.inject(tokenRequest)
    const limited = await app.inject(tokenRequest)
    expect(conforms(tokenRequest, limited)).toBe('token 429')
  })
})

describe('OpenAPI conformance: coverage', () => {
  it('exercised every /language operation and the token endpoint, each with its result', () => {
    for (const [template, operations] of Object.entries(spec.paths)) {
      if (!template.startsWith('/language') && template !== '/oauth/token') continue
      for (const op of Object.values(operations)) {
        const statuses = [...exercised].filter(e => e.startsWith(op.operationId + ' '))
        // a job is accepted (202), and cancelled or removed (204)
        const ok = op.operationId === 'translate_job' ? 202 : op.operationId === 'translate_job_cancel' ? 204 : 200
        expect(statuses, op.operationId).toContain(`${op.operationId} ${ok}`)
      }
    }
    for (const label of ['token 400', 'token 401', 'token 413', 'token 415', 'token 429', 'edit_tones 304', 'locale 304', 'locales 304',
      'locale 404', 'edit 503', 'detect 415', 'substitute 413', 'analyze 403', 'detect 401', '/language/detect (other method) 405']) {
      expect([...exercised], label).toContain(label)
    }
  })
})
