/**
 * Document jobs with REDIS_URL: one BullMQ queue on Redis that every replica adds to and works
 * from, so any replica answers a job's status and result, and a job whose replica died (its lock
 * not renewed) goes back to waiting for another (BullMQ's stalled-job check). A job's id carries
 * its client's folder name, so a client finds only its own. Jobs are taken in turn by client: a
 * job's priority is how many jobs its client has open when it is added (a client's third job waits
 * behind every other client's first and second), and one client holds at most all of a replica's
 * slots but one: a job taken past that is put back for a second (delayed), so the slot stays free
 * for another client's job. Cancelling sets a key the working replica looks
 * at every 2 s (or cancels at once when it is the one asked), and a replica taking a waiting job
 * first; the key lives until the job ends, however long it waits. What a client's jobs keep (their
 * requests and results, JOB_STORAGE_PER_CLIENT) is counted in a hash per client, job id to bytes,
 * read and added to under the client's lock; a job BullMQ removed (expired, deleted) leaves it as
 * it is counted.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { Queue, Worker, Job } from 'bullmq'
import type * as BullMq from 'bullmq'
import type { Redis } from 'ioredis'
import type * as IoRedis from 'ioredis'
import { lazyPackage } from '../lib/lazy-package.js'
import { ServiceError, ServiceUnavailableError } from '../errors.js'
import { withClient } from '../lib/clients.js'
import { allButOne } from '../lib/fair-slots.js'
import { FINISHED, type JobError, type JobState } from './store.js'
import { JobStorageFullError, checkRoom, jobTimedOut, type FinishListener, type FoundJob, type JobQueue, type JobWork, type JobsOptions } from './queue.js'

const QUEUE = 'document-jobs'
/** How often a replica looks for cancel requests of the jobs it works, and counts waiting jobs. */
const TICK_MS = 2000
const PROGRESS_MS = 200
/** A replica that stops renewing its lock this long (dead) has its jobs taken by another. */
const LOCK_MS = 10_000
/** How long closing waits for Redis before it lets go (its jobs then wait for their locks to lapse). */
const CLOSE_MS = 3000
/** The longest a client's call waits for Redis before it is answered 503. */
const CALL_MS = 3000
/** The most a submission holds its client's lock (it lapses by itself if the replica dies holding it). */
const SUBMIT_LOCK_MS = 5000
/** How long a worker waits for its client's lock to count a result in (submissions wait CALL_MS / 2). */
const RESULT_LOCK_WAIT_MS = 4 * SUBMIT_LOCK_MS
/** Deletes a lock only when it still holds the token it was taken with. */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
/** A failed job's reason: the error, as JSON after this prefix (cancelled jobs say CANCELLED). */
const ERROR_PREFIX = 'job-error:'
const CANCELLED = 'cancelled'
/** How long a job taken while its client held all the replica's slots it may waits before it is taken again. */
const HELD_BACK_MS = 1000

interface JobData {
  client: string
  request: string
  meta?: Record<string, string>
}

type DocumentJob = Job<JobData, string>

class Stop extends Error {
  constructor (readonly why: 'cancel' | 'shutdown' | 'timeout') {
    super(`job ${why}`)
  }
}

/** bullmq and ioredis, loaded when REDIS_URL makes a queue (~7 MB of heap a process without Redis need not hold). */
const bullmq = lazyPackage<typeof BullMq>('bullmq')
const ioredis = lazyPackage<typeof IoRedis>('ioredis')

export class RedisJobs implements JobQueue {
  private readonly queue: Queue<JobData, string>
  private worker: Worker<JobData, string> | undefined
  private readonly connection: { url: string, maxRetriesPerRequest: null }
  /** For the cancel keys. */
  private readonly redis: Redis
  private work?: JobWork
  private describe: (err: unknown) => JobError = () => ({ type: '/problems/internal-error', title: 'Internal server error', status: 500, detail: 'The job failed.' })
  private readonly listeners: FinishListener[] = []
  /** Jobs this replica works: their controllers (cancel, shutdown) and lock tokens. */
  private readonly active = new Map<string, { controller: AbortController, job: DocumentJob, token: string | undefined }>()
  private waiting = 0
  private timer: NodeJS.Timeout | undefined

