/**
 * The rate-limit store with REDIS_URL: counters in Redis, shared by every replica, and a
 * per-process store that counts instead whenever Redis is down, slow or failing, so limits still
 * hold (per process) rather than being skipped.
 */
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import LocalStore from '@fastify/rate-limit/store/LocalStore.js'
import RedisStore from '@fastify/rate-limit/store/RedisStore.js'
import type { SharedRedis } from './connection.js'

/** Prefix of the counters' keys in Redis. */
export const RATE_LIMIT_PREFIX = 'ls:rl:'

type Callback = Parameters<FastifyRateLimitStore['incr']>[1]
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0]
/** What the plugin hands a store's constructor (its types leave the options empty). */
interface StoreParams { continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number }
/** The stores also have `read` (the plugin's `{ increment: false }`), which their types leave out. */
type Store = FastifyRateLimitStore & { read?: (key: string, cb: Callback, timeWindow: number, max: number) => void }

class FallbackStore implements FastifyRateLimitStore {
  constructor (private readonly redis: SharedRedis, private readonly shared: Store, private readonly local: Store) {}

  incr (key: string, cb: Callback, timeWindow: number, max: number): void {
    this.route('incr', key, cb, timeWindow, max)
  }

  read (key: string, cb: Callback, timeWindow: number, max: number): void {
    this.route('read', key, cb, timeWindow, max)
  }

  child (routeOptions: RouteOptions): FastifyRateLimitStore {
    return new FallbackStore(this.redis, this.shared.child(routeOptions), this.local.child(routeOptions))
  }

  /** Redis when it is usable, else (or when the call fails) the process's own counters. */
  private route (method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number): void {
    const local = (): void => this.local[method]!(key, cb, timeWindow, max)
    if (this.redis.state() !== 'ready') return local()
    this.shared[method]!(key, (err, result) => {
      if (err) {
        this.redis.failed(err)
        return local()
      }
      cb(null, result)
    }, timeWindow, max)
  }
}

/** The store class for @fastify/rate-limit's `store` option. */
export function fallbackStore (redis: SharedRedis): FastifyRateLimitStoreCtor {
  return class extends FallbackStore {
    constructor (options: FastifyRateLimitOptions) {
      const params = options as StoreParams
      const continueExceeding = params.continueExceeding ?? false
      const exponentialBackoff = params.exponentialBackoff ?? false
      super(redis,
        new RedisStore(continueExceeding, exponentialBackoff, redis.client, RATE_LIMIT_PREFIX),
        new LocalStore(continueExceeding, exponentialBackoff, params.cache))
    }
  }
}
