/**
 * Document jobs: work a client hands in and fetches later. Each job lives on disk (store.ts), so
 * every process of the service answers its status and a restart resumes it; the process that took
 * it works it. Jobs wait for one of the process's job slots in their client's turn (FairSlots), and
 * one client holds at most all slots but one (a job cannot be interrupted and may work an hour), so
 * one client's backlog and long jobs delay only itself; what a job runs takes the pool and the
 * engines in its client's turn as a request would.
 */
import { randomUUID } from 'node:crypto'
import { basename, join } from 'node:path'
import { ServiceError } from '../errors.js'
import { allButOne, FairSlots } from '../lib/fair-slots.js'
import { withClient } from '../lib/clients.js'
import { CLAIM_STALE_MS, DamagedJobError, FINISHED, JobStore, type JobError, type JobState } from './store.js'

export type { JobError, JobState, JobStatus } from './store.js'

/** A job as its client reads it: its state, its result's JSON text when done, what its API kept with it. */
export interface FoundJob {
  state: JobState
  result?: string
  meta?: Record<string, string>
}

/** Whose job ended, and what its API kept with it (what it billed). */
export interface EndedJob {
  client: string
  meta?: Record<string, string>
}

/** Told once of each job's end, by the process that ended it: its status, the seconds since it was created, the job. */
export type FinishListener = (status: 'done' | 'failed' | 'cancelled', seconds: number, job: EndedJob) => void

/** Where jobs live: on disk (Jobs, below) or, with REDIS_URL, in a queue on Redis (./redis.ts). */
export interface JobQueue {
  setWork: (work: JobWork, describe: (err: unknown) => JobError) => void
  onFinish: (listener: FinishListener) => void
  /** Jobs this process holds (running), and those waiting (metrics). */
  counts: () => { queued: number, running: number }
  start: () => Promise<void>
  close: () => Promise<void>
  submit: (client: string, request: Buffer | string, meta?: Record<string, string>) => Promise<JobState>
  get: (client: string, id: string) => Promise<FoundJob | undefined>
  clientFolder: (client: string) => string
  find: (folder: string, id: string) => Promise<FoundJob | undefined>
  cancel: (client: string, id: string) => Promise<boolean>
}

/** What a job does: its request's bytes in, its result's JSON text out; `progress` as it goes. */
export type JobWork = (request: Buffer, signal: AbortSignal, progress: (state: { done: number, total: number }) => void) => Promise<string>

export interface JobsOptions {
  dataDir: string
  /** Seconds a finished job (and its result) is kept. */
  ttlSeconds: number
  /** Jobs one client may have queued or running at once. */
  perClient: number
  /** Bytes one client's jobs may keep (requests and results, finished jobs until they expire). */
  storagePerClient: number
  /** Jobs this process works at once. */
  concurrency: number
  /** How long one job may work (ms) before it fails. */
  timeoutMs: number
  log: { warn: (obj: object, msg: string) => void }
}

/** How often a process touches its claims, looks for cancel requests, and removes expired jobs. */
const TICK_MS = 2000
/** Writes of a job's progress at most this often. */
const PROGRESS_MS = 200
/** A job that stopped its process this many times is failed rather than taken again. */
const MAX_CLAIMS = 5

/** Why a job's work was called off. */
class Stop extends Error {
  constructor (readonly why: 'cancel' | 'shutdown' | 'timeout') {
    super(`job ${why}`)
  }
}

/** When a client with as many jobs as it may is told to try again: no job's end is known, so a few seconds (every 429 carries Retry-After). */
export const TOO_MANY_JOBS_RETRY_SECONDS = 10

/** 429: the client has as many jobs waiting and running as it may. */
export class TooManyJobsError extends ServiceError {
  constructor (limit: number) {
    super(429, 'too-many-jobs', 'Too many jobs', `This client has ${limit} ${limit === 1 ? 'job' : 'jobs'} queued or running, as many as it may (JOB_MAX_PER_CLIENT); wait for one to finish or cancel one.`,
      { headers: { 'retry-after': String(TOO_MANY_JOBS_RETRY_SECONDS) } })
  }
}

