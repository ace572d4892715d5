/**
 * The limit before authentication: requests that bring no valid credentials count against their
 * address (the one TRUST_PROXY gives), ADDRESS_RATE_LIMIT_MAX a minute, so that unknown routes,
 * token guessing and anything else anonymous cannot go on at will. A request with valid credentials
 * is never counted nor refused here: one address's bad traffic does not lock out the clients with
 * tokens behind the same proxy.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { normalizeIP } from '@fastify/rate-limit'
import type { Config } from '../config.js'
import { ServiceError } from '../errors.js'
import { attempts } from './attempts.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How the route counts against the address limit: absent, every request on arrival (routes with
     * a `scope`: only when the bearer check refuses it); 'refusals', only the requests whose
     * credentials it refuses (it calls `refusedCredentials`); false, never (probes, the token
     * endpoint with throttles of its own).
     */
    addressLimit?: false | 'refusals'
  }
  interface FastifyInstance {
    /** Counts a request whose credentials were refused against its address; throws a 429 once the address is past its limit. */
    refusedCredentials: (request: FastifyRequest) => Promise<void>
    /** Throws the 429 `refusedCredentials` would when the address is at its limit, counting nothing (before a body is read). */
    addressAtLimit: (request: FastifyRequest) => Promise<void>
  }
}

/** 429 for an address past ADDRESS_RATE_LIMIT_MAX. */
export class AddressLimitedError extends ServiceError {
  constructor (limit: number, retryAfterSeconds: number) {
    super(429, 'rate-limited', 'Too many requests',
      `More than ${limit} requests without valid credentials came from this address within a minute; retry in ${retryAfterSeconds} s.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } })
  }
}

/** The address a request counts under: IPv6 by its /64 (one host's usual allocation). */
export function addressOf (request: FastifyRequest): string {
  return normalizeIP(request.ip, 64)
}

async function addressLimitPlugin (app: FastifyInstance, opts: { config: Config }): Promise<void> {
  const max = opts.config.limits.addressRateLimitMax
  const counts = attempts(app, 'address', { max })
  const count = async (request: FastifyRequest): Promise<void> => {
    const { over, retryAfter } = await counts.add(request, addressOf(request))
    if (over) throw new AddressLimitedError(max, retryAfter)
  }
  app.decorate('refusedCredentials', count)
  app.decorate('addressAtLimit', async (request: FastifyRequest) => {
    const { left, retryAfter } = await counts.read(request, addressOf(request))
    if (left === 0) throw new AddressLimitedError(max, retryAfter)
  })
  // before the bearer check (auth registers after): an anonymous request past the limit costs no more than this
  app.addHook('onRequest', (request, _reply, done) => {
    const config = request.routeOptions.config
    if (config.scope !== undefined || config.addressLimit !== undefined) return done()
    count(request).then(() => done(), done)
  })
}

export default fp(addressLimitPlugin, { name: 'address-limit', dependencies: ['limits', 'problem'] })
