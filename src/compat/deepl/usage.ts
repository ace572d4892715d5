/**
 * The characters each client has had translated through the DeepL-compatible API this calendar
 * month (UTC), against COMPAT_DEEPL_CHARACTER_LIMIT. A request reserves its characters before it is
 * translated and gives them back when it fails, so requests at the same time cannot all pass the
 * limit (a document's job gives them back when it ends failed or cancelled, maybe in another process
 * and month: hence giveBack by month); the counts are kept where the rate limits keep theirs (app.counters: Redis with REDIS_URL,
 * shared by replicas and kept across restarts; else the cluster primary's memory for all workers).
 */
import type { CounterStore } from '../../runtime/counters.js'

/** Characters reserved: the month they count in (`2026-11`), and a function that gives them back. */
export interface Reservation {
  month: string
  giveBack: () => Promise<void>
}

export interface DeepLUsage {
  /** Reserves `chars` of `client`'s month; undefined (nothing reserved) when they would pass the limit. */
  reserve: (client: string, chars: number) => Promise<Reservation | undefined>
  /** Gives back `chars` that `client` reserved in `month` (a reservation's giveBack, where it is not at hand). */
  giveBack: (client: string, chars: number, month: string) => Promise<void>
  /** The characters `client` has had translated this month. */
  count: (client: string) => Promise<number>
}

/** This month's key (`2026-11`) and the milliseconds until it ends. */
function month (now = new Date()): { key: string, leftMs: number } {
  const year = now.getUTCFullYear()
  const index = now.getUTCMonth()
  return { key: `${year}-${String(index + 1).padStart(2, '0')}`, leftMs: Date.UTC(year, index + 1, 1) - now.getTime() }
}

/** At most this many clients' counts in a process's memory (each client with a key is one). */
const CLIENTS = 100_000

export function deeplUsage (counters: CounterStore, limit: number): DeepLUsage {
  const used = counters('deepl-characters', CLIENTS)
  return {
    async reserve (client, chars) {
      const { key, leftMs } = month()
      const at = `${key}:${client}`
      const { added } = await used.add(at, chars, limit, leftMs)
      return added ? { month: key, giveBack: async () => { await used.subtract(at, chars) } } : undefined
    },
    async giveBack (client, chars, month) {
      await used.subtract(`${month}:${client}`, chars)
    },
    async count (client) {
      const { key, leftMs } = month()
      return (await used.add(`${key}:${client}`, 0, limit, leftMs)).count
    }
  }
}
