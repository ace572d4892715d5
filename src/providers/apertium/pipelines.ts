/**
 * The warm pipelines, started lazily: one per mode, and more replicas of a mode (up to
 * `maxReplicas`) while every one it has is backlogged and a slot and memory are free. A pipeline
 * holds ~15 MB to ~1 GB (oci-fra) in its processes, so at most `maxPipelines` run at once, and with
 * `maxMemoryMb` at most that much of them by estimate, whatever the load: a pipeline starts only
 * with a slot. When none is free, the least recently used idle pipelines are stopped to make room
 * for a direction's first; when every running one is busy, the pipeline waits, the directions in
 * turn (the fair queue, lib/fair-queue.ts; its requests at most `requestTimeoutMs`, then a 503),
 * and a busy pipeline that has held its slot for `turnMs` gives it up
 * once what it has written is answered, so directions take turns instead of one waiting for
 * another to fall idle. A replica more never stops another pipeline: it starts only in free room.
 */
import { stat } from 'node:fs/promises'
import { ServiceUnavailableError, UpstreamError } from '../../errors.js'
import { FairQueue } from '../../lib/fair-queue.js'
import type { Mode } from './modes.js'
import { Pipeline } from './pipeline.js'
import { runCommand } from './process-group.js'
import type { Slots } from './slots.js'

export interface PipelineSetOptions {
  requestTimeoutMs: number
  /** Pipelines one mode may run at once (default 1). */
  maxReplicas?: number
  idleMs: number
  maxPending: number
  maxPipelines: number
  /** How long a busy pipeline keeps its slot while another waits for one. */
  turnMs: number
  /** Most memory (MB, by estimate) the running pipelines may take together; undefined or 0: no limit but maxPipelines. */
  maxMemoryMb?: number
}

/** A warm pipeline's memory (PSS) per byte of its mode's data files, whatever the pair (bench/apertium-memory.sh; docs/operations.md, Scaling). */
export const MEMORY_PER_FILE_BYTE = 42
/** What a pipeline takes beyond its data (its ~14 processes' own pages), MB. */
const PIPELINE_BASE_MB = 5

