/**
 * Slots: the pipeline set's cap on running pipelines (PipelineSet implements Slots). A pipeline starts its
 * process only with a slot; one that finds none free waits for `grant()`, at most its request
 * timeout (SlotWait), and its slot is free again once its killed process has exited.
 */
import type { Pipeline } from './pipeline.js'

/** Who may run a process (the pipeline set's cap). */
export interface Slots {
  /** Whether the pipeline may start its process now; when not, `grant()` tells it later. */
  request: (pipeline: Pipeline) => boolean
  /** The pipeline no longer wants the slot it asked for. */
  withdraw: (pipeline: Pipeline) => void
  /** The pipeline's process was killed: its slot is free once `exited` resolves. */
  release: (pipeline: Pipeline, exited: Promise<void>) => void
  /** The pipeline has nothing to do (its slot may go to a waiting one). */
  idle: (pipeline: Pipeline) => void
}

/** A pipeline's wait for a slot, bounded in time. */
export class SlotWait {
  private readonly slots: Slots | undefined
  private readonly pipeline: Pipeline
  private timer: NodeJS.Timeout | undefined
  private waiting = false

  constructor (slots: Slots | undefined, pipeline: Pipeline) {
    this.slots = slots
    this.pipeline = pipeline
  }

  /** Whether the pipeline is waiting for a slot. */
  get active (): boolean {
    return this.waiting
  }

  /**
   * Asks for a slot: true when the pipeline may start its process now (there is no cap, or a slot
   * is free). Otherwise it waits, at most `timeoutMs`, then stops waiting and calls `timedOut`.
   */
  ask (timeoutMs: number, timedOut: () => void): boolean {
    if (!this.slots || this.slots.request(this.pipeline)) return true
    this.waiting = true
    this.timer = setTimeout(() => {
      this.cancel()
      timedOut()
    }, timeoutMs)
    return false
  }

  /** The slot asked for came (the pipeline set granted it). */
  granted (): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.waiting = false
  }

  /** Stops waiting for a slot. */
  cancel (): void {
    clearTimeout(this.timer)
    this.timer = undefined
    if (!this.waiting) return
    this.waiting = false
    this.slots?.withdraw(this.pipeline)
  }
}