/** 429: the client's jobs keep as much as they may (a post) or would with this result (the job's error). */
export class JobStorageFullError extends ServiceError {
  constructor (limit: number) {
    super(429, 'job-storage-full', 'Jobs keep too much', `This client's jobs would keep more than ${limit} bytes (JOB_STORAGE_PER_CLIENT): requests, and results of finished jobs until they expire (JOB_TTL). Fetch finished jobs and DELETE them, or wait for them to expire.`,
      { headers: { 'retry-after': String(TOO_MANY_JOBS_RETRY_SECONDS) } })
  }
}

/** A job's error when what it kept on disk cannot be read back (`what`: its client, its result). */
export function jobDamaged (what: string): JobError {
  return { type: '/problems/internal-error', title: 'Internal server error', status: 500, detail: `The job's ${what} kept on disk is damaged and cannot be read; post the job again.` }
}

/** A job's error when it worked past JOB_TIMEOUT. */
export function jobTimedOut (timeoutMs: number): JobError {
  return { type: '/problems/job-timeout', title: 'Job timed out', status: 503, detail: `The job worked longer than ${timeoutMs / 1000} s and was stopped (JOB_TIMEOUT).` }
}

/** 413: the request alone is more than a client's jobs may keep. */
export class JobTooLargeError extends ServiceError {
  constructor (bytes: number, limit: number) {
    super(413, 'job-too-large', 'Job too large', `The request has ${bytes} bytes, more than a client's jobs may keep (JOB_STORAGE_PER_CLIENT, ${limit} bytes).`)
  }
}

/** What a client's jobs hold: those queued or running, and the bytes of all their requests and results. */
export interface Usage {
  open: number
  bytes: number
}

/** Refuses a job of `adding` bytes that `usage` (the client's, without it) leaves no room for. */
export function checkRoom (usage: Usage, adding: number, opts: Pick<JobsOptions, 'perClient' | 'storagePerClient'>): void {
  if (adding > opts.storagePerClient) throw new JobTooLargeError(adding, opts.storagePerClient)
  if (usage.open >= opts.perClient) throw new TooManyJobsError(opts.perClient)
  if (usage.bytes + adding > opts.storagePerClient) throw new JobStorageFullError(opts.storagePerClient)
}

interface Held {
  dir: string
  client: string
  claim: string
  controller: AbortController
}

export class Jobs implements JobQueue {
  readonly store: JobStore
  private readonly slots: FairSlots
  private readonly held = new Map<string, Held>()
  private timer: NodeJS.Timeout | undefined
  private closing = false
  private running = 0
  private sweeping: Promise<void> | undefined
  /** Job folders told of as damaged (each once, not every sweep). */
  private readonly damaged = new Set<string>()
  /** Each client's submission or result being kept in this process (the next waits for it). */
  private readonly turns = new Map<string, Promise<void>>()

  private readonly finishListeners: FinishListener[] = []
  private work?: JobWork
  private describe: (err: unknown) => JobError = () => ({ type: '/problems/internal-error', title: 'Internal server error', status: 500, detail: 'The job failed.' })

  constructor (private readonly opts: JobsOptions) {
    this.store = new JobStore(opts.dataDir)
    this.slots = new FairSlots(opts.concurrency, { perClient: allButOne(opts.concurrency) })
  }

  /** Jobs this process holds, by status (metrics). */
  counts (): { queued: number, running: number } {
    return { queued: this.held.size - this.running, running: this.running }
  }

  /** Tells `listener` of each job this process ends (metrics, a document's bill). */
  onFinish (listener: FinishListener): void {
    this.finishListeners.push(listener)
  }

  /** What jobs do, and the error a failed one reports (the routes know; set before start). */
  setWork (work: JobWork, describe: (err: unknown) => JobError): void {
    this.work = work
    this.describe = describe
  }

  /** Resumes the jobs nobody works, then keeps claims fresh and removes expired jobs. */
  async start (): Promise<void> {
    await this.sweep()
    this.timer = setInterval(() => { this.sweeping ??= this.sweep().catch(err => { this.opts.log.warn({ err }, 'job sweep failed') }).finally(() => { this.sweeping = undefined }) }, TICK_MS)
    this.timer.unref()
  }

