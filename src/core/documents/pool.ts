/**
 * Document threads: the document work of a request that can take long (parsing, segmenting,
 * rebuilding; see tasks.ts) runs here, off the event loop, so that /health and other clients stay
 * fast while one request is heavy. Scheduling is fair between requests: each request is a lane,
 * a lane has at most one task running at a time (its other tasks queue behind it), and lanes take
 * turns. Tasks estimated heavy may hold all threads but one, so a light task (a legitimate
 * document of a few KB) never waits behind more than one light task of each other request. Each
 * lane has a budget of thread time; a task that runs past what is left of it is stopped (its
 * thread terminated and replaced) and refused with a 400 at its document's path. And a request may
 * wait for threads only so long in all (its reading and rebuilding together): when more heavy
 * work arrives than the threads can serve, the request that would wait longer is refused with a
 * 503 and Retry-After rather than answered minutes later.
 */
import { availableParallelism } from 'node:os'
import { DocumentsBusyError, invalidField, ValidationError, type FieldPath, type FieldProblem } from '../../errors.js'
import type { Worker } from 'node:worker_threads'
import { DEFAULT_DOCUMENT_QUEUE_MS } from '../../shared/limits.js'
import { startModuleThread } from '../../shared/module-thread.js'
import type { DocumentTask, TaskResult } from './tasks.js'

/** Threads per process: the cores, and at least two so that one is always left for light tasks. */
export const DOCUMENT_THREADS = Math.max(2, availableParallelism())
/** Thread CPU time one lane (a request's reading, or its rebuilding) may use in all. */
export const DOCUMENT_BUDGET_MS = 5000
/** A task is stopped after this many times what is left of its budget in wall time, whatever its CPU time (a starved thread). */
const WALL_FACTOR = 4
/** How often a running task's CPU time is read. */
const CHECK_MS = 100
/**
 * A task estimated light that runs longer than this was not light (a small pathological document):
 * its lane's later tasks count as heavy, so they no longer take the thread kept for light work.
 */
const LIGHT_TASK_MS = 100
/** An idle thread is stopped after this long (a thread holds the document core: tens of MB). */
const IDLE_MS = 60_000

let queueMs = DEFAULT_DOCUMENT_QUEUE_MS

/** Sets how long one request's tasks may wait for threads in all (from the service's configuration). */
export function setDocumentQueueTimeout (ms: number): void {
  queueMs = ms
}

/** What a request's lanes (its reading and its rebuilding) share: their wait for threads, and whether its work proved heavy. */
export class QueueAccount {
  waitedMs = 0
  /** Set when one of its light tasks ran long: its tasks count as heavy from then on. */
  heavy = false
}

/** Whether a job counts as heavy: estimated so, or its request's light work proved slow. */
function isHeavy (job: Job): boolean {
  return job.heavy || job.lane.account.heavy
}

/** One request's turn in the pool: its tasks run one after another, within its budget. */
export class DocumentLane {
  spentMs = 0
  /** Set once the budget ran out (or the wait): every later task of the lane is refused at once. */
  exhausted: Error | undefined
  readonly queue: Job[] = []
  running = false
  /** Fires when the queued task at the head of the lane has waited what is left of the account. */
  waitTimer: NodeJS.Timeout | undefined
  constructor (readonly budgetMs = DOCUMENT_BUDGET_MS, readonly signal?: AbortSignal, readonly account = new QueueAccount()) {
    // a request that is gone no longer needs its queued tasks
    signal?.addEventListener('abort', () => failQueued(this, signal.reason as Error), { once: true })
  }
}

/** Fails every queued task of a lane. */
function failQueued (lane: DocumentLane, error: Error): void {
  clearTimeout(lane.waitTimer)
  lane.waitTimer = undefined
  for (const job of lane.queue.splice(0)) job.reject(error)
}

/** The 503 for a request whose documents waited for threads longer than allowed. */
function tooBusy (): DocumentsBusyError {
  return new DocumentsBusyError(queueMs)
}

/**
 * Counts the wait of the lane's head task against the request's account: a task waits at most what
 * is left of it (from when it became the head, or since it was queued when the lane was idle).
 */
