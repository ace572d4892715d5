/**
 * A bounded number of slots, the callers waiting for one taking turns by client (FairQueue): a
 * freed slot passes straight to the next waiter whose client may hold another. What the calls to
 * an outside service, document jobs and the client secret checks are bounded by.
 */
import { NO_CLIENT } from './clients.js'
import { FairQueue } from './fair-queue.js'

/**
 * How many of `size` slots (or threads) one client may hold so that another client always finds
 * one free, however long the first one's work: all but one. A single one cannot be shared: its
 * client holds it.
 */
export function allButOne (size: number): number {
  return Math.max(1, size - 1)
}

export interface FairSlotsOptions {
  /** How many slots one client may hold at once (default: all): `allButOne(limit)` for work that holds its slot long. */
  perClient?: number
}

/** A caller waiting for a slot, and what hands it one. */
interface Waiter {
  client: string
  grant: () => void
}

export class FairSlots {
  private active = 0
  /** Slots held, by client. */
  private readonly held = new Map<string, number>()
  private readonly waiting = new FairQueue<Waiter>()
  readonly perClient: number

  constructor (readonly limit: number, options: FairSlotsOptions = {}) {
    this.perClient = Math.min(limit, options.perClient ?? limit)
  }

  /** Callers waiting for a slot. */
  get waiters (): number {
    return this.waiting.size
  }

  /** Callers waiting for a slot in `client`'s line. */
  waitersOf (client: string | undefined): number {
    return this.waiting.sizeOf(client)
  }

  /** Takes a slot, waiting in `client`'s line while none is free (or the client holds as many as it may); rejects with the signal's reason when it aborts first. */
  async acquire (client: string | undefined, signal: AbortSignal): Promise<void> {
    const key = client ?? NO_CLIENT
    if (this.active < this.limit && this.may(key)) {
      this.take(key)
      return
    }
    signal.throwIfAborted()
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        client: key,
        grant: () => {
          signal.removeEventListener('abort', onAbort)
          resolve()
        }
      }
      const onAbort = (): void => {
        this.waiting.remove(key, waiter)
        reject(signal.reason)
      }
      this.waiting.push(key, waiter)
      signal.addEventListener('abort', onAbort, { once: true })
    })
  }

  /** Gives `client`'s slot back: to the next waiter in turn whose client may hold another. */
  release (client: string | undefined): void {
    const key = client ?? NO_CLIENT
    const left = (this.held.get(key) ?? 1) - 1
    if (left === 0) this.held.delete(key)
    else this.held.set(key, left)
    this.active--
    while (this.active < this.limit) {
      const next = this.waiting.shift(client => this.may(client))
      if (next === undefined) return
      this.take(next.client)
      next.grant()
    }
  }

  private may (client: string): boolean {
    return (this.held.get(client) ?? 0) < this.perClient
  }

  private take (client: string): void {
    this.active++
    this.held.set(client, (this.held.get(client) ?? 0) + 1)
  }
}
