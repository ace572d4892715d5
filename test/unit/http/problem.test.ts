import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, testApp, tokenFor } from '../../helpers/app.js'
import { MAX_BODY_DEPTH, textDepth } from '../../../src/http/json-text.js'
import { CircuitOpenError } from '../../../src/errors.js'
import { emptyRegistry } from '../../../src/registry.js'
import type { Translator } from '../../../src/core/ports.js'

const PROBLEM_KEYS = ['type', 'title', 'status', 'detail', 'instance', 'request_id']

function expectProblem (res: { statusCode: number, headers: Record<string, unknown>, json: () => any }, status: number): any {
  expect(res.statusCode).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  const body = res.json()
  for (const key of PROBLEM_KEYS) expect(body, key).toHaveProperty(key)
  expect(body.status).toBe(status)
  expect(body.request_id).toBe(res.headers['x-request-id'])
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/)
  return body
}

describe('problem+json errors', () => {
  let app: FastifyInstance
  let auth: Record<string, string>
  beforeAll(async () => {
    app = await testApp({ BODY_LIMIT: '2048' }, {})
    auth = bearer(await tokenFor(app))
  })
  afterAll(async () => { await app.close() })

  it('names every invalid field with a JSON pointer', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/language/translate',
      headers: auth,
      payload: { document: { value: 'hi', extra: 1 }, targets: ['es', 5], options: { unknown_option: true }, substitutions: [{ text: '' }] }
    })
    const body = expectProblem(res, 400)
    const pointers = body.errors.map((e: { pointer: string }) => e.pointer)
    expect(pointers).toEqual(expect.arrayContaining([
      '/document/extra', '/targets/1', '/options/unknown_option', '/substitutions/0/text', '/substitutions/0/substitution'
    ]))
    for (const e of body.errors) expect(typeof e.message).toBe('string')
  })

  it('refuses bodies nested deeper than the limit, naming where', async () => {
    const meta = '{"a":' + '['.repeat(600) + ']'.repeat(600) + '}'
    const payload = `{"document":{"value":"x","meta":${meta}},"substitutions":[]}`
    const res = await app.inject({ method: 'POST', url: '/language/substitute', headers: { ...auth, 'content-type': 'application/json' }, payload })
    const body = expectProblem(res, 400)
    expect(body.errors[0].pointer).toMatch(/^\/document\/meta\/a(\/0)+$/)
    expect(body.errors[0].message).toMatch(/nested deeper than 512/)
  })

  it('takes a body nested to the limit and refuses one a level deeper (brackets inside strings do not count)', async () => {
    // the body is level 1, document 2, meta 3; arrays make up the rest
    const payload = (levels: number): string =>
      `{"document":{"value":"x [{\\"] \\\\","meta":{"a":${'['.repeat(levels - 3)}${']'.repeat(levels - 3)}}},"substitutions":[]}`
    expect(textDepth(payload(MAX_BODY_DEPTH))).toBe(MAX_BODY_DEPTH)
    const atLimit = await app.inject({ method: 'POST', url: '/language/substitute', headers: { ...auth, 'content-type': 'application/json' }, payload: payload(MAX_BODY_DEPTH) })
    expect(atLimit.statusCode, atLimit.body).toBe(200)
    expect(atLimit.json().document.value).toBe('x [{"] \\')
    const deeper = await app.inject({ method: 'POST', url: '/language/substitute', headers: { ...auth, 'content-type': 'application/json' }, payload: payload(MAX_BODY_DEPTH + 1) })
    const body = expectProblem(deeper, 400)
    expect(body.errors[0].pointer).toMatch(/^\/document\/meta\/a(\/0)+$/)
    expect(body.errors[0].message).toMatch(/nested deeper than 512/)
  })

  it('explains enum, range and union failures', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/language/edit',
      headers: auth,
      payload: { document: { value: 'x' }, edits: [{ type: 'tone', tone: 'grumpy' }, { type: 'rewrite' }], tone_level: 11, temperature: -1 }
    })
    const body = expectProblem(res, 400)
    const byPointer = Object.fromEntries(body.errors.map((e: { pointer: string, message: string }) => [e.pointer, e.message]))
    expect(byPointer['/edits/0/tone']).toMatch(/must be one of: "none", "academic"/)
    expect(byPointer['/edits/1/type']).toMatch(/unknown "type" value/)
    expect(byPointer['/tone_level']).toMatch(/<= 10/)
    expect(byPointer['/temperature']).toMatch(/>= 0/)
  })

  it('answers malformed JSON with 400', async () => {
    const res = await app.inject({ method: 'POST', url: '/language/detect', headers: { ...auth, 'content-type': 'application/json' }, payload: '{"document": ' })
    expect(expectProblem(res, 400).detail).toMatch(/not valid JSON/)
    const poisoned = await app.inject({ method: 'POST', url: '/language/detect', headers: { ...auth, 'content-type': 'application/json' }, payload: '{"document":{"value":"x"},"meta":{"__proto__":{"polluted":"yes"}}}' })
    expect(expectProblem(poisoned, 400).detail).toMatch(/__proto__/)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('answers a body that is not JSON with 415', async () => {
    const res = await app.inject({ method: 'POST', url: '/language/detect', headers: { ...auth, 'content-type': 'text/plain' }, payload: 'hello' })
    expect(expectProblem(res, 415).detail).toMatch(/application\/json/)
  })

  it('answers a compressed body or one in a charset other than UTF-8 with 415 saying so', async () => {
    const payload = JSON.stringify({ document: { value: 'hello' } })
    const gzip = await app.inject({ method: 'POST', url: '/language/detect', headers: { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: gzipSync(payload) })
    expect(expectProblem(gzip, 415).detail).toMatch(/Content-Encoding "gzip".*uncompressed/)
    const latin1 = await app.inject({ method: 'POST', url: '/language/detect', headers: { ...auth, 'content-type': 'application/json; charset=ISO-8859-1' }, payload })
    expect(expectProblem(latin1, 415).detail).toMatch(/charset "iso-8859-1".*UTF-8/)
    const utf8 = await app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded; charset="UTF-8"', 'content-encoding': 'identity' }, payload: 'grant_type=client_credentials&client_id=test-client&client_secret=test-client-secret' })
    expect(utf8.statusCode).toBe(200)
    // a form is ASCII however it is labelled (Java's HttpClient says ISO-8859-1)
    const form = await app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' }, payload: 'grant_type=client_credentials&client_id=test-client&client_secret=test-client-secret' })
    expect(form.statusCode).toBe(200)
    // no body, nothing to refuse
    expect((await app.inject({ method: 'GET', url: '/health', headers: { 'content-encoding': 'gzip' } })).statusCode).toBe(200)
  })

  it('answers a body over BODY_LIMIT with 413', async () => {
    const res = await app.inject({ method: 'POST', url: '/language/detect', headers: auth, payload: { document: { value: 'x'.repeat(4096) } } })
    expectProblem(res, 413)
  })

  it('answers unknown paths with 404 and wrong methods with 405 and Allow', async () => {
    expectProblem(await app.inject({ method: 'GET', url: '/language/nothing-here', headers: auth }), 404)
    const res = await app.inject({ method: 'DELETE', url: '/language/translate', headers: auth })
    expectProblem(res, 405)
    expect(res.headers['allow']).toBe('POST')
    const locale = await app.inject({ method: 'POST', url: '/language/locale/en', headers: auth })
    expect(locale.statusCode).toBe(405)
    expect(locale.headers['allow']).toContain('GET')
  })

  it('answers URLs the router refuses (bad percent-escape, over-long parameter) with 400 problems', async () => {
    const badEscape = await app.inject({ method: 'GET', url: '/language/locale/%E0%A4', headers: auth })
    expect(expectProblem(badEscape, 400).detail).toMatch(/percent-escape/)
    expectProblem(await app.inject({ method: 'GET', url: '/nowhere/%E0%A4' }), 400)
    const long = await app.inject({ method: 'GET', url: '/language/locale/' + 'a'.repeat(500), headers: auth })
    expect(expectProblem(long, 400).detail).toMatch(/too long/)
  })

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const mine = await app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'client-id-123' } })
    expect(mine.headers['x-request-id']).toBe('client-id-123')
    expect(mine.json().request_id).toBe('client-id-123')
    const unsafe = await app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'bad id\twith spaces' } })
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect((await app.inject({ method: 'GET', url: '/health' })).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    // what proxies and tracers send is kept: UUIDs, hex, ULIDs, Cloudflare's ray ids
    for (const id of ['3f2c5e8a-1b4d-4c9e-9f7a-2d6b8e0c1a35', 'f'.repeat(32), '01HZY4XK2M9Q8R7S6T5V4W3X2Y', '8a1b2c3d4e5f6789-AMS', 'a'.repeat(64)]) {
      expect((await app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': id } })).headers['x-request-id'], id).toBe(id)
    }
    // anything longer or outside letters, digits, ".", "_" and "-" (a token, a path, log syntax) is replaced, never echoed or logged
    const refused = ['a'.repeat(65), 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl', 'id/../../etc', 'user@example.com', 'key=value', 'a:b', 'a+b', '-leading', '.hidden', 'ünïcode']
    for (const id of refused) {
      const res = await app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': id } })
      expect(res.headers['x-request-id'], id).toMatch(/^[0-9a-f-]{36}$/)
      expect(res.json().request_id, id).toBe(res.headers['x-request-id'])
    }
  })

  it('answers 503 problem+json naming the settings when no engine can serve an operation', async () => {
    const res = await app.inject({ method: 'POST', url: '/language/edit', headers: auth, payload: { document: { value: 'Some text.', language: 'en' }, edits: [{ type: 'grammar' }] } })
    expect(expectProblem(res, 503).detail).toMatch(/No editor is configured.*OPENAI_BASE_URL and OPENAI_MODEL/)
  })
})

