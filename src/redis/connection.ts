/**
 * The process's one Redis connection (REDIS_URL): rate-limit counters and the translation cache
 * shared by every replica. Calls fail fast while Redis is away (no offline queue, every command
 * bounded by REDIS_TIMEOUT_MS), the client reconnects by itself with backoff, and callers ask
 * `state()` first so a Redis that is down or slow costs requests nothing.
 */
import type { Redis } from 'ioredis'
import type * as IoRedis from 'ioredis'
import { lazyPackage } from '../lib/lazy-package.js'

/** ioredis, loaded when REDIS_URL makes a connection (~2 MB of heap otherwise not held). */
const ioredis = lazyPackage<typeof IoRedis>('ioredis')

export type RedisState = 'ready' | 'degraded'

/** The part of a pino/Fastify logger this module writes to. */
export interface RedisLog {
  info: (obj: object, msg: string) => void
  warn: (obj: object, msg: string) => void
}

export interface SharedRedis {
  readonly client: Redis
  /** ready: connected and answering in time; degraded: down, reconnecting, or it failed a call a moment ago. */
  state: () => RedisState
  /** Records a call that failed or timed out: Redis is skipped for a moment rather than waited for by every request. */
  failed: (err: unknown) => void
  /** Starts connecting; resolves once connected or once the first attempt failed (reconnection goes on). */
  connect: () => Promise<void>
  /** Stops reconnecting and closes the connection. */
  close: () => Promise<void>
}

/** How long Redis is skipped after a failed call. */
const PAUSE_MS = 1000
/** Failure episodes, each within 10 s of the last, after which an open connection is dropped and made again (a half-open socket). */
const RECONNECT_AFTER_FAILURES = 3
const FAILURES_WITHIN_MS = 10_000
/** Reconnection backoff: 100 ms doubling up to 2 s, for ever. */
const retryDelay = (attempt: number): number => Math.min(100 * 2 ** Math.min(attempt - 1, 5), 2000)
/** At most one "Redis call failed" log line this often. */
const LOG_EVERY_MS = 60_000

/** REDIS_URL without its user name or password, for logs. */
export function redisTarget (url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return 'redis'
  }
}

/** A Redis client for `url`, not yet connected (call `connect()`). */
export function createRedis (url: string, options: { timeoutMs: number, log: RedisLog }): SharedRedis {
  const { timeoutMs, log } = options
  const target = redisTarget(url)
  const client = new (ioredis().Redis)(url, {
    lazyConnect: true,
    // while disconnected, commands are refused at once instead of queued until Redis returns
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(1000, 5 * timeoutMs),
    retryStrategy: retryDelay,
    // a dropped connection whose peer does not answer the close is destroyed after this
    disconnectTimeout: 500
  })

  let pausedUntil = 0
  let recentFailures = 0
  let lastFailure = 0
  let lastFailureLog = 0
  let connected = false
  let closing = false
  /** The last connection error, for the log line saying Redis is away. */
  let lastError = ''

  client.on('ready', () => {
    connected = true
    lastError = ''
    recentFailures = 0
    pausedUntil = 0
    log.info({ redis: target }, 'Redis connected: rate limits and the translation cache are shared')
  })
  client.on('close', () => {
    if (!connected || closing) return
    connected = false
    log.warn({ redis: target, ...(lastError === '' ? {} : { error: lastError }) }, 'Redis connection lost: per-process rate limits and cache until it returns (reconnecting)')
  })
  // without a listener ioredis prints every failed reconnection attempt itself
  client.on('error', (err: Error) => { lastError = err.message })

  const state = (): RedisState => client.status === 'ready' && Date.now() >= pausedUntil ? 'ready' : 'degraded'

  const failed = (err: unknown): void => {
    const now = Date.now()
    // calls in flight together fail together: one episode per pause
    const episode = now >= pausedUntil
    pausedUntil = now + PAUSE_MS
    if (now - lastFailureLog >= LOG_EVERY_MS) {
      lastFailureLog = now
      log.warn({ redis: target, error: (err as Error)?.message }, `Redis call failed: going on without Redis for ${PAUSE_MS} ms`)
    }
    // Redis answered with an error (out of memory, read-only replica): the connection itself is fine
    if (!episode || (err as Error)?.name === 'ReplyError') return
    recentFailures = now - lastFailure > FAILURES_WITHIN_MS ? 1 : recentFailures + 1
    lastFailure = now
    if (recentFailures >= RECONNECT_AFTER_FAILURES && client.status === 'ready') {
      recentFailures = 0
      client.disconnect(true)
    }
  }

  return {
    client,
    state,
    failed,
    async connect () {
      try {
        await client.connect()
      } catch (err) {
        log.warn({ redis: target, error: lastError || (err as Error).message }, 'Redis is not reachable: per-process rate limits and cache until it is (reconnecting)')
      }
    },
    async close () {
      closing = true
      if (client.status === 'ready') {
        try {
          await client.quit()
        } catch {
          // it closes below anyway
        }
      }
      client.disconnect()
    }
  }
}
