/**
 * The job queue on disk (src/jobs/queue.ts) and its slots: one client's long jobs never hold every
 * slot, so another client's job starts at once. A job's work here waits for the test to end it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Jobs } from '../../../src/jobs/queue.js'
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
