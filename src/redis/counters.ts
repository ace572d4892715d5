/**
 * Reserved counts (runtime/counters.ts) with REDIS_URL: in Redis, shared by every replica and kept
 * across restarts, each addition a script that checks the limit and adds in one step. While
 * Redis is down, slow or failing, the process's own counts are used, as the rate limits do.
 */
import { localCounterStore, type Count, type CounterStore } from '../runtime/counters.js'
import type { SharedRedis } from './connection.js'

/** Prefix of the counts' keys in Redis. */
export const COUNTER_PREFIX = 'ls:count:'

/** KEYS[1] the count; ARGV n, limit, window (ms). Answers {added, count, ms left}. */
const ADD = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = tonumber(ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 0 or count + n > tonumber(ARGV[2]) then return {n == 0 and 1 or 0, count, ttl} end
count = redis.call('INCRBY', KEYS[1], n)
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  ttl = tonumber(ARGV[3])
end
return {1, count, ttl}`

/** KEYS[1] the count; ARGV n. Takes n back, not below 0, keeping the count's expiry. */
const SUBTRACT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local count = redis.call('DECRBY', KEYS[1], ARGV[1])
if count < 0 then redis.call('INCRBY', KEYS[1], -count) end
return 0`

/** Counters in Redis under `ls:count:<name>:<key>`. */
export function redisCounterStore (redis: SharedRedis): CounterStore {
  const local = localCounterStore()
  return (name, entries) => {
    const own = local(name, entries)
    const at = (key: string): string => `${COUNTER_PREFIX}${name}:${key}`
    return {
      async add (key, n, limit, windowMs) {
        if (redis.state() !== 'ready') return own.addNow(key, n, limit, windowMs)
        try {
          const [added, count, ttl] = await redis.client.eval(ADD, 1, at(key), n, limit, Math.max(1, Math.ceil(windowMs))) as [number, number, number]
          return { added: added === 1, count, resetMs: Math.max(0, ttl) } satisfies Count
        } catch (err) {
          redis.failed(err)
          return own.addNow(key, n, limit, windowMs)
        }
      },
      async subtract (key, n) {
        if (redis.state() !== 'ready') return own.subtractNow(key, n)
        try {
          await redis.client.eval(SUBTRACT, 1, at(key), n)
        } catch (err) {
          redis.failed(err)
          own.subtractNow(key, n)
        }
      }
    }
  }
}
