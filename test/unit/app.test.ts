import { describe, expect, it } from 'vitest'
import { connect } from 'node:net'
import { buildApp } from '../../src/app.js'
import { CLIENT, JWT_SECRET, testConfig, tokenFor } from '../helpers/app.js'
import { emptyRegistry } from '../../src/registry.js'
import { RequestDeadlineError, UpstreamError } from '../../src/errors.js'
import { withinDeadline } from '../../src/routes/signal.js'

describe('logs', () => {
  it('never contain client secrets, signing secrets or access tokens', async () => {
    const lines: string[] = []
    const app = await buildApp(testConfig({ LOG_LEVEL: 'trace' }), { registry: emptyRegistry(), logStream: { write: (line) => { lines.push(line) } } })
    await app.ready()
    try {
      const token = await tokenFor(app)
      await app.inject({ method: 'GET', url: '/language/edit/tones', headers: { authorization: `Bearer ${token}` } })
      await app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: 'a-wrong-secret-value' } })
      await app.inject({ method: 'GET', url: '/language/edit/tones', headers: { authorization: 'Bearer forged.token.value' } })
      const log = lines.join('')
      expect(lines.length).toBeGreaterThan(5)
      expect(log).toContain('"request_id"')
      for (const secret of [CLIENT.secret, 'a-wrong-secret-value', token, token.split('.')[2]!, JWT_SECRET, 'forged.token.value']) {
        expect(log).not.toContain(secret)
      }
    } finally {
      await app.close()
    }
  })
})

describe('a client that goes away', () => {
  it('stops the work and is logged as information, not as an unexpected error', async () => {
    const lines: string[] = []
    const app = await buildApp(testConfig({ LOG_LEVEL: 'info' }), { registry: emptyRegistry(), logStream: { write: (line) => { lines.push(line) } } })
    let aborted = false
    app.get('/slow-work', (_request, reply) => withinDeadline(reply, 60_000, signal => new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => { aborted = true; reject(signal.reason) }, { once: true })
    })))
    await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const address = app.server.address() as { port: number }
      const client = new AbortController()
      const call = fetch(`http://127.0.0.1:${address.port}/slow-work`, { signal: client.signal }).catch(() => undefined)
      await new Promise(resolve => setTimeout(resolve, 200))
      client.abort()
      await call
      for (let i = 0; i < 50 && !lines.some(l => l.includes('client closed')); i++) await new Promise(resolve => setTimeout(resolve, 20))
      expect(aborted).toBe(true)
      const entries = lines.map(l => JSON.parse(l) as { level: number, msg: string })
      expect(entries.some(e => e.msg === 'client closed the connection before its answer' && e.level === 30)).toBe(true)
      expect(entries.filter(e => e.level >= 50)).toEqual([])
    } finally {
      await app.close()
    }
  })
})

describe('an upload the client abandons', () => {
  it('is logged as information, once, without an error or a stack', async () => {
    const lines: string[] = []
    const app = await buildApp(testConfig({ LOG_LEVEL: 'info' }), { registry: emptyRegistry(), logStream: { write: (line) => { lines.push(line) } } })
    await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const token = await tokenFor(app)
      const { port } = app.server.address() as { port: number }
      const uploads = [
        ['/language/translate', `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n`, '{"document":{"value":"' + 'a'.repeat(70_000)],
        ['/language/detect', `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n`, '20\r\n{"document":{"value":"aaaaaaaaaa'],
        ['/oauth/token', 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n', 'grant_type=client_credentials&client_id=']
      ]
      for (const [path, headers, part] of uploads) {
        for (const reset of [false, true]) {
          const socket = connect(port, '127.0.0.1')
          socket.on('error', () => {})
          await new Promise(resolve => socket.once('connect', resolve))
          socket.write(`POST ${path!} HTTP/1.1\r\nHost: localhost\r\n${headers!}\r\n${part!}`)
          await new Promise(resolve => setTimeout(resolve, 100))
          if (reset) socket.resetAndDestroy()
          else socket.destroy()
        }
      }
      const abandoned = (): Array<{ level: number, msg: string }> => lines.map(l => JSON.parse(l) as { level: number, msg: string }).filter(e => e.msg === 'client closed the connection while sending its body')
      for (let i = 0; i < 100 && abandoned().length < 6; i++) await new Promise(resolve => setTimeout(resolve, 20))
      expect(abandoned()).toHaveLength(6)
      expect(abandoned().every(e => e.level === 30)).toBe(true)
      const entries = lines.map(l => JSON.parse(l) as { level: number })
      expect(entries.filter(e => e.level >= 40)).toEqual([])
      expect(lines.join('')).not.toMatch(/"stack"|"err"/)
    } finally {
      await app.close()
    }
  })
})

