/**
 * Rate limits across WORKERS processes without Redis: each worker counts in its own process and
 * answers at once, and every SYNC_MS sends the cluster primary what it counted since; the primary
 * adds it to the machine's counts and tells every worker the totals, which each adds its own
 * uncounted requests to. So RATE_LIMIT_MAX holds per client for the whole service, and a request
 * pays no crossing of processes (asking the primary for each one cost more CPU than the request's
 * own work on short requests: bench/scaling.ts). The price, in SECURITY.md: a client can go past
 * its limit by what the other workers let through before they heard (one SYNC_MS and a message),
 * never by more than each worker's own limit, WORKERS times RATE_LIMIT_MAX in a window.
 */
import cluster from 'node:cluster'
import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit'
import LocalStore from '@fastify/rate-limit/store/LocalStore.js'
import { primaryConnection, type Handlers } from '../runtime/channel.js'

type Callback = Parameters<FastifyRateLimitStore['incr']>[1]
/** A key's count as the plugin's LocalStore keeps it. */
interface Entry { current: number, ttl: number, iterationStartMs: number }
type Store = FastifyRateLimitStore & { read?: (key: string, cb: Callback, timeWindow: number, max: number) => void }

/** How often a worker that counted something sends it to the primary. */
export const SYNC_MS = 20
/** How long a worker waits for the primary's answer before it counts on alone (its counts for that batch stay its own). */
const ANSWER_TIMEOUT_MS = 250
/** LocalStore's default number of keys a store keeps. */
const DEFAULT_KEYS = 5000

/** What a worker counted for one key since its last batch. */
export interface Counted {
  /** Which store (0: global; children in creation order, the same in every worker). */
  store: number
  key: string
  n: number
  timeWindow: number
  max: number
  continueExceeding: boolean
  exponentialBackoff: boolean
  keys: number
}

/** The machine's count of a key, as the primary tells it. */
export interface Total extends Entry { store: number, key: string }

/** What the primary tells every worker after a batch. */
interface TotalsNotice { rateLimitTotals: Total[] }

/** In the primary: adds each worker's batches to one set of counts and tells every worker the totals. */
export function rateLimitHandlers (broadcast: (notice: TotalsNotice) => void): Handlers {
  const stores = new Map<string, Store>()
  return {
    rateLimitCounted: (batch: Counted[]): null => {
      const totals: Total[] = []
      for (const c of batch) {
        const name = `${c.store}:${c.continueExceeding}:${c.exponentialBackoff}`
        let store = stores.get(name)
        if (store === undefined) stores.set(name, store = new LocalStore(c.continueExceeding, c.exponentialBackoff, c.keys) as Store)
        let entry: Entry | undefined
        // LocalStore's own arithmetic (windows, continueExceeding, backoff), one request at a time
        for (let i = 0; i < c.n; i++) store.incr(c.key, (_err: Error | null, result?: unknown) => { entry = result as Entry }, c.timeWindow, c.max)
        if (entry !== undefined) totals.push({ store: c.store, key: c.key, current: entry.current, ttl: entry.ttl, iterationStartMs: entry.iterationStartMs })
      }
      if (totals.length > 0) broadcast({ rateLimitTotals: totals })
      return null
    }
  }
}

/** A worker's view of one key: the machine's count as last heard, with its own requests since. */
interface Kept extends Entry { unsent: number, timeWindow: number, max: number }

/** A worker's store: the plugin's, with what the exchange of counts uses. */
export interface ClusterRateLimitStore extends FastifyRateLimitStore {
  read: (key: string, cb: Callback, timeWindow: number, max: number) => void
  /** What was counted since the last batch, now sent. */
  takeCounted: () => Counted[]
  /** The machine's count, from the primary: this worker's requests not yet sent come on top. */
  heard: (total: Total) => void
}

/** What the plugin hands a store's constructor (its types leave the options empty). */
interface StoreParams { continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number }

