/** Operations endpoints: /health (liveness), /ready (embedded engines loaded; Redis ready or degraded), /metrics (Prometheus). */
import { timingSafeEqual, createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Type } from 'typebox'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { Config } from '../config.js'
import type { RedisState } from '../redis/connection.js'
import { isPassing } from '../errors.js'
import { sendProblem } from './problem.js'
import { problemResponse } from '../schemas/common.js'

export type ComponentState = 'starting' | 'ready' | 'failed'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Tracks a component that must be ready before /ready answers 200: its warm-up runs now and
     * again, with a growing pause, each time it fails for a passing cause (a busy machine).
     */
    trackReadiness: (name: string, warmUp: () => Promise<unknown>) => void
  }
}

const Health = Type.Object({ status: Type.Literal('ok') })
const Ready = Type.Object({
  status: Type.Enum(['ready', 'starting', 'failed']),
  components: Type.Unsafe<Record<string, ComponentState>>({ type: 'object', additionalProperties: { enum: ['starting', 'ready', 'failed'] } }),
  waiting: Type.Optional(Type.Unsafe<Record<string, string>>({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Components whose warm-up failed for a passing cause (threads or an engine busy) and is tried again, with the reason'
  })),
  redis: Type.Optional(Type.Enum(['ready', 'degraded'], {
    description: 'With REDIS_URL only. degraded: Redis is unreachable or slow; the service still answers, with per-process rate limits and no shared cache'
  }))
})

