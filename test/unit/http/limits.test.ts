import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { CLIENT, READ_ONLY, bearer, testApp, tokenFor } from '../../helpers/app.js'
import { heavyMarkdown } from '../../helpers/markdown.js'

describe('rate limit per client', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({
      RATE_LIMIT_MAX: '3',
      AUTH_CLIENTS: JSON.stringify([
        { id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'] },
        { id: READ_ONLY.id, secret: READ_ONLY.secret, scopes: ['access'] }
      ])
    })
  })
  afterAll(async () => { await app.close() })

  it('answers 429 problem+json with Retry-After and RateLimit-* headers after RATE_LIMIT_MAX requests', async () => {
    const token = await tokenFor(app)
    const call = () => app.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })
    for (let i = 0; i < 3; i++) {
      const ok = await call()
      expect(ok.statusCode).toBe(200)
      expect(ok.headers['ratelimit-limit']).toBe('3')
      expect(ok.headers['ratelimit-remaining']).toBe(String(2 - i))
    }
    const limited = await call()
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited.headers['ratelimit-remaining']).toBe('0')
    expect(limited.json()).toMatchObject({ status: 429, type: '/problems/rate-limited' })

    // another client has its own budget
    const other = await tokenFor(app, READ_ONLY)
    expect((await app.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(other) })).statusCode).toBe(200)
    // probes are never limited
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)
  })

  it('limits the token endpoint too (by address), so client secrets cannot be guessed at will', async () => {
    const limited = await testApp({ RATE_LIMIT_MAX: '3' })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) {
        const res = await limited.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: `guess-${i}` } })
        statuses.push(res.statusCode)
        if (res.statusCode === 429) {
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
        }
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429])
    } finally {
      await limited.close()
    }
  })

  it('sets security headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' })
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN')
  })

  it('sends Strict-Transport-Security only to requests that came over TLS', async () => {
    // plain HTTP (a LAN, a health check): HSTS there would be ignored at best, and wrong
    expect((await app.inject({ method: 'GET', url: '/health' })).headers['strict-transport-security']).toBeUndefined()
    // a proxy's word about TLS counts only when the proxy is trusted
    expect((await app.inject({ method: 'GET', url: '/health', headers: { 'x-forwarded-proto': 'https' } })).headers['strict-transport-security']).toBeUndefined()
    const proxied = await testApp({ TRUST_PROXY: '127.0.0.1' })
    try {
      const tls = await proxied.inject({ method: 'GET', url: '/health', headers: { 'x-forwarded-proto': 'https' } })
      expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
      expect((await proxied.inject({ method: 'GET', url: '/health', headers: { 'x-forwarded-proto': 'http' } })).headers['strict-transport-security']).toBeUndefined()
    } finally {
      await proxied.close()
    }
  })
})

/** Keeps the event loop lagging ~200 ms per turn for longer than one sampling interval (1 s). */
async function stallEventLoop (): Promise<void> {
  const stallUntil = Date.now() + 1600
  while (Date.now() < stallUntil) {
    const until = Date.now() + 200
    while (Date.now() < until) { /* busy */ }
    await new Promise(resolve => setImmediate(resolve))
  }
}

describe('load shedding', () => {
  it('answers 503 problem+json with Retry-After while the event loop is stalled, and keeps the probes answering', async () => {
    const app = await testApp({ MAX_EVENT_LOOP_DELAY_MS: '50' })
    try {
      const token = await tokenFor(app)
      await stallEventLoop()
      const shed = await app.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })
      const health = await app.inject({ method: 'GET', url: '/health' })
      expect(shed.statusCode).toBe(503)
      expect(shed.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(shed.headers['retry-after']).toBe('10')
      expect(health.statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })

  it('never sheds with MAX_EVENT_LOOP_DELAY_MS=0', async () => {
    const app = await testApp({ MAX_EVENT_LOOP_DELAY_MS: '0' })
    try {
      const token = await tokenFor(app)
      await stallEventLoop()
      expect((await app.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })
})

describe('document threads busy', () => {
  it('answers 503 problem+json with Retry-After naming DOCUMENT_QUEUE_TIMEOUT_MS to a request whose documents waited too long for threads', async () => {
    const app = await testApp({ DOCUMENT_QUEUE_TIMEOUT_MS: '200', MAX_EVENT_LOOP_DELAY_MS: '0' })
    try {
      const token = await tokenFor(app)
      // Markdown that keeps a thread ~0.5-1 s: the same client's others wait for it past the allowance
      const evil = (i: number): string => heavyMarkdown(195, i)
      const answers = await Promise.all(Array.from({ length: 4 }, async (_, i) => await app.inject({
        method: 'POST',
        url: '/language/substitute',
        headers: bearer(token),
        payload: { document: { value: evil(i), mime_type: 'text/markdown' }, substitutions: [{ text: 'a', substitution: 'b' }] }
      })))
      const busy = answers.filter(a => a.statusCode === 503)
      expect(busy.length, answers.map(a => `${a.statusCode} ${a.body.slice(0, 200)}`).join('\n')).toBeGreaterThan(0)
      for (const a of busy) {
        expect(a.headers['content-type']).toMatch(/^application\/problem\+json/)
        expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1)
        expect(a.json().detail).toMatch(/DOCUMENT_QUEUE_TIMEOUT_MS/)
      }
      // the others were worked (or stopped at their budget on a slow machine: a 400 at the document), never a 500
      for (const a of answers.filter(a => a.statusCode !== 503)) expect([200, 400]).toContain(a.statusCode)
    } finally {
      await app.close()
    }
  })
})
