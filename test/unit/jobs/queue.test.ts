/**
 * The job queue on disk (src/jobs/queue.ts) and its slots: one client's long jobs never hold every
 * slot, so another client's job starts at once; what a damaged job folder, a claim left empty and a
 * cancel from another process do. A job's work here waits for the test to end it.
 */
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CLAIM_STALE_MS, Jobs, type JobState } from '../../../src/jobs/queue.js'
import type { FairSlots } from '../../../src/lib/fair-slots.js'
import { holdJobs } from '../../helpers/held-jobs.js'

const dirs: string[] = []
const queues: Jobs[] = []
afterEach(async () => {
  await Promise.all(queues.splice(0).map(async q => { await q.close() }))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A queue of `concurrency` slots whose jobs (a request is its job's name) run until `end(name)`. */
function queue (concurrency: number): { jobs: Jobs, started: string[], waiting: () => number, end: (name: string) => void, until: (done: () => boolean) => Promise<void> } {
  const dataDir = mkdtempSync(join(tmpdir(), 'job-slots-'))
  dirs.push(dataDir)
  const jobs = new Jobs({ dataDir, ttlSeconds: 3600, perClient: 10, storagePerClient: 1024 * 1024, concurrency, timeoutMs: 3_600_000, log: { warn: () => {} } })
  queues.push(jobs)
  const { started, end, until } = holdJobs(jobs)
  // the slots' waiters: a job past its claim and its first write waits there (or runs)
  const slots = (jobs as unknown as { slots: FairSlots }).slots
  return { jobs, started, waiting: () => slots.waiters, end, until }
}

describe('job slots', () => {
  it('leaves another client a slot: one client\'s long jobs never hold them all, and the other\'s job starts at once', async () => {
    const { jobs, started, waiting, end, until } = queue(4)
    for (let i = 1; i <= 4; i++) await jobs.submit('b', `b${i}`)
    // every one of b's jobs running or waiting for a slot
    await until(() => started.length + waiting() === 4)
    expect(started).toHaveLength(3)
    await jobs.submit('a', 'a1')
    // before any of b's jobs ends
    await until(() => started.includes('a1'))
    expect(started.filter(name => name.startsWith('b'))).toHaveLength(3)
    // b's fourth takes the slot of b's own job that ends, not a's
    end(started[0]!)
    await until(() => started.length === 5)
    expect(started.filter(name => name.startsWith('b'))).toHaveLength(4)
  })

  it('lets one client alone use all slots but one; with a single slot, that one', async () => {
    const two = queue(2)
    await two.jobs.submit('b', 'b1')
    await two.jobs.submit('b', 'b2')
    await two.until(() => two.started.length + two.waiting() === 2)
    expect(two.started).toHaveLength(1)
    two.end(two.started[0]!)
    await two.until(() => two.started.length === 2)

    const one = queue(1)
    await one.jobs.submit('b', 'b1')
    await one.until(() => one.started.includes('b1'))
    await one.jobs.submit('b', 'b2')
    await one.until(() => one.waiting() === 1)
    one.end('b1')
    await one.until(() => one.started.includes('b2'))
  })
})

describe('a job cancelled through another process', () => {
  it('stays until the process working it ends it: a second DELETE before then removes nothing, its end is recorded and told once (a DeepL document\'s refund)', async () => {
    // two processes sharing DATA_DIR: the one that took the job sees a cancel asked elsewhere on its next sweep
    const dataDir = mkdtempSync(join(tmpdir(), 'job-cancel-'))
    dirs.push(dataDir)
    const open = (): Jobs => {
      const jobs = new Jobs({ dataDir, ttlSeconds: 3600, perClient: 10, storagePerClient: 1024 * 1024, concurrency: 2, timeoutMs: 3_600_000, log: { warn: () => {} } })
      queues.push(jobs)
      return jobs
    }
    const working = open()
    const other = open()
    const { started, until } = holdJobs(working)
    holdJobs(other)
    const ends: Array<{ status: string, meta?: Record<string, string> }> = []
    working.onFinish((status, _seconds, { meta }) => { ends.push({ status, ...(meta === undefined ? {} : { meta }) }) })
    await working.start()
    await other.start()
    const { id } = await working.submit('c', 'long', { billed: '95000' })
    await until(() => started.includes('long'))

    expect(await other.cancel('c', id)).toBe(true)
    expect(await other.cancel('c', id)).toBe(true)
    expect((await other.get('c', id))?.state.status).toBe('cancelled')
    await until(() => ends.length > 0)
    expect(ends).toEqual([{ status: 'cancelled', meta: { billed: '95000' } }])
    const ended = (await other.get('c', id))?.state
    expect(ended?.status).toBe('cancelled')
    expect(ended?.finished).toBeDefined()

    // a job that has really ended is removed
    expect(await other.cancel('c', id)).toBe(true)
    expect(await other.get('c', id)).toBeUndefined()
    expect(ends).toHaveLength(1)
  })
})

/** Two Jobs on one DATA_DIR, as two processes sharing it; `warnings` are what they logged. */
function sharedDir (): { dataDir: string, open: () => Jobs, warnings: Array<{ job?: string, msg: string }> } {
  const dataDir = mkdtempSync(join(tmpdir(), 'job-shared-'))
  dirs.push(dataDir)
  const warnings: Array<{ job?: string, msg: string }> = []
  const open = (): Jobs => {
    const jobs = new Jobs({ dataDir, ttlSeconds: 3600, perClient: 10, storagePerClient: 1024 * 1024, concurrency: 2, timeoutMs: 3_600_000, log: { warn: (obj, msg) => { warnings.push({ ...obj as { job?: string }, msg }) } } })
    queues.push(jobs)
    return jobs
  }
  return { dataDir, open, warnings }
}

const queuedState = (id: string): JobState => ({ id, status: 'queued', progress: { done: 0, total: 0 }, created: new Date().toISOString() })

describe('a damaged job folder', () => {
  it('never stops the start nor the other jobs: an unreadable state is told once and left, a job whose client cannot be read fails', async () => {
    const { dataDir, open, warnings } = sharedDir()
    // a job given back by a process stopping, for the next start to resume
    const first = open()
    const held = holdJobs(first)
    const { id: goodId } = await first.submit('c', 'good')
    await held.until(() => held.started.includes('good'))
    await first.close()
    // a finished job past its expiry, for the sweep to remove
    const { store } = first
    const expired = (await store.create('c', 'old', { ...queuedState(randomUUID()), status: 'done', finished: new Date(Date.now() - 7_200_000).toISOString() })).dir
    await unlink(join(expired, 'claim-1'))
    // damaged: a state that is not a job's, one that is not JSON, a queued job without its client file
    const nullState = join(dataDir, 'jobs', '0'.repeat(32), randomUUID())
    mkdirSync(nullState, { recursive: true })
    writeFileSync(join(nullState, 'state.json'), 'null')
    const cut = (await store.create('c', 'cut', queuedState(randomUUID()))).dir
    writeFileSync(join(cut, 'state.json'), '{"id":')
    await unlink(join(cut, 'claim-1'))
    const clientless = await store.create('d', 'clientless', queuedState(randomUUID()))
    await unlink(join(clientless.dir, 'claim-1'))
    await unlink(join(clientless.dir, 'client'))

    const second = open()
    const { started, until } = holdJobs(second)
    await second.start()
    await until(() => started.includes('good'))
    expect(existsSync(expired)).toBe(false)
    const failed = await second.get('d', basename(clientless.dir))
    expect(failed?.state.status).toBe('failed')
    expect(failed?.state.error?.detail).toMatch(/client kept on disk is damaged/)
    expect(failed?.state.expires).toBeDefined()
    // left as they are, and read as no job
    expect(existsSync(nullState) && existsSync(cut)).toBe(true)
    expect(await second.get('c', basename(cut))).toBeUndefined()
    expect(await second.cancel('c', basename(cut))).toBe(false)
    // told once each, whatever the sweeps since (every 2 s)
    await new Promise(resolve => setTimeout(resolve, 2500))
    const told = warnings.filter(w => w.msg.includes('job folder')).map(w => w.job)
    expect(told.sort()).toEqual([nullState, cut, clientless.dir].sort())
    expect((await second.get('c', goodId))?.state.status).toBe('running')
  }, 20_000)

  it('a result cut short reads failed, saying so, not as text that is not JSON', async () => {
    const { open } = sharedDir()
    const jobs = open()
    const { started, end, until } = holdJobs(jobs)
    const { id } = await jobs.submit('c', 'a job with a result of some length')
    await until(() => started.length === 1)
    end(started[0]!)
    await until(async () => (await jobs.get('c', id))?.state.status === 'done')
    const dir = jobs.store.jobDir('c', id)
    const whole = readFileSync(join(dir, 'result.json'), 'utf8')
    writeFileSync(join(dir, 'result.json'), whole.slice(0, 20))
    const found = await jobs.get('c', id)
    expect(found?.result).toBeUndefined()
    expect(found?.state.status).toBe('failed')
    expect(found?.state.error?.detail).toMatch(/result kept on disk is damaged/)
  })
})

describe('a claim left empty (a claim or a create interrupted between creating the file and writing it)', () => {
  it('is stale once nobody touched it for CLAIM_STALE_MS: the job is taken again; a fresh one is not', async () => {
    const { open } = sharedDir()
    const { store } = open()
    const old = await store.create('c', 'left', queuedState(randomUUID()))
    writeFileSync(old.claim, '')
    const then = new Date(Date.now() - CLAIM_STALE_MS - 1000)
    utimesSync(old.claim, then, then)
    const fresh = await store.create('c', 'being-claimed', queuedState(randomUUID()))
    writeFileSync(fresh.claim, '')

    const jobs = open()
    const { started, until } = holdJobs(jobs)
    await jobs.start()
    await until(() => started.includes('left'))
    expect(started).toEqual(['left'])
    expect((await jobs.get('c', basename(fresh.dir)))?.state.status).toBe('queued')
  })
})

describe('a job cancelled through another process as its work ends', () => {
  it('ends cancelled, not done: no result is kept, and its end is told as cancelled (a DeepL document\'s refund)', async () => {
    const { open } = sharedDir()
    // not started: no sweep sees the cancel first, the job's own end must
    const working = open()
    const other = open()
    const { started, end, until } = holdJobs(working)
    const ends: string[] = []
    working.onFinish(status => { ends.push(status) })
    const { id } = await working.submit('c', 'long', { billed: '95000' })
    await until(() => started.includes('long'))
    expect(await other.cancel('c', id)).toBe(true)
    end('long')
    await until(() => ends.length > 0)
    expect(ends).toEqual(['cancelled'])
    const found = await other.get('c', id)
    expect(found?.state.status).toBe('cancelled')
    expect(found?.result).toBeUndefined()
    expect(existsSync(join(working.store.jobDir('c', id), 'result.json'))).toBe(false)
  })
})
