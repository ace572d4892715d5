/**
 * Rate limits across WORKERS processes without Redis: the cluster primary keeps the counters and
 * each worker asks it over the IPC channel, so RATE_LIMIT_MAX holds per client for the whole
 * service rather than per process. A worker whose question is not answered within
 * ANSWER_TIMEOUT_MS (the primary busy or gone) counts in its own store for that request.
 */
import cluster from 'node:cluster'
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import LocalStore from '@fastify/rate-limit/store/LocalStore.js'

type Callback = Parameters<FastifyRateLimitStore['incr']>[1]
type Result = Parameters<Callback>[1]
type Store = FastifyRateLimitStore & { read?: (key: string, cb: Callback, timeWindow: number, max: number) => void }

/** Marks our messages among anything else on the IPC channel. */
const TAG = 'language-service:rate-limit'
const ANSWER_TIMEOUT_MS = 250

interface Question {
  tag: typeof TAG
  id: number
  /** Which store (0: global; children in creation order, the same in every worker). */
  store: number
  op: 'incr' | 'read'
  key: string
  timeWindow: number
  max: number
  continueExceeding: boolean
  exponentialBackoff: boolean
}

interface Answer {
  tag: typeof TAG
  id: number
  result?: Result
  error?: string
}

const isQuestion = (m: unknown): m is Question => (m as Question | null)?.tag === TAG && typeof (m as Question).key === 'string'
const isAnswer = (m: unknown): m is Answer => (m as Answer | null)?.tag === TAG && typeof (m as Answer).id === 'number'

/** In the primary: answers every worker's questions from one set of counters. */
export function serveClusterRateLimits (): void {
  const stores = new Map<string, Store>()
  cluster.on('message', (worker, message: unknown) => {
    if (!isQuestion(message)) return
    const name = `${message.store}:${message.continueExceeding}:${message.exponentialBackoff}`
    let store = stores.get(name)
    if (store === undefined) stores.set(name, store = new LocalStore(message.continueExceeding, message.exponentialBackoff) as Store)
    const reply = (err: Error | null, result?: Result): void => {
      const answer: Answer = { tag: TAG, id: message.id, ...(err ? { error: err.message } : { result }) }
      if (worker.isConnected()) worker.send(answer)
    }
    const op = store[message.op]
    if (op === undefined) reply(new Error(`the store has no ${message.op}`))
    else op.call(store, message.key, reply, message.timeWindow, message.max)
  })
}

/** In a worker: the pending questions, answered by the one listener below. */
const pending = new Map<number, (answer: Answer) => void>()
let nextId = 0
let listening = false

function ask (question: Omit<Question, 'tag' | 'id'>, fallback: () => void, cb: Callback): void {
  if (!listening) {
    listening = true
    process.on('message', (message: unknown) => {
      if (isAnswer(message)) pending.get(message.id)?.(message)
    })
  }
  const id = nextId++
  const timer = setTimeout(() => {
    pending.delete(id)
    fallback()
  }, ANSWER_TIMEOUT_MS)
  pending.set(id, answer => {
    clearTimeout(timer)
    pending.delete(id)
    if (answer.error !== undefined || answer.result === undefined) fallback()
    else cb(null, answer.result)
  })
  process.send!({ tag: TAG, id, ...question }, undefined, undefined, (err: Error | null) => {
    if (err) pending.get(id)?.({ tag: TAG, id, error: err.message })
  })
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
      ask({ store: this.store, op, key, timeWindow, max, continueExceeding: this.continueExceeding, exponentialBackoff: this.exponentialBackoff }, fallback, cb)
    }
  }
  return class extends ClusterStore {
    constructor (options: FastifyRateLimitOptions) {
      const params = options as StoreParams
      super(0, params.continueExceeding ?? false, params.exponentialBackoff ?? false, params.cache)
    }
  }
}
