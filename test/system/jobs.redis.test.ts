/**
 * Document jobs with REDIS_URL, against a real redis-server (the Debian package) and two service
 * processes sharing it (each with its own DATA_DIR, so nothing but Redis is shared): a job posted to
 * one is answered by the other, its death loses no job (the other takes it once its lock lapses),
 * and a cancel sent to either stops it. The LibreTranslate fake is the engine, slow enough for a
 * job to last.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Queue } from 'bullmq'
import { Redis } from 'ioredis'
import { RedisJobs } from '../../src/jobs/redis.js'
import { freePort } from '../../bench/lib/net.js'
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../fakes/libretranslate.js'
import { startService, type RunningService } from '../helpers/service.js'
import { bearer, testApp, tokenFor } from '../helpers/app.js'
import { holdJobs } from '../helpers/held-jobs.js'

const installed = spawnSync('redis-server', ['--version']).status === 0
if (!installed) process.stderr.write('test/system/jobs.redis.test.ts: SKIPPED, redis-server is not installed\n')

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

/** True when something on `port` answers a Redis PING. */
function pings (port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = connect(port, '127.0.0.1')
    socket.setTimeout(500, () => { socket.destroy(); resolve(false) })
    socket.once('error', () => resolve(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', data => { socket.destroy(); resolve(data.toString().startsWith('+PONG')) })
  })
}