describe('a body past BODY_LIMIT', () => {
  /** Writes a request whose body is past the limit, as a client that writes it all before reading does; then asks for /health on the same connection. */
  async function uploadThenAsk (port: number, token: string, headers: string, body: (write: (chunk: string) => Promise<void>, refused: () => Promise<void>) => Promise<void>): Promise<{ answers: string, writeError: unknown }> {
    const socket = connect(port, '127.0.0.1')
    let answers = ''
    let writeError: unknown
    socket.on('data', chunk => { answers += chunk.toString('latin1') })
    socket.on('error', err => { writeError ??= err })
    await new Promise(resolve => socket.once('connect', resolve))
    const write = (chunk: string): Promise<void> => new Promise(resolve => {
      if (socket.destroyed) { resolve(); return }
      socket.write(chunk, err => { if (err != null) writeError ??= err; resolve() })
    })
    await write(`POST /language/detect HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\n${headers}\r\n`)
    // the body's writer waits for the 413 before it writes the rest (what made the old close hit the client's writes)
    const refused = async (): Promise<void> => {
      for (let i = 0; i < 100 && !answers.includes('413'); i++) await new Promise(resolve => setTimeout(resolve, 20))
    }
    await body(write, refused)
    await write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n')
    for (let i = 0; i < 250 && !socket.destroyed && (answers.match(/HTTP\/1\.1 /g) ?? []).length < 2; i++) await new Promise(resolve => setTimeout(resolve, 20))
    socket.destroy()
    return { answers, writeError }
  }

  it('is read to its end and dropped: the client gets its 413 and the connection stays usable (deepl-node got EPIPE)', async () => {
    const app = await buildApp(testConfig({ BODY_LIMIT: '2048' }), { registry: emptyRegistry(), logger: false })
    await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const { port } = app.server.address() as { port: number }
      const token = await tokenFor(app)
      const chunk = 'a'.repeat(64 * 1024)
      const sized = await uploadThenAsk(port, token, `Content-Length: ${32 * chunk.length}\r\n`, async (write, refused) => {
        await refused()
        for (let i = 0; i < 32; i++) await write(chunk)
      })
      expect(sized.writeError).toBeUndefined()
      expect(sized.answers).toMatch(/^HTTP\/1\.1 413 /)
      expect(sized.answers).toMatch(/HTTP\/1\.1 200 [\s\S]*"status"/)
      const chunked = await uploadThenAsk(port, token, 'Transfer-Encoding: chunked\r\n', async (write, refused) => {
        for (let i = 0; i < 32; i++) {
          await write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
          if (i === 0) await refused()
        }
        await write('0\r\n\r\n')
      })
      expect(chunked.writeError).toBeUndefined()
      expect(chunked.answers).toMatch(/^HTTP\/1\.1 413 /)
      expect(chunked.answers).toMatch(/HTTP\/1\.1 200 [\s\S]*"status"/)
    } finally {
      await app.close()
    }
  })

  it('whose rest does not arrive within REQUEST_TIMEOUT_MS ends the connection without a second answer (a 408 followed the 413)', async () => {
    const app = await buildApp(testConfig({ BODY_LIMIT: '2048', REQUEST_TIMEOUT_MS: '1000' }), { registry: emptyRegistry(), logger: false })
    await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const { port } = app.server.address() as { port: number }
      const token = await tokenFor(app)
      // refused for its size (413), and refused before its body is read (401: no token)
      for (const [auth, status] of [[`Authorization: Bearer ${token}\r\n`, '413'], ['', '401']] as const) {
        const socket = connect(port, '127.0.0.1')
        let answers = ''
        socket.on('data', chunk => { answers += chunk.toString('latin1') })
        socket.on('error', () => {})
        await new Promise(resolve => socket.once('connect', resolve))
        socket.write(`POST /language/detect HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${auth}Content-Length: 1000000\r\n\r\n{"document":`)
        const closed = new Promise(resolve => socket.once('close', resolve))
        await Promise.race([closed, new Promise(resolve => setTimeout(resolve, 10_000))])
        expect(socket.destroyed, status).toBe(true)
        expect(answers, status).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
        expect(answers.match(/HTTP\/1\.1 /g), answers).toHaveLength(1)
      }
    } finally {
      await app.close()
    }
  })
})

