/** buildApp(config): the whole service as a Fastify instance; server.ts and the tests both use it. */
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from './config.js'
import problem, { clientError, frameworkError } from './http/problem.js'
import requestIdPlugin, { requestId } from './http/request-id.js'
import host from './http/host.js'
import { requestSerializer } from './http/log-redaction.js'
import { closeQuietConnectionsOnShutdown, readRefusedBodies } from './http/connections.js'
import { sharedSerializers } from './http/serializers.js'
import auth from './http/auth/index.js'
import limits from './http/limits.js'
import addressLimit from './http/address-limit.js'
import bodies, { BODY_TASKS, HELD_VALUES } from './http/bodies.js'
import ops from './http/ops.js'
import cors from './http/cors.js'
import openapi from './http/openapi.js'
import { createRegistry, type Registry } from './registry.js'
import { configureProcessPool, poolRunner, poolThreads, processPool } from './runtime/pool.js'
import { DocumentsBusyError } from './errors.js'
import type { DocumentTask, TaskResult } from './core/documents/offload.js'
import { DOCUMENT_TASKS } from './http/document-tasks.js'
import { createServices, type Services } from './core/services.js'
import { createRedis } from './redis/connection.js'
import { RedisTranslationCache } from './redis/translation-cache.js'
import { currentClient } from './lib/clients.js'
import routes from './routes/index.js'
import { Jobs, type JobQueue } from './jobs/queue.js'
import { RedisJobs } from './jobs/redis.js'
import web from './http/web.js'

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
    /** Document jobs (src/jobs/): kept under DATA_DIR, worked in the background. */
    jobs: JobQueue
  }
}

export interface BuildOptions {
  /** Engines to use instead of the ones Config names (tests, the OpenAPI writer). */
  registry?: Registry
  /** Logger override (tests pass false). */
  logger?: boolean
  /** Where logs go instead of stdout (tests read them). */
  logStream?: { write: (line: string) => void }
}

/** Redacted wherever they appear in logs. */
const REDACT = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]',
  'headers.authorization', 'body.client_secret', 'body.access_token', 'access_token', 'client_secret', 'secret'
]

const QUIET = new Set(['/health', '/ready', '/metrics'])

/**
 * TRUST_PROXY for Fastify. A hop count trusts the nearest N hops whatever their address (as
 * Express does; Fastify itself now reads a number as "trust none"): right only when every request
 * comes through those proxies.
 */
function trustedProxies (trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust
}