describe('jobs with REDIS_URL and Redis away (no redis-server needed)', () => {
  it('a job is refused with 503 at once, and the service still closes', async () => {
    const app = await testApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` })
    try {
      const started = Date.now()
      // a request this app (no engines) takes, so that what refuses it is the job queue (it is checked first)
      const res = await app.inject({ method: 'POST', url: '/language/translate/jobs', headers: bearer(await tokenFor(app)), payload: { document: { value: 'Hello' }, source: 'en', targets: ['en'] } })
      expect(res.statusCode, res.body).toBe(503)
      expect(res.json().detail).toMatch(/REDIS_URL/)
      expect(Date.now() - started).toBeLessThan(10_000)
    } finally {
      await app.close()
    }
  })
})

describe.skipIf(!installed)('jobs on Redis, two replicas', () => {
  let redis: ChildProcess
  let redisUrl: string
  let libre: FakeLibreTranslate
  const services: RunningService[] = []
  beforeAll(async () => {
    const port = await freePort()
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir()], { stdio: 'ignore' })
    const deadline = Date.now() + 10_000
    while (!await pings(port)) {
      if (Date.now() > deadline) throw new Error('redis-server did not answer')
      await sleep(50)
    }
    redisUrl = `redis://127.0.0.1:${port}`
    libre = await startFakeLibreTranslate()
  })
  afterEach(async () => { await Promise.all(services.splice(0).map(async s => { await s.stop() })) })
  afterAll(async () => {
    await libre?.close()
    redis?.kill('SIGKILL')
  })

  async function start (env: Record<string, string> = {}): Promise<RunningService> {
    const service = await startService({ REDIS_URL: redisUrl, LIBRETRANSLATE_URL: libre.url, LIBRETRANSLATE_API_KEY: libre.key, TRANSLATION_SERVICES: 'libretranslate', RATE_LIMIT_MAX: '100000', ...env })
    services.push(service)
    return service
  }

  async function job (service: RunningService, id: string): Promise<{ status: number, json: Record<string, any> }> {
    const res = await fetch(`${service.base}/language/translate/jobs/${id}`, { headers: { authorization: `Bearer ${service.token}` } })
    return { status: res.status, json: await res.json() as Record<string, any> }
  }

  async function until (service: RunningService, id: string, ok: (s: Record<string, any>) => boolean, ms = 60_000): Promise<Record<string, any>> {
    const end = Date.now() + ms
    for (;;) {
      const { status, json } = await job(service, id)
      expect(status, JSON.stringify(json)).toBe(200)
      if (ok(json)) return json
      if (Date.now() > end) throw new Error(`job ${id}: ${JSON.stringify({ ...json, result: undefined })}\n${service.output().slice(-2000)}`)
      await sleep(200)
    }
  }

  const book = (n: number): string => Array.from({ length: n }, (_, i) => `Line ${i} of a long book.`).join('\n')

  it('a job posted to one replica is answered by the other, and survives the death of the one working it', async () => {
    libre.latencyMs = 600
    const first = await start()
    const value = book(3000)
    const posted = await first.post('/language/translate/jobs', { document: { value }, source: 'en', targets: ['es'], options: { cache: false } })
    expect(posted.status).toBe(202)
    const id = posted.json['id'] as string
    await until(first, id, s => s['status'] === 'running' && s['progress'].done > 0)
    const second = await start()
    const seen = await until(second, id, s => s['status'] === 'running')
    expect(seen['progress'].total).toBe(3000)
    first.child.kill('SIGKILL')
    await first.exited
    libre.latencyMs = 5
    // the second takes it once the first's lock lapses (10 s) and the stalled check runs
    const done = await until(second, id, s => s['status'] === 'done' || s['status'] === 'failed', 90_000)
    expect(done['status'], JSON.stringify(done['error'])).toBe('done')
    expect(done['result'].results.es.value).toBe(value.toUpperCase())
  }, 150_000)

  it('a cancel sent to the other replica stops the job', async () => {
    libre.latencyMs = 600
    const first = await start()
    const posted = await first.post('/language/translate/jobs', { document: { value: book(3000) }, source: 'en', targets: ['es'], options: { cache: false } })
    const id = posted.json['id'] as string
    await until(first, id, s => s['status'] === 'running')
    const second = await start()
    const cancel = await fetch(`${second.base}/language/translate/jobs/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${second.token}` } })
    expect(cancel.status).toBe(204)
    expect((await job(first, id)).json['status']).toBe('cancelled')
    await sleep(3000)
    const before = libre.calls.length
    await sleep(1000)
    expect(libre.calls.length).toBe(before)
    const after = await job(second, id)
    expect(after.json['status']).toBe('cancelled')
    expect(after.json['result']).toBeUndefined()
  }, 120_000)

  it('a client\'s jobs keep at most JOB_STORAGE_PER_CLIENT bytes, finished ones too: 429 past it, a result past it fails the job, a delete frees its share', async () => {
    libre.latencyMs = 5
    const body = { document: { value: book(300) }, source: 'en', targets: ['es'], options: { cache: false } }
    const request = JSON.stringify(body).length
    // a client of its own: the other tests' jobs stay in Redis until they expire
    const client = { id: `storage-${randomUUID()}`, secret: 'storage-test-secret' }
    // room for two requests and one result (which echoes its request, twice the request or so): the first job is done, the second fails
    const service = await start({ JOB_STORAGE_PER_CLIENT: String(Math.round(4.5 * request)), AUTH_CLIENTS: JSON.stringify([{ ...client, scopes: ['access'] }]) })
    const issued = await fetch(`${service.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret }) })
    const headers = { authorization: `Bearer ${(await issued.json() as { access_token: string }).access_token}` }
    const call = async (method: string, path: string, payload?: unknown): Promise<{ status: number, headers: Headers, json: Record<string, any> }> => {
      const res = await fetch(`${service.base}/language/translate/jobs${path}`, { method, ...(payload === undefined ? { headers } : { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(payload) }) })
      return { status: res.status, headers: res.headers, json: res.status === 204 ? {} : await res.json() as Record<string, any> }
    }
    const finished = async (id: string): Promise<Record<string, any>> => {
      for (let i = 0; i < 300; i++) {
        const { json } = await call('GET', `/${id}`)
        if (json['status'] === 'done' || json['status'] === 'failed') return json
        await sleep(100)
      }
      throw new Error(`job ${id} did not finish`)
    }
    const first = await call('POST', '', body)
    expect(first.status, JSON.stringify(first.json)).toBe(202)
    expect((await finished(first.json['id'] as string))['status']).toBe('done')
    const second = await call('POST', '', body)
    expect(second.status, JSON.stringify(second.json)).toBe(202)
    const failed = await finished(second.json['id'] as string)
    expect(failed['status']).toBe('failed')
    expect(failed['error'].type).toBe('/problems/job-storage-full')
    expect(failed['result']).toBeUndefined()
    const refused = await call('POST', '', body)
    expect(refused.status, JSON.stringify(refused.json)).toBe(429)
    expect(refused.json['type']).toBe('/problems/job-storage-full')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // deleting the finished job frees its request and result
    expect((await call('DELETE', `/${first.json['id'] as string}`)).status).toBe(204)
    const again = await call('POST', '', body)
    expect(again.status, JSON.stringify(again.json)).toBe(202)
  }, 120_000)

  it('jobs posted at once to both replicas: never more than JOB_MAX_PER_CLIENT taken', async () => {
    libre.latencyMs = 600
    const replicas = await Promise.all([start({ JOB_MAX_PER_CLIENT: '3' }), start({ JOB_MAX_PER_CLIENT: '3' })])
    const body = { document: { value: book(3000) }, source: 'en', targets: ['es'], options: { cache: false } }
    const answers = await Promise.all(Array.from({ length: 16 }, async (_, i) => await replicas[i % 2]!.post('/language/translate/jobs', body)))
    // 503: the client's lock was held too long on a busy machine (try again); never a 5xx of another kind
    expect(answers.map(a => a.status).filter(s => s !== 202 && s !== 429 && s !== 503)).toEqual([])
    const taken = answers.filter(a => a.status === 202).map(a => a.json['id'] as string)
    expect(taken.length).toBeGreaterThanOrEqual(1)
    expect(taken.length).toBeLessThanOrEqual(3)
    for (const id of taken) {
      const cancel = await fetch(`${replicas[0]!.base}/language/translate/jobs/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${replicas[0]!.token}` } })
      expect(cancel.status).toBe(204)
    }
  }, 120_000)

  it('one client holds at most all of a replica\'s slots but one: another client\'s job starts at once, the first one\'s next when one of its own ends', async () => {
    // alone on this Redis: no job of the tests before is taken by this replica
    const admin = new Redis(redisUrl)
    await admin.flushall()
    admin.disconnect()
    const jobs = new RedisJobs({ redisUrl, dataDir: tmpdir(), ttlSeconds: 3600, perClient: 10, storagePerClient: 1024 * 1024, concurrency: 3, timeoutMs: 3_600_000, log: { warn: () => {} } })
    const queue = new Queue('document-jobs', { connection: { url: redisUrl } })
    // a job's request is its name; it runs until the test ends it
    const { started, end, endAll, until } = holdJobs(jobs)
    const within = async (done: () => boolean | Promise<boolean>): Promise<void> => { await until(done, 20_000) }
    await jobs.start()
    try {
      // its connections take a moment: a post before answers 503
      await within(async () => await jobs.submit('b', 'b1').then(() => true, () => false))
      for (const name of ['b2', 'b3']) await jobs.submit('b', name)
      // two run, the third is put back while they do
      await within(async () => started.length === 2 && await queue.getDelayedCount() > 0)
      expect(started.every(name => name.startsWith('b'))).toBe(true)
      await jobs.submit('a', 'a1')
      await within(() => started.includes('a1'))
      expect(started.filter(name => name.startsWith('b'))).toHaveLength(2)
      end(started[0]!)
      await within(() => started.length === 4)
      expect(started.filter(name => name.startsWith('b'))).toHaveLength(3)
    } finally {
      endAll()
      await jobs.close()
      await queue.close()
    }
  }, 60_000)

  it('a job cancelled twice before a replica takes it stays until one ends it: its end is recorded and told once (a DeepL document\'s refund); then a DELETE removes it', async () => {
    const admin = new Redis(redisUrl)
    await admin.flushall()
    admin.disconnect()
    const jobs = new RedisJobs({ redisUrl, dataDir: tmpdir(), ttlSeconds: 3600, perClient: 10, storagePerClient: 1024 * 1024, concurrency: 2, timeoutMs: 3_600_000, log: { warn: () => {} } })
    const { started, endAll, until } = holdJobs(jobs)
    const ends: Array<{ status: string, meta?: Record<string, string> }> = []
    jobs.onFinish((status, _seconds, { meta }) => { ends.push({ status, ...(meta === undefined ? {} : { meta }) }) })
    try {
      // no worker yet: the job waits, as behind other clients' jobs
      let id = ''
      await until(async () => await jobs.submit('c', 'long', { billed: '95000' }).then(state => { id = state.id; return true }, () => false), 20_000)
      expect(await jobs.cancel('c', id)).toBe(true)
      expect(await jobs.cancel('c', id)).toBe(true)
      expect((await jobs.get('c', id))?.state.status).toBe('cancelled')
      await jobs.start()
      await until(() => ends.length > 0, 20_000)
      expect(ends).toEqual([{ status: 'cancelled', meta: { billed: '95000' } }])
      expect(started).toEqual([])
      const ended = (await jobs.get('c', id))?.state
      expect(ended?.status).toBe('cancelled')
      expect(ended?.finished).toBeDefined()
      expect(await jobs.cancel('c', id)).toBe(true)
      expect(await jobs.get('c', id)).toBeUndefined()
    } finally {
      endAll()
      await jobs.close()
    }
  }, 60_000)

  it('a job cancelled while waiting stays cancelled past JOB_TTL and never runs; meanwhile it no longer counts toward JOB_MAX_PER_CLIENT (as on disk)', async () => {
    const admin = new Redis(redisUrl)
    await admin.flushall()
    admin.disconnect()
    // a probe's cancel lapsed after JOB_TTL (3 s) and the job, still waiting, ran
    const jobs = new RedisJobs({ redisUrl, dataDir: tmpdir(), ttlSeconds: 1, perClient: 2, storagePerClient: 1024 * 1024, concurrency: 2, timeoutMs: 3_600_000, log: { warn: () => {} } })
    const { started, endAll, until } = holdJobs(jobs)
    const ends: string[] = []
    jobs.onFinish(status => { ends.push(status) })
    try {
      // no worker yet: both wait
      let first = ''
      await until(async () => await jobs.submit('c', 'first').then(state => { first = state.id; return true }, () => false), 20_000)
      const { id } = await jobs.submit('c', 'cancelled')
      expect(await jobs.cancel('c', id)).toBe(true)
      // the client's second job may be posted: the cancelled one reads cancelled, not queued
      await jobs.submit('c', 'second')
      await sleep(2500)
      expect((await jobs.get('c', id))?.state.status).toBe('cancelled')
      await jobs.start()
      await until(() => ends.includes('cancelled'), 20_000)
      await until(() => started.length === 1, 20_000)
      expect(started).not.toContain('cancelled')
      expect((await jobs.get('c', first))?.state.status).not.toBe('cancelled')
    } finally {
      endAll()
      await jobs.close()
    }
  }, 60_000)

  it('a job cancelled through another replica as its work ends ends cancelled, not done', async () => {
    const admin = new Redis(redisUrl)
    await admin.flushall()
    admin.disconnect()
    const options = { redisUrl, dataDir: tmpdir(), ttlSeconds: 3600, perClient: 10, storagePerClient: 1024 * 1024, concurrency: 2, timeoutMs: 3_600_000, log: { warn: () => {} } }
    const working = new RedisJobs(options)
    // never started: it only answers, as a replica the cancel reaches
    const other = new RedisJobs(options)
    const { started, end, endAll, until } = holdJobs(working)
    const ends: string[] = []
    working.onFinish(status => { ends.push(status) })
    await working.start()
    try {
      let id = ''
      await until(async () => await other.submit('c', 'long').then(state => { id = state.id; return true }, () => false), 20_000)
      await until(() => started.includes('long'), 20_000)
      expect(await other.cancel('c', id)).toBe(true)
      end('long')
      await until(() => ends.length > 0, 20_000)
      expect(ends).toEqual(['cancelled'])
      const found = await other.get('c', id)
      expect(found?.state.status).toBe('cancelled')
      expect(found?.result).toBeUndefined()
    } finally {
      endAll()
      await working.close()
      await other.close()
    }
  }, 60_000)
})