describe('limits that depend on configuration', () => {
  // a probe met each of these without the setting to raise; BODY_LIMIT and MAX_TEXT_CHARS named theirs
  let app: FastifyInstance
  let auth: Record<string, string>
  beforeAll(async () => {
    // an engine whose breaker is open: a translation it alone could serve is refused with its wait
    const open: Translator = {
      name: 'fake',
      languages: async () => [{ from: 'en', to: 'es' }],
      translate: async () => { throw new CircuitOpenError('fake', 1, 20_000) }
    }
    app = await testApp({ MAX_TARGETS: '2', MAX_BULK_DOCUMENTS: '2', MAX_EDITS: '1' }, { registry: { ...emptyRegistry(), translators: [open] } })
    auth = bearer(await tokenFor(app))
  })
  afterAll(async () => { await app.close() })

  const post = async (url: string, payload: object) => await app.inject({ method: 'POST', url, headers: auth, payload })

  it('a list past its limit names the setting', async () => {
    const distinct = expectProblem(await post('/language/translate', { document: { value: 'Hi' }, source: 'en', targets: ['es', 'fr', 'de'] }), 400)
    expect(distinct.detail).toMatch(/^\/targets: must NOT have more than 2 distinct languages .*the limit is set by MAX_TARGETS/)
    // repeats past what the schema takes at all
    const entries = expectProblem(await post('/language/translate', { document: { value: 'Hi' }, source: 'en', targets: Array.from({ length: 11 }, () => 'es') }), 400)
    expect(entries.errors[0]).toMatchObject({ pointer: '/targets', message: expect.stringMatching(/ \(the limit is set by MAX_TARGETS\)$/) })
    const documents = expectProblem(await post('/language/translate/bulk', { documents: [{ value: 'a' }, { value: 'b' }, { value: 'c' }], source: 'en', targets: ['es'] }), 400)
    expect(documents.detail).toBe('/documents must NOT have more than 2 items (the limit is set by MAX_BULK_DOCUMENTS)')
    const edits = expectProblem(await post('/language/edit', { document: { value: 'Some text.', language: 'en' }, edits: [{ type: 'grammar' }, { type: 'syntax' }] }), 400)
    expect(edits.detail).toBe('/edits must NOT have more than 1 items (the limit is set by MAX_EDITS)')
    // a list of the same name that no setting bounds says nothing of one
    const detect = expectProblem(await post('/language/detect', { document: { value: 'Hello' }, limit_results: Array.from({ length: 201 }, () => 'en') }), 400)
    expect(detect.detail).not.toMatch(/set by/)
  })

  it('a service skipped by its breaker names the breaker\'s settings', async () => {
    const body = expectProblem(await post('/language/translate', { document: { value: 'Hi' }, source: 'en', targets: ['es'] }), 503)
    expect(body.detail).toMatch(/fake: failed 1 call in a row and is skipped for 20 s\. .*BREAKER_FAILURES.*BREAKER_COOLDOWN_MS\.$/)
  })
})