/** The first pause before a warm-up that failed for a passing cause is tried again; it doubles up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 250
const RETRY_MAX_MS = 10_000

async function opsPlugin (app: FastifyInstance, opts: { config: Config, redis?: { state: () => RedisState } | undefined }): Promise<void> {
  const components = new Map<string, ComponentState>()
  const waiting = new Map<string, string>()
  // during shutdown, answers to requests in flight close their connection so close() need not wait for keep-alive
  let closing = false
  const retries = new Set<NodeJS.Timeout>()
  app.decorate('trackReadiness', (name: string, warmUp: () => Promise<unknown>) => {
    components.set(name, 'starting')
    const attempt = (pauseMs: number): void => {
      warmUp().then(() => {
        components.set(name, 'ready')
        waiting.delete(name)
      }, (err: unknown) => {
        if (closing) return
        if (!isPassing(err)) {
          components.set(name, 'failed')
          waiting.delete(name)
          app.log.error({ err, component: name }, 'component failed to start')
          return
        }
        // a busy machine is no reason to stay out of the load balancer for the process's life
        waiting.set(name, (err as Error).message)
        app.log.warn({ component: name, retryInMs: pauseMs, reason: (err as Error).message }, 'component warm-up will be tried again')
        const timer = setTimeout(() => { retries.delete(timer); attempt(Math.min(pauseMs * 2, RETRY_MAX_MS)) }, pauseMs)
        timer.unref()
        retries.add(timer)
      })
    }
    attempt(RETRY_FIRST_MS)
  })
  app.addHook('preClose', async () => {
    closing = true
    for (const timer of retries) clearTimeout(timer)
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })

  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry]
  })
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry]
  })
  // document jobs (src/jobs/): those this process holds, and those it ended, with how long each took
  if (app.hasDecorator('jobs')) {
    const jobs = app.jobs
    // eslint-disable-next-line no-new -- registered with the registry, read at each scrape
    new Gauge({
      name: 'document_jobs',
      help: 'Document jobs this process holds, by status (queued: waiting for a job slot; running)',
      labelNames: ['status'] as const,
      registers: [registry],
      collect () {
        const counts = jobs.counts()
        this.set({ status: 'queued' }, counts.queued)
        this.set({ status: 'running' }, counts.running)
      }
    })
    const finished = new Counter({
      name: 'document_jobs_finished_total',
      help: 'Document jobs this process ended, by status (done, failed, cancelled)',
      labelNames: ['status'] as const,
      registers: [registry]
    })
    const jobDuration = new Histogram({
      name: 'document_job_duration_seconds',
      help: 'Seconds from a document job\'s creation to its end (waiting included), by status',
      labelNames: ['status'] as const,
      buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
      registers: [registry]
    })
    jobs.onFinish((status, seconds) => {
      finished.inc({ status })
      jobDuration.observe({ status }, seconds)
    })
  }
  // each (method, route, status)'s counter and histogram, looked up once (prom-client hashes a label object on every call)
  const series = new Map<string, { count: ReturnType<typeof requests.labels>, time: ReturnType<typeof duration.labels> }>()
  app.addHook('onResponse', (request, reply, done) => {
    // the route pattern, not the URL, so labels stay bounded
    const route = request.routeOptions.url ?? 'unmatched'
    const key = `${request.method} ${reply.statusCode} ${route}`
    let found = series.get(key)
    if (found === undefined) {
      const labels = { method: request.method, route, status_code: String(reply.statusCode) }
      series.set(key, found = { count: requests.labels(labels), time: duration.labels(labels) })
    }
    found.count.inc()
    found.time.observe(reply.elapsedTime / 1000)
    done()
  })

  // probes and scrapes are never rate limited nor shed: they must tell the truth under load
  const probe = { rateLimit: false, pressureHandler: () => undefined, addressLimit: false } as const
  app.get('/health', {
    config: probe,
    schema: { tags: ['ops'], operationId: 'health', summary: 'Liveness: the process answers', response: { 200: { ...Health, description: 'The process answers' } } }
  }, async () => ({ status: 'ok' as const }))

  app.get('/ready', {
    config: probe,
    schema: {
      tags: ['ops'],
      operationId: 'ready',
      summary: 'Readiness: 200 once the embedded engines are loaded, else 503; with REDIS_URL it also says whether Redis is ready or degraded (still 200)',
      response: { 200: { ...Ready, description: 'Every component is ready' }, 503: { ...Ready, description: 'A component is starting or failed' } }
    }
  }, async (_request, reply) => {
    const states = Object.fromEntries(components)
    const values = [...components.values()]
    const status = values.includes('failed') ? 'failed' : values.every(v => v === 'ready') ? 'ready' : 'starting'
    // Redis away is no reason to take this replica out of the load balancer: it answers without it
    const redis = opts.redis === undefined ? {} : { redis: opts.redis.state() }
    const retrying = waiting.size === 0 ? {} : { waiting: Object.fromEntries(waiting) }
    return reply.code(status === 'ready' ? 200 : 503).send({ status, components: states, ...retrying, ...redis })
  })

  const metricsToken = opts.config.metricsToken === undefined ? undefined : createHash('sha256').update(opts.config.metricsToken).digest()
  app.get('/metrics', {
    // token guesses count against the guesser's address (http/address-limit.ts)
    config: { ...probe, addressLimit: 'refusals' },
    schema: {
      tags: ['ops'],
      operationId: 'metrics',
      summary: 'Prometheus metrics (requests and latency per route and status, document jobs by status and their duration); needs METRICS_TOKEN as a bearer token when that is set',
      produces: ['text/plain'],
      response: {
        200: { description: 'The metrics, in Prometheus\'s text format', content: { 'text/plain': { schema: { type: 'string' } } } },
        401: problemResponse(401, 'METRICS_TOKEN is set and the request did not carry it as its bearer token')
      }
    }
  }, async (request, reply) => {
    if (metricsToken) {
      // the scheme's name in any case (RFC 7235: "bearer" is "Bearer"), the token as configured
      const credentials = /^bearer +(.*)$/i.exec(request.headers.authorization ?? '')?.[1] ?? ''
      const given = createHash('sha256').update(credentials).digest()
      if (!timingSafeEqual(given, metricsToken)) {
        await app.refusedCredentials(request)
        return sendProblem(request, reply, 401, 'The metrics endpoint needs Authorization: Bearer <METRICS_TOKEN>.',
          { headers: { 'www-authenticate': 'Bearer realm="metrics"' } })
      }
    }
    return reply.type(registry.contentType).send(await registry.metrics())
  })
}

export default fp(opsPlugin, { name: 'ops', dependencies: ['problem'] })
