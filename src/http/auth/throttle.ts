/**
 * The token endpoint's throttles: failed client authentications count per client id (a secret
 * guessed from many addresses) and per address (many client ids tried from one), AUTH_FAILURES_MAX
 * a minute each. Past either, token requests for that client id or from that address are refused
 * with a 429 before their secret is checked, the right secret included.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ServiceError } from '../../errors.js'
import { addressOf } from '../address-limit.js'
import { attempts } from '../attempts.js'

/** 429 for a client id or an address past AUTH_FAILURES_MAX. */
export class TooManyFailuresError extends ServiceError {
  constructor (of: 'client id' | 'address', limit: number, retryAfterSeconds: number) {
    super(429, 'rate-limited', 'Too many requests',
      `More than ${limit} failed client authentications for this ${of} within a minute; retry in ${retryAfterSeconds} s.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } })
  }
}

export interface TokenThrottle {
  /** Throws TooManyFailuresError when the client id or the address has failed too often this minute. */
  check: (request: FastifyRequest, clientId: string | undefined) => Promise<void>
  /** Counts a failed client authentication (the client id, when one was given, and the address). */
  failed: (request: FastifyRequest, clientId: string | undefined) => Promise<void>
}

/**
 * Counters in the rate limiter's store. Only a failed secret check adds a key, and checks are
 * bounded (AUTH_SECRET_CONCURRENCY), so ids made up to push a real one out of the per-process
 * store's 50,000 entries would take minutes, not the minute a count lasts.
 */
export function tokenThrottle (app: FastifyInstance, max: number): TokenThrottle {
  const byClient = attempts(app, 'token-client', { max, entries: 50_000 })
  const byAddress = attempts(app, 'token-address', { max, entries: 50_000 })
  return {
    async check (request, clientId) {
      const [client, address] = await Promise.all([
        clientId === undefined ? undefined : byClient.read(request, clientId),
        byAddress.read(request, addressOf(request))
      ])
      if (client !== undefined && client.left === 0) throw new TooManyFailuresError('client id', max, client.retryAfter)
      if (address.left === 0) throw new TooManyFailuresError('address', max, address.retryAfter)
    },
    async failed (request, clientId) {
      await Promise.all([
        clientId === undefined ? undefined : byClient.add(request, clientId),
        byAddress.add(request, addressOf(request))
      ])
    }
  }
}
