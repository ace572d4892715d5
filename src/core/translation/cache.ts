/**
 * The segment translation cache. Keys are (service, from, to, variant, segment); the interface is
 * batch-shaped and async so a Redis-backed cache (MGET/SET with TTL) can replace the in-memory one.
 */
import { createHash } from 'node:crypto'

export interface CacheKey {
  service: string
  from: string
  to: string
  /** Anything else that changes the answer (formality, context). */
  variant: string
  segment: string
}

export interface TranslationCache {
  getMany: (keys: readonly CacheKey[]) => Promise<Array<string | undefined>>
  setMany: (entries: ReadonlyArray<{ key: CacheKey, value: string }>) => Promise<void>
}

/** A stable string key; long segments are hashed so keys stay small (and fit Redis well). */
export function cacheKeyString (key: CacheKey): string {
  const head = `${key.service}\u0001${key.from}\u0001${key.to}\u0001${key.variant}\u0001`
  return key.segment.length <= 200
    ? head + key.segment
    : head + '#' + createHash('sha256').update(key.segment).digest('base64url')
}

/** An LRU bounded by entries and by characters held. */
export class MemoryTranslationCache implements TranslationCache {
  private readonly entries = new Map<string, string>()
  private chars = 0

  constructor (private readonly maxEntries: number, private readonly maxChars = maxEntries * 400) {}

  async getMany (keys: readonly CacheKey[]): Promise<Array<string | undefined>> {
    return keys.map(k => {
      const id = cacheKeyString(k)
      const value = this.entries.get(id)
      if (value !== undefined) {
        // refresh recency
        this.entries.delete(id)
        this.entries.set(id, value)
      }
      return value
    })
  }

  async setMany (entries: ReadonlyArray<{ key: CacheKey, value: string }>): Promise<void> {
    if (this.maxEntries === 0) return
    for (const { key, value } of entries) {
      const id = cacheKeyString(key)
      const old = this.entries.get(id)
      if (old !== undefined) {
        this.chars -= id.length + old.length
        this.entries.delete(id)
      }
      this.entries.set(id, value)
      this.chars += id.length + value.length
    }
    for (const [id, value] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break
      this.entries.delete(id)
      this.chars -= id.length + value.length
    }
  }
}