  constructor (private readonly opts: JobsOptions & { redisUrl: string }) {
    this.connection = { url: opts.redisUrl, maxRetriesPerRequest: null }
    // a client's calls fail at once while Redis is away (the worker's connection waits for it instead)
    this.queue = new (bullmq().Queue)<JobData, string>(QUEUE, { connection: { url: opts.redisUrl, enableOfflineQueue: false } })
    this.queue.on('error', err => { opts.log.warn({ err }, 'job queue error') })
    this.redis = new (ioredis().Redis)(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 })
    this.redis.on('error', err => { opts.log.warn({ err }, 'job queue connection error') })
  }

  setWork (work: JobWork, describe: (err: unknown) => JobError): void {
    this.work = work
    this.describe = describe
  }

  /** Tells `listener` of each job this replica's worker ends (BullMQ's events of its worker: each job's end once). */
  onFinish (listener: FinishListener): void {
    this.listeners.push(listener)
  }

  counts (): { queued: number, running: number } {
    return { queued: this.waiting, running: this.active.size }
  }

  clientFolder (client: string): string {
    return createHash('sha256').update(client).digest('hex').slice(0, 32)
  }

  async start (): Promise<void> {
    this.worker = new (bullmq().Worker)<JobData, string>(QUEUE, async (job, token, signal) => await this.process(job, token, signal), {
      connection: this.connection,
      concurrency: this.opts.concurrency,
      lockDuration: LOCK_MS,
      stalledInterval: LOCK_MS / 2,
      // a job whose replica died is taken again, a few times at most
      maxStalledCount: 5
    })
    this.worker.on('error', err => { this.opts.log.warn({ err }, 'job worker error') })
    const ended = (job: DocumentJob | undefined, status: 'done' | 'failed' | 'cancelled'): void => {
      if (job === undefined) return
      const whose = { client: job.data.client, ...(job.data.meta === undefined ? {} : { meta: job.data.meta }) }
      for (const listener of this.listeners) listener(status, Math.max(0, (job.finishedOn ?? Date.now()) - job.timestamp) / 1000, whose)
    }
    // an ended job's cancel request is done with (a finished job is never looked at for one)
    const forget = (job: DocumentJob | undefined): void => { if (job?.id !== undefined) this.redis.del(this.cancelKey(job.id)).catch(() => {}) }
    this.worker.on('completed', job => { forget(job); ended(job, 'done') })
    this.worker.on('failed', job => { forget(job); ended(job, job?.failedReason === CANCELLED ? 'cancelled' : 'failed') })
    this.timer = setInterval(() => { this.tick().catch(err => { this.opts.log.warn({ err }, 'job tick failed') }) }, TICK_MS)
    this.timer.unref()
  }

  /** Jobs in hand go back to waiting for another replica (or this one after a restart). */
  async close (): Promise<void> {
    clearInterval(this.timer)
    for (const { controller } of this.active.values()) controller.abort(new Stop('shutdown'))
    // Redis away: the queue cannot be told anything, and the process must still stop
    let timer: NodeJS.Timeout | undefined
    const closed = await Promise.race([
      Promise.all([this.worker?.close(), this.queue.close()]).then(() => true),
      new Promise<false>(resolve => { timer = setTimeout(() => resolve(false), CLOSE_MS) })
    ])
    clearTimeout(timer)
    // not awaited: a connection still trying to connect does not end its promise
    if (!closed) for (const part of [this.worker, this.queue]) part?.disconnect().catch(() => {})
    this.redis.disconnect()
  }

  private async tick (): Promise<void> {
    // Redis away: nothing to look at (the worker waits for it by itself)
    if (this.redis.status !== 'ready') return
    for (const [id, { controller }] of this.active) {
      if (await this.cancelAsked(id)) controller.abort(new Stop('cancel'))
    }
    this.waiting = await this.queue.getWaitingCount() + await this.queue.getPrioritizedCount() + await this.queue.getDelayedCount()
    // jobs finished JOB_TTL ago are removed here (BullMQ removes them only as other jobs finish), so what they kept leaves their client's count
    const ttlMs = this.opts.ttlSeconds * 1000
    await Promise.all([this.queue.clean(ttlMs, 0, 'completed'), this.queue.clean(ttlMs, 0, 'failed')])
  }

  private cancelKey (jobId: string): string {
    return `bull:${QUEUE}:cancel:${jobId}`
  }

  private async cancelAsked (jobId: string): Promise<boolean> {
    return await this.redis.exists(this.cancelKey(jobId)) === 1
  }

  private async process (job: DocumentJob, token: string | undefined, signal: AbortSignal | undefined): Promise<string> {
    // a job cancelled while waiting ends now, not once its client has a slot free
    if (await this.cancelAsked(job.id!)) throw new Error(CANCELLED)
    // BullMQ fills the slots by priority alone: a client's slots past all but one are left to others
    let held = 0
    for (const { job: other } of this.active.values()) if (other.data.client === job.data.client) held++
    if (held >= allButOne(this.opts.concurrency)) {
      await job.moveToDelayed(Date.now() + HELD_BACK_MS, token)
      throw new (bullmq().DelayedError)()
    }
    const controller = new AbortController()
    this.active.set(job.id!, { controller, job, token })
    const onAbort = (): void => { controller.abort(new Stop('cancel')) }
    signal?.addEventListener('abort', onAbort, { once: true })
    const timer = setTimeout(() => controller.abort(new Stop('timeout')), this.opts.timeoutMs)
    try {
      await job.updateProgress({ done: 0, total: 0 })
      let written = 0
      const progress = (p: { done: number, total: number }): void => {
        if (Date.now() - written < PROGRESS_MS && p.done !== p.total) return
        written = Date.now()
        job.updateProgress({ done: p.done, total: p.total }).catch(() => {})
      }
      const result = await withClient(job.data.client, async () => await this.work!(Buffer.from(job.data.request, 'utf8'), controller.signal, progress))
      controller.signal.throwIfAborted()
      // a cancel asked through another replica is seen at this one's next tick only: a job that reads cancelled never ends done
      if (await this.cancelAsked(job.id!)) throw new Stop('cancel')
      const folder = this.clientFolder(job.data.client)
      await this.locked(folder, RESULT_LOCK_WAIT_MS, async () => {
        const bytes = Buffer.byteLength(job.data.request) + Buffer.byteLength(result)
        if (await this.stored(folder, job.id) + bytes > this.opts.storagePerClient) throw new JobStorageFullError(this.opts.storagePerClient)
        await this.keep(folder, job.id!, bytes)
      })
      return result
    } catch (err) {
      const reason = controller.signal.aborted ? controller.signal.reason as unknown : err
      if (reason instanceof Stop && reason.why === 'shutdown') {
        // back to waiting, for whichever replica takes it next
        await job.moveToWait(token)
        throw new (bullmq().WaitingError)()
      }
      if (reason instanceof Stop && reason.why === 'cancel') throw new Error(CANCELLED)
      const error: JobError = reason instanceof Stop ? jobTimedOut(this.opts.timeoutMs) : this.describe(reason)
      throw new Error(ERROR_PREFIX + JSON.stringify(error))
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      this.active.delete(job.id!)
    }
  }

  /** A call to Redis for a client: Redis away is the service's 503, not a 500. */
  private async guard<T> (call: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    try {
      // BullMQ waits for its connection: a Redis that is away must not hold the request
      return await Promise.race([call(), new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('Redis did not answer in time')), CALL_MS) })])
    } catch (err) {
      if (err instanceof ServiceError) throw err
      this.opts.log.warn({ err }, 'job queue call failed')
      throw new ServiceUnavailableError('Document jobs are kept in Redis (REDIS_URL), which does not answer; try again later.', 5)
    } finally {
      clearTimeout(timer)
    }
  }

  async submit (client: string, request: Buffer | string, meta?: Record<string, string>): Promise<JobState> {
    return await this.guard(async () => await this.add(client, request, meta))
  }

  private async add (client: string, request: Buffer | string, meta?: Record<string, string>): Promise<JobState> {
    const folder = this.clientFolder(client)
    // waiting for the lock takes at most half the call's time, so that a job is never added after its request was answered 503
    return await this.locked(folder, CALL_MS / 2, async () => await this.addLocked(client, folder, request, meta))
  }

  /** Runs `step` holding the client's lock, across replicas: counting what its jobs hold and adding to it are one step. */
  private async locked<T> (folder: string, waitMs: number, step: () => Promise<T>): Promise<T> {
    const lock = `bull:${QUEUE}:submit:${folder}`
    const token = randomUUID()
    const deadline = Date.now() + waitMs
    for (let wait = 5; await this.redis.set(lock, token, 'PX', SUBMIT_LOCK_MS, 'NX') !== 'OK'; wait = Math.min(2 * wait, 50)) {
      if (Date.now() + wait > deadline) throw new ServiceUnavailableError('Too many of this client\'s jobs are being posted at once; try again.', 1)
      await new Promise(resolve => setTimeout(resolve, wait))
    }
    try {
      return await step()
    } finally {
      // only if still ours: a lock that lapsed (SUBMIT_LOCK_MS) may be another's now
      await this.redis.eval(RELEASE, 1, lock, token).catch(() => {})
    }
  }

  private storedKey (folder: string): string {
    return `bull:${QUEUE}:stored:${folder}`
  }

  /** The bytes the client's jobs (but `except`) keep; jobs BullMQ removed (deleted, or expired: see tick) leave the count. */
  private async stored (folder: string, except?: string): Promise<number> {
    const key = this.storedKey(folder)
    const sizes = await this.redis.hgetall(key)
    const ids = Object.keys(sizes)
    if (ids.length === 0) return 0
    const pipeline = this.redis.pipeline()
    for (const id of ids) pipeline.exists(this.queue.toKey(id))
    const found = await pipeline.exec() ?? []
    let bytes = 0
    const gone: string[] = []
    ids.forEach((id, i) => {
      const [err, exists] = found[i] ?? []
      if (err == null && exists === 0) gone.push(id)
      else if (id !== except) bytes += Number(sizes[id])
    })
    if (gone.length > 0) await this.redis.hdel(key, ...gone)
    return bytes
  }

  /** Counts what the job keeps, `bytes` in all (the hash outlives the client's last job by its longest life, then goes). */
  private async keep (folder: string, jobId: string, bytes: number): Promise<void> {
    const key = this.storedKey(folder)
    await this.redis.multi().hset(key, jobId, bytes).expire(key, this.opts.ttlSeconds + Math.ceil(this.opts.timeoutMs / 1000) + 86_400).exec()
  }

  /** How many of these jobs have a cancel asked (they read cancelled, and count as the finished jobs they will be). */
  private async cancelledOf (jobIds: string[]): Promise<number> {
    if (jobIds.length === 0) return 0
    return await this.redis.exists(...jobIds.map(id => this.cancelKey(id)))
  }

  private async addLocked (client: string, folder: string, request: Buffer | string, meta?: Record<string, string>): Promise<JobState> {
    const mine = (await this.queue.getJobs(['waiting', 'prioritized', 'active', 'delayed'])).filter(j => j.id?.startsWith(`${folder}-`) === true).map(j => j.id!)
    // as on disk: a job cancelled is no longer queued or running, even before a replica has ended it
    const open = mine.length - await this.cancelledOf(mine)
    const text = request.toString()
    const bytes = Buffer.byteLength(text)
    checkRoom({ open, bytes: await this.stored(folder) }, bytes, this.opts)
    const id = randomUUID()
    // counted before it is added: a job whose add failed leaves the count when next counted
    await this.keep(folder, `${folder}-${id}`, bytes)
    const job = await this.queue.add('translate', { client, request: text, ...(meta === undefined ? {} : { meta }) }, {
      jobId: `${folder}-${id}`,
      // turns by client: its (open + 1)-th job waits behind every other client's earlier ones
      priority: Math.min(open + 1, 2_097_151),
      attempts: 1,
      removeOnComplete: { age: this.opts.ttlSeconds },
      removeOnFail: { age: this.opts.ttlSeconds }
    })
    return { id, status: 'queued', progress: { done: 0, total: 0 }, created: new Date(job.timestamp).toISOString() }
  }

  async get (client: string, id: string): Promise<FoundJob | undefined> {
    return await this.find(this.clientFolder(client), id)
  }

  async find (folder: string, id: string): Promise<FoundJob | undefined> {
    return await this.guard(async () => await this.lookup(folder, id))
  }

  private async lookup (folder: string, id: string): Promise<FoundJob | undefined> {
    if (!/^[0-9a-f]{32}$/.test(folder) || !/^[0-9a-f-]{36}$/.test(id)) return undefined
    const jobId = `${folder}-${id}`
    // its state first, then the job: a job read after its state holds what that state promises (a finished job's result or reason)
    const bull = await this.queue.getJobState(jobId)
    if (bull === 'unknown') return undefined
    const job = await this.queue.getJob(jobId) as DocumentJob | undefined
    if (job === undefined) return undefined
    const state = await this.stateOf(job, id, bull)
    if (state === undefined) return undefined
    return {
      state,
      ...(state.status === 'done' ? { result: job.returnvalue } : {}),
      ...(job.data.meta === undefined ? {} : { meta: job.data.meta })
    }
  }

  private async stateOf (job: DocumentJob, id: string, known?: Awaited<ReturnType<DocumentJob['getState']>>): Promise<JobState | undefined> {
    const bull = known ?? await job.getState()
    if (bull === 'unknown') return undefined
    const progress = typeof job.progress === 'object' && job.progress !== null && 'done' in job.progress ? job.progress as { done: number, total: number } : { done: 0, total: 0 }
    let status: JobState['status'] = bull === 'active' ? 'running' : bull === 'completed' ? 'done' : bull === 'failed' ? 'failed' : 'queued'
    let error: JobError | undefined
    if (status === 'failed') {
      if (job.failedReason === CANCELLED) status = 'cancelled'
      else if (job.failedReason?.startsWith(ERROR_PREFIX) === true) error = JSON.parse(job.failedReason.slice(ERROR_PREFIX.length)) as JobError
      else error = { type: '/problems/internal-error', title: 'Internal server error', status: 500, detail: 'The job stopped the replicas working it too many times; it is not tried again.' }
    }
    if (!FINISHED.has(status) && await this.cancelAsked(job.id!)) status = 'cancelled'
    const finished = job.finishedOn
    return {
      id,
      status,
      progress: { done: progress.done, total: progress.total },
      created: new Date(job.timestamp).toISOString(),
      ...(job.processedOn === undefined ? {} : { started: new Date(job.processedOn).toISOString() }),
      ...(finished === undefined || !FINISHED.has(status) ? {} : { finished: new Date(finished).toISOString(), expires: new Date(finished + this.opts.ttlSeconds * 1000).toISOString() }),
      ...(error === undefined ? {} : { error })
    }
  }

  async cancel (client: string, id: string): Promise<boolean> {
    return await this.guard(async () => await this.stop(client, id))
  }

  private async stop (client: string, id: string): Promise<boolean> {
    const jobId = `${this.clientFolder(client)}-${id}`
    const job = await this.queue.getJob(jobId) as DocumentJob | undefined
    if (job === undefined) return false
    // as BullMQ has it, not as asked: a job cancelled once reads cancelled before a replica has
    // ended it, and removed then (waiting) its end (a document's characters given back) never comes
    const bull = await job.getState()
    if (bull === 'unknown') return false
    if (bull === 'completed' || bull === 'failed') {
      await job.remove().catch(() => {})
      await this.redis.del(this.cancelKey(jobId))
      return true
    }
    // no expiry: a waiting job may wait longer than any; the replica that ends the job deletes it
    await this.redis.set(this.cancelKey(jobId), '1')
    this.active.get(jobId)?.controller.abort(new Stop('cancel'))
    // ended meanwhile (its end's delete ran before this set): nobody else would delete it
    const now = await job.getState()
    if (now === 'completed' || now === 'failed' || now === 'unknown') await this.redis.del(this.cancelKey(jobId))
    return true
  }
}