describe('HTTP the server cannot parse (real sockets)', () => {
  it('answers oversized headers and a malformed request line with problem+json', async () => {
    const { connect } = await import('node:net')
    const app = await testApp({}, {})
    await app.listen({ host: '127.0.0.1', port: 0 })
    const port = (app.server.address() as { port: number }).port
    const send = (raw: string) => new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(raw))
      let answer = ''
      socket.on('data', c => { answer += c })
      socket.on('close', () => resolve(answer))
      socket.on('error', reject)
    })
    try {
      for (const [raw, status] of [
        [`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
        ['GET /health\u0000 HTTP/1.1\r\nHost: x\r\n\r\n', 400]
      ] as const) {
        const answer = await send(raw)
        expect(answer.startsWith(`HTTP/1.1 ${status} `)).toBe(true)
        const [head, body] = answer.split('\r\n\r\n')
        expect(head).toMatch(/content-type: application\/problem\+json/i)
        const problem = JSON.parse(body!)
        expect(problem).toMatchObject({ status, instance: '/' })
        for (const key of PROBLEM_KEYS) expect(problem).toHaveProperty(key)
        expect(head).toContain(`X-Request-Id: ${problem.request_id}`)
      }
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })

  it('answers a body that does not arrive in time with 408 naming REQUEST_TIMEOUT_MS, at the request\'s path', async () => {
    const { connect } = await import('node:net')
    const app = await testApp({ REQUEST_TIMEOUT_MS: '1000' }, {})
    await app.listen({ host: '127.0.0.1', port: 0 })
    const port = (app.server.address() as { port: number }).port
    const token = await tokenFor(app)
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(`POST /language/detect?x=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"doc`))
        let text = ''
        socket.on('data', c => { text += c })
        socket.on('close', () => resolve(text))
        socket.on('error', reject)
      })
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout')
      const problem = JSON.parse(answer.split('\r\n\r\n')[1]!)
      expect(problem).toMatchObject({ status: 408, instance: '/language/detect' })
      expect(problem.detail).toMatch(/did not arrive in time.*REQUEST_TIMEOUT_MS/)
    } finally {
      await app.close()
    }
  })
})

describe('unexpected errors', () => {
  it('answer 500 without leaking the error', async () => {
    const { buildApp } = await import('../../../src/app.js')
    const { testConfig } = await import('../../helpers/app.js')
    const { emptyRegistry } = await import('../../../src/registry.js')
    const app = await buildApp(testConfig(), { logger: false, registry: emptyRegistry() })
    app.get('/boom', async () => { throw new Error('secret internal detail at /srv/app.js:12') })
    await app.ready()
    try {
      const res = await app.inject({ method: 'GET', url: '/boom' })
      const body = expectProblem(res, 500)
      expect(JSON.stringify(body)).not.toContain('secret internal detail')
    } finally {
      await app.close()
    }
  })
})
