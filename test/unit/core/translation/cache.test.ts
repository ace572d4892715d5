/**
 * The segment cache's keys and lifetime: no text a client sends can take the key of another
 * segment (issue 24, finding 1), and entries expire in the process as they do in Redis.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { cacheKeyString, MemoryTranslationCache, type CacheKey } from '../../../../src/core/translation/cache.js'
import { redisCacheKey } from '../../../../src/redis/translation-cache.js'

const key = (segment: string, more: Partial<CacheKey> = {}): CacheKey => ({ service: 'apertium', from: 'en', to: 'es', variant: '\u0001', segment, ...more })

/** One sentence of 252 characters: long enough that the old keys hashed it. */
const LONG = 'The red car that my neighbour bought last year is parked in front of the big house at the end of our quiet street, ' +
  'and every morning he washes it carefully before driving to the office where he has worked for more than twenty long years now, all alone.'

describe('cache keys', () => {
  it('differ for a long segment and a short one spelling its old hashed key', async () => {
    expect(LONG).toHaveLength(252)
    const lookalike = '#' + createHash('sha256').update(LONG).digest('base64url')
    expect(cacheKeyString(key(lookalike))).not.toBe(cacheKeyString(key(LONG)))
    expect(redisCacheKey(key(lookalike))).not.toBe(redisCacheKey(key(LONG)))

    const cache = new MemoryTranslationCache(100)
    await cache.setMany([{ key: key(lookalike), value: 'poisoned' }])
    expect(await cache.getMany([key(LONG), key(lookalike)])).toEqual([undefined, 'poisoned'])
  })

  it('differ when text moves across a field boundary, and for a lone surrogate and U+FFFD', () => {
    const moved = [
      [key('c', { variant: 'a\u0001b' }), key('b\u0001c', { variant: 'a' })],
      [key('x', { from: 'en\u0001es', to: '' }), key('x', { from: 'en', to: 'es' })],
      [key('\ud800'), key('\ufffd')],
      [key(''), key('', { variant: '\u0001\u0001' })],
      // whose an entry is (issue 32, finding 9), its text moved into the segment or the variant included
      [key('x', { owner: 'a' }), key('x', { owner: 'b' })],
      [key('x', { owner: 'a' }), key('x')],
      [key('ax', { owner: '' }), key('x', { owner: 'a' })],
      [key('x', { variant: '\u0001a' }), key('x', { variant: '\u0001', owner: 'a' })]
    ]
    for (const [a, b] of moved) expect(cacheKeyString(a!), JSON.stringify(a)).not.toBe(cacheKeyString(b!))
  })

  it('hold no text of the segment and have one length whatever the segment', () => {
    const short = cacheKeyString(key('Hello'))
    expect(short).not.toContain('Hello')
    expect(cacheKeyString(key(LONG.repeat(10)))).toHaveLength(short.length)
    expect(cacheKeyString(key('Hello'))).toBe(short)
  })

  it('are under a new Redis prefix, so entries keyed the old way are never read', () => {
    expect(redisCacheKey(key('Hello')).startsWith('ls:tc:3:')).toBe(true)
  })
})

describe('MemoryTranslationCache expiry', () => {
  it('forgets an entry once its TTL has passed since it was written, read or not', async () => {
    let now = 1_000_000
    const cache = new MemoryTranslationCache(100, { ttlSeconds: 60, now: () => now })
    await cache.setMany([{ key: key('Good morning.'), value: 'Buenos días.' }])
    now += 59_000
    // reading keeps it recent for the LRU, but does not make it live longer
    expect(await cache.getMany([key('Good morning.')])).toEqual(['Buenos días.'])
    now += 1_000
    expect(await cache.getMany([key('Good morning.')])).toEqual([undefined])

    // written again: a fresh lifetime
    await cache.setMany([{ key: key('Good morning.'), value: 'Buenos días.' }])
    now += 30_000
    await cache.setMany([{ key: key('Good night.'), value: 'Buenas noches.' }])
    now += 30_000
    expect(await cache.getMany([key('Good morning.'), key('Good night.')])).toEqual([undefined, 'Buenas noches.'])
  })

  it('expires entries on the real clock by default', async () => {
    // 1 s is the shortest TTL Config allows; 1.2 s of real waiting keeps this robust on a busy machine
    const cache = new MemoryTranslationCache(100, { ttlSeconds: 1 })
    await cache.setMany([{ key: key('Soon gone.'), value: 'Pronto se va.' }])
    expect(await cache.getMany([key('Soon gone.')])).toEqual(['Pronto se va.'])
    await new Promise(resolve => setTimeout(resolve, 1200))
    expect(await cache.getMany([key('Soon gone.')])).toEqual([undefined])
  })
})