  /** Stops working: jobs in hand go back to queued for the next process. */
  async close (): Promise<void> {
    this.closing = true
    clearInterval(this.timer)
    const stopping = [...this.held.values()].map(async h => { h.controller.abort(new Stop('shutdown')) })
    await Promise.all(stopping)
    await this.sweeping
    // give the jobs' own ends a moment to write their state
    for (let i = 0; i < 50 && this.held.size > 0; i++) await new Promise(resolve => setTimeout(resolve, 20))
  }

  /** A new job for `client`; its state. */
  async submit (client: string, request: Buffer | string, meta?: Record<string, string>): Promise<JobState> {
    return await this.inTurn(client, async () => await this.admit(client, request, meta))
  }

  /** Runs `step` after the client's earlier steps in this process: counting what its jobs hold and adding to it are one step. */
  private async inTurn<T> (client: string, step: () => Promise<T>): Promise<T> {
    const mine = (this.turns.get(client) ?? Promise.resolve()).then(step)
    const tail = mine.then(() => {}, () => {})
    this.turns.set(client, tail)
    try {
      return await mine
    } finally {
      if (this.turns.get(client) === tail) this.turns.delete(client)
    }
  }

  private async admit (client: string, request: Buffer | string, meta?: Record<string, string>): Promise<JobState> {
    checkRoom(await this.usage(client), Buffer.byteLength(request), this.opts)
    const state: JobState = { id: randomUUID(), status: 'queued', progress: { done: 0, total: 0 }, created: new Date().toISOString() }
    const { dir, claim } = await this.store.create(client, request, state, meta)
    // another process may have added this client's jobs meanwhile: counted again with this one in,
    // a job that finds too many (or too many bytes) steps back (each counts every job added before
    // its count, so those that stay are never more than the limits)
    const after = await this.usage(client)
    if (after.open > this.opts.perClient || after.bytes > this.opts.storagePerClient) {
      await this.store.remove(dir)
      throw after.open > this.opts.perClient ? new TooManyJobsError(this.opts.perClient) : new JobStorageFullError(this.opts.storagePerClient)
    }
    this.run(dir, client, claim)
    return state
  }

  /** Writes a job's result if the client's jobs have room for it, else refuses it (counted again once written, as a post is). */
  private async keepResult (dir: string, client: string, result: string): Promise<void> {
    const refuse = new JobStorageFullError(this.opts.storagePerClient)
    // one an earlier run wrote before its process stopped is not counted twice
    await this.store.removeResult(dir)
    if ((await this.usage(client)).bytes + Buffer.byteLength(result) > this.opts.storagePerClient) throw refuse
    await this.store.setResult(dir, result)
    if ((await this.usage(client)).bytes > this.opts.storagePerClient) {
      await this.store.removeResult(dir)
      throw refuse
    }
  }

  /** The client's jobs queued or running, and the bytes all its jobs keep, in every process (expired ones, about to be removed, not counted). */
  private async usage (client: string): Promise<Usage> {
    const usage = { open: 0, bytes: 0 }
    for (const dir of await this.store.ofClient(client)) {
      const state = await this.current(dir)
      if (state === undefined) continue
      if (!FINISHED.has(state.status)) usage.open++
      usage.bytes += await this.store.size(dir)
    }
    return usage
  }

  /** The job's state as its client sees it, and its result's JSON text when done; undefined: no such job (for this client). */
  async get (client: string, id: string): Promise<{ state: JobState, result?: string, meta?: Record<string, string> } | undefined> {
    return await this.read(this.store.jobDir(client, id))
  }

  /** The folder name a client's jobs are under (a hash of its key): what a link to a job may carry instead of the client. */
  clientFolder (client: string): string {
    return basename(this.store.clientDir(client))
  }

  /** A job found by its client's folder name (from clientFolder) and its id; undefined: none. */
  async find (folder: string, id: string): Promise<{ state: JobState, result?: string, meta?: Record<string, string> } | undefined> {
    if (!/^[0-9a-f]{32}$/.test(folder) || !/^[0-9a-f-]{36}$/.test(id)) return undefined
    return await this.read(join(this.store.dir, 'jobs', folder, id))
  }

