/**
 * The token endpoint throttles failed client authentications per client id and per address
 * (issue 24, finding 3; AUTH_FAILURES_MAX), the address being the one TRUST_PROXY gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { CLIENT, READ_ONLY, testApp } from '../../../helpers/app.js'

function expectLimited (res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, what).toBe(429)
  expect(res.headers['content-type'], what).toMatch(/^application\/problem\+json/)
  const retryAfter = Number(res.headers['retry-after'])
  expect(retryAfter, what).toBeGreaterThanOrEqual(1)
  expect(retryAfter, what).toBeLessThanOrEqual(60)
}

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
