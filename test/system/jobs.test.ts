/**
 * Document jobs on local disk across processes: the service killed in the middle of a job (or
 * stopped with SIGTERM) and started again on the same DATA_DIR finishes it; with WORKERS=2 every
 * worker answers a job's status and cancels it, whichever took it. The LibreTranslate fake is the
 * engine, slow enough for a job to last.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../fakes/libretranslate.js'
import { startService, type RunningService } from '../helpers/service.js'

let libre: FakeLibreTranslate
let dataDir: string
const services: RunningService[] = []
beforeAll(async () => {
  libre = await startFakeLibreTranslate()
  dataDir = mkdtempSync(join(tmpdir(), 'jobs-system-'))
})
afterEach(async () => {
  await Promise.all(services.splice(0).map(async s => { await s.stop() }))
})
afterAll(async () => {
  await libre?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function start (env: Record<string, string> = {}): Promise<RunningService> {
  const service = await startService({
    LIBRETRANSLATE_URL: libre.url,
    LIBRETRANSLATE_API_KEY: libre.key,
    TRANSLATION_SERVICES: 'libretranslate',
    DATA_DIR: dataDir,
    ...env
  })
  services.push(service)
  return service
}

async function job (service: RunningService, id: string): Promise<Record<string, any>> {
  const res = await fetch(`${service.base}/language/translate/jobs/${id}`, { headers: { authorization: `Bearer ${service.token}` } })
  expect(res.status, await res.clone().text()).toBe(200)
  return await res.json() as Record<string, any>
}

async function until (service: RunningService, id: string, ok: (state: Record<string, any>) => boolean, ms = 60_000): Promise<Record<string, any>> {
  const end = Date.now() + ms
  for (;;) {
    const state = await job(service, id)
    if (ok(state)) return state
    if (Date.now() > end) throw new Error(`job ${id}: ${JSON.stringify(state)} after ${ms} ms\n${service.output()}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

const book = (n: number): string => Array.from({ length: n }, (_, i) => `Line ${i} of a long book.`).join('\n')

describe('jobs survive the process', () => {
  it.each(['SIGKILL', 'SIGTERM'] as const)('a job under way when the service gets %s is finished by the next start on the same DATA_DIR', async (signal) => {
    libre.latencyMs = 150
    const first = await start()
    const value = book(3000)
    const posted = await first.post('/language/translate/jobs', { document: { value }, source: 'en', targets: ['es'] })
    expect(posted.status).toBe(202)
    const id = posted.json['id'] as string
    await until(first, id, s => s['status'] === 'running' && s['progress'].done > 0)
    first.child.kill(signal)
    await first.exited

    libre.latencyMs = 5
    const second = await start()
    const done = await until(second, id, s => s['status'] === 'done' || s['status'] === 'failed')
    expect(done['status'], JSON.stringify(done['error'])).toBe('done')
    expect(done['result'].results.es.value).toBe(value.toUpperCase())
    expect(done['progress']).toEqual({ done: 3000, total: 3000 })
  }, 120_000)
})

describe('a damaged job folder in DATA_DIR', () => {
  it('the service starts (a probe\'s exited with a TypeError), with WORKERS=2 too, and works jobs; the folder is logged once and left', async () => {
    const own = mkdtempSync(join(tmpdir(), 'jobs-damaged-'))
    try {
      const damaged = join(own, 'jobs', '0123456789abcdef0123456789abcdef', '11111111-1111-1111-1111-111111111111')
      mkdirSync(damaged, { recursive: true })
      writeFileSync(join(damaged, 'state.json'), 'null')
      libre.latencyMs = 5
      const service = await start({ DATA_DIR: own, WORKERS: '2' })
      const posted = await service.post('/language/translate/jobs', { document: { value: 'Hello world.' }, source: 'en', targets: ['es'] })
      expect(posted.status).toBe(202)
      expect((await until(service, posted.json['id'] as string, s => s['status'] === 'done' || s['status'] === 'failed'))['status']).toBe('done')
      // past a sweep or two of each worker: told once by each
      await new Promise(resolve => setTimeout(resolve, 4500))
      expect(service.output().split('job folder could not be read').length - 1).toBe(2)
      expect(existsSync(damaged)).toBe(true)
    } finally {
      rmSync(own, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('jobs with WORKERS=2', () => {
  it('every worker answers a job\'s status and cancels it, whichever worker works it', async () => {
    libre.latencyMs = 150
    const service = await start({ WORKERS: '2' })
    const posted = await service.post('/language/translate/jobs', { document: { value: book(3000) }, source: 'en', targets: ['es'] })
    expect(posted.status).toBe(202)
    const id = posted.json['id'] as string
    await until(service, id, s => s['status'] === 'running')
    // new connections land on either worker: each one reads the job from disk
    for (let i = 0; i < 6; i++) expect(['running', 'queued']).toContain((await job(service, id))['status'])
    const cancel = await fetch(`${service.base}/language/translate/jobs/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${service.token}` } })
    expect(cancel.status).toBe(204)
    const calls = (): number => libre.calls.length
    const cancelled = await until(service, id, s => s['status'] === 'cancelled')
    expect(cancelled['result']).toBeUndefined()
    // the worker that works it stops within its next look at the job (every 2 s)
    await new Promise(resolve => setTimeout(resolve, 3000))
    const before = calls()
    await new Promise(resolve => setTimeout(resolve, 1000))
    expect(calls()).toBe(before)
  }, 120_000)
})