  private async read (dir: string): Promise<{ state: JobState, result?: string, meta?: Record<string, string> } | undefined> {
    const state = await this.current(dir)
    if (state === undefined) return undefined
    const meta = await this.store.meta(dir)
    const withMeta = meta === undefined ? {} : { meta }
    if (state.status !== 'done') return { state, ...withMeta }
    try {
      return { state, result: await this.store.result(dir), ...withMeta }
    } catch (err) {
      // answered failed rather than as a result that is not JSON (its state on disk stays done, and expires as such)
      if (err instanceof DamagedJobError) {
        this.tellDamaged(dir, err)
        return { state: { ...state, status: 'failed', error: jobDamaged('result') }, ...withMeta }
      }
      // removed while being read (expired or deleted)
      return undefined
    }
  }

  /** Logs a damaged job folder, once: it is left as it is, for the operator (docs/operations.md). */
  private tellDamaged (dir: string, err: unknown): void {
    if (this.damaged.has(dir)) return
    this.damaged.add(dir)
    this.opts.log.warn({ err, job: dir }, 'job folder could not be read: left as it is')
  }

  /** Cancels a waiting or running job, or removes a finished one; false: no such job. */
  async cancel (client: string, id: string): Promise<boolean> {
    const dir = this.store.jobDir(client, id)
    // as stored, not as asked: a job cancelled once reads cancelled before the process working it
    // has ended it, and removed then its end (a document's characters given back) is never recorded
    const state = await this.unexpired(dir)
    if (state === undefined) return false
    if (FINISHED.has(state.status)) {
      await this.store.remove(dir)
      return true
    }
    await this.store.askCancel(dir)
    this.held.get(id)?.controller.abort(new Stop('cancel'))
    return true
  }

  /** When a finished job expires: JOB_TTL (as set now: an operator who lowers it frees what is kept at once) after it finished. */
  private expiry (state: JobState): number | undefined {
    if (state.finished !== undefined) return Date.parse(state.finished) + this.opts.ttlSeconds * 1000
    return state.expires === undefined ? undefined : Date.parse(state.expires)
  }

  /** The state as stored, with when it expires; an expired job, or one whose state is damaged, reads as none. */
  private async unexpired (dir: string): Promise<JobState | undefined> {
    const stored = await this.store.state(dir).catch((err: unknown) => {
      if (!(err instanceof DamagedJobError)) throw err
      this.tellDamaged(dir, err)
      return undefined
    })
    if (stored === undefined) return undefined
    const expires = this.expiry(stored)
    if (expires !== undefined && expires <= Date.now()) return undefined
    return expires === undefined ? stored : { ...stored, expires: new Date(expires).toISOString() }
  }

  /** The state, as asked: a cancel asked of an unfinished job reads cancelled; an expired job reads as none. */
  private async current (dir: string): Promise<JobState | undefined> {
    const state = await this.unexpired(dir)
    if (state === undefined) return undefined
    if (!FINISHED.has(state.status) && await this.store.cancelAsked(dir)) return { ...state, status: 'cancelled' }
    return state
  }

  /** Touches this process's claims, stops jobs cancelled through another process, removes expired jobs and takes jobs nobody works. */
  private async sweep (): Promise<void> {
    for (const h of this.held.values()) {
      await this.store.touch(h.claim)
      if (await this.store.cancelAsked(h.dir)) h.controller.abort(new Stop('cancel'))
    }
    const dirs = await this.store.all()
    for (const dir of dirs) {
      if (this.closing) return
      // one job's folder never holds back the others, nor the start: a damaged one is told once and left
      await this.sweepJob(dir).catch((err: unknown) => { this.tellDamaged(dir, err) })
    }
    const listed = new Set(dirs)
    for (const dir of this.damaged) if (!listed.has(dir)) this.damaged.delete(dir)
  }

  /** Removes the job if it expired, or takes it if nobody works it. */
  private async sweepJob (dir: string): Promise<void> {
    const state = await this.store.state(dir)
    if (state === undefined || this.held.has(state.id)) return
    if (FINISHED.has(state.status)) {
      const expires = this.expiry(state)
      if (expires !== undefined && expires <= Date.now()) await this.store.remove(dir)
      return
    }
    const claim = await this.store.claim(dir)
    if (claim === undefined) return
    let client: string
    try {
      client = await this.store.client(dir)
    } catch (err) {
      // whose turn it would take is not known: it fails, and expires as any other
      this.tellDamaged(dir, err)
      await this.finish(dir, undefined, state, 'failed', { error: jobDamaged('client') })
      return
    }
    if (await this.store.claims(dir) > MAX_CLAIMS) {
      await this.finish(dir, client, state, 'failed', { error: { type: '/problems/internal-error', title: 'Internal server error', status: 500, detail: `The job stopped the process working it ${MAX_CLAIMS} times; it is not tried again.` } })
      return
    }
    this.run(dir, client, claim)
  }

