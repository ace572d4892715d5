/**
 * A queue that takes work round-robin over clients: each client's items wait in their own line,
 * in order, and the lines take one turn each. One client's backlog of a thousand items delays
 * another client's one item by at most one item of each other waiting client.
 */
import { NO_CLIENT } from './clients.js'

interface Line<T> {
  client: string
  items: T[]
  head: number
}

/** Entries taken off the front of a line before its array is compacted. */
const COMPACT_AFTER = 256

export class FairQueue<T> {
  private readonly lines = new Map<string, Line<T>>()
  /** Clients with items waiting, in turn order (a handful: one per waiting client). */
  private turns: Array<Line<T>> = []
  private count = 0

  /** Items waiting in all. */
  get size (): number {
    return this.count
  }

  /** Items waiting for one client. */
  sizeOf (client: string | undefined): number {
    const line = this.lines.get(client ?? NO_CLIENT)
    return line === undefined ? 0 : line.items.length - line.head
  }

  push (client: string | undefined, item: T): void {
    const key = client ?? NO_CLIENT
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
  shift (eligible?: (client: string, item: T) => boolean): T | undefined {
    for (let i = 0; i < this.turns.length; i++) {
      const line = this.turns[i]!
      const item = line.items[line.head]!
      if (eligible !== undefined && !eligible(line.client, item)) continue
      line.head++
      this.count--
      // the line leaves its place in the turns: to the back if it has more, else out
      this.turns.splice(i, 1)
      if (line.head < line.items.length) {
        if (line.head >= COMPACT_AFTER) {
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

  /** Removes an item (given up while waiting); false when it is not waiting. */
  remove (client: string | undefined, item: T): boolean {
    const key = client ?? NO_CLIENT
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
    const out: T[] = []
    for (const line of this.turns) out.push(...line.items.slice(line.head))
    this.lines.clear()
    this.turns = []
    this.count = 0
    return out
  }
}