/** A mode's pipeline memory, MB, estimated from the sizes of the files its script names ('/…' in quotes). */
export async function estimateMemoryMb (script: string): Promise<number> {
  const files = new Set([...script.matchAll(/'(\/[^']+)'/g)].map(m => m[1]!))
  let bytes = 0
  for (const file of files) {
    try {
      const info = await stat(file)
      if (info.isFile()) bytes += info.size
    } catch {
      // a file the pipeline will fail to open: it costs nothing
    }
  }
  return Math.ceil(PIPELINE_BASE_MB + bytes * MEMORY_PER_FILE_BYTE / (1024 * 1024))
}

/** One direction (mode): its script and memory estimate, read once, and its running replicas. */
interface Direction {
  read: Promise<{ script: string, memoryMb: number }>
  replicas: Pipeline[]
}

/**
 * Work waiting or in flight on every replica of a direction (pipeline.ts backlogCost) beyond which
 * a call gets a new replica (when there is room): about one in-flight window, so a call that comes
 * while another client's long one fills the pipeline starts at once on another process.
 */
export const REPLICA_BACKLOG_COST = 800

export class PipelineSet implements Slots {
  private readonly options: PipelineSetOptions & { maxReplicas: number }
  private readonly directions = new Map<string, Direction>()
  /** Every pipeline, least recently used first. */
  private readonly recency = new Map<Pipeline, string>()
  /** Pipelines holding a slot, with when they got it. */
  private readonly holders = new Map<Pipeline, number>()
  /** Processes killed that have not exited yet: their slots are not free yet, nor their memory. */
  private dying = 0
  private dyingMb = 0
  /** Each pipeline's estimated memory, MB. */
  private readonly weights = new Map<Pipeline, number>()
  /** Pipelines waiting for a slot, the directions in turn (a direction's replicas are one line). */
  private readonly waiters = new FairQueue<Pipeline>()
  private scheduled = false
  private turnTimer: NodeJS.Timeout | undefined
  private closed = false

  constructor (options: PipelineSetOptions) {
    const maxPipelines = Math.max(1, options.maxPipelines)
    this.options = { ...options, maxPipelines, maxReplicas: Math.max(1, Math.min(maxPipelines, options.maxReplicas ?? 1)) }
  }

  private get budgetMb (): number {
    return this.options.maxMemoryMb !== undefined && this.options.maxMemoryMb > 0 ? this.options.maxMemoryMb : Infinity
  }

  private weight (pipeline: Pipeline): number {
    return this.weights.get(pipeline) ?? 0
  }

  /** Memory of the pipelines holding a slot, MB. */
  private usedMb (): number {
    let mb = 0
    for (const holder of this.holders.keys()) mb += this.weight(holder)
    return mb
  }

  /** Whether `pipeline` may take a slot now: one is free, and so is its memory. */
  private fits (pipeline: Pipeline): boolean {
    return this.holders.size + this.dying < this.options.maxPipelines &&
      this.usedMb() + this.dyingMb + this.weight(pipeline) <= this.budgetMb
  }

  /**
   * A pipeline of the mode for a call: the replica with the least waiting, or a new replica when
   * every one has a backlog and there is a free slot and memory for another (its process starts
   * at once; nothing else is stopped for it). The first replica starts on the first request.
   */
  async get (mode: Mode): Promise<Pipeline> {
    if (this.closed) throw new ServiceUnavailableError('apertium is shutting down')
    let direction = this.directions.get(mode.name)
    if (direction === undefined) {
      const read = this.readMode(mode)
      direction = { read, replicas: [] }
      this.directions.set(mode.name, direction)
      read.catch(() => this.directions.delete(mode.name))
    }
    const { script, memoryMb } = await direction.read
    // closed while the script was read: nothing may start any more
    if (this.closed) throw new ServiceUnavailableError('apertium is shutting down')
    let best: Pipeline | undefined
    for (const replica of direction.replicas) if (best === undefined || replica.backlogCost < best.backlogCost) best = replica
    if (best === undefined) {
      best = this.create(mode, direction, script, memoryMb)
    } else if (best.backlogCost >= REPLICA_BACKLOG_COST && direction.replicas.length < this.options.maxReplicas &&
      this.waiters.size === 0 && this.holders.size + this.dying < this.options.maxPipelines && this.usedMb() + this.dyingMb + memoryMb <= this.budgetMb) {
      const replica = this.create(mode, direction, script, memoryMb)
      replica.warm()
      if (replica.running) best = replica
      else this.forget(replica)
    }
    // most recently used last
    this.recency.delete(best)
    this.recency.set(best, mode.name)
    return best
  }

  /** Running pipelines by mode name (a direction with replicas is named once per replica). */
  running (): string[] {
    return [...this.recency.keys()].filter(p => p.running).map(p => p.mode)
  }

  /** Kills every pipeline; pending requests fail. */
  close (): void {
    this.closed = true
    clearTimeout(this.turnTimer)
    this.waiters.drain()
    for (const pipeline of this.recency.keys()) pipeline.close()
    this.recency.clear()
    this.directions.clear()
    this.holders.clear()
    this.weights.clear()
  }

  /** Kills every process group synchronously (for process exit). */
  killAll (): void {
    for (const pipeline of this.recency.keys()) pipeline.kill()
  }

  /** Drops a replica that stopped and has nothing to do (a direction keeps its first). */
  private forget (pipeline: Pipeline): void {
    for (const direction of this.directions.values()) {
      const at = direction.replicas.indexOf(pipeline)
      if (at <= 0 || pipeline.pending > 0 || pipeline.running) continue
      direction.replicas.splice(at, 1)
      this.recency.delete(pipeline)
      this.weights.delete(pipeline)
    }
  }

  // Slots: bookkeeping only; stopping and granting happen in dispatch(), never inside a pipeline's call

  request (pipeline: Pipeline): boolean {
    if (this.holders.has(pipeline)) return true
    if (this.waiters.size === 0 && this.fits(pipeline)) {
      this.holders.set(pipeline, Date.now())
      return true
    }
    if (!this.waiters.items().includes(pipeline)) this.waiters.push(pipeline.mode, pipeline)
    this.schedule()
    return false
  }

  withdraw (pipeline: Pipeline): void {
    this.waiters.remove(pipeline.mode, pipeline)
  }

  release (pipeline: Pipeline, exited: Promise<void>): void {
    if (!this.holders.delete(pipeline)) return
    const mb = this.weight(pipeline)
    this.dying++
    this.dyingMb += mb
    exited.then(() => {
      this.dying--
      this.dyingMb -= mb
      this.forget(pipeline)
      if (this.waiters.size > 0) this.schedule()
    }, () => {})
  }

  idle (): void {
    if (this.waiters.size > 0) this.schedule()
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
    // the directions in turn: one that does not fit waits, and so do those behind it
    for (let next = this.waiters.peek(); next !== undefined && this.fits(next); next = this.waiters.peek()) {
      this.waiters.shift()
      this.holders.set(next, Date.now())
      next.grant()
    }
    // what the waiting ones lack, in slots and in memory; slots and memory of processes still exiting come free by themselves
    let slots = this.waiters.size - (this.options.maxPipelines - this.holders.size)
    let mb = this.waiters.items().reduce((sum, p) => sum + this.weight(p), 0) - (this.budgetMb - this.usedMb())
    const needed = (): boolean => slots > 0 || mb > 0
    const freeing = (pipeline: Pipeline): void => {
      slots--
      mb -= this.weight(pipeline)
    }
    if (!needed()) return
    // idle pipelines first, least recently used first (their stop() frees a slot and comes back here)
    for (const pipeline of this.recency.keys()) {
      if (!this.holders.has(pipeline) || pipeline.pending > 0) continue
      pipeline.stop()
      freeing(pipeline)
      if (!needed()) return
    }
    // then busy ones that had their turn, the longest holder first
    for (const [pipeline] of this.holders) if (pipeline.yielding) freeing(pipeline)
    const now = Date.now()
    let nextTurn = Infinity
    const holders = [...this.holders].filter(([p]) => !p.yielding).sort((a, b) => a[1] - b[1])
    for (const [pipeline, since] of holders) {
      if (!needed()) return
      if (now - since >= this.options.turnMs) {
        pipeline.drain()
        freeing(pipeline)
      } else {
        nextTurn = Math.min(nextTurn, since + this.options.turnMs)
      }
    }
    if (needed() && nextTurn !== Infinity) {
      this.turnTimer = setTimeout(() => this.dispatch(), nextTurn - now)
    }
  }

  /** The mode's NUL-flushing script, and its pipeline's memory by estimate (a 503 when it alone is over the budget). */
  private async readMode (mode: Mode): Promise<{ script: string, memoryMb: number }> {
    let script: string
    try {
      // the same pipeline with every stage flushing on NUL (-z) and word-bound blanks kept
      script = (await runCommand(['apertium-wblank-mode', '-z', mode.file])).trim()
    } catch (error) {
      throw new UpstreamError('apertium', `cannot read mode ${mode.name}`, error)
    }
    // without a budget the estimate would weigh nothing: its files are not read
    const memoryMb = this.budgetMb === Infinity ? 0 : await estimateMemoryMb(script)
    if (memoryMb > this.budgetMb) {
      throw new ServiceUnavailableError(`apertium ${mode.name}: its pipeline takes about ${memoryMb} MB, more than APERTIUM_MAX_MEMORY_MB (${this.budgetMb}) allows for all pipelines; raise it to serve this direction`)
    }
    return { script, memoryMb }
  }

  /** A new replica of a direction (its process starts with a slot, on its first request or warm()). */
  private create (mode: Mode, direction: Direction, script: string, memoryMb: number): Pipeline {
    const pipeline = new Pipeline({
      mode: mode.name,
      script,
      requestTimeoutMs: this.options.requestTimeoutMs,
      idleMs: this.options.idleMs,
      maxPending: this.options.maxPending,
      slots: this
    })
    this.weights.set(pipeline, memoryMb)
    this.recency.set(pipeline, mode.name)
    direction.replicas.push(pipeline)
    return pipeline
  }
}