function watchWait (lane: DocumentLane): void {
  clearTimeout(lane.waitTimer)
  lane.waitTimer = undefined
  const head = lane.queue[0]
  if (head === undefined || lane.running) return
  head.waitingSince ??= performance.now()
  const left = queueMs - lane.account.waitedMs - (performance.now() - head.waitingSince)
  lane.waitTimer = setTimeout(() => {
    lane.waitTimer = undefined
    if (lane.queue[0] !== head || lane.running) return
    // the request's other document work (its rebuilding) is refused at once too
    lane.account.waitedMs += performance.now() - head.waitingSince!
    const error = tooBusy()
    lane.exhausted = error
    failQueued(lane, error)
    const at = waiting.indexOf(lane)
    if (at !== -1) waiting.splice(at, 1)
  }, Math.max(0, left))
  lane.waitTimer.unref()
}

interface Job {
  id: number
  task: DocumentTask
  lane: DocumentLane
  heavy: boolean
  /** When it started waiting for a thread (as the head of its idle lane). */
  waitingSince?: number
  resolve: (result: TaskResult) => void
  reject: (err: Error) => void
}

interface Thread {
  worker: Worker
  ready: boolean
  running?: { job: Job, timer: NodeJS.Timeout, started: number, cpu: Promise<number> }
  idle?: NodeJS.Timeout
}

const threads: Thread[] = []
/** Lanes with queued tasks, in turn order. */
const waiting: DocumentLane[] = []
let nextId = 0

/** The 400 for a document whose work ran past its request's budget. */
function overBudget (path: FieldPath, budgetMs: number): ValidationError {
  return invalidField(path, `this document is too complex: processing it took more than ${budgetMs / 1000} s; simplify or split it, or send it as text/plain`)
}

/** The error a thread posted, as the error the task would have thrown inline. */
function rebuildError (error: { invalid: boolean, message: string, errors?: FieldProblem[], aboutField?: boolean }): Error {
  return error.invalid ? new ValidationError(error.message, error.errors, error.aboutField) : new Error(`document thread: ${error.message}`)
}

/** Ends the thread's task and frees the thread; the lane's time is counted. */
function settle (thread: Thread, outcome: { result: TaskResult } | { error: Error }): void {
  const running = thread.running
  if (running === undefined) return
  clearInterval(running.timer)
  thread.running = undefined
  // an idle thread does not keep the process alive
  thread.worker.unref()
  const { job } = running
  job.lane.running = false
  watchWait(job.lane)
  const wall = performance.now() - running.started
  if (wall > LIGHT_TASK_MS) job.lane.account.heavy = true
  if ('result' in outcome) job.resolve(outcome.result)
  else job.reject(outcome.error)
  // the lane pays the thread's CPU time (wall time when it cannot be read)
  if ('error' in outcome && job.lane.exhausted === outcome.error) return
  running.cpu.then(async start => {
    job.lane.spentMs += (await cpuMs(thread)) - start
  }, () => { job.lane.spentMs += wall }).catch(() => { job.lane.spentMs += wall })
}

/** Drops a thread that failed or was stopped, failing its task. */
function discard (thread: Thread, error: Error): void {
  const at = threads.indexOf(thread)
  if (at === -1) return
  threads.splice(at, 1)
  clearTimeout(thread.idle)
  settle(thread, { error })
  // a thread that cannot even load would fail again: fail the waiting work rather than loop;
  // a stopped one is replaced at once (loading takes a while), so the pool stays ready
  if (!thread.ready) for (const lane of waiting.splice(0)) failQueued(lane, error)
  else startThread()
  dispatch()
}

function startThread (): Thread {
  const worker = startModuleThread(import.meta.url, './document-worker')
  const thread: Thread = { worker, ready: false }
  worker.on('message', (msg: { ready?: true, id?: number, result?: TaskResult, error?: Parameters<typeof rebuildError>[0] }) => {
    if (msg.ready === true) {
      thread.ready = true
      worker.unref()
    } else if (thread.running?.job.id !== msg.id) return
    else settle(thread, msg.error ? { error: rebuildError(msg.error) } : { result: msg.result! })
    dispatch()
  })
  // a result this thread cannot post (too deep to clone)
  worker.on('messageerror', () => {
    const job = thread.running?.job
    settle(thread, { error: invalidField(job?.task.path ?? [], 'this document nests too deeply to be processed; simplify it or send it as text/plain') })
    dispatch()
  })
  worker.on('error', err => discard(thread, err))
  worker.on('exit', code => discard(thread, new Error(`document thread exited with code ${code}`)))
  // loading for waiting work keeps the process alive (a script awaiting a document); idle, it does not
  worker.once('online', () => { if (!thread.ready) worker.ref() })
  threads.push(thread)
  return thread
}

