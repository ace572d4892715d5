/**
 * The warm pipelines, one per mode, started lazily. A pipeline holds ~100 MB (eng-spa) to ~1 GB
 * (oci-fra) in its processes, so at most `maxPipelines` run at once, whatever the load: a pipeline starts only
 * with a slot. When none is free, the least recently used idle pipelines are stopped to make
 * room; when every running one is busy, the pipeline waits (its requests at most
 * `requestTimeoutMs`), and a busy pipeline that has held its slot for `turnMs` gives it up once
 * what it has written is answered, so directions take turns instead of one waiting for another
 * to fall idle.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { ServiceUnavailableError, UpstreamError } from '../../../errors.js'
import type { Mode } from './modes.js'
import { Pipeline, type Slots } from './pipeline.js'

const run = promisify(execFile)

export interface PoolOptions {
  requestTimeoutMs: number
  idleMs: number
  maxPending: number
  maxPipelines: number
  /** How long a busy pipeline keeps its slot while another waits for one. */
  turnMs: number
}

export class PipelinePool implements Slots {
  private readonly options: PoolOptions
  /** By mode name, in least-recently-used order (oldest first). */
  private readonly pipelines = new Map<string, Promise<Pipeline>>()
  private readonly live = new Map<string, Pipeline>()
  /** Pipelines holding a slot, with when they got it. */
  private readonly holders = new Map<Pipeline, number>()
  /** Processes killed that have not exited yet: their slots are not free yet. */
  private dying = 0
  /** Pipelines waiting for a slot, first come first served. */
  private waiters: Pipeline[] = []
  private scheduled = false
  private turnTimer: NodeJS.Timeout | undefined
  private closed = false

  constructor (options: PoolOptions) {
    this.options = { ...options, maxPipelines: Math.max(1, options.maxPipelines) }
  }

  /** The pipeline of a mode (its process starts on the first request). */
  get (mode: Mode): Promise<Pipeline> {
    let pipeline = this.pipelines.get(mode.name)
    if (pipeline) {
      // re-insert: most recently used last
      this.pipelines.delete(mode.name)
    } else {
      pipeline = this.create(mode)
      pipeline.catch(() => this.pipelines.delete(mode.name))
    }
    this.pipelines.set(mode.name, pipeline)
    return pipeline
  }

  /** Running pipelines by mode name. */
  running (): string[] {
    return [...this.live.values()].filter(p => p.running).map(p => p.mode)
  }

  /** Kills every pipeline; pending requests fail. */
  close (): void {
    this.closed = true
    clearTimeout(this.turnTimer)
    this.waiters = []
    for (const pipeline of this.live.values()) pipeline.close()
    this.live.clear()
    this.pipelines.clear()
    this.holders.clear()
  }

  /** The process groups running now (to be killed with the process that started them). */
  processGroups (): number[] {
    return [...this.live.values()].map(p => p.processGroup).filter((g): g is number => g !== undefined)
  }

  /** Kills every process group synchronously (for process exit). */
  killAll (): void {
    for (const pipeline of this.live.values()) pipeline.kill()
  }

  // Slots: bookkeeping only; stopping and granting happen in dispatch(), never inside a pipeline's call

  request (pipeline: Pipeline): boolean {
    if (this.holders.has(pipeline)) return true
    if (this.holders.size + this.dying < this.options.maxPipelines && this.waiters.length === 0) {
      this.holders.set(pipeline, Date.now())
      return true
    }
    if (!this.waiters.includes(pipeline)) this.waiters.push(pipeline)
    this.schedule()
    return false
  }

  withdraw (pipeline: Pipeline): void {
    this.waiters = this.waiters.filter(p => p !== pipeline)
  }

  release (pipeline: Pipeline, exited: Promise<void>): void {
    if (!this.holders.delete(pipeline)) return
    this.dying++
    exited.then(() => {
      this.dying--
      if (this.waiters.length > 0) this.schedule()
    }, () => {})
  }

  idle (): void {
    if (this.waiters.length > 0) this.schedule()
  }

  private schedule (): void {
    if (this.scheduled || this.closed) return
    this.scheduled = true
    queueMicrotask(() => {
      this.scheduled = false
      this.dispatch()
    })
  }

  /** Hands free slots to waiting pipelines, then makes room for the ones still waiting. */
  private dispatch (): void {
    if (this.closed) return
    clearTimeout(this.turnTimer)
    this.turnTimer = undefined
    while (this.holders.size + this.dying < this.options.maxPipelines && this.waiters.length > 0) {
      const next = this.waiters.shift()!
      this.holders.set(next, Date.now())
      next.grant()
    }
    // slots of processes still exiting come free by themselves
    let needed = this.waiters.length - this.dying
    if (needed <= 0) return
    // idle pipelines first, least recently used first (their stop() frees a slot and comes back here)
    for (const name of this.pipelines.keys()) {
      const pipeline = this.live.get(name)
      if (!pipeline || !this.holders.has(pipeline) || pipeline.pending > 0) continue
      pipeline.stop()
      if (--needed === 0) return
    }
    // then busy ones that had their turn, the longest holder first
    for (const [pipeline] of this.holders) if (pipeline.yielding) needed--
    const now = Date.now()
    let nextTurn = Infinity
    const holders = [...this.holders].filter(([p]) => !p.yielding).sort((a, b) => a[1] - b[1])
    for (const [pipeline, since] of holders) {
      if (needed <= 0) return
      if (now - since >= this.options.turnMs) {
        pipeline.drain()
        needed--
      } else {
        nextTurn = Math.min(nextTurn, since + this.options.turnMs)
      }
    }
    if (needed > 0 && nextTurn !== Infinity) {
      this.turnTimer = setTimeout(() => this.dispatch(), nextTurn - now)
    }
  }

  private async create (mode: Mode): Promise<Pipeline> {
    let script: string
    try {
      // the same pipeline with every stage flushing on NUL (-z) and word-bound blanks kept
      script = (await run('apertium-wblank-mode', ['-z', mode.file], { encoding: 'utf8' })).stdout.trim()
    } catch (error) {
      throw new UpstreamError('apertium', `cannot read mode ${mode.name}`, error)
    }
    // closed while the script was read: nothing may start any more
    if (this.closed) throw new ServiceUnavailableError('apertium is shutting down')
    const pipeline = new Pipeline({
      mode: mode.name,
      script,
      requestTimeoutMs: this.options.requestTimeoutMs,
      idleMs: this.options.idleMs,
      maxPending: this.options.maxPending,
      slots: this
    })
    this.live.set(mode.name, pipeline)
    return pipeline
  }
}
