/**
 * WORKERS=2 over real HTTP: two processes share the port; a token from one verifies on the other
 * (one signing key made by the primary), and without Redis the rate limit holds per client across
 * both (the primary keeps the counters). Every request goes on its own connection, so the
 * connections are dealt round-robin to both workers.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from './helpers/service.js'

let service: RunningService

beforeAll(async () => {
  // no AUTH_JWT_SECRET: the primary makes one for both workers
  service = await startService({ WORKERS: '2', RATE_LIMIT_MAX: '10', AUTH_JWT_SECRET: '' })
}, 90_000)

afterAll(async () => { await service?.stop() })

/** GET on a fresh connection (no keep-alive), so connections are spread over the workers. */
function freshGet (path: string, token: string): Promise<{ status: number, retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.base}${path}`, { agent: false, headers: { authorization: `Bearer ${token}` } }, res => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(res.headers['retry-after'] ? { retryAfter: String(res.headers['retry-after']) } : {}) }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('WORKERS=2', () => {
  it('runs two worker processes, verifies tokens on both, and holds one rate limit per client across them', async () => {
    // the primary and two workers (its children in /proc)
    const { readdirSync, readFileSync } = await import('node:fs')
    const children = readdirSync('/proc').filter(d => /^\d+$/.test(d)).filter(d => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === service.child.pid
      } catch {
        return false
      }
    })
    expect(children.length).toBe(2)

    // the token request was counted by address, not by client: this client starts at 0 of 10
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await freshGet('/language/edit/tones', service.token)).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200))
    expect(statuses.slice(10)).toEqual([429, 429])
    const limited = await freshGet('/language/edit/tones', service.token)
    expect(Number(limited.retryAfter)).toBeGreaterThan(0)
  }, 60_000)
})