/** Whether a job may start now: heavy ones leave a thread for light ones. */
function mayStart (job: Job): boolean {
  if (!isHeavy(job)) return true
  return threads.filter(t => t.running !== undefined && isHeavy(t.running.job)).length < DOCUMENT_THREADS - 1
}

/** The next job in turn (lanes in turn order, one running task per lane), taken off its queue. */
function nextJob (): Job | undefined {
  for (let i = 0; i < waiting.length; i++) {
    const lane = waiting[i]!
    if (lane.exhausted) failQueued(lane, lane.exhausted)
    const job = lane.queue[0]
    if (job === undefined) {
      waiting.splice(i--, 1)
      continue
    }
    if (lane.running || !mayStart(job)) continue
    lane.queue.shift()
    // the lane goes to the back of the turn order (or leaves it when it has nothing left)
    waiting.splice(i, 1)
    if (lane.queue.length > 0) waiting.push(lane)
    return job
  }
  return undefined
}

function dispatch (): void {
  for (;;) {
    const free = threads.find(t => t.ready && t.running === undefined)
    if (free === undefined) {
      // the whole pool starts with the first work (a thread takes a while to load the document
      // core); work goes to the threads once they are loaded
      if (waiting.length > 0) while (threads.length < DOCUMENT_THREADS) startThread()
      return
    }
    const job = nextJob()
    if (job === undefined) break
    run(free, job)
  }
  for (const thread of threads) if (thread.ready && thread.running === undefined && thread.idle === undefined) idle(thread)
}

function run (thread: Thread, job: Job): void {
  clearTimeout(thread.idle)
  thread.idle = undefined
  const { lane } = job
  if (job.waitingSince !== undefined) lane.account.waitedMs += performance.now() - job.waitingSince
  clearTimeout(lane.waitTimer)
  lane.waitTimer = undefined
  const left = Math.max(0, lane.budgetMs - lane.spentMs)
  const started = performance.now()
  const cpu = cpuMs(thread)
  const stop = (): void => {
    if (thread.running?.job !== job) return
    // the only way to interrupt synchronous code: stop the thread (a new one replaces it)
    const error = overBudget(job.task.path, lane.budgetMs)
    lane.exhausted = error
    discard(thread, error)
    thread.worker.terminate().catch(() => {})
  }
  // CPU time, so that a busy machine does not refuse what an idle one serves; wall time bounds a starved thread
  const timer = setInterval(() => {
    const wall = performance.now() - started
    // a light task running long proves its request heavy while it runs (its next tasks wait for a heavy slot)
    if (wall > LIGHT_TASK_MS) lane.account.heavy = true
    if (wall > left * WALL_FACTOR) return stop()
    Promise.all([cpu, cpuMs(thread)]).then(([from, now]) => { if (now - from > left) stop() }, () => {})
  }, Math.min(CHECK_MS, Math.max(10, left)))
  lane.running = true
  thread.worker.ref()
  thread.running = { job, timer, started, cpu }
  thread.worker.postMessage({ id: job.id, task: job.task })
}

/** The CPU time a thread has used, in ms. */
async function cpuMs (thread: Thread): Promise<number> {
  const { user, system } = await thread.worker.cpuUsage()
  return (user + system) / 1000
}

function idle (thread: Thread): void {
  clearTimeout(thread.idle)
  thread.idle = setTimeout(() => {
    const at = threads.indexOf(thread)
    if (thread.running !== undefined || at === -1) return
    threads.splice(at, 1)
    thread.worker.removeAllListeners('exit')
    thread.worker.terminate().catch(() => {})
  }, IDLE_MS)
  thread.idle.unref()
}

/** Runs a task on a document thread in its lane's turn. */
export function runInPool (task: DocumentTask, lane: DocumentLane, heavy: boolean): Promise<TaskResult> {
  if (lane.exhausted) return Promise.reject(lane.exhausted)
  if (lane.account.waitedMs >= queueMs) return Promise.reject(tooBusy())
  if (lane.spentMs >= lane.budgetMs) return Promise.reject(overBudget(task.path, lane.budgetMs))
  if (lane.signal?.aborted === true) return Promise.reject(lane.signal.reason)
  return new Promise((resolve, reject) => {
    lane.queue.push({ id: nextId++, task, lane, heavy, resolve, reject })
    if (!waiting.includes(lane)) waiting.push(lane)
    if (lane.queue.length === 1) watchWait(lane)
    dispatch()
  })
}
