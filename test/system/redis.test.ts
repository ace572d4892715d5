/**
 * REDIS_URL against a real redis-server (the Debian package) on a free loopback port: the shared
 * cache's own behaviour (sharing, size bound, TTL, a stalled Redis), then two service processes
 * sharing one rate limit and one translation cache, Redis killed mid-load, and Redis restarted.
 */
import { clientKey } from '../../src/lib/clients.js'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../bench/lib/net.js'
import { MemoryTranslationCache, type CacheKey } from '../../src/core/translation/cache.js'
import { createTokenService } from '../../src/http/auth/tokens.js'
import { createRedis, type SharedRedis } from '../../src/redis/connection.js'
import { RATE_LIMIT_PREFIX } from '../../src/redis/rate-limit-store.js'
import { COUNTER_PREFIX } from '../../src/redis/counters.js'
import { redisCacheKey, RedisTranslationCache, TRANSLATION_CACHE_PREFIX } from '../../src/redis/translation-cache.js'
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../fakes/libretranslate.js'
import { bearer, testApp, testConfig, tokenFor } from '../helpers/app.js'
import { startService, type RunningService } from '../helpers/service.js'

const installed = spawnSync('redis-server', ['--version']).status === 0
if (!installed) {
  process.stderr.write('test/system/redis.test.ts: SKIPPED, redis-server is not installed (apt-get install redis-server; scripts/debian-packages-test.txt lists it)\n')
}

/** The password Redis requires: it must never appear in the service's output. */
const PASSWORD = `pw-${randomUUID()}`
const LIMIT = 10
/** The DeepL-compatible API's key of one client. */
const DEEPL_KEY = 'redis-test-deepl-key-0123456789'
const TTL = 3600

/** A redis-server on 127.0.0.1:`port` that keeps nothing on disk; resolves once it answers PING. */
async function startRedis (port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
    '--dir', tmpdir(), '--requirepass', PASSWORD
  ], { stdio: 'ignore' })
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`)
    if (await pings(port)) return child
    await sleep(50)
  }
  child.kill('SIGKILL')
  throw new Error(`redis-server did not answer on port ${port}`)
}

/** True when something on `port` answers a Redis PING (with or without AUTH: NOAUTH counts). */
function pings (port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = connect(port, '127.0.0.1')
    socket.setTimeout(500, () => { socket.destroy(); resolve(false) })
    socket.once('error', () => resolve(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (data) => { socket.destroy(); resolve(/^(\+PONG|-NOAUTH)/.test(data.toString())) })
  })
}

async function stopProcess (child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise(resolve => child.once('exit', resolve))
  child.kill(signal)
  await exited
}

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

const key = (segment: string): CacheKey => ({ service: 'libretranslate', from: 'en', to: 'es', variant: '', segment })

describe('REDIS_URL and /ready (no redis-server needed)', () => {
  it('without REDIS_URL /ready says nothing about Redis', async () => {
    const app = await testApp()
    try {
      const res = await app.inject({ method: 'GET', url: '/ready' })
      expect(res.statusCode).toBe(200)
      expect(res.json()).not.toHaveProperty('redis')
    } finally {
      await app.close()
    }
  })

  it('with Redis unreachable from the start: 200s, /ready degraded with 200, per-process limits', async () => {
    const app = await testApp({ REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${await freePort()}`, RATE_LIMIT_MAX: '3' })
    try {
      const ready = await app.inject({ method: 'GET', url: '/ready' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toMatchObject({ status: 'ready', redis: 'degraded' })
      const headers = bearer(await tokenFor(app))
      const statuses: number[] = []
      for (let i = 0; i < 4; i++) statuses.push((await app.inject({ method: 'GET', url: '/language/locales', headers })).statusCode)
      expect(statuses).toEqual([200, 200, 200, 429])
    } finally {
      await app.close()
    }
  })
})

