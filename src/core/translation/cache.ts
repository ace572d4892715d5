/**
 * The segment translation cache. Keys are (service, from, to, variant, owner, segment); the interface is
 * batch-shaped and async so a Redis-backed cache (MGET/SET with TTL) can replace the in-memory one.
 */
import { createHash } from 'node:crypto'

export interface CacheKey {
  service: string
  from: string
  to: string
  /** Anything else that changes the answer (formality, context). */
  variant: string
  /** Whose entry it is ('' or absent: anyone's): a hit must not tell one client what another sent. */
  owner?: string
  segment: string
}

export interface TranslationCache {
  getMany: (keys: readonly CacheKey[]) => Promise<Array<string | undefined>>
  setMany: (entries: ReadonlyArray<{ key: CacheKey, value: string }>) => Promise<void>
}

/** Starts every hashed key: a key of another format or version never equals one of these. */
const KEY_DOMAIN = 'language-service translation cache key v3\u0000'

/**
 * A segment's key: SHA-256 (base64url) over every field, each as its length and its UTF-16 code
 * units, so no text of any field can take another key's place (a short segment spelling a long
 * one's hash, text moving across a field boundary, a lone surrogate and U+FFFD) and no text is in it.
 */
export function cacheKeyString (key: CacheKey): string {
  const fields = [key.service, key.from, key.to, key.variant, key.owner ?? '', key.segment]
  // the fields' bytes in one buffer (one allocation, not two a field)
  let size = 0
  for (const field of fields) size += 4 + 2 * field.length
  const bytes = Buffer.allocUnsafe(size)
  let at = 0
  for (const field of fields) {
    at = bytes.writeUInt32BE(2 * field.length, at)
    at += bytes.write(field, at, 'utf16le')
  }
  return createHash('sha256').update(KEY_DOMAIN).update(bytes).digest('base64url')
}

export interface MemoryCacheOptions {
  /** Seconds an entry lives after it was written (TRANSLATION_CACHE_TTL); reading it does not extend it. Default: no expiry. */
  ttlSeconds?: number
  /** Characters held at most, keys and values (default 400 per entry). */
  maxChars?: number
  /** The clock in milliseconds (tests advance their own). */
  now?: () => number
}

interface Entry {
  value: string
  expires: number
}

/** An LRU bounded by entries and by characters held, whose entries expire. */
export class MemoryTranslationCache implements TranslationCache {
  private readonly entries = new Map<string, Entry>()
  private chars = 0
  private readonly maxChars: number
  private readonly ttlMs: number
  private readonly now: () => number

  constructor (private readonly maxEntries: number, options: MemoryCacheOptions = {}) {
    this.maxChars = options.maxChars ?? maxEntries * 400
    this.ttlMs = options.ttlSeconds === undefined ? Infinity : options.ttlSeconds * 1000
    this.now = options.now ?? (() => performance.now())
  }

  async getMany (keys: readonly CacheKey[]): Promise<Array<string | undefined>> {
    const now = this.now()
    return keys.map(k => {
      const id = cacheKeyString(k)
      const entry = this.entries.get(id)
      if (entry === undefined) return undefined
      this.remove(id, entry)
      if (entry.expires <= now) return undefined
      // back in as the most recent, with the lifetime it was written with
      this.entries.set(id, entry)
      this.chars += id.length + entry.value.length
      return entry.value
    })
  }

  async setMany (entries: ReadonlyArray<{ key: CacheKey, value: string }>): Promise<void> {
    if (this.maxEntries === 0) return
    const expires = this.now() + this.ttlMs
    for (const { key, value } of entries) {
      const id = cacheKeyString(key)
      const old = this.entries.get(id)
      if (old !== undefined) this.remove(id, old)
      this.entries.set(id, { value, expires })
      this.chars += id.length + value.length
    }
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break
      this.remove(id, entry)
    }
  }

  private remove (id: string, entry: Entry): void {
    this.entries.delete(id)
    this.chars -= id.length + entry.value.length
  }
}

/** `cache` with every key owned by `owner()`: whose the work at hand is, asked on each call. */
export function ownedCache (cache: TranslationCache, owner: () => string): TranslationCache {
  return {
    getMany: async keys => {
      const of = owner()
      return await cache.getMany(keys.map(key => ({ ...key, owner: of })))
    },
    setMany: async entries => {
      const of = owner()
      await cache.setMany(entries.map(({ key, value }) => ({ key: { ...key, owner: of }, value })))
    }
  }
}