describe('a request past its deadline (HANDLER_TIMEOUT_MS)', () => {
  it('is answered 503 with Retry-After naming the setting, and its work is called off, whatever the work does', async () => {
    const app = await buildApp(testConfig({ HANDLER_TIMEOUT_MS: '1000' }), { registry: emptyRegistry(), logger: false })
    let reason: unknown
    // work that ignores its signal too: the answer must not wait for it
    app.get('/stuck-work', (_request, reply) => withinDeadline(reply, 1000, signal => {
      signal.addEventListener('abort', () => { reason = signal.reason }, { once: true })
      return new Promise(() => {})
    }))
    await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const address = app.server.address() as { port: number }
      const started = Date.now()
      const res = await fetch(`http://127.0.0.1:${address.port}/stuck-work`)
      expect(Date.now() - started).toBeGreaterThanOrEqual(950)
      expect(res.status).toBe(503)
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      const { detail } = await res.json() as { detail: string }
      expect(detail).toMatch(/did not finish this request within 1 s.*HANDLER_TIMEOUT_MS.*UPSTREAM_TIMEOUT_MS/)
      // the service cannot tell a slow engine from a busy service (a probe's idle one was said to be busy)
      expect(detail).toMatch(/an engine may be slow to answer, or the service busy/)
      expect(detail).not.toMatch(/: it is busy/)
      expect(reason).toBeInstanceOf(RequestDeadlineError)
    } finally {
      await app.close()
    }
  })
})

describe('a 503 for something not configured (issue 25 item 15)', () => {
  it('is logged at info without an error or a stack; a real failure is still a warning with its stack', async () => {
    const lines: string[] = []
    const app = await buildApp(testConfig({ LOG_LEVEL: 'info' }), { registry: emptyRegistry(), logStream: { write: (line) => { lines.push(line) } } })
    app.get('/failing-work', () => { throw new UpstreamError('libretranslate', 'answered HTTP 500') })
    await app.ready()
    try {
      const token = await tokenFor(app)
      // no OPENAI_MODEL: a tone edit is the 503 that names the setting
      const tone = await app.inject({ method: 'POST', url: '/language/edit', headers: { authorization: `Bearer ${token}` }, payload: { document: { value: 'Send it now.', language: 'en' }, edits: [{ type: 'tone', tone: 'friendly' }] } })
      expect(tone.statusCode).toBe(503)
      const entries = lines.map(l => JSON.parse(l) as { level: number, msg: string, err?: unknown, request_id?: string, capability?: string })
      const about = entries.filter(e => e.msg !== 'incoming request' && e.msg !== 'request completed' && e.request_id === tone.headers['x-request-id'])
      expect(about).toEqual([expect.objectContaining({ level: 30, msg: 'not configured to serve this', capability: 'editing' })])
      expect(about[0]).not.toHaveProperty('err')
      expect(lines.join('')).not.toContain('"stack"')

      const failed = await app.inject({ method: 'GET', url: '/failing-work' })
      expect(failed.statusCode).toBe(502)
      const warned = lines.map(l => JSON.parse(l) as { level: number, msg: string, err?: { stack?: string } }).filter(e => e.msg === 'request failed')
      expect(warned).toHaveLength(1)
      expect(warned[0]!.level).toBe(40)
      expect(warned[0]!.err?.stack).toBeTruthy()
    } finally {
      await app.close()
    }
  })
})