describe.skipIf(!installed)('Redis shared by replicas (real redis-server)', () => {
  let port: number
  let redisServer: ChildProcess | undefined
  let url: string
  const connections: SharedRedis[] = []
  const quiet = { info: () => {}, warn: () => {} }

  /** A connection of our own, as the service makes it. */
  async function connection (timeoutMs = 200): Promise<SharedRedis> {
    const redis = createRedis(url, { timeoutMs, log: quiet })
    connections.push(redis)
    await redis.connect()
    return redis
  }

  beforeAll(async () => {
    port = await freePort()
    url = `redis://:${PASSWORD}@127.0.0.1:${port}`
    redisServer = await startRedis(port)
  })

  afterAll(async () => {
    await Promise.all(connections.map(c => c.close()))
    await stopProcess(redisServer, 'SIGKILL')
  })

  describe('the translation cache', () => {
    it('shares entries through Redis under hashed keys with the TTL, and keeps large values local', async () => {
      const [one, two] = [await connection(), await connection()]
      expect(one.state()).toBe('ready')
      const first = new RedisTranslationCache(one, new MemoryTranslationCache(100), { ttlSeconds: TTL, maxValueBytes: 1000 })
      const second = new RedisTranslationCache(two, new MemoryTranslationCache(100), { ttlSeconds: TTL, maxValueBytes: 1000 })
      const segment = `Good morning ${randomUUID()}`
      const large = `Long ${randomUUID()}`
      await first.setMany([{ key: key(segment), value: 'Buenos días' }, { key: key(large), value: 'ñ'.repeat(600) }])

      // the other process finds the small one in Redis, not the one over the size bound (1,200 bytes of UTF-8)
      expect(await second.getMany([key(segment), key(large), key('never stored')])).toEqual(['Buenos días', undefined, undefined])
      expect(await first.getMany([key(large)])).toEqual(['ñ'.repeat(600)])

      const id = redisCacheKey(key(segment))
      expect(id.startsWith(TRANSLATION_CACHE_PREFIX)).toBe(true)
      expect(id).not.toContain('morning')
      const ttl = await one.client.ttl(id)
      expect(ttl).toBeGreaterThan(TTL - 10)
      expect(ttl).toBeLessThanOrEqual(TTL)
    })

    it('reads many keys in one batch, beyond one MGET chunk', async () => {
      const redis = await connection()
      const writer = new RedisTranslationCache(redis, new MemoryTranslationCache(0), { ttlSeconds: TTL })
      const reader = new RedisTranslationCache(redis, new MemoryTranslationCache(0), { ttlSeconds: TTL })
      const segments = Array.from({ length: 1200 }, (_, i) => `segment ${i} ${randomUUID()}`)
      await writer.setMany(segments.filter((_, i) => i % 3 === 0).map(s => ({ key: key(s), value: s.toUpperCase() })))
      const found = await reader.getMany(segments.map(key))
      expect(found).toEqual(segments.map((s, i) => i % 3 === 0 ? s.toUpperCase() : undefined))
    })

    it('a stalled Redis costs one timeout, then the process cache answers alone until Redis answers again', async () => {
      const redis = await connection(400)
      const local = new MemoryTranslationCache(100)
      const cache = new RedisTranslationCache(redis, local, { ttlSeconds: TTL })
      const known = `known ${randomUUID()}`
      await cache.setMany([{ key: key(known), value: 'conocido' }])
      const elsewhere = `elsewhere ${randomUUID()}`
      await new RedisTranslationCache(await connection(), new MemoryTranslationCache(10), { ttlSeconds: TTL })
        .setMany([{ key: key(elsewhere), value: 'en otra parte' }])

      redisServer!.kill('SIGSTOP')
      try {
        let started = performance.now()
        expect(await cache.getMany([key(known), key(elsewhere)])).toEqual(['conocido', undefined])
        const stalled = performance.now() - started
        expect(stalled).toBeGreaterThanOrEqual(390)
        expect(stalled).toBeLessThan(1200)
        expect(redis.state()).toBe('degraded')
        // degraded: no Redis call at all, so no timeout to wait for
        started = performance.now()
        await cache.setMany([{ key: key(`while stalled ${randomUUID()}`), value: 'x' }])
        expect(await cache.getMany([key(known), key(elsewhere)])).toEqual(['conocido', undefined])
        expect(performance.now() - started).toBeLessThan(200)
      } finally {
        redisServer!.kill('SIGCONT')
      }
      // the pause is over after a second: Redis is asked again (polled: a busy machine may take longer to say so)
      await sleep(1000)
      await expect.poll(() => redis.state(), { timeout: 5000, interval: 100 }).toBe('ready')
      expect(await cache.getMany([key(elsewhere)])).toEqual(['en otra parte'])
    })

    it('drops a connection that keeps timing out and makes it again', async () => {
      const redis = await connection(100)
      const cache = new RedisTranslationCache(redis, new MemoryTranslationCache(10), { ttlSeconds: TTL })
      redisServer!.kill('SIGSTOP')
      try {
        // three failures, each once the pause after the previous one is over
        for (let i = 0; i < 3; i++) {
          while (redis.state() !== 'ready') await sleep(50)
          await cache.getMany([key(`probe ${i}`)])
        }
        // the client gives up on the stalled socket and connects again (which waits for Redis)
        const dropped = Date.now() + 2000
        while (redis.client.status === 'ready' && Date.now() < dropped) await sleep(20)
        expect(redis.client.status).not.toBe('ready')
      } finally {
        redisServer!.kill('SIGCONT')
      }
      const deadline = Date.now() + 5000
      while (redis.state() !== 'ready' && Date.now() < deadline) await sleep(50)
      expect(redis.state()).toBe('ready')
    })
  })

  describe('two service instances', () => {
    let libre: FakeLibreTranslate
    let a: RunningService
    let b: RunningService
    // clients configured in both instances, each used by one check so that it starts with a fresh count
    // (the limit is per client; tokens of a client the service does not know are refused)
    const clients = Array.from({ length: 24 }, (_, i) => `client-${i}-${randomUUID().slice(0, 8)}`)
    let used = 0
    const freshClient = (): string => clients[used++]!
    const tokens = createTokenService(testConfig({ AUTH_CLIENTS: JSON.stringify(clients.map(id => ({ id, secret: 'redis-test-secret', scopes: ['access'] }))) }).auth)
    let admin: SharedRedis

    const translateCalls = (): Array<{ q: unknown }> => libre.calls.filter(c => c.path.startsWith('/translate')).map(c => c.body as { q: unknown })

    /** A token for a client (one of `clients`). */
    async function tokenOf (client: string): Promise<string> {
      return (await (await tokens).issue(client, ['access'])).token
    }

    async function call (service: RunningService, token: string, path: string, body: unknown): Promise<{ status: number, headers: Headers, json: Record<string, any> }> {
      const res = await fetch(service.base + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body)
      })
      return { status: res.status, headers: res.headers, json: await res.json() as Record<string, any> }
    }

    const detect = (service: RunningService, token: string): ReturnType<typeof call> =>
      call(service, token, '/language/detect', { document: { value: 'The weather is lovely today, is it not?' } })

    const translate = (service: RunningService, token: string, text: string): ReturnType<typeof call> =>
      call(service, token, '/language/translate', { document: { value: text }, source: 'en', targets: ['es'] })

    async function ready (service: RunningService): Promise<{ status: number, json: Record<string, any> }> {
      const res = await fetch(`${service.base}/ready`)
      return { status: res.status, json: await res.json() as Record<string, any> }
    }

    /** Polls both instances' /ready until Redis is `state` on both; the time it took. */
    async function untilRedis (state: 'ready' | 'degraded', timeoutMs = 15_000): Promise<number> {
      const started = Date.now()
      while (Date.now() - started < timeoutMs) {
        const answers = await Promise.all([ready(a), ready(b)])
        if (answers.every(r => r.status === 200 && r.json['redis'] === state)) return Date.now() - started
        await sleep(50)
      }
      throw new Error(`/ready did not say redis: ${state} on both instances within ${timeoutMs} ms`)
    }

    /** LIMIT requests alternating between the instances pass; the next one is refused with Retry-After. */
    async function expectSharedLimit (client: string): Promise<void> {
      const token = await tokenOf(client)
      const remaining: number[] = []
      for (let i = 0; i < LIMIT; i++) {
        const res = await detect(i % 2 === 0 ? a : b, token)
        expect(res.status, JSON.stringify(res.json)).toBe(200)
        remaining.push(Number(res.headers.get('ratelimit-remaining')))
      }
      // one count: what A allowed, B knew of, and the other way round
      expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i))
      const refused = await detect(LIMIT % 2 === 0 ? a : b, token)
      expect(refused.status).toBe(429)
      expect(refused.json['type']).toMatch(/rate-limited$/)
      const retryAfter = Number(refused.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      // and on the other instance too
      expect((await detect(LIMIT % 2 === 0 ? b : a, token)).status).toBe(429)
    }

    /** A text translated on `first` is a cache hit on `second`: the engine is called once. */
    async function expectSharedCache (first: RunningService, second: RunningService): Promise<void> {
      const token = await tokenOf(freshClient())
      const text = `The shared cache remembers ${randomUUID()}.`
      const before = translateCalls().length
      const one = await translate(first, token, text)
      expect(one.status, JSON.stringify(one.json)).toBe(200)
      expect(one.json['results']['es']['value']).toBe(text.toUpperCase())
      expect(translateCalls().length).toBe(before + 1)
      expect(JSON.stringify(translateCalls().at(-1)!.q)).toContain(text)
      const two = await translate(second, token, text)
      expect(two.status).toBe(200)
      expect(two.json['results']['es']['value']).toBe(text.toUpperCase())
      expect(translateCalls().length).toBe(before + 1)
    }

    /** The settings both instances start with (a third, started later, plays one restarted). */
    let env: Record<string, string>

    beforeAll(async () => {
      libre = await startFakeLibreTranslate()
      env = {
        REDIS_URL: url,
        REDIS_TIMEOUT_MS: '200',
        RATE_LIMIT_MAX: String(LIMIT),
        TRANSLATION_CACHE_TTL: String(TTL),
        TRANSLATION_SERVICES: 'libretranslate',
        LIBRETRANSLATE_URL: libre.url,
        AUTH_CLIENTS: JSON.stringify([...clients.map(id => ({ id, secret: 'redis-test-secret', scopes: ['access'] })), { id: 'deepl-quota', api_keys: [DEEPL_KEY] }]),
        COMPAT_DEEPL_CHARACTER_LIMIT: '100',
        // one process per instance: "per process" is then "per instance"
        WORKERS: '1'
      }
      ;[a, b] = await Promise.all([startService(env), startService(env)])
      admin = await connection()
      await untilRedis('ready')
    }, 120_000)

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()])
      await libre?.close()
    })

    it('/ready reports Redis ready (200)', async () => {
      for (const service of [a, b]) {
        const res = await ready(service)
        expect(res.status).toBe(200)
        expect(res.json).toMatchObject({ status: 'ready', redis: 'ready' })
      }
    })

    it('enforce one rate limit per client, counted in Redis', async () => {
      const client = freshClient()
      await expectSharedLimit(client)
      // counted by the token's issuer and subject (this service's own tokens)
      expect(Number(await admin.client.get(`${RATE_LIMIT_PREFIX}client:${clientKey('language-service', client)}`))).toBe(LIMIT + 2)
    })

    it('share the translation cache (a translation made on one is a hit on the other)', async () => {
      await expectSharedCache(a, b)
      await expectSharedCache(b, a)
    })

    it('hold one DeepL-compatible quota per client, counted in Redis: for both instances, and across a restart (issue 32, finding 7)', async () => {
      const deepl = async (service: RunningService, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number, json: Record<string, any> }> => {
        const res = await fetch(`${service.base}/deepl${path}`, {
          method,
          headers: { authorization: `DeepL-Auth-Key ${DEEPL_KEY}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        return { status: res.status, json: await res.json() as Record<string, any> }
      }
      const text = 'The red car is very fast and very nice.!'
      expect(text).toHaveLength(40)
      // 6 at once (with the usage calls below, the 10 requests RATE_LIMIT_MAX leaves the client): 240 characters against 100
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => deepl(i % 2 === 0 ? a : b, 'POST', '/v2/translate', { text, source_lang: 'EN', target_lang: 'ES' })))
      const statuses = answers.map(r => r.status)
      expect(statuses.filter(s => s === 200), statuses.join(', ')).toHaveLength(2)
      expect(statuses.filter(s => s === 456), statuses.join(', ')).toHaveLength(4)
      for (const service of [a, b]) expect((await deepl(service, 'GET', '/v2/usage')).json).toEqual({ character_count: 80, character_limit: 100 })
      const [key, ...others] = await admin.client.keys(`${COUNTER_PREFIX}deepl-characters:*`)
      expect(others).toEqual([])
      expect(key).toContain(clientKey('language-service', 'deepl-quota'))
      expect(Number(await admin.client.get(key!))).toBe(80)
      // a new instance (as one restarted) knows the count
      const restarted = await startService(env)
      try {
        expect((await deepl(restarted, 'GET', '/v2/usage')).json).toEqual({ character_count: 80, character_limit: 100 })
        expect((await deepl(restarted, 'POST', '/v2/translate', { text, source_lang: 'EN', target_lang: 'ES' })).status).toBe(456)
      } finally {
        await restarted.stop()
      }
    }, 60_000)

    it('keep answering when Redis is killed mid-load, with per-process limits and no shared cache', async () => {
      // 6 clients x 8 requests: under the limit whether counted in Redis or per process
      const loadTokens = await Promise.all(Array.from({ length: 6 }, () => tokenOf(freshClient())))
      let done = 0
      let killedAt = 0
      const third = Promise.withResolvers<void>()
      const answers: Array<{ status: number, started: number, ended: number, body: string }> = []
      const load = loadTokens.map(async (token, c) => {
        for (let i = 0; i < 8; i++) {
          const service = (i + c) % 2 === 0 ? a : b
          const started = performance.now()
          const res = i % 2 === 0 ? await detect(service, token) : await translate(service, token, `Load ${c} ${i} ${randomUUID()}.`)
          answers.push({ status: res.status, started, ended: performance.now(), body: JSON.stringify(res.json).slice(0, 300) })
          if (++done === 16) third.resolve()
          await sleep(20)
        }
      })
      await third.promise
      killedAt = performance.now()
      await stopProcess(redisServer, 'SIGKILL')
      await Promise.all(load)

      expect(answers).toHaveLength(48)
      expect(answers.filter(r => r.status !== 200)).toEqual([])
      // the kill did land mid-load: requests before it, in flight across it, and after it
      expect(answers.filter(r => r.ended < killedAt).length).toBeGreaterThan(0)
      expect(answers.filter(r => r.started < killedAt && r.ended > killedAt).length + answers.filter(r => r.started > killedAt).length).toBeGreaterThan(10)

      await untilRedis('degraded', 5000)
      for (const service of [a, b]) expect((await ready(service)).json).toMatchObject({ status: 'ready', redis: 'degraded' })

      // limits still hold, each instance counting for itself
      const token = await tokenOf(freshClient())
      for (const service of [a, b]) {
        for (let i = 0; i < LIMIT; i++) {
          const res = await detect(service, token)
          expect(res.status, JSON.stringify(res.json)).toBe(200)
          expect(Number(res.headers.get('ratelimit-remaining'))).toBe(LIMIT - 1 - i)
        }
        const refused = await detect(service, token)
        expect(refused.status).toBe(429)
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      }

      // each instance translates for itself (its own cache still answers its repeats)
      const text = `Nobody shares this ${randomUUID()}.`
      const translator = await tokenOf(freshClient())
      const before = translateCalls().length
      for (const service of [a, b, a, b]) {
        const res = await translate(service, translator, text)
        expect(res.status).toBe(200)
        expect(res.json['results']['es']['value']).toBe(text.toUpperCase())
      }
      expect(translateCalls().length).toBe(before + 2)

      // the password in REDIS_URL is in no log line, though the lost connection was logged
      for (const service of [a, b]) {
        expect(service.output()).toContain(`redis://127.0.0.1:${port}`)
        expect(service.output()).not.toContain(PASSWORD)
      }
    })

    it('reconnect by themselves when Redis returns on the same port: shared limit and cache again', async () => {
      redisServer = await startRedis(port)
      const took = await untilRedis('ready')
      // reconnection backoff is at most 2 s
      expect(took).toBeLessThan(5000)
      await expectSharedLimit(freshClient())
      await expectSharedCache(a, b)
    })
  })
})
