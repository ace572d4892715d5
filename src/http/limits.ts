/** Protection: security headers, per-client rate limits and load shedding. */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'
import rateLimit from '@fastify/rate-limit'
import underPressure from '@fastify/under-pressure'
import type { Config } from '../config.js'
import { ServiceError } from '../errors.js'

/** 429 with the RateLimit-* and Retry-After headers the rate limiter sets. */
export class RateLimitedError extends ServiceError {
  constructor (limit: number, retryAfterSeconds: number) {
    super(429, 'rate-limited', 'Too many requests',
      `Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfterSeconds} s.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } })
  }
}

async function limitsPlugin (app: FastifyInstance, opts: { config: Config }): Promise<void> {
  // Swagger UI sets its own CSP for /docs (staticCSP); the API answers JSON only
  await app.register(helmet, { global: true, contentSecurityPolicy: false, crossOriginEmbedderPolicy: false })

  await app.register(rateLimit, {
    global: true,
    max: opts.config.limits.rateLimitMax,
    timeWindow: 60_000,
    // after the bearer check (onRequest), so the key is the client; before the body is parsed
    hook: 'preParsing',
    keyGenerator: (request) => request.client ? `client:${request.client.id}` : `ip:${request.ip}`,
    // RateLimit-Limit / -Remaining / -Reset and Retry-After (IETF draft names)
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) => new RateLimitedError(context.max, Math.max(1, Math.ceil(context.ttl / 1000)))
  })

  // shed load only when the event loop is stalled (requests would wait seconds anyway); a busy
  // loop is normal for CPU-bound language work, so utilisation alone is no reason to refuse
  await app.register(underPressure, {
    maxEventLoopDelay: opts.config.limits.maxEventLoopDelayMs,
    retryAfter: 10,
    pressureHandler: (_request, _reply, type, value) => {
      throw new ServiceError(503, 'overloaded', 'Service overloaded',
        `The service is overloaded (${type}${value === undefined ? '' : ` = ${Math.round(Number(value) * 100) / 100}`}); retry shortly.`,
        { headers: { 'retry-after': '10' } })
    }
  })
}

export default fp(limitsPlugin, { name: 'limits', dependencies: ['problem'] })
