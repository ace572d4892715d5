/**
 * The one fairness primitive: a queue that takes work round-robin over clients. Each client's
 * items wait in their own line, in order, and the lines take one turn each, so one client's
 * backlog of a thousand items delays another client's one item by at most one item of each
 * other waiting client. Every queue that serves clients takes its order from it (the fair slots,
 * the pool, the batcher, an Apertium pipeline's writes).
 *
 * A client is a string key (lib/clients.ts) by default; `K` may be any value a Map keys by (an
 * Apertium call of no known client is a line of its own object).
 */
import { NO_CLIENT } from './clients.js'

interface Line<T, K> {
  client: K
  items: T[]
  head: number
}

/** Entries taken off the front of a line before its array may be compacted. */
const COMPACT_AFTER = 256

export class FairQueue<T, K = string> {
  private readonly lines = new Map<K, Line<T, K>>()
  /** Clients with items waiting, in turn order (a handful: one per waiting client). */
  private turns: Array<Line<T, K>> = []
  private count = 0

  /** Items waiting in all. */
  get size (): number {
    return this.count
  }

  /** Items waiting for one client. */
  sizeOf (client: K | undefined): number {
    const line = this.lines.get(this.key(client))
    return line === undefined ? 0 : line.items.length - line.head
  }

  push (client: K | undefined, item: T): void {
    const key = this.key(client)
    let line = this.lines.get(key)
    if (line === undefined) {
      line = { client: key, items: [], head: 0 }
      this.lines.set(key, line)
      this.turns.push(line)
    }
    line.items.push(item)
    this.count++
  }

  /** The next item in turn, for which `eligible` says yes (default: any); its client goes to the back of the turns. */
  shift (eligible?: (client: K, item: T) => boolean): T | undefined {
    for (let i = 0; i < this.turns.length; i++) {
      const line = this.turns[i]!
      const item = line.items[line.head]!
      if (eligible !== undefined && !eligible(line.client, item)) continue
      line.head++
      this.count--
      // the line leaves its place in the turns: to the back if it has more, else out
      this.turns.splice(i, 1)
      if (line.head < line.items.length) {
        // compacted once half of it is taken: linear however long the line
        if (line.head >= COMPACT_AFTER && line.head * 2 >= line.items.length) {
          line.items = line.items.slice(line.head)
          line.head = 0
        }
        this.turns.push(line)
      } else {
        this.lines.delete(line.client)
      }
      return item
    }
    return undefined
  }

  /** The item shift() would take next (with no `eligible`), left waiting. */
  peek (): T | undefined {
    const line = this.turns[0]
    return line === undefined ? undefined : line.items[line.head]
  }

  /** Every waiting item, in no particular order, left waiting. */
  items (): T[] {
    const out: T[] = []
    // a loop, not push(...items): a line may hold more items than a call takes arguments
    for (const line of this.turns) for (let i = line.head; i < line.items.length; i++) out.push(line.items[i]!)
    return out
  }

  /** Removes an item (given up while waiting); false when it is not waiting. */
  remove (client: K | undefined, item: T): boolean {
    const key = this.key(client)
    const line = this.lines.get(key)
    if (line === undefined) return false
    const at = line.items.indexOf(item, line.head)
    if (at === -1) return false
    line.items.splice(at, 1)
    this.count--
    if (line.head >= line.items.length) {
      this.lines.delete(key)
      const turn = this.turns.indexOf(line)
      if (turn !== -1) this.turns.splice(turn, 1)
    }
    return true
  }

  /** Every waiting item, taken off the queue. */
  drain (): T[] {
    const out = this.items()
    this.lines.clear()
    this.turns = []
    this.count = 0
    return out
  }

  private key (client: K | undefined): K {
    return client ?? NO_CLIENT as K
  }
}
