/**
 * Document jobs over HTTP (app.inject), with the LibreTranslate fake as the engine (its latency
 * makes a job last): the lifecycle and its result (the answer POST /language/translate gives), honest
 * progress, who sees a job, cancelling, expiry, the per-client limit and turns between clients.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createLibreTranslate } from '../../../src/providers/libretranslate/translator.js'
import { emptyRegistry } from '../../../src/registry.js'
import { TooManyJobsError } from '../../../src/jobs/queue.js'
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../../fakes/libretranslate.js'
import { bearer, CLIENT, testApp, tokenFor } from '../../helpers/app.js'

const OTHER = { id: 'other-client', secret: 'other-client-secret' }

let libre: FakeLibreTranslate
const dirs: string[] = []
const apps: FastifyInstance[] = []
beforeAll(async () => { libre = await startFakeLibreTranslate() })
afterAll(async () => {
  await libre?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
afterEach(async () => {
  libre.latencyMs = 0
  await Promise.all(apps.splice(0).map(async app => { await app.close() }))
})

/** An app whose one translator is the fake, its jobs in a new DATA_DIR; tokens of two clients. */
async function jobsApp (env: Record<string, string> = {}, dataDir = mkdtempSync(join(tmpdir(), 'jobs-'))): Promise<{ app: FastifyInstance, dataDir: string, mine: string, other: string }> {
  dirs.push(dataDir)
  const translator = createLibreTranslate({ url: libre.url, apiKey: libre.key, remote: { timeoutMs: 10_000 } })
  const app = await testApp({
    AUTH_CLIENTS: JSON.stringify([
      { id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'] },
      { id: OTHER.id, secret: OTHER.secret, scopes: ['access'] }
    ]),
    DATA_DIR: dataDir,
    ...env
  }, { registry: { ...emptyRegistry(), translators: [translator] } })
  apps.push(app)
  return { app, dataDir, mine: await tokenFor(app, CLIENT), other: await tokenFor(app, OTHER) }
}

async function submit (app: FastifyInstance, token: string, body: unknown): Promise<{ id: string, status: string, location: string }> {
  const res = await app.inject({ method: 'POST', url: '/language/translate/jobs', headers: bearer(token), payload: body as object })
  expect(res.statusCode, res.body).toBe(202)
  const job = res.json()
  expect(res.headers.location).toBe(`/language/translate/jobs/${job.id}`)
  return { ...job, location: res.headers.location as string }
}

async function status (app: FastifyInstance, token: string, id: string): Promise<{ statusCode: number, json: Record<string, any> }> {
  const res = await app.inject({ method: 'GET', url: `/language/translate/jobs/${id}`, headers: bearer(token) })
  return { statusCode: res.statusCode, json: res.statusCode === 200 || res.statusCode === 404 ? res.json() : { body: res.body } }
}

/** Polls until the job's status is one of `statuses` (every state seen on the way is kept). */
async function until (app: FastifyInstance, token: string, id: string, statuses: string[], seen: Array<Record<string, any>> = [], ms = 20_000): Promise<Record<string, any>> {
  const end = Date.now() + ms
  for (;;) {
    const { statusCode, json } = await status(app, token, id)
    expect(statusCode, JSON.stringify(json)).toBe(200)
    seen.push(json)
    if (statuses.includes(json.status)) return json
    if (Date.now() > end) throw new Error(`job ${id} still ${json.status} after ${ms} ms`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `Sentence number ${i} of the book.`).join('\n')

const FORMATS: Array<{ name: string, document: Record<string, unknown> }> = [
  { name: 'text/plain', document: { value: 'Hello world. The cat sleeps.', mime_type: 'text/plain' } },
  { name: 'text/html', document: { value: '<p>Hello <b>world</b>.</p><p>The cat sleeps.</p>', mime_type: 'text/html' } },
  {
    name: 'XLIFF',
    document: {
      mime_type: 'application/xliff+xml',
      value: '<?xml version="1.0" encoding="UTF-8"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" target-language="es" datatype="plaintext" original="a.txt"><body>' +
        '<trans-unit id="1"><source>Hello world.</source></trans-unit><trans-unit id="2"><source>The cat sleeps.</source></trans-unit></body></file></xliff>'
    }
  },
  { name: 'SRT', document: { mime_type: 'application/x-subrip', value: '1\n00:00:01,000 --> 00:00:02,000\nHello world.\n\n2\n00:00:03,000 --> 00:00:04,000\nThe cat sleeps.\n' } }
]

describe('POST /language/translate/jobs', () => {
  it.each(FORMATS)('a $name document: 202 with Location, then done with what POST /language/translate answers', async ({ document }) => {
    const { app, mine } = await jobsApp()
    const body = { document, source: 'en', targets: ['es', 'fr'] }
    const job = await submit(app, mine, body)
    expect(job.status).toBe('queued')
    const done = await until(app, mine, job.id, ['done', 'failed'])
    expect(done.status, JSON.stringify(done.error)).toBe('done')
    const direct = await app.inject({ method: 'POST', url: '/language/translate', headers: bearer(mine), payload: body })
    expect(direct.statusCode, direct.body).toBe(200)
    expect(done.result).toEqual(direct.json())
    expect(done.progress.total).toBeGreaterThan(0)
    expect(done.progress.done).toBe(done.progress.total)
    expect(Date.parse(done.expires)).toBeGreaterThan(Date.now())
  })

  it('a body of LARGE_REQUEST_BYTES or more (read and worked on the pool) is stored, worked and answered as a small one', async () => {
    const { app, mine } = await jobsApp({ LARGE_REQUEST_BYTES: '1024' })
    const value = Array.from({ length: 100 }, (_, i) => `<p>Paragraph ${i} with <b>bold</b> words.</p>`).join('')
    const body = { document: { value, mime_type: 'text/html' }, source: 'en', targets: ['es'] }
    expect(JSON.stringify(body).length).toBeGreaterThan(1024)
    const job = await submit(app, mine, body)
    const done = await until(app, mine, job.id, ['done', 'failed'])
    expect(done.status, JSON.stringify(done.error)).toBe('done')
    const direct = await app.inject({ method: 'POST', url: '/language/translate', headers: bearer(mine), payload: body })
    expect(done.result).toEqual(direct.json())
    expect(done.result.original).toEqual(body)
  })

  it('counts progress in segments as the engine answers them', async () => {
    const { app, mine } = await jobsApp()
    libre.latencyMs = 100
    const job = await submit(app, mine, { document: { value: lines(2000) }, source: 'en', targets: ['es'] })
    const seen: Array<Record<string, any>> = []
    const done = await until(app, mine, job.id, ['done', 'failed'], seen)
    expect(done.status).toBe('done')
    expect(done.progress).toEqual({ done: 2000, total: 2000 })
    expect(done.result.results.es.value).toBe(lines(2000).toUpperCase())
    // seen part-way: running with some but not all of its segments
    const partial = seen.filter(s => s.status === 'running' && s.progress.done > 0 && s.progress.done < 2000)
    expect(partial.length, JSON.stringify(seen.map(s => [s.status, s.progress.done]))).toBeGreaterThan(0)
    const counts = seen.map(s => s.progress.done)
    expect(counts).toEqual([...counts].sort((a, b) => a - b))
  })

  it('refuses a bad request at once, naming the field, and fails a job its translation refuses with the answer the request would have had', async () => {
    const { app, mine } = await jobsApp()
    const bad = await app.inject({ method: 'POST', url: '/language/translate/jobs', headers: bearer(mine), payload: { document: { value: 'x' }, targets: [] } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].pointer).toBe('/targets')
    // found only when the document is read: the job fails with the request's answer
    const broken = { document: { value: '<xliff version="1.2"><file><body><trans-unit id="a"><source>Hello', mime_type: 'application/xliff+xml' }, source: 'en', targets: ['es'] }
    const job = await submit(app, mine, broken)
    const failed = await until(app, mine, job.id, ['done', 'failed'])
    expect(failed.status).toBe('failed')
    const direct = await app.inject({ method: 'POST', url: '/language/translate', headers: bearer(mine), payload: broken })
    expect(direct.statusCode).toBe(400)
    expect(failed.error.status).toBe(direct.statusCode)
    expect(failed.error.detail).toBe(direct.json().detail)
    expect(failed.result).toBeUndefined()
  })

  it('needs a token, and answers 404 for an id that is none of the client\'s', async () => {
    const { app, mine } = await jobsApp()
    expect((await app.inject({ method: 'POST', url: '/language/translate/jobs', payload: { document: { value: 'x' }, targets: ['es'] } })).statusCode).toBe(401)
    expect((await status(app, mine, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404)
    const malformed = await app.inject({ method: 'GET', url: '/language/translate/jobs/..%2F..%2Fetc', headers: bearer(mine) })
    expect(malformed.statusCode).toBe(400)
  })
})

describe('a job\'s request is checked before 202', () => {
  // a document malformed in its format (a broken SRT, a DOCX that is not one) is found when the job reads it: the job fails with that 400
  it('answers what POST /language/translate would refuse before its work at once, and keeps no job', async () => {
    const { app, dataDir, mine } = await jobsApp({ MAX_TEXT_CHARS: '1000' })
    const cases: Array<[unknown, number, string]> = [
      [{ document: { value: 'Hello.', mime_type: 'application/pdf' }, source: 'en', targets: ['es'] }, 400, '/document/mime_type'],
      [{ document: { value: 'Hello.' }, source: 'en', targets: ['xx-invalid-!!'] }, 400, '/targets/0'],
      [{ document: { value: 'Hello.' }, source: 'en!!', targets: ['es'] }, 400, '/source'],
      [{ document: { value: 'Hello.' }, source: 'en', targets: ['es'], options: { formality: 'more' } }, 400, '/options/formality'],
      [{ document: { value: 'A house. '.repeat(200) }, source: 'en', targets: ['es'] }, 413, '/document/value']
    ]
    for (const [payload, code, pointer] of cases) {
      const direct = await app.inject({ method: 'POST', url: '/language/translate', headers: bearer(mine), payload: payload as object })
      const job = await app.inject({ method: 'POST', url: '/language/translate/jobs', headers: bearer(mine), payload: payload as object })
      expect(direct.statusCode, direct.body).toBe(code)
      expect(job.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(code)
      expect(job.json().detail).toBe(direct.json().detail)
      expect(JSON.stringify(job.json()), JSON.stringify(payload)).toContain(pointer)
    }
    expect(existsSync(join(dataDir, 'jobs')) ? readdirSync(join(dataDir, 'jobs')) : []).toEqual([])
  })
})

describe('a job\'s files', () => {
  it('are the service user\'s alone (0600 in 0700 folders), whatever the umask (a probe found requests and results world-readable)', async () => {
    const { app, mine, dataDir } = await jobsApp()
    const job = await submit(app, mine, { document: { value: 'The red car.' }, source: 'en', targets: ['es'] })
    await until(app, mine, job.id, ['done'])
    const [clientDir] = readdirSync(join(dataDir, 'jobs'))
    const dir = join(dataDir, 'jobs', clientDir!, job.id)
    for (const folder of [join(dataDir, 'jobs', clientDir!), dir]) expect(statSync(folder).mode & 0o077, folder).toBe(0)
    const files = readdirSync(dir)
    expect(files).toEqual(expect.arrayContaining(['request.json', 'result.json', 'state.json', 'client']))
    for (const file of files) expect(statSync(join(dir, file)).mode & 0o077, file).toBe(0)
  })
})

describe('a job whose result on disk is damaged', () => {
  it('reads failed, in JSON, saying so (a result.json cut short was pasted into the answer as it was)', async () => {
    const { app, mine, dataDir } = await jobsApp()
    const job = await submit(app, mine, { document: { value: 'The red car.' }, source: 'en', targets: ['es'] })
    await until(app, mine, job.id, ['done'])
    const [clientDir] = readdirSync(join(dataDir, 'jobs'))
    writeFileSync(join(dataDir, 'jobs', clientDir!, job.id, 'result.json'), '{"results":{"es":{"value":"El coche')
    const { statusCode, json } = await status(app, mine, job.id)
    expect(statusCode).toBe(200)
    expect(json.status).toBe('failed')
    expect(json.error.detail).toMatch(/result kept on disk is damaged/)
    expect(json.result).toBeUndefined()
  })
})

describe('who sees a job', () => {
  it('only the client that made it: another gets 404 for status and for cancel, and the job goes on', async () => {
    const { app, mine, other } = await jobsApp()
    const job = await submit(app, mine, { document: { value: 'Hello world.' }, source: 'en', targets: ['es'] })
    expect((await status(app, other, job.id)).statusCode).toBe(404)
    const cancel = await app.inject({ method: 'DELETE', url: `/language/translate/jobs/${job.id}`, headers: bearer(other) })
    expect(cancel.statusCode).toBe(404)
    expect((await until(app, mine, job.id, ['done', 'failed', 'cancelled'])).status).toBe('done')
    expect((await status(app, other, job.id)).statusCode).toBe(404)
  })
})

describe('JOB_TIMEOUT', () => {
  it('fails a job that works past it, naming the setting', async () => {
    const { app, mine } = await jobsApp({ JOB_TIMEOUT: '1' })
    libre.latencyMs = 2000
    const job = await submit(app, mine, { document: { value: 'Hello world.' }, source: 'en', targets: ['es'] })
    const failed = await until(app, mine, job.id, ['done', 'failed'])
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatchObject({ status: 503, type: '/problems/job-timeout', detail: 'The job worked longer than 1 s and was stopped (JOB_TIMEOUT).' })
  })
})

describe('DELETE /language/translate/jobs/{id}', () => {
  it('cancels a running job: its status reads cancelled, the engine is called no more, and no result is kept', async () => {
    const { app, mine, dataDir } = await jobsApp()
    libre.latencyMs = 100
    const job = await submit(app, mine, { document: { value: lines(2000) }, source: 'en', targets: ['es'] })
    // part-way: some of its segments translated
    let before: Record<string, any> = await until(app, mine, job.id, ['running'])
    while (before.progress.done === 0) before = await until(app, mine, job.id, ['running'])
    const cancel = await app.inject({ method: 'DELETE', url: job.location, headers: bearer(mine) })
    expect(cancel.statusCode).toBe(204)
    expect((await status(app, mine, job.id)).json.status).toBe('cancelled')
    await new Promise(resolve => setTimeout(resolve, 400))
    const calls = libre.calls.length
    await new Promise(resolve => setTimeout(resolve, 500))
    expect(libre.calls.length).toBe(calls)
    const after = (await status(app, mine, job.id)).json
    expect(after.status).toBe('cancelled')
    expect(after.progress.done).toBeLessThan(2000)
    // the progress it had when it was stopped (a probe's read 100, then 0 once cancelled)
    expect(after.progress.done).toBeGreaterThanOrEqual(before.progress.done)
    expect(after.result).toBeUndefined()
    const [clientDir] = readdirSync(join(dataDir, 'jobs'))
    expect(existsSync(join(dataDir, 'jobs', clientDir!, job.id, 'result.json'))).toBe(false)
  })

  it('removes a finished job and its result', async () => {
    const { app, mine, dataDir } = await jobsApp()
    const job = await submit(app, mine, { document: { value: 'Hello world.' }, source: 'en', targets: ['es'] })
    await until(app, mine, job.id, ['done'])
    expect((await app.inject({ method: 'DELETE', url: job.location, headers: bearer(mine) })).statusCode).toBe(204)
    expect((await status(app, mine, job.id)).statusCode).toBe(404)
    expect(readdirSync(join(dataDir, 'jobs', readdirSync(join(dataDir, 'jobs'))[0]!))).toEqual([])
    expect((await app.inject({ method: 'DELETE', url: job.location, headers: bearer(mine) })).statusCode).toBe(404)
  })
})

describe('expiry and limits', () => {
  it('a finished job is answered until JOB_TTL has passed, then 404, and its folder is removed', async () => {
    const { app, mine, dataDir } = await jobsApp({ JOB_TTL: '1' })
    const job = await submit(app, mine, { document: { value: 'Hello world.' }, source: 'en', targets: ['es'] })
    await until(app, mine, job.id, ['done'])
    await new Promise(resolve => setTimeout(resolve, 1100))
    expect((await status(app, mine, job.id)).statusCode).toBe(404)
    const clientDir = join(dataDir, 'jobs', readdirSync(join(dataDir, 'jobs'))[0]!)
    const end = Date.now() + 10_000
    while (readdirSync(clientDir).length > 0 && Date.now() < end) await new Promise(resolve => setTimeout(resolve, 100))
    expect(readdirSync(clientDir)).toEqual([])
  })

  it('a JOB_TTL lowered after a job finished applies to it (a probe\'s restart with JOB_TTL=1 kept a day-old expiry)', async () => {
    const first = await jobsApp()
    const job = await submit(first.app, first.mine, { document: { value: 'Hello world.' }, source: 'en', targets: ['es'] })
    await until(first.app, first.mine, job.id, ['done'])
    const kept = (await status(first.app, first.mine, job.id)).json
    expect(Date.parse(kept.expires) - Date.parse(kept.finished)).toBe(86_400_000)
    // the service restarted with a lower JOB_TTL, on the same DATA_DIR
    const later = await jobsApp({ JOB_TTL: '1' }, first.dataDir)
    const read = await status(later.app, later.mine, job.id)
    if (read.statusCode === 200) expect(Date.parse(read.json.expires) - Date.parse(read.json.finished)).toBe(1000)
    await new Promise(resolve => setTimeout(resolve, 1100))
    expect((await status(later.app, later.mine, job.id)).statusCode).toBe(404)
  })

  it('a client has at most JOB_MAX_PER_CLIENT jobs queued or running (429 past it); another client is not held back', async () => {
    const { app, mine, other } = await jobsApp({ JOB_MAX_PER_CLIENT: '2' })
    libre.latencyMs = 100
    const body = { document: { value: lines(300) }, source: 'en', targets: ['es'] }
    const first = await submit(app, mine, body)
    await submit(app, mine, body)
    const third = await app.inject({ method: 'POST', url: '/language/translate/jobs', headers: bearer(mine), payload: body })
    expect(third.statusCode, third.body).toBe(429)
    expect(third.json().detail).toMatch(/2 jobs queued or running, as many as it may \(JOB_MAX_PER_CLIENT\)/)
    expect(new TooManyJobsError(1).message).toMatch(/^This client has 1 job queued or running/)
    // every 429 says when to try again (the contract's header; a probe's generated client had nothing to wait on)
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0)
    await submit(app, other, body)
    // a finished (here cancelled) job no longer counts
    expect((await app.inject({ method: 'DELETE', url: first.location, headers: bearer(mine) })).statusCode).toBe(204)
    await submit(app, mine, body)
  })

  /** What a client's jobs keep in DATA_DIR: their requests and results, in bytes. */
  const kept = (dataDir: string): number => {
    const root = join(dataDir, 'jobs')
    let bytes = 0
    for (const client of existsSync(root) ? readdirSync(root) : []) {
      for (const job of readdirSync(join(root, client))) {
        for (const file of ['request.json', 'result.json']) {
          const path = join(root, client, job, file)
          if (existsSync(path)) bytes += statSync(path).size
        }
      }
    }
    return bytes
  }

  it('a client\'s jobs keep at most JOB_STORAGE_PER_CLIENT bytes, finished ones too (429 past it); deleting a finished job frees its share', async () => {
    // a probe's finished jobs (1 MB posted, 20 MB of result each) filled DATA_DIR: only queued and running ones were counted
    const limit = 100_000
    const { app, dataDir, mine, other } = await jobsApp({ JOB_STORAGE_PER_CLIENT: String(limit) })
    const body = { document: { value: lines(300) }, source: 'en', targets: ['es'] }
    const done: Array<{ location: string }> = []
    let refused
    for (let i = 0; i < 10 && refused === undefined; i++) {
      const res = await app.inject({ method: 'POST', url: '/language/translate/jobs', headers: bearer(mine), payload: body })
      if (res.statusCode === 429) refused = res
      else {
        expect(res.statusCode, res.body).toBe(202)
        await until(app, mine, res.json().id, ['done'])
        done.push({ location: res.headers.location as string })
      }
      expect(kept(dataDir)).toBeLessThanOrEqual(limit)
    }
    expect(refused, `no 429 after ${done.length} jobs keeping ${kept(dataDir)} bytes`).toBeDefined()
    expect(done.length).toBeGreaterThan(0)
    // what is kept and the refused request together would pass the limit
    expect(kept(dataDir) + JSON.stringify(body).length).toBeGreaterThan(limit)
    expect(refused!.json().type).toBe('/problems/job-storage-full')
    expect(refused!.json().detail).toMatch(/JOB_STORAGE_PER_CLIENT/)
    expect(refused!.json().detail).toMatch(/delete/i)
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0)
    // another client is not held back
    await submit(app, other, body)
    expect((await app.inject({ method: 'DELETE', url: done[0]!.location, headers: bearer(mine) })).statusCode).toBe(204)
    await submit(app, mine, body)
  })

  it('a job whose result would pass JOB_STORAGE_PER_CLIENT fails saying so, and keeps no result; a request past it alone is a 413', async () => {
    const body = { document: { value: lines(300) }, source: 'en', targets: ['es'] }
    const request = JSON.stringify(body).length
    // room for the request, not for its result (which echoes the request)
    const { app, dataDir, mine } = await jobsApp({ JOB_STORAGE_PER_CLIENT: String(request + 1000) })
    const job = await submit(app, mine, body)
    const failed = await until(app, mine, job.id, ['done', 'failed'])
    expect(failed.status).toBe('failed')
    expect(failed.error.type).toBe('/problems/job-storage-full')
    expect(failed.error.detail).toMatch(/JOB_STORAGE_PER_CLIENT/)
    expect(failed.result).toBeUndefined()
    expect(kept(dataDir)).toBeLessThanOrEqual(request + 1000)
    const small = await jobsApp({ JOB_STORAGE_PER_CLIENT: String(request - 1) })
    const tooLarge = await small.app.inject({ method: 'POST', url: '/language/translate/jobs', headers: bearer(small.mine), payload: body })
    expect(tooLarge.statusCode, tooLarge.body).toBe(413)
    expect(tooLarge.json().detail).toMatch(/JOB_STORAGE_PER_CLIENT/)
    expect(kept(small.dataDir)).toBe(0)
  })

  it('holds the limit against jobs posted at once, to one process and to two sharing DATA_DIR', async () => {
    const { app, mine } = await jobsApp({ JOB_MAX_PER_CLIENT: '3' })
    libre.latencyMs = 200
    const body = { document: { value: lines(300) }, source: 'en', targets: ['es'] }
    const post = (to: FastifyInstance, token: string) => to.inject({ method: 'POST', url: '/language/translate/jobs', headers: bearer(token), payload: body })
    const codes = (await Promise.all(Array.from({ length: 20 }, async () => await post(app, mine)))).map(r => r.statusCode).sort()
    expect(codes).toEqual([202, 202, 202, ...Array<number>(17).fill(429)])
    // a second process on the same jobs: together they never take more than the limit
    const { app: second, dataDir: secondDir } = await jobsApp({ JOB_MAX_PER_CLIENT: '3' })
    const shared = await jobsApp({ JOB_MAX_PER_CLIENT: '3', DATA_DIR: secondDir })
    const theirs = await tokenFor(second, CLIENT)
    const sharedToken = await tokenFor(shared.app, CLIENT)
    const both = await Promise.all(Array.from({ length: 20 }, async (_, i) => await post(i % 2 === 0 ? second : shared.app, i % 2 === 0 ? theirs : sharedToken)))
    const accepted = both.filter(r => r.statusCode === 202).length
    expect(both.every(r => r.statusCode === 202 || r.statusCode === 429)).toBe(true)
    expect(accepted).toBeGreaterThanOrEqual(1)
    expect(accepted).toBeLessThanOrEqual(3)
    expect(readdirSync(readdirSync(join(secondDir, 'jobs')).map(d => join(secondDir, 'jobs', d))[0]!)).toHaveLength(accepted)
  })

  it('takes waiting jobs in turn by client: one client\'s backlog does not hold another\'s job back', async () => {
    const { app, mine, other } = await jobsApp({ JOB_CONCURRENCY: '1' })
    libre.latencyMs = 100
    const body = { document: { value: lines(100) }, source: 'en', targets: ['es'] }
    // the first runs long enough for every other job to be waiting when it ends
    const backlog = [await submit(app, mine, { ...body, document: { value: lines(2000) } }), await submit(app, mine, body), await submit(app, mine, body)]
    const theirs = await submit(app, other, body)
    const finished = (job: { id: string }, token: string): Promise<number> => until(app, token, job.id, ['done'], [], 60_000).then(s => Date.parse(s.finished))
    const [mineEnds, theirEnd] = await Promise.all([Promise.all(backlog.map(async job => await finished(job, mine))), finished(theirs, other)])
    // the other client's line took its turn before the last of the backlog (first come, first served would run it last)
    expect(theirEnd).toBeLessThan(mineEnds[2]!)
  })
})

describe('/metrics', () => {
  const metric = (text: string, line: string): number => Number(new RegExp(`^${line.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)

  it('shows jobs queued and running, those done, failed and cancelled, and how long they took', async () => {
    const { app, mine } = await jobsApp({ JOB_CONCURRENCY: '1' })
    libre.latencyMs = 100
    const scrape = async (): Promise<string> => (await app.inject({ method: 'GET', url: '/metrics' })).body
    const long = await submit(app, mine, { document: { value: lines(2000) }, source: 'en', targets: ['es'] })
    // the second after the first holds the slot: submitted together, the small one may take it first
    await until(app, mine, long.id, ['running'])
    const waiting = await submit(app, mine, { document: { value: 'Hello world.' }, source: 'en', targets: ['es'] })
    // held once this process has claimed it, just after its answer
    let busy = await scrape()
    for (let i = 0; i < 250 && metric(busy, 'document_jobs{status="queued"}') !== 1; i++) {
      await new Promise(resolve => setTimeout(resolve, 20))
      busy = await scrape()
    }
    expect(metric(busy, 'document_jobs{status="running"}')).toBe(1)
    expect(metric(busy, 'document_jobs{status="queued"}')).toBe(1)
    await app.inject({ method: 'DELETE', url: long.location, headers: bearer(mine) })
    await until(app, mine, waiting.id, ['done'])
    const failed = await submit(app, mine, { document: { value: '<xliff version="1.2"><file><body><trans-unit id="a"><source>Hello', mime_type: 'application/xliff+xml' }, source: 'en', targets: ['es'] })
    await until(app, mine, failed.id, ['failed'])
    await until(app, mine, long.id, ['cancelled'])
    const after = await scrape()
    expect(metric(after, 'document_jobs_finished_total{status="done"}')).toBe(1)
    expect(metric(after, 'document_jobs_finished_total{status="failed"}')).toBe(1)
    // the cancelled job ends when its engine call comes back
    const end = Date.now() + 5000
    let text = after
    while (Number.isNaN(metric(text, 'document_jobs_finished_total{status="cancelled"}')) && Date.now() < end) text = await scrape()
    expect(metric(text, 'document_jobs_finished_total{status="cancelled"}')).toBe(1)
    expect(metric(text, 'document_job_duration_seconds_count{status="done"}')).toBe(1)
    expect(metric(text, 'document_job_duration_seconds_sum{status="done"}')).toBeGreaterThan(0)
    expect(metric(text, 'document_jobs{status="running"}')).toBe(0)
  })
})