/** The store class for @fastify/rate-limit's `store` option in a cluster worker. */
export function clusterStore (): new (options: FastifyRateLimitOptions) => ClusterRateLimitStore {
  const stores: ClusterStore[] = []
  let timer: NodeJS.Timeout | undefined
  const connected = (): boolean => cluster.isWorker && process.send !== undefined && process.connected

  const send = (): void => {
    timer = undefined
    const batch = stores.flatMap(store => store.takeCounted())
    if (batch.length === 0 || !connected()) return
    // not answered in time: those counts stay this worker's own (a lost batch only lowers the machine's count)
    primaryConnection().call('rateLimitCounted', [batch], AbortSignal.timeout(ANSWER_TIMEOUT_MS)).catch(() => {})
  }
  const counted = (): void => {
    if (timer === undefined && connected()) timer = setTimeout(send, SYNC_MS).unref()
  }
  if (connected()) {
    primaryConnection().onNotice(notice => {
      for (const total of (notice as Partial<TotalsNotice>).rateLimitTotals ?? []) stores[total.store]?.heard(total)
    })
  }

  class ClusterStore implements ClusterRateLimitStore {
    private readonly kept = new Map<string, Kept>()
    private readonly index: number
    constructor (private readonly continueExceeding: boolean, private readonly exponentialBackoff: boolean, private readonly keys = DEFAULT_KEYS) {
      this.index = stores.push(this) - 1
    }

    incr (key: string, cb: Callback, timeWindow: number, max: number): void {
      const now = Date.now()
      let entry = this.kept.get(key)
      if (entry === undefined) {
        entry = { current: 1, ttl: timeWindow, iterationStartMs: now, unsent: 0, timeWindow, max }
        if (this.kept.size >= this.keys) this.kept.delete(this.kept.keys().next().value!)
      } else {
        // least recently used first out
        this.kept.delete(key)
        step(entry, now, timeWindow, max, this.continueExceeding, this.exponentialBackoff)
      }
      entry.unsent++
      entry.timeWindow = timeWindow
      entry.max = max
      this.kept.set(key, entry)
      counted()
      cb(null, { current: entry.current, ttl: entry.ttl })
    }

    read (key: string, cb: Callback, timeWindow: number): void {
      const entry = this.kept.get(key)
      const now = Date.now()
      if (entry === undefined || entry.iterationStartMs + timeWindow <= now) cb(null, { current: 0, ttl: 0 })
      else cb(null, { current: entry.current, ttl: timeWindow - (now - entry.iterationStartMs) })
    }

    child (routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const params = routeOptions as StoreParams
      return new ClusterStore(params.continueExceeding ?? false, params.exponentialBackoff ?? false, params.cache)
    }

    /** What was counted since the last batch, now sent. */
    takeCounted (): Counted[] {
      const out: Counted[] = []
      for (const [key, entry] of this.kept) {
        if (entry.unsent === 0) continue
        out.push({ store: this.index, key, n: entry.unsent, timeWindow: entry.timeWindow, max: entry.max, continueExceeding: this.continueExceeding, exponentialBackoff: this.exponentialBackoff, keys: this.keys })
        entry.unsent = 0
      }
      return out
    }

    /** The machine's count, from the primary: this worker's requests not yet sent come on top. */
    heard (total: Total): void {
      const entry = this.kept.get(total.key)
      if (entry === undefined) {
        // counted by the other workers only so far
        if (this.kept.size >= this.keys) this.kept.delete(this.kept.keys().next().value!)
        this.kept.set(total.key, { current: total.current, ttl: total.ttl, iterationStartMs: total.iterationStartMs, unsent: 0, timeWindow: 0, max: 0 })
        return
      }
      // each side starts a window at its first request, so one window has two starts a little apart
      const window = Math.max(entry.timeWindow, total.ttl)
      if (total.iterationStartMs >= entry.iterationStartMs + window) {
        // a window that began after this one ended: the later window wins
        entry.current = total.current + entry.unsent
      } else if (total.iterationStartMs + window <= entry.iterationStartMs) {
        return
      } else {
        // counts only grow within a window: a total that has not heard all of this worker's requests yet changes nothing
        entry.current = Math.max(entry.current, total.current + entry.unsent)
      }
      entry.ttl = total.ttl
      entry.iterationStartMs = total.iterationStartMs
    }
  }
  return class extends ClusterStore {
    constructor (options: FastifyRateLimitOptions) {
      const params = options as StoreParams
      super(params.continueExceeding ?? false, params.exponentialBackoff ?? false, params.cache)
    }
  }
}

/** One more request on a kept count: LocalStore.incr's arithmetic for an entry that exists. */
function step (entry: Entry, now: number, timeWindow: number, max: number, continueExceeding: boolean, exponentialBackoff: boolean): void {
  if (entry.iterationStartMs + timeWindow <= now) {
    entry.current = 1
    entry.ttl = timeWindow
    entry.iterationStartMs = now
    return
  }
  entry.current++
  if (continueExceeding && entry.current > max) {
    entry.ttl = timeWindow
    entry.iterationStartMs = now
  } else if (exponentialBackoff && entry.current > max) {
    const ttl = timeWindow * (2 ** (entry.current - max - 1))
    entry.ttl = Number.isSafeInteger(ttl) ? ttl : Number.MAX_SAFE_INTEGER
    entry.iterationStartMs = now
  } else {
    entry.ttl = timeWindow - (now - entry.iterationStartMs)
  }
}
