/**
 * Rate limits across WORKERS processes without Redis: the cluster primary keeps the counters and
 * each worker asks it over the channel (runtime/channel.ts), so RATE_LIMIT_MAX holds per client
 * for the whole service rather than per process. A worker whose question is not answered within
 * ANSWER_TIMEOUT_MS (the primary busy or gone) counts in its own store for that request.
 * Questions asked in the same tick of a worker's event loop travel in one message, and their
 * answers in one (the channel gathers them).
 */
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import LocalStore from '@fastify/rate-limit/store/LocalStore.js'
import { primaryCaller, type Handlers } from '../runtime/channel.js'

type Callback = Parameters<FastifyRateLimitStore['incr']>[1]
type Result = Parameters<Callback>[1]
type Store = FastifyRateLimitStore & { read?: (key: string, cb: Callback, timeWindow: number, max: number) => void }

const ANSWER_TIMEOUT_MS = 250

interface Question {
  /** Which store (0: global; children in creation order, the same in every worker). */
  store: number
  op: 'incr' | 'read'
  key: string
  timeWindow: number
  max: number
  continueExceeding: boolean
  exponentialBackoff: boolean
}

/** In the primary: what every worker's channel serves, from one set of counters. */
export function rateLimitHandlers (): Handlers {
  const stores = new Map<string, Store>()
  return {
    count: async (question: Question): Promise<Result> => {
      const name = `${question.store}:${question.continueExceeding}:${question.exponentialBackoff}`
      let store = stores.get(name)
      if (store === undefined) stores.set(name, store = new LocalStore(question.continueExceeding, question.exponentialBackoff) as Store)
      const op = store[question.op]
      if (op === undefined) throw new Error(`the store has no ${question.op}`)
      return await new Promise<Result>((resolve, reject) => {
        op.call(store, question.key, (err: Error | null, result?: Result) => { if (err || result === undefined) reject(err ?? new Error('no count')); else resolve(result) }, question.timeWindow, question.max)
      })
    }
  }
}

/** What the plugin hands a store's constructor (its types leave the options empty). */
interface StoreParams { continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number }

/** The store class for @fastify/rate-limit's `store` option in a cluster worker. */
export function clusterStore (): FastifyRateLimitStoreCtor {
  let stores = 0
  class ClusterStore implements FastifyRateLimitStore {
    private readonly local: Store
    constructor (private readonly store: number, private readonly continueExceeding: boolean, private readonly exponentialBackoff: boolean, cache?: number) {
      this.local = new LocalStore(continueExceeding, exponentialBackoff, cache) as Store
    }

    incr (key: string, cb: Callback, timeWindow: number, max: number): void {
      this.route('incr', key, cb, timeWindow, max)
    }

    read (key: string, cb: Callback, timeWindow: number, max: number): void {
      this.route('read', key, cb, timeWindow, max)
    }

    child (routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const params = routeOptions as StoreParams
      return new ClusterStore(++stores, params.continueExceeding ?? false, params.exponentialBackoff ?? false, params.cache)
    }

    private route (op: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number): void {
      const fallback = (): void => this.local[op]!(key, cb, timeWindow, max)
      if (process.send === undefined || !process.connected) return fallback()
      const question: Question = { store: this.store, op, key, timeWindow, max, continueExceeding: this.continueExceeding, exponentialBackoff: this.exponentialBackoff }
      primaryCaller()<Result>('count', [question], AbortSignal.timeout(ANSWER_TIMEOUT_MS)).then(result => cb(null, result), fallback)
    }
  }
  return class extends ClusterStore {
    constructor (options: FastifyRateLimitOptions) {
      const params = options as StoreParams
      super(0, params.continueExceeding ?? false, params.exponentialBackoff ?? false, params.cache)
    }
  }
}
