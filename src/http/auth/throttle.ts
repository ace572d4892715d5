/**
 * Failed client authentications, by secret or by API key, count per client id (a secret guessed
 * from many addresses) and per address (many client ids tried from one), AUTH_FAILURES_MAX a
 * minute each. A check reserves its failure before it runs and gives it back when it succeeds, so
 * checks at the same time cannot all pass a count that each read as under the limit: at most
 * AUTH_FAILURES_MAX checks a minute for a client id or an address that fail, past which requests
 * for that client id or from that address are refused with a 429 before their secret or key is
 * checked, the right one included.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ServiceError } from '../../errors.js'
import { addressOf } from '../address-limit.js'
import { ATTEMPT_WINDOW_MS } from '../attempts.js'

/** 429 for a client id or an address past AUTH_FAILURES_MAX. */
export class TooManyFailuresError extends ServiceError {
  constructor (of: 'client id' | 'address', limit: number, retryAfterSeconds: number) {
    super(429, 'rate-limited', 'Too many requests',
      `More than ${limit} failed client authentications for this ${of} within a minute; retry in ${retryAfterSeconds} s.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } })
  }
}

export interface TokenThrottle {
  /** Throws TooManyFailuresError when the client id or the address is at the limit this minute (counts nothing). */
  check: (request: FastifyRequest, clientId: string | undefined) => Promise<void>
  /**
   * Counts a failure for the address and the client id, when one is given: one that happened, or
   * one reserved for a check about to run (`giveBack` when it succeeds). Throws TooManyFailuresError,
   * counting nothing, when either is at the limit.
   */
  reserve: (request: FastifyRequest, clientId: string | undefined) => Promise<void>
  /** Takes back what `reserve` counted: the check succeeded. */
  giveBack: (request: FastifyRequest, clientId: string | undefined) => Promise<void>
}

/**
 * Counts in the store the rate limits use (app.counters). Only a failed check adds a key, and checks
 * are bounded (AUTH_SECRET_CONCURRENCY), so ids made up to push a real one out of the per-process
 * store's 50,000 entries would take minutes, not the minute a count lasts.
 */
export function tokenThrottle (app: FastifyInstance, max: number): TokenThrottle {
  const byClient = app.counters('token-client', 50_000)
  const byAddress = app.counters('token-address', 50_000)
  const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000))
  const count = async (request: FastifyRequest, clientId: string | undefined, n: number): Promise<void> => {
    const address = addressOf(request)
    const [client, from] = await Promise.all([
      clientId === undefined ? undefined : byClient.add(clientId, n, max, ATTEMPT_WINDOW_MS),
      byAddress.add(address, n, max, ATTEMPT_WINDOW_MS)
    ])
    // a read refuses at the limit; an addition refuses past it, and is taken back where the other refused
    const refusedClient = client !== undefined && (n === 0 ? client.count >= max : !client.added)
    const refusedAddress = n === 0 ? from.count >= max : !from.added
    if (!refusedClient && !refusedAddress) return
    if (n > 0) {
      await Promise.all([
        refusedClient || clientId === undefined ? undefined : byClient.subtract(clientId, n),
        refusedAddress ? undefined : byAddress.subtract(address, n)
      ])
    }
    if (refusedClient) throw new TooManyFailuresError('client id', max, seconds(client.resetMs))
    throw new TooManyFailuresError('address', max, seconds(from.resetMs))
  }
  return {
    check: async (request, clientId) => { await count(request, clientId, 0) },
    reserve: async (request, clientId) => { await count(request, clientId, 1) },
    async giveBack (request, clientId) {
      await Promise.all([
        clientId === undefined ? undefined : byClient.subtract(clientId, 1),
        byAddress.subtract(addressOf(request), 1)
      ])
    }
  }
}
