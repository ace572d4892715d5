/**
 * The DeepL-compatible API's quota (COMPAT_DEEPL_CHARACTER_LIMIT) under requests at the same time,
 * over real HTTP (issue 32, finding 7): each request's characters are reserved before it is
 * translated and given back when it fails. Across WORKERS: test/system/workers.test.ts; across
 * replicas with Redis: test/system/redis.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { testApp } from '../../../helpers/app.js'

const KEY = 'deepl-usage-key-0123456789'
const OTHER_KEY = 'deepl-usage-other-key-0123456789'
/** 40 characters: 20 of them are 800 against a limit of 210. */
const TEXT = 'The red car is very fast and very nice.!'

describe('COMPAT_DEEPL_CHARACTER_LIMIT with requests at the same time', () => {
  let app: FastifyInstance
  let base: string
  beforeAll(async () => {
    app = await testApp({
      AUTH_CLIENTS: JSON.stringify([{ id: 'deepl-usage', api_keys: [KEY] }, { id: 'deepl-other', api_keys: [OTHER_KEY] }]),
      COMPAT_DEEPL_CHARACTER_LIMIT: '210',
      MAX_TEXT_CHARS: '100',
      RATE_LIMIT_MAX: '100000'
    }, { engines: true })
    base = await app.listen({ port: 0, host: '127.0.0.1' })
  }, 60_000)
  afterAll(async () => { await app?.close() })

  const translate = async (key: string, text: string): Promise<number> => (await fetch(`${base}/deepl/v2/translate`, {
    method: 'POST',
    headers: { authorization: `DeepL-Auth-Key ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text, source_lang: 'EN', target_lang: 'ES' })
  })).status
  const usage = async (key: string): Promise<{ character_count: number, character_limit: number }> =>
    await (await fetch(`${base}/deepl/v2/usage`, { headers: { authorization: `DeepL-Auth-Key ${key}` } })).json() as { character_count: number, character_limit: number }

  it('20 requests of 40 characters at once against a limit of 210: five are translated, the rest 456, the usage 200', async () => {
    expect(TEXT).toHaveLength(40)
    const statuses = await Promise.all(Array.from({ length: 20 }, () => translate(KEY, TEXT)))
    // checked before and added after, all 20 passed and the usage reached 800
    expect(statuses.filter(s => s === 200), statuses.join(', ')).toHaveLength(5)
    expect(statuses.filter(s => s === 456), statuses.join(', ')).toHaveLength(15)
    expect(await usage(KEY)).toEqual({ character_count: 200, character_limit: 210 })
    // what is left (10) still serves a request that fits
    expect(await translate(KEY, 'The house.')).toBe(200)
    expect((await usage(KEY)).character_count).toBe(210)
    // another client's quota is its own
    expect((await usage(OTHER_KEY)).character_count).toBe(0)
  })

  it('gives the characters of a request that failed back: a text over MAX_TEXT_CHARS is refused and not counted', async () => {
    const long = 'The house is big. '.repeat(7)
    expect(long.length).toBeGreaterThan(100)
    const status = await translate(OTHER_KEY, long)
    expect(status).toBeGreaterThanOrEqual(400)
    expect(status).not.toBe(456)
    expect((await usage(OTHER_KEY)).character_count).toBe(0)
    const fits = await Promise.all(Array.from({ length: 7 }, () => translate(OTHER_KEY, TEXT)))
    expect(fits.sort()).toEqual([200, 200, 200, 200, 200, 456, 456])
    expect((await usage(OTHER_KEY)).character_count).toBe(200)
  })
})
