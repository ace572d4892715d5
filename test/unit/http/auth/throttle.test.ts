/**
 * The token endpoint throttles failed client authentications per client id and per address
 * (issue 24, finding 3; AUTH_FAILURES_MAX), the address being the one TRUST_PROXY gives; API keys
 * count with them. Checks at the same time over real HTTP: issue 32, finding 6.
 */
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { hashSecret } from '../../../../src/http/auth/secrets.js'
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

describe('failed authentications at the same time (issue 32, finding 6): each reserved before its check', () => {
  let app: FastifyInstance
  let base: string
  const KEY = 'throttle-test-api-key-0123456789'
  /** A client no test here fails for. */
  const SERVED = { id: 'served', secret: 'served-client-secret' }
  beforeAll(async () => {
    app = await testApp({
      AUTH_FAILURES_MAX: '10',
      ADDRESS_RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_MAX: '100000',
      // the client address from X-Forwarded-For, as behind a proxy: one test process plays many addresses
      TRUST_PROXY: '127.0.0.1',
      AUTH_CLIENTS: JSON.stringify([
        { id: CLIENT.id, secret_hash: await hashSecret(CLIENT.secret), scopes: ['access'], api_keys: [KEY] },
        { id: READ_ONLY.id, secret: READ_ONLY.secret, scopes: ['read'] },
        { id: SERVED.id, secret_hash: await hashSecret(SERVED.secret), scopes: ['access'] },
        { id: 'hashed-keys', scopes: ['access'], api_key_hashes: [await hashSecret('a-hashed-api-key-0123456789')] }
      ])
    })
    await app.listen({ host: '127.0.0.1', port: 0 })
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  })
  afterAll(async () => { await app.close() })

  const token = async (id: string, secret: string, address: string): Promise<number> => (await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: id, client_secret: secret })
  })).status
  const usage = async (key: string, address: string): Promise<number> => (await fetch(`${base}/deepl/v2/usage`, {
    headers: { authorization: `DeepL-Auth-Key ${key}`, 'x-forwarded-for': address }
  })).status
  const tally = (statuses: number[]): Record<number, number> => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {})

  it('40 wrong secrets at once for one client id get at most AUTH_FAILURES_MAX checks (401), the rest 429; then the right secret is 429 too', async () => {
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => token(CLIENT.id, `guess-${i}`, `192.0.2.${i + 1}`)))
    const counts = tally(statuses)
    // unreserved, 34 of 40 were checked (and answered 401) against a limit of 10
    expect(counts[401] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(10)
    expect((counts[401] ?? 0) + (counts[429] ?? 0) + (counts[503] ?? 0), JSON.stringify(counts)).toBe(40)
    expect(await token(CLIENT.id, CLIENT.secret, '192.0.2.200')).toBe(429)
  })

  it('40 wrong secrets at once from one address, any client ids: at most AUTH_FAILURES_MAX checks; another address is served', async () => {
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => token(`someone-${i}`, 'guess', '198.51.100.1')))
    const counts = tally(statuses)
    expect(counts[401] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(10)
    expect(counts[429] ?? 0, JSON.stringify(counts)).toBeGreaterThanOrEqual(28)
    expect(await token(READ_ONLY.id, READ_ONLY.secret, '198.51.100.1')).toBe(429)
  })

  it('40 wrong API keys at once from one address, plain or to be checked against hashes: at most AUTH_FAILURES_MAX refused as wrong (403)', async () => {
    for (const [address, guess] of [['198.51.100.2', (i: number) => `wrong-key-number-${i}-0123456789`], ['198.51.100.3', (i: number) => `another-wrong-key-${i}-0123456789`]] as const) {
      const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => usage(guess(i), address)))
      const counts = tally(statuses)
      expect(counts[403] ?? 0, `${address}: ${JSON.stringify(counts)}`).toBeLessThanOrEqual(10)
      expect(counts[429] ?? 0, `${address}: ${JSON.stringify(counts)}`).toBeGreaterThanOrEqual(28)
      // the right key is refused too while the address is at the limit
      expect(await usage(KEY, address)).toBe(429)
    }
  })

  it('a check that succeeds gives its reservation back: many right secrets and keys, at once and one after another, are all served', async () => {
    const address = '198.51.100.4'
    const at = await Promise.all(Array.from({ length: 8 }, () => token(SERVED.id, SERVED.secret, address)))
    expect(at).toEqual(Array(8).fill(200))
    for (let i = 0; i < 12; i++) expect(await token(SERVED.id, SERVED.secret, address)).toBe(200)
    // and a hashed key, checked once and then known
    for (let i = 0; i < 12; i++) expect(await usage('a-hashed-api-key-0123456789', address)).toBe(200)
    const keys = await Promise.all(Array.from({ length: 40 }, () => usage(KEY, address)))
    expect(keys).toEqual(Array(40).fill(200))
    // nine failures leave the right secret its turn
    for (let i = 0; i < 9; i++) expect(await token(SERVED.id, `guess-${i}`, address)).toBe(401)
    expect(await token(SERVED.id, SERVED.secret, address)).toBe(200)
  })
})
