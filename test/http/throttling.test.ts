/**
 * Every door is throttled (issue 24, findings 3 and 5): requests without valid credentials count
 * against their address before authentication, the token endpoint throttles failed client
 * authentications per client id and per address, and secret checks (scrypt) are bounded so that a
 * flood of guesses cannot hold the thread pool that everyone's token checks need. The address is
 * the one TRUST_PROXY gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { CLIENT, READ_ONLY, bearer, testApp, tokenFor } from '../helpers/app.js'
import { hashSecret } from '../../src/http/auth/secrets.js'

const ATTACKER = '203.0.113.7'
const NEIGHBOUR = '198.51.100.20'

function expectLimited (res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, what).toBe(429)
  expect(res.headers['content-type'], what).toMatch(/^application\/problem\+json/)
  const retryAfter = Number(res.headers['retry-after'])
  expect(retryAfter, what).toBeGreaterThanOrEqual(1)
  expect(retryAfter, what).toBeLessThanOrEqual(60)
}

describe('requests without valid credentials, per address (ADDRESS_RATE_LIMIT_MAX)', () => {
  let app: FastifyInstance
  let token: string
  beforeAll(async () => {
    app = await testApp({ ADDRESS_RATE_LIMIT_MAX: '5', METRICS_TOKEN: 'the-metrics-token-0123' })
    token = await tokenFor(app)
  })
  afterAll(async () => { await app.close() })

  it('answers 429 to an address past the limit of unknown routes, before any other work; other addresses and probes go on', async () => {
    const from = (remoteAddress: string, url = '/nope') => app.inject({ method: 'GET', url, remoteAddress })
    for (let i = 0; i < 5; i++) expect((await from(ATTACKER, `/nope/${i}`)).statusCode).toBe(404)
    expectLimited(await from(ATTACKER), '6th 404')
    expectLimited(await from(ATTACKER, '/openapi.json'), 'anything else without credentials')
    expect((await from(NEIGHBOUR)).statusCode).toBe(404)
    // probes must tell the truth, whoever asks
    expect((await from(ATTACKER, '/health')).statusCode).toBe(200)
    expect((await from(ATTACKER, '/ready')).statusCode).toBe(200)
    // a client with a valid token at that address is still served
    expect((await app.inject({ method: 'GET', url: '/language/edit/tones', remoteAddress: ATTACKER, headers: bearer(token) })).statusCode).toBe(200)
  })

  it('counts refused tokens (missing, forged, without the scope): 429 instead of 401 once past it, a valid token still served', async () => {
    const address = '203.0.113.8'
    const call = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/language/edit/tones', remoteAddress: address, headers })
    const readOnly = await tokenFor(app, READ_ONLY)
    const refused = [{}, bearer('forged.token.value'), bearer(token.slice(0, -4) + 'AAAA'), bearer(readOnly), { authorization: 'Basic eDp5' }]
    const statuses = []
    for (const headers of refused) statuses.push((await call(headers)).statusCode)
    expect(statuses).toEqual([401, 401, 401, 403, 401])
    for (const headers of refused) expectLimited(await call(headers), JSON.stringify(headers))
    expect((await call(bearer(token))).statusCode).toBe(200)
  })

  it('counts /metrics token guesses (METRICS_TOKEN), and the right token still scrapes', async () => {
    const address = '203.0.113.9'
    const scrape = (authorization: string) => app.inject({ method: 'GET', url: '/metrics', remoteAddress: address, headers: { authorization } })
    for (let i = 0; i < 5; i++) expect((await scrape(`Bearer guess-${i}`)).statusCode).toBe(401)
    expectLimited(await scrape('Bearer guess-6'), '6th guess')
    expect((await scrape('Bearer the-metrics-token-0123')).statusCode).toBe(200)
  })

  it('keys on the address TRUST_PROXY gives: a client cannot rotate X-Forwarded-For past a trusted proxy', async () => {
    for (const trust of ['127.0.0.1', '1']) {
      const proxied = await testApp({ ADDRESS_RATE_LIMIT_MAX: '3', TRUST_PROXY: trust })
      try {
        // through the proxy at 127.0.0.1: the client's own (leftmost) entries are its to write, the proxy's is not
        const via = (spoofed: string, client: string) => proxied.inject({ method: 'GET', url: '/nope', headers: { 'x-forwarded-for': `${spoofed}, ${client}` } })
        for (let i = 0; i < 3; i++) expect((await via(`10.9.8.${i}`, ATTACKER)).statusCode, trust).toBe(404)
        expectLimited(await via('10.9.8.200', ATTACKER), `TRUST_PROXY=${trust}`)
        expect((await via('10.9.8.201', NEIGHBOUR)).statusCode, trust).toBe(404)
      } finally {
        await proxied.close()
      }
    }
    // untrusted, X-Forwarded-For says nothing: the socket's address counts
    const direct = await testApp({ ADDRESS_RATE_LIMIT_MAX: '3' })
    try {
      for (let i = 0; i < 3; i++) expect((await direct.inject({ method: 'GET', url: '/nope', headers: { 'x-forwarded-for': `10.1.1.${i}` } })).statusCode).toBe(404)
      expectLimited(await direct.inject({ method: 'GET', url: '/nope', headers: { 'x-forwarded-for': '10.1.1.99' } }), 'untrusted X-Forwarded-For')
    } finally {
      await direct.close()
    }
  })
})

describe('the token endpoint (AUTH_FAILURES_MAX)', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({ AUTH_FAILURES_MAX: '3' })
  })
  afterAll(async () => { await app.close() })

  const token = (id: string, secret: string, remoteAddress: string) => app.inject({
    method: 'POST', url: '/oauth/token', remoteAddress, payload: { grant_type: 'client_credentials', client_id: id, client_secret: secret }
  })

  it('refuses a client id whose secret was guessed wrong too often, from whatever addresses, even with the right secret', async () => {
    for (let i = 0; i < 3; i++) expect((await token(CLIENT.id, `guess-${i}`, `192.0.2.${i + 1}`)).statusCode).toBe(401)
    const locked = await token(CLIENT.id, CLIENT.secret, '192.0.2.50')
    expectLimited(locked, 'the right secret after 3 failures')
    expect(JSON.stringify(locked.json())).not.toContain(CLIENT.secret)
    // another client is not locked out
    expect((await token(READ_ONLY.id, READ_ONLY.secret, '192.0.2.51')).statusCode).toBe(200)
  })

  it('refuses an address that failed too often, whichever client ids it tried', async () => {
    const address = '192.0.2.100'
    for (let i = 0; i < 3; i++) expect((await token(`client-${i}`, 'some-guess', address)).statusCode).toBe(401)
    expectLimited(await token(READ_ONLY.id, READ_ONLY.secret, address), 'the address after 3 failures')
    expect((await token(READ_ONLY.id, READ_ONLY.secret, '192.0.2.101')).statusCode).toBe(200)
  })
})

describe('secret checks under a flood of guesses', () => {
  it('never hold the thread pool that token checks need: a request with a new token stays fast', async () => {
    // hashed secrets: every check is one scrypt (~16 MB, tens of ms on the libuv thread pool), as in production
    const app = await testApp({
      AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret_hash: await hashSecret(CLIENT.secret), scopes: ['access'] }]),
      AUTH_FAILURES_MAX: '1000',
      ADDRESS_RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_MAX: '100000'
    })
    try {
      const fresh = await tokenFor(app)
      // 300 guesses at once, each from an address and for a client id of its own: no throttle stops them before their check
      const flood = Array.from({ length: 300 }, (_, i) => app.inject({
        method: 'POST',
        url: '/oauth/token',
        remoteAddress: `10.20.${i >> 8}.${i & 255}`,
        payload: { grant_type: 'client_credentials', client_id: `guess-${i}`, client_secret: `guess-${i}-secret` }
      }))
      await new Promise(resolve => setTimeout(resolve, 50))
      // a token never seen before is verified with WebCrypto, on the same libuv threads as scrypt
      const started = performance.now()
      const served = await app.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(fresh) })
      const took = performance.now() - started
      const answers = await Promise.all(flood)
      expect(served.statusCode).toBe(200)
      // unbounded, the pool's 4 threads work through 300 scrypts first (3.8 s on an idle 2-core machine); bounded
      // it takes ~0.6 s there, most of it the event loop reading the 300 requests before it
      expect(took, `a request with a new token took ${Math.round(took)} ms during the flood`).toBeLessThan(2000)
      // what waited too long for a check is told to come back, never a 500
      const statuses = new Set(answers.map(a => a.statusCode))
      expect([...statuses].every(s => s === 401 || s === 503), [...statuses].join(', ')).toBe(true)
      for (const busy of answers.filter(a => a.statusCode === 503)) expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    } finally {
      await app.close()
    }
  })
})
