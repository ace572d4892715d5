/**
 * The warm pipelines, one per mode, started lazily. A pipeline holds 40-150 MB in its
 * processes, so at most `maxPipelines` run at once: starting one more stops the least recently
 * used idle ones. Busy pipelines are never stopped, so the cap can be exceeded while more
 * directions than that are busy at the same moment.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { ServiceUnavailableError, UpstreamError } from '../../../errors.js'
import type { Mode } from './modes.js'
import { Pipeline } from './pipeline.js'

const run = promisify(execFile)

export interface PoolOptions {
  requestTimeoutMs: number
  idleMs: number
  maxPending: number
  maxPipelines: number
}

export class PipelinePool {
  private readonly options: PoolOptions
  /** By mode name, in least-recently-used order (oldest first). */
  private readonly pipelines = new Map<string, Promise<Pipeline>>()
  private readonly live = new Map<string, Pipeline>()
  private closed = false

  constructor (options: PoolOptions) {
    this.options = options
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
    for (const pipeline of this.live.values()) pipeline.close()
    this.live.clear()
    this.pipelines.clear()
  }

  /** Kills every process group synchronously (for process exit). */
  killAll (): void {
    for (const pipeline of this.live.values()) pipeline.kill()
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
      onRunning: running => { if (running) this.evict(mode.name) }
    })
    this.live.set(mode.name, pipeline)
    return pipeline
  }

  /** Stops least recently used idle pipelines until at most maxPipelines run. */
  private evict (starting: string): void {
    let count = this.running().length
    if (count <= this.options.maxPipelines) return
    for (const name of this.pipelines.keys()) {
      const pipeline = this.live.get(name)
      if (!pipeline || name === starting || !pipeline.running || pipeline.pending > 0) continue
      pipeline.stop()
      if (--count <= this.options.maxPipelines) return
    }
  }
}
