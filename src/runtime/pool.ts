/**
 * The process's one thread pool (Piscina) for CPU-heavy work: document parsing and rebuilding,
 * and large request bodies. Its size is the process's share of the cores.
 *
 * In front of Piscina sits a fair queue: tasks wait in their client's line and the lines take
 * turns, and one client holds at most all threads but one, so another client's task never waits
 * behind a long task of the first (a task cannot be interrupted but by stopping its thread). Each
 * request has one account (`PoolAccount`): a budget of thread CPU time for all its tasks (a task
 * that runs past what is left is stopped and its thread replaced), and an allowance of waiting
 * for threads (past it, a 503 rather than an answer minutes later). A task whose request gives
 * up is dropped if it waits, stopped if it runs.
 */
import { Piscina } from 'piscina'
import type { Worker } from 'node:worker_threads'
import { fileURLToPath } from 'node:url'
import { DocumentsBusyError } from '../errors.js'
import { revive, type SentError } from './channel.js'
import { machineCores, processShare } from './machine.js'
import { currentClient } from '../lib/clients.js'
import { FairQueue } from '../lib/fair-queue.js'
import { allButOne } from '../lib/fair-slots.js'

/** A module a pool thread can run tasks of: a sibling of the module at `from`, without extension (as the caller's own files are .ts or .js). */
export function taskModule (from: string, name: string): string {
  return new URL(`${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from).href
}

/** What a pool thread is asked: call export `fn` of `module` with `args`. */
export interface TaskCall {
  module: string
  fn: string
  args: unknown[]
  /** Moved, not copied, to the thread (ArrayBuffers). */
  transfer?: ArrayBuffer[]
}

/** What a pool thread answers (pool-thread.ts), with the CPU time the task took there (ms). */
export type TaskAnswer = { result: unknown, cpuMs: number } | { error: SentError, cpuMs: number }

/** How long one request may wait for the pool with none of its work running, in all, before a 503 (ms; DOCUMENT_QUEUE_TIMEOUT_MS). */
export const DEFAULT_DOCUMENT_QUEUE_MS = 10_000
/** A task is stopped after this many times what is left of its budget in wall time, whatever its CPU time (a starved thread). */
const WALL_FACTOR = 4

export interface PoolOptions {
  threads: number
  /** Modules every thread loads as it starts, before its first task (taskModule URLs). */
  preload?: string[]
  /** Each thread's heap (old generation), MB. */
  heapMb?: number
  /** How long one request's tasks may wait for threads in all before it is refused (ms). */
  queueMs: number
  /** The error for a request whose tasks waited longer than queueMs in all. */
  busyError: (waitedMs: number) => Error
}

/** A pool thread's heap by default, MB: a 1 MiB body of 100,000 keys is prepared and rebuilt within it. */
export const POOL_HEAP_MB = 512

/**
 * One request's account on the pool: the CPU its tasks may still use, and how long it may still
 * wait. A request waits while it has tasks queued and none running (its tasks queued behind its
 * own running one are its own pace, not a wait for the pool).
 */
export class PoolAccount {
  spentMs = 0
  waitedMs = 0
  /** Set once the budget or the wait ran out: every later task of the request is refused at once. */
  exhausted: Error | undefined
  /** The thread that last ran a task of this request: its next task goes there when it is free (what the thread read of the request may still be there). */
  lastThread: number | undefined
  readonly client: string | undefined
  /** Its tasks waiting for a thread, and running. */
  readonly queued = new Set<QueuedTask>()
  running = 0
  /** Since when it has waited with nothing running, and what fires when its allowance runs out. */
  waitingSince: number | undefined
  waitTimer: NodeJS.Timeout | undefined

  constructor (readonly budgetMs: number, readonly signal?: AbortSignal, client = currentClient()) {
    this.client = client
  }
}

interface QueuedTask {
  call: TaskCall
  work: PoolAccount
  /** The error for this task running past its request's budget. */
  overBudget: () => Error
  /** Estimated long: it may not take the last free thread, kept for light work. */
  heavy: boolean
  controller: AbortController
  /** Ends the task's clock and charges its request, once a thread took it: the CPU the thread reported, else the wall time. */
  settle?: ((cpuMs: number | undefined) => void) | undefined
  resolve: (value: unknown) => void
  reject: (err: Error) => void
}

/** The pool of one process. */
export class ThreadPool {
  private readonly piscina: Piscina
  private readonly queue = new FairQueue<QueuedTask>()
  private readonly running = new Set<QueuedTask>()
  private readonly runningByClient = new Map<string, number>()
  private closed = false

  constructor (private readonly options: PoolOptions) {
    const threads = Math.max(1, options.threads)
    this.piscina = new Piscina({
      filename: fileURLToPath(new URL('./pool-entry.mjs', import.meta.url)),
      minThreads: threads,
      maxThreads: threads,
      // the fair queue hands Piscina a task only when a thread is free (or starting)
      concurrentTasksPerWorker: 1,
      // an idle thread waits on its event loop, not blocked in Atomics.wait: its timers run (idle-gc.ts)
      atomics: 'async',
      // a thread inherits the process's options, and refuses some as a file entry (--input-type)
      // or in a thread at all (V8's): it needs none of them (pool-entry.mjs loads what it runs)
      execArgv: process.execArgv.filter(arg => arg === '--enable-source-maps' || arg === '--no-warnings'),
      workerData: { preload: options.preload ?? [] },
      // a thread's heap is bounded: a task that would need more is stopped as over its budget
      // (its request's 400), and V8 collects within the bound instead of growing every heap to the process's
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? POOL_HEAP_MB },
      // our own balancer: the idle thread that ran the request's last task, else the first; a task is
      // watched from when a thread takes it (not while a replaced thread starts)
      loadBalancer: (task, threads) => this.pick((task as unknown as Record<symbol, { entry?: QueuedTask } | null>)[Piscina.queueOptionsSymbol]?.entry, threads)
    })
  }

  /** Resolves once every thread has started and loaded what it preloads (a task on each, outside the queue: nothing else runs yet). */
  async ready (): Promise<void> {
    const module = taskModule(import.meta.url, './pool-thread')
    await Promise.all(Array.from({ length: this.size }, async () => await this.piscina.run({ module, fn: 'ready', args: [] })))
  }

  /** Threads in the pool. */
  get size (): number {
    return this.piscina.options.maxThreads
  }

  /** Tasks waiting for a thread, and running. */
  stats (): { waiting: number, running: number } {
    return { waiting: this.queue.size, running: this.running.size }
  }

  /**
   * Runs export `fn` of `module` on a thread in the request's turn; resolves with what it
   * returned, or rejects with what it threw (the service's errors as themselves), the request's
   * abort reason, `overBudget()` when it ran past the request's CPU budget, or the busy error.
   */
  async run<T> (call: TaskCall, work: PoolAccount, options: { overBudget: () => Error, heavy?: boolean | undefined }): Promise<T> {
    if (this.closed) throw this.options.busyError(0)
    if (work.exhausted) throw work.exhausted
    if (work.signal?.aborted === true) throw work.signal.reason
    if (work.spentMs >= work.budgetMs) throw (work.exhausted = options.overBudget())
    if (work.waitedMs >= this.options.queueMs) throw (work.exhausted = this.options.busyError(work.waitedMs))
    return await new Promise<T>((resolve, reject) => {
      const entry: QueuedTask = {
        call,
        work,
        overBudget: options.overBudget,
        heavy: options.heavy === true,
        controller: new AbortController(),
        resolve: resolve as (value: unknown) => void,
        reject
      }
      const onAbort = (): void => {
        if (this.queue.remove(work.client, entry)) {
          this.unqueue(entry)
          // the request's own reason (its deadline, its client gone), as every other await would throw it
          entry.reject(work.signal!.reason as Error)
        } else {
          entry.controller.abort(work.signal!.reason)
        }
      }
      work.signal?.addEventListener('abort', onAbort, { once: true })
      const settle = entry.resolve
      const fail = entry.reject
      entry.resolve = value => { work.signal?.removeEventListener('abort', onAbort); settle(value) }
      entry.reject = err => { work.signal?.removeEventListener('abort', onAbort); fail(err) }
      this.queue.push(work.client, entry)
      work.queued.add(entry)
      this.watchWait(work)
      this.dispatch()
    })
  }

  /** Stops every thread; waiting and running tasks fail. */
  async close (): Promise<void> {
    this.closed = true
    for (const entry of this.queue.drain()) {
      this.unqueue(entry)
      entry.reject(this.options.busyError(0))
    }
    await this.piscina.destroy()
  }

  /**
   * Counts a request's wait: from when it has tasks queued and none running, until one starts.
   * Past what is left of its allowance, its queued tasks are refused (and every later one).
   */
  private watchWait (work: PoolAccount): void {
    const waiting = work.queued.size > 0 && work.running === 0
    if (waiting && work.waitingSince === undefined) {
      work.waitingSince = performance.now()
      work.waitTimer = setTimeout(() => {
        work.waitedMs += performance.now() - work.waitingSince!
        work.waitingSince = undefined
        work.waitTimer = undefined
        const error = work.exhausted = this.options.busyError(work.waitedMs)
        for (const entry of [...work.queued]) {
          if (!this.queue.remove(work.client, entry)) continue
          work.queued.delete(entry)
          entry.reject(error)
        }
      }, Math.max(0, this.options.queueMs - work.waitedMs))
      work.waitTimer.unref()
    } else if (!waiting && work.waitingSince !== undefined) {
      work.waitedMs += performance.now() - work.waitingSince
      work.waitingSince = undefined
      clearTimeout(work.waitTimer)
      work.waitTimer = undefined
    }
  }

  /** A task leaves its request's queue (it starts, or is given up). */
  private unqueue (entry: QueuedTask): void {
    entry.work.queued.delete(entry)
    this.watchWait(entry.work)
  }

  /** How many threads one client may hold: all but one, so that another client always finds one. */
  private get perClient (): number {
    return allButOne(this.size)
  }

  /**
   * Starts waiting tasks while threads are free, clients in turn: a client holds at most all threads
   * but one, and heavy tasks (of every client together) too, so a light task of anyone never waits
   * for a long one to end.
   */
  private dispatch (): void {
    while (!this.closed && this.running.size < this.size) {
      let heavyRunning = 0
      for (const entry of this.running) if (entry.heavy) heavyRunning++
      const entry = this.queue.shift((client, next) =>
        (this.runningByClient.get(client) ?? 0) < this.perClient && (!next.heavy || heavyRunning < this.perClient))
      if (entry === undefined) return
      this.start(entry)
    }
  }

  private pick<W extends { id: number, currentUsage: number, terminating: boolean, destroyed: boolean }> (entry: QueuedTask | undefined, threads: W[]): W | null {
    const idle = threads.filter(t => t.currentUsage === 0 && !t.terminating && !t.destroyed)
    const chosen = idle.find(t => t.id === entry?.work.lastThread) ?? idle[0] ?? null
    if (chosen !== null && entry !== undefined) {
      entry.work.lastThread = chosen.id
      this.meter(entry, chosen.id)
    }
    return chosen
  }

  private start (entry: QueuedTask): void {
    const { work, call } = entry
    work.running++
    this.unqueue(entry)
    const client = work.client ?? ''
    this.running.add(entry)
    this.runningByClient.set(client, (this.runningByClient.get(client) ?? 0) + 1)
    const done = (): void => {
      work.running--
      this.watchWait(work)
      this.running.delete(entry)
      const left = (this.runningByClient.get(client) ?? 1) - 1
      if (left === 0) this.runningByClient.delete(client)
      else this.runningByClient.set(client, left)
      this.dispatch()
    }
    // the entry rides along for the balancer (a symbol key: it stays here, nothing of it is sent)
    const task = { module: call.module, fn: call.fn, args: call.args, [Piscina.queueOptionsSymbol]: { entry } }
    const running = this.piscina.run(task, {
      signal: entry.controller.signal,
      ...(call.transfer === undefined ? {} : { transferList: call.transfer })
    }) as Promise<TaskAnswer>
    running.then(answer => {
      done()
      entry.settle?.(answer.cpuMs)
      if ('error' in answer) entry.reject(revive(answer.error, 'pool thread'))
      else entry.resolve(answer.result)
    }, (err: unknown) => {
      done()
      entry.settle?.(undefined)
      // the thread ran out of its heap on this task: the task's request asked too much of it
      if ((err as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') return entry.reject(work.exhausted = entry.overBudget())
      const reason: unknown = entry.controller.signal.aborted ? entry.controller.signal.reason : err
      entry.reject(reason instanceof Error ? reason : new Error(`pool thread: ${String(reason)}`))
    })
  }

  /**
   * Watches a task from when a thread takes it, and stops it once its thread's CPU time passes
   * what is left of its request's budget. CPU time never outruns wall time, so the thread's CPU is
   * read only when that much wall time has passed (never, for a task that ends before), and again
   * when what it used could have reached the budget; a thread starved past WALL_FACTOR times the
   * budget is stopped too. A task that ends pays the CPU time its thread reported.
   */
  private meter (entry: QueuedTask, threadId: number): void {
    const { work } = entry
    const thread = this.piscina.threads.find(t => t.threadId === threadId) as Worker | undefined
    const left = Math.max(0, work.budgetMs - work.spentMs)
    const started = performance.now()
    const cpuMs = async (): Promise<number> => await thread!.cpuUsage().then(({ user, system }) => (user + system) / 1000)
    // a thread not yet running cannot be read: then all its CPU counts (its start included), which errs towards stopping
    const from = thread === undefined ? undefined : cpuMs().catch(() => 0)
    const stop = (): void => {
      // the only way to interrupt synchronous code: stop the thread (Piscina starts another)
      entry.controller.abort(work.exhausted = entry.overBudget())
    }
    // a starved thread (or one whose CPU cannot be read) is stopped at the wall-time bound
    const hard = setTimeout(stop, left * WALL_FACTOR)
    hard.unref()
    let timer: NodeJS.Timeout | undefined
    const check = (): void => {
      if (from === undefined) return stop()
      Promise.all([from, cpuMs()]).then(([a, b]) => {
        if (entry.settle === undefined) return
        if (b - a >= left) return stop()
        timer = setTimeout(check, left - (b - a))
        timer.unref()
      }, () => {})
    }
    timer = setTimeout(check, left)
    timer.unref()
    entry.settle = cpu => {
      clearTimeout(timer)
      clearTimeout(hard)
      entry.settle = undefined
      work.spentMs += cpu ?? performance.now() - started
    }
  }
}

/** The process's pool, made on first use with the settings configureProcessPool gave (app.ts). */
let processWide: ThreadPool | undefined
let processSettings: PoolOptions | undefined

/** Sets the process pool's size and wait allowance (from the service's configuration); takes effect when it is made. */
export function configureProcessPool (options: PoolOptions): void {
  processSettings = options
}

/** The process's one thread pool (with the machine's cores and the default wait when nothing configured it). */
export function processPool (): ThreadPool {
  processWide ??= new ThreadPool(processSettings ?? {
    threads: poolThreads(1),
    queueMs: DEFAULT_DOCUMENT_QUEUE_MS,
    busyError: waited => new DocumentsBusyError(waited)
  })
  return processWide
}

/**
 * Threads for one of `workers` processes: its share of the cores, and at least two, so that one
 * client's long task (it cannot be interrupted) always leaves a thread to the others.
 */
export function poolThreads (workers: number): number {
  return processShare(machineCores(), workers, 2)
}

/**
 * A port's runner on a pool (core/documents/offload.ts's DocumentRunner): each request an account,
 * each task a call of export `fn` of `module` with the task as its one argument.
 */
export function poolRunner<T, R> (pool: () => ThreadPool, module: string, fn: string): {
  account: (budgetMs: number, signal?: AbortSignal) => { readonly spentMs: number, run: (task: T, options: { heavy: boolean, overBudget: () => Error }) => Promise<R> }
} {
  return {
    account: (budgetMs, signal) => {
      const account = new PoolAccount(budgetMs, signal)
      return {
        get spentMs () { return account.spentMs },
        run: async (task, options) => await pool().run<R>({ module, fn, args: [task] }, account, options)
      }
    }
  }
}
