/**
 * Requests without valid credentials count against their address before authentication (issue 24,
 * finding 3; ADDRESS_RATE_LIMIT_MAX), the address being the one TRUST_PROXY gives. The token
 * endpoint's own throttle: auth/throttle.test.ts; secret checks under a flood: auth/secrets.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { READ_ONLY, bearer, testApp, tokenFor } from '../../helpers/app.js'

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
