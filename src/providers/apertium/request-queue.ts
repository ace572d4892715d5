/**
 * The requests a pipeline has not written yet, in lines: each client (the key its requests share:
 * the client's key, or a job's own object when no client is known) has a line of its own, and the
 * lines take one request each in turn, so one client's jobs of any size hold the pipeline for one
 * request at a time while others wait, not for all of their own. Requests to write again after a
 * failure come before every line.
 *
 * Settled requests (aborted, failed) stay where they are and are skipped when they come up; the
 * counts leave them at once (`settled()`).
 */

/** One request of a pipeline: its stream, its answer's settling, and where it stands. */
export interface PipelineRequest {
  payload: string
  /** Its estimated work for the pipeline (streamCost). */
  cost: number
  seq: number
  attempts: number
  /** In a waiting line (false: written, or not yet queued). */
  waiting: boolean
  settled: boolean
  resolve: (answer: string) => void
  reject: (error: unknown) => void
  signal: AbortSignal | undefined
  /** The key of its client's line. */
  client: unknown
}

/** The waiting requests of one client, oldest first from `head` on. */
interface Line {
  key: unknown
  requests: PipelineRequest[]
  head: number
}

/** Dequeued requests kept at the front of a queue array before it is compacted. */
const COMPACT_AFTER = 1024

export class RequestQueue {
  /** Requests written again after a failure, before any other; oldest first from `retryHead` on. */
  private retries: PipelineRequest[] = []
  private retryHead = 0
  /** Clients with waiting requests, in turn order from `turnHead` on, and by key. */
  private turns: Line[] = []
  private turnHead = 0
  private readonly lineOf = new Map<unknown, Line>()
  /** Unsettled requests waiting, and their work. */
  private count = 0
  private work = 0

  /** Unsettled requests waiting. */
  get size (): number {
    return this.count
  }

  /** Their work (streamCost). */
  get cost (): number {
    return this.work
  }

  /** Puts a request at the end of its client's line (the line at the end of the turns if it had none). */
  push (request: PipelineRequest): void {
    request.waiting = true
    this.count++
    this.work += request.cost
    let line = this.lineOf.get(request.client)
    if (!line) {
      line = { key: request.client, requests: [], head: 0 }
      this.lineOf.set(request.client, line)
      this.turns.push(line)
    }
    line.requests.push(request)
  }

  /** Puts requests to write again before every waiting one. */
  pushRetries (requests: PipelineRequest[]): void {
    if (requests.length === 0) return
    for (const request of requests) {
      request.waiting = true
      this.work += request.cost
    }
    this.count += requests.length
    this.retries = [...requests, ...this.retries.slice(this.retryHead)]
    this.retryHead = 0
  }

  /**
   * A waiting request was settled: it leaves the counts now and its place when it comes up. When
   * nothing live is left the skipped ones are dropped at once; returns whether the queue is empty.
   */
  settled (request: PipelineRequest): boolean {
    request.waiting = false
    this.work -= request.cost
    if (--this.count > 0) return false
    this.work = 0
    this.retries = []
    this.retryHead = 0
    this.turns = []
    this.turnHead = 0
    this.lineOf.clear()
    return true
  }

  /** The next request to write (retries first, then the client whose turn it is), skipping settled ones. */
  peek (): PipelineRequest | undefined {
    while (this.retryHead < this.retries.length && this.retries[this.retryHead]!.settled) this.retryHead++
    const retry = this.retries[this.retryHead]
    if (retry) return retry
    while (this.turnHead < this.turns.length) {
      const line = this.turns[this.turnHead]!
      while (line.head < line.requests.length && line.requests[line.head]!.settled) line.head++
      const request = line.requests[line.head]
      if (request) return request
      // a client with nothing left waiting leaves the turns
      this.lineOf.delete(line.key)
      this.nextTurn()
    }
    return undefined
  }

  /** Takes the request peek() found off its line; its client goes to the end of the turns. */
  take (): PipelineRequest {
    let request: PipelineRequest
    if (this.retryHead < this.retries.length) {
      request = this.retries[this.retryHead++]!
    } else {
      const line = this.turns[this.turnHead]!
      request = line.requests[line.head++]!
      if (line.head >= COMPACT_AFTER && line.head * 2 >= line.requests.length) {
        line.requests = line.requests.slice(line.head)
        line.head = 0
      }
      this.nextTurn()
      if (line.head < line.requests.length) this.turns.push(line)
      else this.lineOf.delete(line.key)
    }
    request.waiting = false
    this.count--
    this.work -= request.cost
    return request
  }

  /** Every request still in the queue (settled ones included: settling twice does nothing). */
  all (): PipelineRequest[] {
    const requests = this.retries.slice(this.retryHead)
    for (const line of this.turns.slice(this.turnHead)) requests.push(...line.requests.slice(line.head))
    return requests
  }

  /** Drops the client at the front of the turns. */
  private nextTurn (): void {
    this.turnHead++
    if (this.turnHead >= COMPACT_AFTER && this.turnHead * 2 >= this.turns.length) {
      this.turns = this.turns.slice(this.turnHead)
      this.turnHead = 0
    }
  }
}
