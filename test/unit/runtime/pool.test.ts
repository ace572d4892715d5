/**
 * The thread pool (src/runtime/pool.ts) with tasks of its own: a task's errors come back as
 * themselves, a request pays its tasks' CPU time, a task past its request's budget or its
 * thread's heap is stopped (the thread replaced) and the request refused, clients take turns, one
 * client never holds every thread, and a request that gives up has its waiting task dropped.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { DocumentsBusyError, UpstreamError, ValidationError } from '../../../src/errors.js'
import { withClient } from '../../../src/lib/clients.js'
import { PoolAccount, taskModule, ThreadPool } from '../../../src/runtime/pool.js'
import { IDLE_MS } from '../../../src/runtime/idle-gc.js'

const TASKS = taskModule(import.meta.url, './pool-tasks')
// the thread's own module (as pool.ts names it), which counts its idle collections
const POOL_THREAD = taskModule(new URL('../../../src/runtime/pool.ts', import.meta.url).href, './pool-thread')
const pool = new ThreadPool({ threads: 2, queueMs: 10_000, busyError: waited => new DocumentsBusyError(waited), heapMb: 64 })
afterAll(async () => { await pool.close() })

const overBudget = (): ValidationError => new ValidationError('over its budget')
const run = async <T>(fn: string, args: unknown[], work = new PoolAccount(5000)): Promise<T> =>
  await pool.run<T>({ module: TASKS, fn, args }, work, { overBudget })
const failure = async (p: Promise<unknown>): Promise<unknown> => await p.then(() => { throw new Error('expected a failure') }, (err: unknown) => err)

describe('the thread pool', () => {
  it('runs tasks on its threads and passes the service\'s own errors as themselves', async () => {
    await pool.ready()
    expect(await run<number>('thread', [])).toBeGreaterThan(0)
    const err = await failure(run('failTyped', []))
    expect(err).toBeInstanceOf(UpstreamError)
    expect(err).toMatchObject({ status: 502, service: 'fake' })
  })

  it('stops a task past its request\'s CPU budget, refuses the request\'s later tasks, and serves the next request', async () => {
    const work = new PoolAccount(200)
    const started = performance.now()
    expect(await failure(run('spin', [5000], work))).toBeInstanceOf(ValidationError)
    expect(performance.now() - started).toBeLessThan(3000)
    expect(await failure(run('thread', [], work))).toBeInstanceOf(ValidationError)
    expect(await run<number>('thread', [])).toBeGreaterThan(0)
  })

  it('charges a request the CPU time its tasks used on their thread, not the time they took', async () => {
    const work = new PoolAccount(5000)
    await run('idle', [400], work)
    const waited = work.spentMs
    expect(waited).toBeLessThan(200)
    await run('burn', [300], work)
    expect(work.spentMs - waited).toBeGreaterThanOrEqual(300)
    expect(work.spentMs - waited).toBeLessThan(1000)
    // a task that waits longer than its budget without using it is not stopped
    expect(await run<number>('idle', [600], new PoolAccount(300))).toBeGreaterThan(0)
  })

  it('stops a task past its thread\'s heap as over its budget, and serves the next request', async () => {
    expect(await failure(run('allocate', [400]))).toBeInstanceOf(ValidationError)
    expect(await run<number>('allocate', [8])).toBe(8)
  })

  it('gives back the heap a task grew once its thread is idle (idle-gc.ts), not while it works', async () => {
    // a heap far from its bound, so that V8 does not collect it first
    const roomy = new ThreadPool({ threads: 1, queueMs: 10_000, busyError: waited => new DocumentsBusyError(waited) })
    try {
      const on = async <T>(fn: string, module = TASKS): Promise<T> => await roomy.run<T>({ module, fn, args: fn === 'grow' ? [40] : [] }, new PoolAccount(5000), { overBudget })
      const before = await on<number>('collections', POOL_THREAD)
      const grown = await on<{ physicalMb: number }>('grow')
      expect(await on<number>('collections', POOL_THREAD)).toBe(before)
      await new Promise(resolve => setTimeout(resolve, IDLE_MS + 600))
      expect(await on<number>('collections', POOL_THREAD)).toBe(before + 1)
      expect((await on<{ physicalMb: number }>('heap')).physicalMb).toBeLessThan(grown.physicalMb - 30)
    } finally {
      await roomy.close()
    }
  })

  it('lets clients take turns, and one client holds at most all threads but one', async () => {
    // both threads run (the one the heap test stopped is replaced, and starting it is slow on a busy
    // machine): two clients' tasks at once land on two threads
    for (let tries = 0; ; tries++) {
      const threads = await Promise.all(['x', 'y'].map(async c => await withClient(c, async () => await run<number>('spin', [30]))))
      if (threads[0] !== threads[1]) break
      expect(tries).toBeLessThan(200)
    }
    const order: string[] = []
    const busyStarted = performance.now()
    const busy = withClient('busy', () => Array.from({ length: 6 }, async (_, i) => { await run('spin', [150]); order.push(`busy ${i}`) }))
    await new Promise(resolve => setTimeout(resolve, 20))
    const started = performance.now()
    await withClient('other', async () => { await run('spin', [10]); order.push('other') })
    const otherMs = performance.now() - started
    await Promise.all(busy)
    const busyMs = performance.now() - busyStarted
    // a thread was left to it: it did not wait for the busy client's tasks (relative figures,
    // so a busy machine slows both alike). The busy client's six tasks ran on one thread.
    expect(order.indexOf('other')).toBeLessThanOrEqual(1)
    expect(otherMs).toBeLessThan(busyMs / 2)
  })

  it('drops a waiting task whose request gave up, with the request\'s reason', async () => {
    const blockers = withClient('block', () => [run('spin', [300])])
    const controller = new AbortController()
    const waiting = withClient('block', async () => await run('thread', [], new PoolAccount(5000, controller.signal)))
    const reason = new Error('client went away')
    controller.abort(reason)
    expect(await failure(waiting)).toBe(reason)
    await Promise.all(blockers)
  })
})
