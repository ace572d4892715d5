/**
 * Counts of attempts by key in one-minute windows, kept where the rate limits keep theirs (Redis
 * with REDIS_URL, else the cluster primary, else the process): the before-authentication limit per
 * address counts with them. (Failed authentications, which a check reserves and may give back,
 * count in runtime/counters.ts.)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { CreateRateLimitOptions } from '@fastify/rate-limit'

export const ATTEMPT_WINDOW_MS = 60_000

export interface AttemptCount {
  /** Attempts the key has left in its window before the limit (0: it is at the limit or past it). */
  left: number
  /** Past the limit: more attempts than it allows. */
  over: boolean
  /** Seconds until the window ends, at least 1. */
  retryAfter: number
}

export interface Attempts {
  /** The key's count, without counting. */
  read: (request: FastifyRequest, key: string) => Promise<AttemptCount>
  /** Counts one more attempt of the key. */
  add: (request: FastifyRequest, key: string) => Promise<AttemptCount>
}

/**
 * A counter over the rate limiter's store (registered before it: `limits`). `name` keeps its keys
 * apart from every other counter's; `entries` bounds the per-process store (least recently used go).
 */
export function attempts (app: FastifyInstance, name: string, options: { max: number, entries?: number }): Attempts {
  // the limiter asks a request for its key: the key of the call at hand
  const keys = new WeakMap<FastifyRequest, string>()
  const limiterOptions: CreateRateLimitOptions & { cache?: number } = {
    max: options.max,
    timeWindow: ATTEMPT_WINDOW_MS,
    keyGenerator: (request) => `${name}:${keys.get(request) ?? ''}`,
    ...(options.entries === undefined ? {} : { cache: options.entries })
  }
  const limiter = app.createRateLimit(limiterOptions)
  const count = async (request: FastifyRequest, key: string, increment: boolean): Promise<AttemptCount> => {
    keys.set(request, key)
    const result = await limiter(request, { increment })
    keys.delete(request)
    if (result.isAllowed) return { left: options.max, over: false, retryAfter: 1 }
    return { left: result.remaining, over: result.isExceeded, retryAfter: Math.max(1, result.ttlInSeconds) }
  }
  return {
    read: async (request, key) => await count(request, key, false),
    add: async (request, key) => await count(request, key, true)
  }
}
