/**
 * Start-up only: read config, then either serve in this process (WORKERS=1) or fork WORKERS
 * processes that share the port (node:cluster) and keep them running; shut down gracefully.
 */
import cluster, { type Worker } from 'node:cluster'
import closeWithGrace from 'close-with-grace'
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { ConfigError, loadConfig, SCOPES, type Config } from './config.js'
import { buildApp } from './app.js'
import { serveClusterRateLimits } from './http/cluster-rate-limit.js'
import { apertiumOptions } from './registry.js'
import { serveApertiumToWorkers } from './providers/translation/apertium/cluster.js'
import { createApertiumThread } from './providers/translation/apertium/thread.js'

/** Exit code of a configuration error (EX_CONFIG): a worker exiting with it is not restarted. */
const EX_CONFIG = 78
/** How long the primary waits for its workers to finish their requests after SIGTERM before killing them. */
const SHUTDOWN_MS = 15_000
/** How long the primary waits for the shared Apertium pipelines to close once its workers are gone. */
const CLOSE_PIPELINES_MS = 3_000

/** With no client configured, one is made so the service is usable at once; its secret is printed once. */
function ensureClient (config: Config): void {
  if (config.auth.clients.length > 0 || config.auth.jwksUrl) return
  const id = `client-${randomBytes(4).toString('hex')}`
  const secret = randomBytes(24).toString('base64url')
  config.auth.clients.push({ id, secret, scopes: [...SCOPES] })
  process.stderr.write([
    '',
    'WARNING: no OAuth client is configured (AUTH_CLIENTS / AUTH_CLIENTS_FILE), so one was created for this run:',
    `  client_id:     ${id}`,
    `  client_secret: ${secret}`,
    'It is shown only now and disappears when the service stops. Configure AUTH_CLIENTS for real use.',
    ''
  ].join('\n') + '\n')
}

/** The configuration, or exit naming the bad variable. */
function configOrExit (): Config {
  try {
    return loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`)
      process.exit(EX_CONFIG)
    }
    throw err
  }
}

/** Serves requests in this process until SIGTERM/SIGINT, then finishes the requests in flight and closes engines. */
async function serve (config: Config): Promise<void> {
  // the key is made in buildApp, where the large-request thread gets the same one
  const ephemeralKey = config.auth.jwtSecret === undefined && config.auth.jwtPrivateKey === undefined
  let app: FastifyInstance
  try {
    app = await buildApp(config)
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`)
      process.exit(EX_CONFIG)
    }
    throw err
  }
  if (ephemeralKey) {
    app.log.warn('AUTH_JWT_SECRET is not set: a random signing key was made; tokens stop working when the service restarts')
  }
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error')
    else app.log.info({ signal }, 'shutting down: finishing requests in flight')
    await app.close()
  })
  await app.listen({ host: config.host, port: config.port })
}

/**
 * The primary of WORKERS processes: what must be the same in every worker is decided once here
 * (the start-up client, a random signing key when none is configured) and handed to the workers in
 * their environment. With APERTIUM_SHARED_PIPELINES (the default) the primary runs the Apertium
 * pipelines for every worker; without, each worker gets its share of APERTIUM_MAX_PIPELINES. A
 * worker that dies is replaced; SIGTERM/SIGINT are passed on and the primary exits once every
 * worker has finished (and the pipelines are closed).
 */
function runPrimary (config: Config): void {
  ensureClient(config)
  const env: Record<string, string> = {
    // the workers are the processes that serve: each runs as WORKERS=1 (cluster.isWorker tells them apart)
    WORKERS: '1',
    // the clients as read (AUTH_CLIENTS and AUTH_CLIENTS_FILE, or the one made above), in AUTH_CLIENTS's form
    AUTH_CLIENTS: JSON.stringify(config.auth.clients.map(c => ({ id: c.id, scopes: c.scopes, ...(c.secretHash === undefined ? { secret: c.secret } : { secret_hash: c.secretHash }) })))
  }
  // one set of pipelines here, started on the first job a worker sends; or one pipeline cap for the whole service, shared out among the workers
  const apertium = config.apertium.sharedPipelines ? createApertiumThread(apertiumOptions(config)) : undefined
  if (apertium !== undefined) serveApertiumToWorkers(apertium)
  else {
    env['APERTIUM_MAX_PIPELINES'] = String(Math.max(1, Math.floor(config.apertium.maxPipelines / config.workers)))
    if (config.apertium.maxMemoryMb > 0) env['APERTIUM_MAX_MEMORY_MB'] = String(Math.max(1, Math.floor(config.apertium.maxMemoryMb / config.workers)))
  }
  if (config.auth.jwtSecret === undefined && config.auth.jwtPrivateKey === undefined && config.auth.jwksUrl === undefined) {
    env['AUTH_JWT_SECRET'] = randomBytes(48).toString('base64url')
    process.stderr.write('WARNING: AUTH_JWT_SECRET is not set: a random signing key was made for this run; tokens stop working when the service restarts\n')
  }
  // AUTH_CLIENTS_FILE would be read again by each worker: the clients are passed as they were read
  delete process.env['AUTH_CLIENTS_FILE']

  let stopping = false
  const started = new Map<Worker, number>()
  let quickDeaths = 0
  /** Exits once the pipelines are closed (the workers are gone, nothing uses them), or after CLOSE_PIPELINES_MS. */
  const exit = (code: number): void => {
    if (apertium === undefined) process.exit(code)
    const close = apertium.close?.() ?? Promise.resolve()
    const late = setTimeout(() => process.exit(code), CLOSE_PIPELINES_MS)
    close.catch(() => {}).finally(() => {
      clearTimeout(late)
      process.exit(code)
    })
  }
  const fork = (): void => {
    const worker = cluster.fork(env)
    started.set(worker, Date.now())
  }
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker) ?? 0)
    started.delete(worker)
    if (stopping) {
      if (started.size === 0) exit(Number(process.exitCode ?? 0))
      return
    }
    if (code === EX_CONFIG) {
      process.stderr.write('a worker stopped on a configuration error: stopping\n')
      stopAll(EX_CONFIG)
      return
    }
    // a worker that keeps dying at start (the port is taken, an engine cannot load) stops the service
    quickDeaths = lived < 5_000 ? quickDeaths + 1 : 0
    if (quickDeaths > 5) {
      process.stderr.write('workers keep dying right after start: stopping\n')
      stopAll(1)
      return
    }
    process.stderr.write(`worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`)
    setTimeout(fork, quickDeaths * 500)
  })

  const stopAll = (exitCode: number): void => {
    if (exitCode !== 0) process.exitCode = exitCode
    if (stopping) return
    stopping = true
    for (const worker of started.keys()) worker.process.kill('SIGTERM')
    if (started.size === 0) exit(exitCode)
    setTimeout(() => {
      for (const worker of started.keys()) worker.process.kill('SIGKILL')
      process.exit(exitCode === 0 ? 1 : exitCode)
    }, SHUTDOWN_MS).unref()
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (!stopping) process.stderr.write(`${signal}: stopping ${started.size} workers after their requests in flight\n`)
      stopAll(0)
    })
  }
  // one rate-limit count per client for all workers (with REDIS_URL the workers count in Redis)
  if (config.redisUrl === undefined) serveClusterRateLimits()
  for (let i = 0; i < config.workers; i++) fork()
}

const config = configOrExit()
if (cluster.isPrimary && config.workers > 1) {
  runPrimary(config)
} else {
  if (cluster.isPrimary) ensureClient(config)
  await serve(config)
}
