/**
 * Start-up only: read config, then either serve in this process (WORKERS=1) or be the primary
 * of WORKERS processes that share the port (runtime/cluster.ts); shut down gracefully.
 */
import cluster from 'node:cluster'
import closeWithGrace from 'close-with-grace'
import { randomBytes } from 'node:crypto'
import { accessSync, constants, mkdirSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { ConfigError, loadConfig, SCOPES, settingWarnings, unknownSettings, type Config } from './config.js'
import { buildApp } from './app.js'
import { rateLimitHandlers } from './http/cluster-rate-limit.js'
import { counterHandlers } from './runtime/counters.js'
import { EX_CONFIG, runPrimary } from './runtime/cluster.js'

/** With no client configured, one is made so the service is usable at once; its secret is printed once. True when it was made. */
function ensureClient (config: Config): boolean {
  if (config.auth.clients.length > 0 || config.auth.jwksUrl) return false
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
  return true
}

/**
 * With neither AUTH_JWT_SECRET nor AUTH_JWT_PRIVATE_KEY_FILE, tokens are signed with a random secret,
 * made here and nowhere else; tokens then stop working at restart. True when it was made.
 */
function signingSecret (config: Config): boolean {
  if (config.auth.jwtSecret !== undefined || config.auth.jwtPrivateKey !== undefined) return false
  config.auth.jwtSecret = randomBytes(48).toString('base64url')
  return true
}

/**
 * Without Redis, document jobs and the drop-in APIs' files live in DATA_DIR: a folder that cannot be
 * made or written to is a configuration error at start (it was found by the first job, a 500,
 * while /ready said ready).
 */
function checkDataDir (config: Config): void {
  if (config.redisUrl !== undefined) return
  const dir = config.jobs.dataDir
  try {
    mkdirSync(dir, { recursive: true })
    accessSync(dir, constants.W_OK | constants.X_OK)
  } catch (err) {
    throw new ConfigError('DATA_DIR', `cannot keep jobs in "${dir}": ${(err as NodeJS.ErrnoException).code ?? (err as Error).message} (a folder this process may create and write to)`)
  }
}

/** The configuration, or exit naming the bad variable. */
function configOrExit (): Config {
  // before the values are checked: a misspelt name may be why one is missing
  if (cluster.isPrimary) for (const warning of unknownSettings()) process.stderr.write(`WARNING: ${warning}\n`)
  try {
    const config = loadConfig()
    checkDataDir(config)
    if (cluster.isPrimary) for (const warning of settingWarnings(config)) process.stderr.write(`WARNING: ${warning}\n`)
    return config
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`)
      process.exit(EX_CONFIG)
    }
    throw err
  }
}

/** Serves requests in this process until SIGTERM, SIGINT or SIGHUP, then finishes the requests in flight and closes engines. */
async function serve (config: Config): Promise<void> {
  const ephemeralKey = signingSecret(config)
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
  // errors end the process gracefully (close-with-grace); SIGTERM and SIGINT are handled here, because
  // a worker gets them twice when the whole process group got one (Ctrl-C, systemd) and its primary
  // passes it on: it keeps draining (the primary bounds how long). Alone, a second signal is someone
  // who wants the process gone now.
  const grace = closeWithGrace({ delay: 10_000, skip: ['SIGTERM', 'SIGINT', 'SIGHUP'] }, async ({ err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error')
    await app.close()
  })
  let signalled = false
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (!signalled) {
        signalled = true
        app.log.info({ signal }, 'shutting down: finishing requests in flight')
        grace.close()
      } else if (cluster.isWorker) {
        app.log.info({ signal }, 'still finishing requests in flight')
      } else {
        app.log.warn({ signal }, 'second signal: exiting without finishing requests in flight')
        process.exit(1)
      }
    })
  }
  try {
    await app.listen({ host: config.host, port: config.port })
  } catch (err) {
    const why = LISTEN_ERRORS[(err as NodeJS.ErrnoException).code ?? '']
    if (why === undefined) throw err
    // a configuration error: a cluster primary stops rather than start another worker that fails the same way
    process.stderr.write(`configuration error: HOST, PORT: cannot listen on ${config.host}:${config.port}: ${why}\n`)
    await Promise.race([app.close(), new Promise(resolve => setTimeout(resolve, 2000).unref())])
    process.exit(EX_CONFIG)
  }
}

/** Why the service cannot listen, by the system's error code. */
const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: 'the port is in use by another process',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'no network interface of this machine has that address',
  ENOTFOUND: 'no such host name',
  EAI_AGAIN: 'the host name could not be looked up'
}

/**
 * The primary of WORKERS processes: what must be the same in every worker is decided once here
 * (the start-up client, a random signing key when none is configured) and handed to the workers in
 * their environment; the rate-limit counts and reserved counts (runtime/counters.ts) of every worker
 * are kept here (with REDIS_URL, Redis keeps them). Each worker runs its own Apertium pipelines and thread pool, sized to its share
 * of the machine (runtime/machine.ts).
 */
function primary (config: Config): void {
  const env: Record<string, string> = {}
  // the client made for this run goes to every worker; configured clients each worker reads as the
  // primary did (AUTH_CLIENTS and AUTH_CLIENTS_FILE, from the environment or .env): handed over in
  // the environment as well, a file's were read twice (a start refused: "appears twice"), and
  // many of them passed the system's limit on one variable (spawn E2BIG)
  if (ensureClient(config)) {
    const made = config.auth.clients[0]!
    env['AUTH_CLIENTS'] = JSON.stringify([{ id: made.id, secret: made.secret, scopes: made.scopes }])
  }
  // one key for every worker whenever this service issues tokens (its own clients, beside an outside
  // issuer or not): a key of each worker's own would refuse the tokens of the others
  if ((config.auth.jwksUrl === undefined || config.auth.clients.length > 0) && signingSecret(config)) {
    env['AUTH_JWT_SECRET'] = config.auth.jwtSecret!
    process.stderr.write('WARNING: AUTH_JWT_SECRET is not set: a random signing key was made for this run; tokens stop working when the service restarts\n')
  }
  runPrimary({ workers: config.workers, env, handlers: broadcast => config.redisUrl === undefined ? { ...rateLimitHandlers(broadcast), ...counterHandlers() } : {} })
}

const config = configOrExit()
if (cluster.isPrimary && config.workers > 1) {
  primary(config)
} else {
  if (cluster.isPrimary) ensureClient(config)
  await serve(config)
}
