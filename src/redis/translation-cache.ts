/**
 * The segment translation cache shared by every replica: Redis (MGET, pipelined SET ... EX) behind
 * the process's own cache, which answers first and stands in alone while Redis is down or slow.
 */
import { cacheKeyString, type CacheKey, type TranslationCache } from '../core/translation/cache.js'
import type { SharedRedis } from './connection.js'

/** Prefix of the cache's keys in Redis (the version changes with the key format). */
export const TRANSLATION_CACHE_PREFIX = 'ls:tc:3:'
/** Translations longer than this (UTF-8 bytes) stay in the process's cache only. */
export const MAX_SHARED_VALUE_BYTES = 64 * 1024
/** Keys per MGET, so one huge request is several moderate commands, not one slow one. */
const MGET_CHUNK = 500

/** The Redis key of a cache entry: fixed length, and no text of the segment in it (cacheKeyString is a hash of every field). */
export function redisCacheKey (key: CacheKey): string {
  return TRANSLATION_CACHE_PREFIX + cacheKeyString(key)
}

export interface RedisCacheOptions {
  /** Seconds an entry lives in Redis (TRANSLATION_CACHE_TTL). */
  ttlSeconds: number
  maxValueBytes?: number
}

export class RedisTranslationCache implements TranslationCache {
  private readonly maxValueBytes: number

  constructor (private readonly redis: SharedRedis, private readonly local: TranslationCache, private readonly options: RedisCacheOptions) {
    this.maxValueBytes = options.maxValueBytes ?? MAX_SHARED_VALUE_BYTES
  }

  async getMany (keys: readonly CacheKey[]): Promise<Array<string | undefined>> {
    const found = await this.local.getMany(keys)
    if (this.redis.state() !== 'ready') return found
    const missing: number[] = []
    found.forEach((value, i) => { if (value === undefined) missing.push(i) })
    if (missing.length === 0) return found
    let values: Array<string | null>
    try {
      values = await this.mget(missing.map(i => redisCacheKey(keys[i]!)))
    } catch (err) {
      this.redis.failed(err)
      return found
    }
    const hits: Array<{ key: CacheKey, value: string }> = []
    values.forEach((value, j) => {
      if (value === null) return
      const i = missing[j]!
      found[i] = value
      hits.push({ key: keys[i]!, value })
    })
    if (hits.length > 0) await this.local.setMany(hits)
    return found
  }

  async setMany (entries: ReadonlyArray<{ key: CacheKey, value: string }>): Promise<void> {
    await this.local.setMany(entries)
    if (this.redis.state() !== 'ready') return
    const pipeline = this.redis.client.pipeline()
    for (const { key, value } of entries) {
      // a UTF-8 character is at most 3 bytes per UTF-16 unit: count bytes only when it could matter
      if (value.length * 3 > this.maxValueBytes && Buffer.byteLength(value) > this.maxValueBytes) continue
      pipeline.set(redisCacheKey(key), value, 'EX', this.options.ttlSeconds)
    }
    if (pipeline.length === 0) return
    try {
      const results = await pipeline.exec()
      const error = results?.find(([err]) => err !== null)?.[0]
      if (error) throw error
    } catch (err) {
      this.redis.failed(err)
    }
  }

  /** MGET in chunks (one round trip: the chunks go in one pipeline). */
  private async mget (ids: string[]): Promise<Array<string | null>> {
    const client = this.redis.client
    if (ids.length <= MGET_CHUNK) return await client.mget(ids)
    const pipeline = client.pipeline()
    for (let i = 0; i < ids.length; i += MGET_CHUNK) pipeline.mget(ids.slice(i, i + MGET_CHUNK))
    const results = (await pipeline.exec()) ?? []
    return results.flatMap(([err, values]) => {
      if (err) throw err
      return values as Array<string | null>
    })
  }
}
