/** Protection: security headers, per-client rate limits and load shedding. */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet from 'helmet'
import rateLimit from '@fastify/rate-limit'
import underPressure from '@fastify/under-pressure'
import type { Config } from '../config.js'
import { ServiceError } from '../errors.js'
import type { SharedRedis } from '../redis/connection.js'
import { fallbackStore } from '../redis/rate-limit-store.js'
import { clusterStore } from './cluster-rate-limit.js'
import { clusterCounterStore, localCounterStore, type CounterStore } from '../runtime/counters.js'
import { redisCounterStore } from '../redis/counters.js'
import { isJsonType } from './json-text.js'
import cluster from 'node:cluster'

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts reserved before the work they bound (runtime/counters.ts), kept where the rate limits keep theirs. */
    counters: CounterStore
  }
}

/** Helmet's own default: a year, subdomains included. */
const HSTS = 'max-age=31536000; includeSubDomains'

/** 429 with the RateLimit-* and Retry-After headers the rate limiter sets. */
export class RateLimitedError extends ServiceError {
  constructor (limit: number, retryAfterSeconds: number) {
    super(429, 'rate-limited', 'Too many requests',
      `Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfterSeconds} s.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } })
  }
}

/**
 * 415 for a body this service cannot read as sent: compressed, or JSON in a charset other than
 * UTF-8 (a form body is ASCII however it is labelled: OAuth clients often say ISO-8859-1).
 */
function unreadableBody (headers: Record<string, string | string[] | undefined>): ServiceError | undefined {
  const unsupported = (detail: string): ServiceError => new ServiceError(415, 'unsupported-media-type', 'Unsupported media type', detail)
  const hasBody = (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined
  if (!hasBody) return undefined
  const encoding = String(headers['content-encoding'] ?? '').trim().toLowerCase()
  if (encoding !== '' && encoding !== 'identity') {
    return unsupported(`Content-Encoding "${encoding.slice(0, 40)}" is not supported: send the body uncompressed.`)
  }
  const type = String(headers['content-type'] ?? '')
  if (!isJsonType(type)) return undefined
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(type)?.[1]?.toLowerCase()
  if (charset !== undefined && charset !== '' && charset !== 'utf-8' && charset !== 'utf8' && charset !== 'us-ascii') {
    return unsupported(`charset "${charset.slice(0, 40)}" is not supported: send the body as UTF-8.`)
  }
  return undefined
}

async function limitsPlugin (app: FastifyInstance, opts: { config: Config, redis?: SharedRedis | undefined }): Promise<void> {
  // the body parsers read UTF-8 and do not decompress: say so instead of "not valid JSON"
  app.addHook('preParsing', (request, _reply, _payload, done) => {
    done(unreadableBody(request.headers) ?? null)
  })

  // Swagger UI sets its own CSP for /docs (staticCSP); the API answers JSON only.
  // One helmet middleware for every request (@fastify/helmet built a new one per request)
  const securityHeaders = helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false, strictTransportSecurity: false })
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, () => {})
    // HSTS only means something on an answer that came over TLS (directly, or by a trusted proxy's X-Forwarded-Proto)
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS)
    done()
  })

  await app.register(rateLimit, {
    global: true,
    max: opts.config.limits.rateLimitMax,
    timeWindow: 60_000,
    // after the bearer check (onRequest), so the key is the client; before the body is parsed
    hook: 'preParsing',
    // a client is its issuer and subject: an outside issuer's subject "x" is not local client "x"
    keyGenerator: (request) => request.client ? `client:${request.client.key}` : `ip:${request.ip}`,
    // RateLimit-Limit / -Remaining / -Reset and Retry-After (IETF draft names)
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) => new RateLimitedError(context.max, Math.max(1, Math.ceil(context.ttl / 1000))),
    // REDIS_URL: one count per client across replicas; this process's own while Redis is away.
    // Without it, WORKERS processes share the cluster primary's counters.
    ...(opts.redis !== undefined ? { store: fallbackStore(opts.redis) } : cluster.isWorker ? { store: clusterStore() } : {})
  })

  app.decorate('counters', opts.redis !== undefined ? redisCounterStore(opts.redis) : cluster.isWorker ? clusterCounterStore() : localCounterStore())

  // shed load only when the event loop is stalled (requests would wait seconds anyway); a busy
  // loop is normal for CPU-bound language work, so utilisation alone is no reason to refuse.
  // MAX_EVENT_LOOP_DELAY_MS=0 turns shedding off. (A loop blocked for a whole sample interval
  // gets no sample and counts as an infinite delay, whatever the limit: it sheds then too.)
  if (opts.config.limits.maxEventLoopDelayMs === 0) return
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
