/** Rate limits across workers (http/cluster-rate-limit.ts): a worker's own counts, the primary's totals, and how the two meet. */
import { describe, expect, it } from 'vitest'
import type { FastifyRateLimitOptions } from '@fastify/rate-limit'
import { clusterStore, rateLimitHandlers } from '../../../src/http/cluster-rate-limit.js'

type Result = { current: number, ttl: number }
type Store = InstanceType<ReturnType<typeof clusterStore>>

const incr = (store: Store, key: string, max = 10): Result => {
  let out: Result | undefined
  store.incr(key, (_err, result) => { out = result as Result }, 60_000, max)
  return out!
}

const counted = (n: number, key = 'client:a') => ({ store: 0, key, n, timeWindow: 60_000, max: 10, continueExceeding: false, exponentialBackoff: false, keys: 100 })

describe('the primary', () => {
  it('adds each batch to one count per key and tells every worker the totals', () => {
    const told: unknown[] = []
    const handlers = rateLimitHandlers(notice => { told.push(notice) })
    const add = handlers['rateLimitCounted'] as (batch: unknown[]) => null
    add([counted(3)])
    add([counted(4), counted(1, 'client:b')])
    const totals = (told.at(-1) as { rateLimitTotals: Array<{ key: string, current: number }> }).rateLimitTotals
    expect(totals.map(t => [t.key, t.current])).toEqual([['client:a', 7], ['client:b', 1]])
  })
})

describe('a worker\'s store', () => {
  it('counts at once, hands over what it counted once, and adds its own unsent requests to the totals it hears', () => {
    const store = new (clusterStore())({} as FastifyRateLimitOptions)
    expect([1, 2, 3].map(() => incr(store, 'client:a').current)).toEqual([1, 2, 3])
    const batch = store.takeCounted()
    expect(batch.map(c => [c.key, c.n])).toEqual([['client:a', 3]])
    expect(store.takeCounted()).toEqual([])
    // one more here before the primary answers: the other worker's 5 and this one's 3 are in the total
    incr(store, 'client:a')
    const entry = { current: 8, ttl: 60_000, iterationStartMs: Date.now() }
    store.heard({ store: 0, key: 'client:a', ...entry })
    expect(incr(store, 'client:a').current).toBe(10)
    expect(incr(store, 'client:a').current).toBe(11)
  })

  it('never lowers a count within a window on an older total, and learns keys only the other workers counted', () => {
    const store = new (clusterStore())({} as FastifyRateLimitOptions)
    const start = Date.now()
    incr(store, 'client:a')
    store.heard({ store: 0, key: 'client:a', current: 20, ttl: 60_000, iterationStartMs: start })
    store.heard({ store: 0, key: 'client:a', current: 2, ttl: 60_000, iterationStartMs: start })
    let read: Result | undefined
    store.read('client:a', (_err, result) => { read = result as Result }, 60_000, 10)
    expect(read!.current).toBeGreaterThanOrEqual(20)
    store.heard({ store: 0, key: 'client:b', current: 12, ttl: 60_000, iterationStartMs: Date.now() })
    expect(incr(store, 'client:b').current).toBe(13)
  })

  it('never lowers a count on a total whose window the primary started a little later: the same window, seen from its clock', () => {
    const store = new (clusterStore())({} as FastifyRateLimitOptions)
    // ten here, all sent; the primary had heard only the other worker's four when it answered
    for (let i = 0; i < 10; i++) incr(store, 'client:a')
    store.takeCounted()
    store.heard({ store: 0, key: 'client:a', current: 4, ttl: 60_000, iterationStartMs: Date.now() + 5 })
    expect(incr(store, 'client:a').current).toBe(11)
    // a window that began once this one had ended is a new one
    store.heard({ store: 0, key: 'client:a', current: 1, ttl: 60_000, iterationStartMs: Date.now() + 61_000 })
    expect(incr(store, 'client:a').current).toBe(3)
  })
})
