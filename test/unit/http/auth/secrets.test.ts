/**
 * Secret checks (scrypt) are bounded (issue 24, finding 5), so that a flood of guesses cannot hold
 * the thread pool that everyone's token checks need; the checks waiting for a slot are bounded per
 * address, so one address's flood cannot turn everyone else away (issue 32, finding 5).
 */
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { CLIENT, bearer, testApp, tokenFor } from '../../../helpers/app.js'
import { hashSecret } from '../../../../src/http/auth/secrets.js'

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

describe('the checks waiting for a slot, per address (issue 32, finding 5)', () => {
  it('40 wrong secrets at once from one address, kept up: a right secret from another address gets its turn (200), not a 503', async () => {
    const app = await testApp({
      AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret_hash: await hashSecret(CLIENT.secret), scopes: ['access'] }]),
      // the default: 2 checks at once, 32 waiting in all
      AUTH_SECRET_CONCURRENCY: '2',
      AUTH_FAILURES_MAX: '1000000',
      ADDRESS_RATE_LIMIT_MAX: '1000000',
      TRUST_PROXY: '127.0.0.1'
    })
    try {
      await app.listen({ host: '127.0.0.1', port: 0 })
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/oauth/token`
      const token = async (secret: string, address: string): Promise<number> => (await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: secret })
      })).status
      // the attacker keeps 40 wrong secrets in flight, each answered one replaced by another
      const attack = { on: true }
      let firstBusy: () => void
      const busy = new Promise<void>(resolve => { firstBusy = resolve })
      const attacked: number[] = []
      const attacker = async (i: number): Promise<void> => {
        while (attack.on) {
          const status = await token(`guess-${i}`, '203.0.113.66')
          attacked.push(status)
          if (status === 503) firstBusy()
        }
      }
      const flood = Array.from({ length: 40 }, (_, i) => attacker(i))
      // once the attacker is turned away, its checks fill what it may wait for
      await busy
      const victim = await token(CLIENT.secret, '198.51.100.77')
      attack.on = false
      await Promise.all(flood)
      expect(victim, 'the right secret from another address').toBe(200)
      expect(new Set(attacked)).toEqual(new Set([401, 503]))
    } finally {
      await app.close()
    }
  })
})
