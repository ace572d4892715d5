/**
 * A bounded number of slots, the callers waiting for one taking turns by client (FairQueue): a
 * freed slot passes straight to the next waiter. What the calls to an outside service, document
 * jobs and the client secret checks are bounded by.
 */
import { FairQueue } from './fair-queue.js'

export class FairSlots {
  private active = 0
  private readonly waiting = new FairQueue<() => void>()

  constructor (readonly limit: number) {}

  /** Callers waiting for a slot. */
  get waiters (): number {
    return this.waiting.size
  }

  /** Callers waiting for a slot in `client`'s line. */
  waitersOf (client: string | undefined): number {
    return this.waiting.sizeOf(client)
  }

  /** Takes a slot, waiting in `client`'s line while none is free; rejects with the signal's reason when it aborts first. */
  async acquire (client: string | undefined, signal: AbortSignal): Promise<void> {
    if (this.active < this.limit) {
      this.active++
      return
    }
    signal.throwIfAborted()
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort)
        resolve()
      }
      const onAbort = (): void => {
        this.waiting.remove(client, grant)
        reject(signal.reason)
      }
      this.waiting.push(client, grant)
      signal.addEventListener('abort', onAbort, { once: true })
    })
  }

  /** Gives a slot back: to the next waiter if there is one. */
  release (): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.active--
  }
}
