/**
 * Counts that work reserves before it runs and gives back when it was not spent, so that callers
 * at the same time cannot all pass a limit that each of them read as not yet reached: failed
 * client authentications (a check holds one while it runs) and the DeepL-compatible API's
 * characters. Kept where the rate limits keep theirs: Redis with REDIS_URL (redis/counters.ts),
 * else the cluster primary, asked over the channel, else the process.
 */
import { primaryCaller, type Handlers } from './channel.js'

export interface Count {
  /** Whether the amount was added: false when it would have taken the count past the limit (nothing was added). */
  added: boolean
  /** The count after the call. */
  count: number
  /** Milliseconds until the count's window ends and it starts again from 0 (0: no count yet). */
  resetMs: number
}

export interface Counters {
  /**
   * Adds `n` to `key`'s count unless that takes it past `limit` (`n` 0 reads it). A count's window
   * starts with its first addition and lasts `windowMs`.
   */
  add: (key: string, n: number, limit: number, windowMs: number) => Promise<Count>
  /** Takes `n` back from `key`'s count (not below 0; nothing once its window has ended). */
  subtract: (key: string, n: number) => Promise<void>
}

/** Counters by name, each kept apart from the others (keys, and the bound on their number). */
export type CounterStore = (name: string, entries: number) => Counters

/** The process's own counts: at most `entries` keys, the oldest going first. */
export class LocalCounters implements Counters {
  private readonly counts = new Map<string, { count: number, until: number }>()
  constructor (private readonly entries: number) {}

  addNow (key: string, n: number, limit: number, windowMs: number): Count {
    const now = Date.now()
    let entry = this.counts.get(key)
    if (entry !== undefined && entry.until <= now) {
      this.counts.delete(key)
      entry = undefined
    }
    const count = entry?.count ?? 0
    if (n === 0 || count + n > limit) return { added: n === 0, count, resetMs: entry === undefined ? 0 : entry.until - now }
    if (entry === undefined) {
      if (this.counts.size >= this.entries) this.counts.delete(this.counts.keys().next().value!)
      entry = { count: 0, until: now + windowMs }
      this.counts.set(key, entry)
    }
    entry.count += n
    return { added: true, count: entry.count, resetMs: entry.until - now }
  }

  subtractNow (key: string, n: number): void {
    const entry = this.counts.get(key)
    if (entry !== undefined && entry.until > Date.now()) entry.count = Math.max(0, entry.count - n)
  }

  async add (key: string, n: number, limit: number, windowMs: number): Promise<Count> {
    return this.addNow(key, n, limit, windowMs)
  }

  async subtract (key: string, n: number): Promise<void> {
    this.subtractNow(key, n)
  }
}

/** Each name's counters in this process. */
export function localCounterStore (): (name: string, entries: number) => LocalCounters {
  const stores = new Map<string, LocalCounters>()
  return (name, entries) => {
    let store = stores.get(name)
    if (store === undefined) stores.set(name, store = new LocalCounters(entries))
    return store
  }
}

interface CounterCall { name: string, entries: number, key: string, n: number, limit?: number, windowMs?: number }

/** In the cluster primary: what every worker's channel serves, from one set of counts. */
export function counterHandlers (): Handlers {
  const store = localCounterStore()
  return {
    counterAdd: (call: CounterCall): Count => store(call.name, call.entries).addNow(call.key, call.n, call.limit!, call.windowMs!),
    counterSubtract: (call: CounterCall): null => {
      store(call.name, call.entries).subtractNow(call.key, call.n)
      return null
    }
  }
}

/** How long a worker waits for the primary before it counts in its own process for that call. */
const ANSWER_TIMEOUT_MS = 250

/** In a cluster worker: counts kept by the primary; the worker's own while the primary does not answer in time. */
export function clusterCounterStore (): CounterStore {
  const local = localCounterStore()
  return (name, entries) => {
    const own = local(name, entries)
    const connected = (): boolean => process.send !== undefined && process.connected
    return {
      async add (key, n, limit, windowMs) {
        if (!connected()) return own.addNow(key, n, limit, windowMs)
        const call: CounterCall = { name, entries, key, n, limit, windowMs }
        return await primaryCaller()<Count>('counterAdd', [call], AbortSignal.timeout(ANSWER_TIMEOUT_MS))
          .catch(() => own.addNow(key, n, limit, windowMs))
      },
      async subtract (key, n) {
        if (!connected()) return own.subtractNow(key, n)
        await primaryCaller()('counterSubtract', [{ name, entries, key, n }], AbortSignal.timeout(ANSWER_TIMEOUT_MS))
          .catch(() => own.subtractNow(key, n))
      }
    }
  }
}