  /** Works a job this process claimed (in the background: its end is written to its state). */
  private run (dir: string, client: string, claim: string): void {
    this.runJob(dir, client, claim).catch(err => { this.opts.log.warn({ err, job: dir }, 'job could not record its end') })
  }

  private async runJob (dir: string, client: string, claim: string): Promise<void> {
    let state = await this.store.state(dir)
    if (state === undefined) return
    const id = state.id
    const controller = new AbortController()
    const h: Held = { dir, client, claim, controller }
    this.held.set(id, h)
    let slot = false
    try {
      if (await this.store.cancelAsked(dir)) throw new Stop('cancel')
      if (this.closing) throw new Stop('shutdown')
      // queued (again, after a restart: from the start)
      state = { ...state, status: 'queued', progress: { done: 0, total: 0 } }
      await this.store.setState(dir, state)
      await this.slots.acquire(client, controller.signal)
      slot = true
      this.running++
      state = { ...state, status: 'running', started: new Date().toISOString() }
      await this.store.setState(dir, state)
      const timer = setTimeout(() => controller.abort(new Stop('timeout')), this.opts.timeoutMs)
      let written = 0
      let writing: Promise<void> = Promise.resolve()
      const progress = (p: { done: number, total: number }): void => {
        state = { ...state!, progress: { done: p.done, total: p.total } }
        if (Date.now() - written < PROGRESS_MS && p.done !== p.total) return
        written = Date.now()
        const snapshot = state
        writing = writing.then(async () => { if (!controller.signal.aborted) await this.store.setState(dir, snapshot) }).catch(() => {})
      }
      let result: string
      try {
        const request = await this.store.request(dir)
        result = await withClient(client, async () => await this.work!(request, controller.signal, progress))
      } finally {
        clearTimeout(timer)
        await writing
      }
      controller.signal.throwIfAborted()
      // a cancel asked through another process is seen here at its next sweep only: looked for
      // before the result is kept and once it is, so that a job that reads cancelled never ends done
      await this.inTurn(client, async () => {
        if (await this.store.cancelAsked(dir)) throw new Stop('cancel')
        await this.keepResult(dir, client, result)
        if (await this.store.cancelAsked(dir)) {
          await this.store.removeResult(dir)
          throw new Stop('cancel')
        }
      })
      await this.finish(dir, client, state, 'done', {})
    } catch (err) {
      const reason = controller.signal.aborted ? controller.signal.reason : err
      if (reason instanceof Stop && reason.why === 'shutdown') {
        await this.store.setState(dir, { ...state, status: 'queued', progress: { done: 0, total: 0 } })
        await this.store.release(claim)
      } else if (reason instanceof Stop && reason.why === 'cancel') {
        await this.finish(dir, client, state, 'cancelled', {})
      } else {
        const error = reason instanceof Stop ? jobTimedOut(this.opts.timeoutMs) : this.describe(reason)
        await this.finish(dir, client, state, 'failed', { error })
      }
    } finally {
      if (slot) {
        this.running--
        this.slots.release(client)
      }
      this.held.delete(id)
    }
  }

  /** Writes the job's end; its listeners are told unless its client is not known (a damaged job's). */
  private async finish (dir: string, client: string | undefined, state: JobState, status: 'done' | 'failed' | 'cancelled', extra: Partial<JobState>): Promise<void> {
    // read before the end is written: a DELETE may remove the finished job at once
    const meta = await this.store.meta(dir)
    const now = Date.now()
    await this.store.setState(dir, {
      ...state,
      ...extra,
      status,
      finished: new Date(now).toISOString(),
      expires: new Date(now + this.opts.ttlSeconds * 1000).toISOString()
    })
    if (client === undefined) return
    const job = { client, ...(meta === undefined ? {} : { meta }) }
    for (const listener of this.finishListeners) listener(status, Math.max(0, now - Date.parse(state.created)) / 1000, job)
  }
}

export { CLAIM_STALE_MS }