export async function buildApp (config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // the process's one thread pool: its share of the cores (made on first use); its threads load the document core as they start
  configureProcessPool({
    threads: poolThreads(config.workers),
    queueMs: config.limits.documentQueueMs,
    busyError: waited => new DocumentsBusyError(waited),
    preload: [DOCUMENT_TASKS, BODY_TASKS, HELD_VALUES]
  })
  const app = Fastify({
    logger: options.logger === false
      ? false
      : {
          level: config.logLevel,
          redact: { paths: REDACT, censor: '[redacted]' },
          // every logged URL without its query secrets (?access_token=, ?api_key=...)
          serializers: { req: requestSerializer },
          ...(options.logStream ? { stream: options.logStream } : {})
        },
    genReqId: requestId,
    requestIdHeader: false,
    // probes and scrapes every few seconds would drown the request log
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      disableRequestLogging: (request) => QUIET.has(request.url)
    }),
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: config.limits.bodyBytes,
    // a socket may stay silent while a long translation runs; requests must arrive in full within requestTimeout
    connectionTimeout: config.limits.requestTimeoutMs + 10_000,
    requestTimeout: config.limits.requestTimeoutMs,
    // given to node:http as the server is made, and checked every second: set afterwards (as
    // requestTimeout alone is), a body sent a byte a second got its 408 only after 85 s. A missing
    // Host is http/host.ts's 400 (a problem naming it), not node's empty one
    http: { requestTimeout: config.limits.requestTimeoutMs, connectionsCheckingInterval: 1000, requireHostHeader: false },
    keepAliveTimeout: config.limits.keepAliveTimeoutMs,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    // validators: http/bodies.ts (the same settings on the event loop and the pool threads)
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } }
  }).withTypeProvider<TypeBoxTypeProvider>()

  // the API takes JSON only (the token endpoint adds form bodies in its own scope): text/plain is a 415
  app.removeContentTypeParser('text/plain')
  closeQuietConnectionsOnShutdown(app)
  readRefusedBodies(app)

  const registry = options.registry ?? createRegistry(config)
  // REDIS_URL: rate limits and the translation cache shared by every replica
  const redis = config.redisUrl === undefined ? undefined : createRedis(config.redisUrl, { timeoutMs: config.redisTimeoutMs, log: app.log })
  const services = createServices(registry, {
    textChars: config.limits.textChars,
    upstreamTimeoutMs: config.limits.upstreamTimeoutMs,
    cacheEntries: config.translation.cacheEntries,
    cacheTtlSeconds: config.translation.cacheTtlSeconds,
    // costly documents are worked on the process's thread pool
    documents: poolRunner<DocumentTask, TaskResult>(processPool, DOCUMENT_TASKS, 'runPooledTask'),
    // each client's own entries (the client the request's work is for), unless TRANSLATION_CACHE_SHARED
    ...(config.translation.cacheShared ? {} : { cacheOwner: () => currentClient() ?? '' })
  }, redis === undefined
    ? {}
    : { translationCache: local => new RedisTranslationCache(redis, local, { ttlSeconds: config.translation.cacheTtlSeconds }) })
  app.decorate('services', services)
  const jobOptions = { dataDir: config.jobs.dataDir, ttlSeconds: config.jobs.ttlSeconds, perClient: config.jobs.perClient, storagePerClient: config.jobs.storagePerClient, concurrency: config.jobs.concurrency, timeoutMs: config.jobs.timeoutMs, log: app.log }
  // REDIS_URL: one queue every replica works from; else each machine's DATA_DIR
  const jobs: JobQueue = config.redisUrl === undefined ? new Jobs(jobOptions) : new RedisJobs({ ...jobOptions, redisUrl: config.redisUrl })
  app.decorate('jobs', jobs)
  // jobs left by an earlier run (or by a process that died) are taken up once the routes can work them
  app.addHook('onReady', async () => { await jobs.start() })
  // the first connection attempt is awaited (bounded) so a healthy Redis is in use from the first request
  if (redis !== undefined) app.addHook('onReady', async () => { await redis.connect() })
  app.addHook('onClose', async () => {
    // jobs in hand go back to queued for the next process, before the engines they use close
    await jobs.close()
    services.close()
    await Promise.all([registry.close(), redis?.close()])
  })

  await app.register(problem)
  await app.register(requestIdPlugin)
  // before any work: answers build URLs on the host a request names
  await app.register(host)
  // before the limits and auth: a browser's preflight carries no credentials and is answered at once
  await app.register(cors, { config })
  await app.register(openapi)
  // after the OpenAPI plugin, which documents only the routes added after it; before the limits
  await app.register(ops, { config, redis })
  // limits first: the rate limiter covers only routes added after it, the token endpoint included;
  // its hook runs after the bearer check anyway (preParsing follows every onRequest hook)
  await app.register(limits, { config, redis })
  // before the bearer check: requests without valid credentials count against their address
  await app.register(addressLimit, { config })
  // before the routes: it learns their body schemas as they are added
  await app.register(bodies, { config })
  await app.register(auth, { config })
  await app.register(routes, { config })
  await app.register(web)

  for (const [name, warmUp] of Object.entries(registry.readiness())) app.trackReadiness(name, warmUp)
  // the service's engines use the pool: it starts with them (a test's own registry leaves it to its first use)
  if (options.registry === undefined) app.trackReadiness('pool', async () => { await processPool().ready() })
  return app
}
