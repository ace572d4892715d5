/** Protection: security headers, per-client rate limits and load shedding. */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'
import rateLimit from '@fastify/rate-limit'
import underPressure from '@fastify/under-pressure'
import type { Config } from '../config.js'
import { ServiceError, invalidField } from '../errors.js'
import type { SharedRedis } from '../redis/connection.js'
import { fallbackStore } from '../redis/rate-limit-store.js'
import { clusterStore } from './cluster-rate-limit.js'
import cluster from 'node:cluster'

/** 429 with the RateLimit-* and Retry-After headers the rate limiter sets. */
export class RateLimitedError extends ServiceError {
  constructor (limit: number, retryAfterSeconds: number) {
    super(429, 'rate-limited', 'Too many requests',
      `Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfterSeconds} s.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } })
  }
}

/** Deepest nesting a JSON body may have (document values are limited to 500 levels further in). */
export const MAX_BODY_DEPTH = 512

/**
 * The deepest nesting of brackets in a JSON text (strings skipped): one pass over the characters,
 * a few milliseconds for a MiB, where walking the parsed value takes tens for 100,000 keys. For a
 * valid JSON text it is one more than the depth `tooDeep` counts for the deepest object.
 */
export function textDepth (text: string): number {
  let depth = 0
  let deepest = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // a string: to its closing quote, over escapes
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (d === 0x5c) i++
        else if (d === 0x22) break
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return deepest
}

/** The path of the first place in `body` nested deeper than `max`, if any (iterative: no stack to overflow). */
export function tooDeep (body: unknown, max: number): string[] | undefined {
  // only nested objects are kept, with how they were reached; a body may hold 100,000 scalars,
  // which cost a look each and nothing more (no entries arrays, no index strings)
  const values: object[] = []
  const depths: number[] = []
  const parents: number[] = []
  const keys: Array<string | number> = []
  const pending: number[] = []
  if (body === null || typeof body !== 'object') return undefined
  values.push(body); depths.push(0); parents.push(-1); keys.push(''); pending.push(0)
  while (pending.length > 0) {
    const at = pending.pop()!
    const value = values[at]!
    const depth = depths[at]!
    if (depth >= max) {
      const path: string[] = []
      for (let i = at; i > 0; i = parents[i]!) path.push(String(keys[i]!))
      return path.reverse()
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i]
        if (child === null || typeof child !== 'object') continue
        values.push(child); depths.push(depth + 1); parents.push(at); keys.push(i); pending.push(values.length - 1)
      }
    } else {
      // a parsed JSON body has no inherited enumerable keys
      for (const key in value) {
        const child: unknown = (value as Record<string, unknown>)[key]
        if (child === null || typeof child !== 'object') continue
        values.push(child); depths.push(depth + 1); parents.push(at); keys.push(key); pending.push(values.length - 1)
      }
    }
  }
  return undefined
}

/** Whether a Content-Type is JSON (application/json, or application/...+json), with or without parameters. */
export function isJsonType (type: string): boolean {
  return /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)
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

/** A JSON body from this many characters on is large: its request lets the event loop turn between parsing, validating and handling. */
export const LARGE_BODY_CHARS = 64 * 1024

/** What the JSON parser learnt of a request's body text: its length and bracket depth. */
const bodyTexts = new WeakMap<FastifyRequest, { chars: number, depth: number }>()

/** Lets the event loop serve what is waiting (a /health probe, other clients) before going on. */
const nextTurn = async (): Promise<void> => { await new Promise(resolve => setImmediate(resolve)) }

async function limitsPlugin (app: FastifyInstance, opts: { config: Config, redis?: SharedRedis, embedded?: boolean }): Promise<void> {
  // the body parsers read UTF-8 and do not decompress: say so instead of "not valid JSON"
  app.addHook('preParsing', async (request) => {
    const error = unreadableBody(request.headers)
    if (error !== undefined) throw error
  })

  // Fastify's own JSON parser (the same errors, the same prototype-poisoning checks), with the
  // body's bracket depth measured on its text first
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    bodyTexts.set(request, { chars: text.length, depth: textDepth(text as string) })
    parseJson(request, text as string, done)
  })

  const isLarge = (request: FastifyRequest): boolean => (bodyTexts.get(request)?.chars ?? 0) >= LARGE_BODY_CHARS

  // deeply nested bodies would overflow the stack of the validator or the serializer; the path
  // is looked for only in a body whose text nests too deep (or that came through another parser)
  app.addHook('preValidation', async (request) => {
    if (request.body === null || typeof request.body !== 'object') return
    // parsing a large body took the event loop a while: what waited goes first
    if (isLarge(request)) await nextTurn()
    const depth = bodyTexts.get(request)?.depth
    if (depth !== undefined && depth <= MAX_BODY_DEPTH) return
    const path = tooDeep(request.body, MAX_BODY_DEPTH)
    if (path !== undefined) throw invalidField(path, `is nested deeper than ${MAX_BODY_DEPTH} levels`)
  })
  // and validating it too, before its handler starts; and the handler's last part (often taking a
  // large result off a thread) before its answer, as large, is serialised
  app.addHook('preHandler', async (request) => {
    if (isLarge(request)) await nextTurn()
  })
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (isLarge(request)) await nextTurn()
    return payload
  })

  // Swagger UI sets its own CSP for /docs (staticCSP); the API answers JSON only
  await app.register(helmet, { global: true, contentSecurityPolicy: false, crossOriginEmbedderPolicy: false })

  // the large-request thread answers what its process's event loop already counted and admitted
  if (opts.embedded === true) return

  await app.register(rateLimit, {
    global: true,
    max: opts.config.limits.rateLimitMax,
    timeWindow: 60_000,
    // after the bearer check (onRequest), so the key is the client; before the body is parsed
    hook: 'preParsing',
    keyGenerator: (request) => request.client ? `client:${request.client.id}` : `ip:${request.ip}`,
    // RateLimit-Limit / -Remaining / -Reset and Retry-After (IETF draft names)
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) => new RateLimitedError(context.max, Math.max(1, Math.ceil(context.ttl / 1000))),
    // REDIS_URL: one count per client across replicas; this process's own while Redis is away.
    // Without it, WORKERS processes share the cluster primary's counters.
    ...(opts.redis !== undefined ? { store: fallbackStore(opts.redis) } : cluster.isWorker ? { store: clusterStore() } : {})
  })

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
