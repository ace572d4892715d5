/**
 * One warm Apertium pipeline: the NUL-flushing shell pipeline of a mode, started lazily in its
 * own process group, answering requests in order (FIFO, many in flight).
 *
 * Each request is written as `<stream>[#<seq>]` and each write ends with a NUL; the answer to a
 * write must hold the same `[#<seq>]` superblanks in order. A stage that dies makes the next
 * stages flush and emit extra NULs, so an answer without its markers means the pipeline broke.
 *
 * Requests wait in lines, one per client, the clients taking turns (lib/fair-queue.ts): a write
 * takes the next request of each client in turn. Every stage is watched, and the whole process
 * group is killed at once (process-group.ts).
 *
 * Failures (a crash, a broken answer, or no answer within `requestTimeoutMs` while requests wait):
 * the whole process group is killed and the requests in flight are written again to a fresh
 * pipeline, except the oldest after a timeout (UpstreamTimeoutError) or after a second crash
 * (UpstreamError), and any request caught in a third failure, so a pipeline that breaks on every
 * input cannot hold requests forever. The timeout runs while requests are in flight and restarts
 * whenever an answer arrives, so a long queue is not a timeout. A process that has not answered
 * yet is loading its transducers, which takes seconds for some modes (docs/benchmarks.md,
 * Hardening), and longer on busy cores: its first answer may take
 * START_TIMEOUT_FACTOR times as long.
 *
 * A process starts only with a slot from `slots` (the pipeline set's cap on running pipelines, slots.ts);
 * requests that find no free slot wait, at most `requestTimeoutMs`.
 */
import { EngineBusyError, ServiceError, ServiceUnavailableError, UpstreamError, UpstreamTimeoutError } from '../../errors.js'
import { PipelineProcess } from './process-group.js'
import { FairQueue } from '../../lib/fair-queue.js'
import { SlotWait, type Slots } from './slots.js'
import { streamCost } from './stream/split.js'

export interface PipelineOptions {
  /** Mode name ("eng-spa"), for messages and the process title. */
  mode: string
  /** The mode's NUL-flushing shell pipeline (`apertium-wblank-mode -z` output). */
  script: string
  requestTimeoutMs: number
  /** Shut the process down after this long without requests. */
  idleMs: number
  /** Requests waiting or in flight beyond which new ones are refused (503). */
  maxPending: number
  /** The cap on running processes (none: start at once). */
  slots?: Slots
}

/** One request of a pipeline: its stream, its answer's settling, and where it stands. */
interface Entry {
  payload: string
  /** Its estimated work for the pipeline (streamCost). */
  cost: number
  seq: number
  attempts: number
  /** Waiting to be written (false: written, or settled). */
  waiting: boolean
  settled: boolean
  resolve: (answer: string) => void
  reject: (error: unknown) => void
  signal: AbortSignal | undefined
  /** Its client's line: the client's key, or a call's own object when no client is known. */
  client: unknown
}

/** The unsettled requests of one abort signal, and the one listener the signal has for them. */
interface Watch {
  entries: Set<Entry>
  onAbort: () => void
}

const SERVICE = 'apertium'
/** What a request refused for want of a slot is told to wait: about one turn of the directions that hold them. */
const BUSY_RETRY_AFTER_MS = 2_000
/**
 * NUL-terminated writes in the pipeline at once. Requests that arrive together (in one tick), or
 * while it is full, travel together in one write (each still with its own marker), up to
 * MAX_WRITE_REQUESTS requests and MAX_WRITE_COST of work: every write costs a flush in each of the 10-15
 * stages, so fewer, fuller writes cost less CPU (docs/benchmarks.md, Translation). At most MAX_INFLIGHT_COST of
 * work is in the pipeline at once (one write always may go): what is written can no longer wait
 * its turn, so this bounds how long another client's request waits behind a long call. Work is
 * counted in words and marks (streamCost), not characters: Apertium's time grows with the square
 * of a sentence's words, and a run of one-letter "words" costs far more than prose of its length.
 */
const MAX_WRITES = 4
const MAX_WRITE_REQUESTS = 32
const MAX_WRITE_COST = 400
const MAX_INFLIGHT_COST = 800
const STDERR_TAIL = 500
/** How many times requestTimeoutMs a fresh process has for its first answer (it loads its transducers first). */
export const START_TIMEOUT_FACTOR = 3

export class Pipeline {
  readonly mode: string
  private readonly options: PipelineOptions
  private child: PipelineProcess | undefined
  private chunks: Buffer[] = []
  /**
   * Requests not written yet, by client. Settled ones (aborted, failed) stay in their line and are
   * skipped when they come up (removing each of a call's 50,000 would go over the line each time);
   * the counts below leave them at once.
   */
  private readonly queue = new FairQueue<Entry, unknown>()
  /** Requests to write again after a failure, before any line. */
  private retries: Entry[] = []
  /** Unsettled requests waiting (in the lines or to be retried), and their work. */
  private waitingCount = 0
  private waitingCost = 0
  /** Requests sent without a client share this line. */
  private readonly ownLine = {}
  /** Written requests, one array per NUL-terminated write, oldest first. */
  private inflight: Entry[][] = []
  private written = 0
  private writtenCost = 0
  /**
   * One abort listener per signal, not per request: a call's requests share its signal, and
   * EventTarget checks every listener already there when one is added (quadratic in a call's size).
   */
  private readonly watches = new Map<AbortSignal, Watch>()
  private seq = 0
  private pumpScheduled = false
  private headTimer: NodeJS.Timeout | undefined
  private idleTimer: NodeJS.Timeout | undefined
  /** Waiting for a slot: fails the waiting requests when none comes in time. */
  private readonly slotWait: SlotWait
  /** Asked to give its slot up: writes nothing more and stops once what is written is answered. */
  private draining = false
  private stderrTail = ''
  private closed = false
  /** Whether the running process has answered yet (until then it may still be loading). */
  private answered = false

  constructor (options: PipelineOptions) {
    this.options = options
    this.mode = options.mode
    this.slotWait = new SlotWait(options.slots, this)
  }

  /** Whether the process is running. */
  get running (): boolean {
    return this.child !== undefined
  }

  /** Requests waiting or in flight. */
  get pending (): number {
    return this.waitingCount + this.written
  }

  /** Work waiting or in flight (streamCost): how long a request that comes now waits, roughly. */
  get backlogCost (): number {
    return this.waitingCost + this.writtenCost
  }

  /** Starts the process now (a replica made ready before the requests that will need it), when it may. */
  warm (): void {
    if (this.child || this.closed || this.slotWait.active) return
    if (this.options.slots && !this.options.slots.request(this)) {
      this.options.slots.withdraw(this)
      return
    }
    this.start()
    this.whenIdle()
  }

  /** Whether it is giving its slot up (see drain()). */
  get yielding (): boolean {
    return this.draining
  }

  /**
   * Sends one request (stream format, no NUL) and resolves with the answer (marker removed).
   * Requests of one `client` (its key, or a call's own object) wait in one line; the lines take turns.
   */
  request (payload: string, signal?: AbortSignal, client?: unknown): Promise<string> {
    if (this.closed) return Promise.reject(new ServiceUnavailableError('apertium is shutting down'))
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (this.pending >= this.options.maxPending) {
      return Promise.reject(new ServiceUnavailableError(`apertium ${this.mode}: more than ${this.options.maxPending} requests waiting`, 1))
    }
    return new Promise((resolve, reject) => {
      const entry: Entry = {
        payload,
        cost: streamCost(payload),
        seq: 0,
        attempts: 0,
        waiting: false,
        settled: false,
        resolve,
        reject,
        signal,
        client: client ?? this.ownLine
      }
      if (signal) this.watch(signal, entry)
      this.wait(entry)
      this.queue.push(entry.client, entry)
      clearTimeout(this.idleTimer)
      this.schedulePump()
    })
  }

  /**
   * Writes what waits once the requests of this tick are all queued: requests that arrive
   * together (a document's segments, concurrent requests' batches) go in one write.
   */
  private schedulePump (): void {
    if (this.pumpScheduled) return
    this.pumpScheduled = true
    queueMicrotask(() => {
      this.pumpScheduled = false
      this.pump()
    })
  }

  /** Kills the process group now; pending requests fail (503). The pipeline cannot be used again. */
  close (): void {
    this.closed = true
    const error = new ServiceUnavailableError('apertium is shutting down')
    const entries = [...this.inflight.flat(), ...this.takeAllWaiting()]
    for (const entry of entries) this.settle(entry, () => entry.reject(error))
    this.inflight = []
    this.written = 0
    this.writtenCost = 0
    this.slotWait.cancel()
    this.stop()
  }

  /** Kills the process group (idle shutdown, eviction); a later request starts a new one. */
  stop (): void {
    clearTimeout(this.idleTimer)
    clearTimeout(this.headTimer)
    this.headTimer = undefined
    this.draining = false
    const child = this.child
    if (!child) return
    this.child = undefined
    this.chunks = []
    child.kill()
    // the slot is free when the memory is: once the process is gone
    this.options.slots?.release(this, child.exited)
  }

  /** The slot asked for is free: start and write what waits. */
  grant (): void {
    this.slotWait.granted()
    if (this.closed || this.child || this.waitingCount === 0) {
      // nothing to do with it (any more)
      if (!this.child) this.options.slots?.release(this, Promise.resolve())
      return
    }
    this.start()
    this.pump()
  }

  /**
   * Gives the slot up for a pipeline that waits for one: nothing more is written, and once what
   * is written is answered the process stops; requests still waiting then ask for a slot again.
   */
  drain (): void {
    if (!this.child) return
    this.draining = true
    if (this.inflight.length === 0) this.pump()
  }

  /** Kills the process group without waiting (for process exit). */
  kill (): void {
    this.child?.kill()
  }

  /** Makes the abort of a signal settle the entry. */
  private watch (signal: AbortSignal, entry: Entry): void {
    let watch = this.watches.get(signal)
    if (!watch) {
      const entries = new Set<Entry>()
      // an unwritten request is dropped; a written one keeps its FIFO place and its answer is discarded
      const onAbort = (): void => {
        for (const e of entries) this.settle(e, () => e.reject(signal.reason))
      }
      watch = { entries, onAbort }
      this.watches.set(signal, watch)
      signal.addEventListener('abort', onAbort, { once: true })
    }
    watch.entries.add(entry)
  }

  private unwatch (entry: Entry): void {
    const signal = entry.signal
    const watch = signal && this.watches.get(signal)
    if (!watch) return
    watch.entries.delete(entry)
    if (watch.entries.size > 0) return
    this.watches.delete(signal)
    signal.removeEventListener('abort', watch.onAbort)
  }

  private settle (entry: Entry, finish: () => void): void {
    if (entry.settled) return
    entry.settled = true
    this.unwatch(entry)
    if (entry.waiting) {
      this.unwait(entry)
      // nothing live is left waiting: the skipped ones go at once, and no slot is needed any more
      if (this.waitingCount === 0) {
        this.takeAllWaiting()
        this.slotWait.cancel()
      }
    }
    finish()
  }

  /** Counts a request as waiting. */
  private wait (entry: Entry): void {
    entry.waiting = true
    this.waitingCount++
    this.waitingCost += entry.cost
  }

  private unwait (entry: Entry): void {
    entry.waiting = false
    this.waitingCount--
    this.waitingCost -= entry.cost
  }

  /**
   * The next request to write, for which `fits` says yes: a retry first, else the next client's in
   * turn (a client whose next one does not fit keeps its turn); settled ones are dropped on the way.
   */
  private takeNext (fits: (entry: Entry) => boolean): Entry | undefined {
    if (this.waitingCount === 0) return undefined
    while (this.retries.length > 0 && this.retries[0]!.settled) this.retries.shift()
    const retry = this.retries[0]
    let entry: Entry | undefined
    if (retry !== undefined) {
      if (!fits(retry)) return undefined
      entry = this.retries.shift()!
    } else {
      do entry = this.queue.shift((_client, e) => e.settled || fits(e))
      while (entry !== undefined && entry.settled)
    }
    if (entry === undefined) return undefined
    this.unwait(entry)
    // only settled ones are left: they go at once
    if (this.waitingCount === 0) this.takeAllWaiting()
    return entry
  }

  /** Every request still waiting (settled ones included: settling twice does nothing), taken off the lines. */
  private takeAllWaiting (): Entry[] {
    const entries = [...this.retries, ...this.queue.drain()]
    this.retries = []
    return entries
  }

  private start (): void {
    this.answered = false
    this.stderrTail = ''
    const child: PipelineProcess = new PipelineProcess(this.mode, this.options.script, {
      stdout: chunk => this.onData(child, chunk),
      stderr: text => { this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL) },
      // the clock runs from the time the requests can reach the process, not while the launcher starts it
      started: () => { if (child === this.child) this.armHeadTimer() },
      ended: (how, cause) => this.onBroken(child, new UpstreamError(SERVICE, `${this.mode} pipeline ${how}`, cause, { engineMessage: this.stderrSaid() }))
    })
    this.child = child
  }

  /**
   * What its stages last wrote to stderr ("Error: Cannot open file ..."), for the log only: a
   * stage's words may quote a text, and the pipeline serves every client.
   */
  private stderrSaid (): string | undefined {
    const tail = this.stderrTail.trim()
    return tail === '' ? undefined : tail
  }

  /** Writes waiting requests while the window has room; starts the process (with a slot) when needed. */
  private pump (): void {
    if (this.draining) {
      if (this.inflight.length > 0) return
      // the slot goes to the pipeline that waits for it; what waits here asks for one again
      this.stop()
    }
    if (this.waitingCount === 0) {
      this.whenIdle()
      return
    }
    if (!this.child) {
      if (this.slotWait.active || this.closed) return
      if (!this.slotWait.ask(this.options.requestTimeoutMs, () => this.noSlot())) return
      this.start()
    }
    const child = this.child!
    child.keepAlive(true)
    // one write call for everything that fits: fewer system calls and wake-ups of the first stage
    let out = ''
    while (this.inflight.length < MAX_WRITES && (this.inflight.length === 0 || this.writtenCost < MAX_INFLIGHT_COST) && this.waitingCount > 0) {
      const write: Entry[] = []
      let cost = 0
      const fits = (next: Entry): boolean => write.length === 0 || cost + next.cost <= MAX_WRITE_COST
      for (let entry = this.takeNext(fits); entry !== undefined; entry = write.length < MAX_WRITE_REQUESTS ? this.takeNext(fits) : undefined) {
        entry.seq = ++this.seq
        write.push(entry)
        cost += entry.cost
        out += `${entry.payload}[#${entry.seq}]`
      }
      if (write.length === 0) break
      out += '\0'
      this.inflight.push(write)
      this.written += write.length
      this.writtenCost += cost
      if (this.inflight.length === 1) this.armHeadTimer()
    }
    if (out) child.write(out)
  }

  /**
   * No slot came within requestTimeoutMs: the waiting requests fail as busy (503 with
   * Retry-After), since every running pipeline is working for other directions.
   */
  private noSlot (): void {
    const ms = this.options.requestTimeoutMs
    const error = new EngineBusyError(SERVICE, `every pipeline slot was busy with other language directions for ${ms / 1000} s (${this.mode} waited for one)`, BUSY_RETRY_AFTER_MS)
    for (const entry of this.takeAllWaiting()) this.settle(entry, () => entry.reject(error))
  }

  private onData (child: PipelineProcess, chunk: Buffer): void {
    let rest = chunk
    while (child === this.child) {
      const nul = rest.indexOf(0)
      if (nul === -1) {
        if (rest.length > 0) this.chunks.push(rest)
        return
      }
      const answer = Buffer.concat([...this.chunks, rest.subarray(0, nul)]).toString('utf8')
      this.chunks = []
      rest = rest.subarray(nul + 1)
      this.onAnswer(child, answer)
    }
  }

  /**
   * Splits the answer to the oldest write at its requests' markers. `[#n]` cannot come from
   * text: escaping gives every `]` of the text a backslash.
   */
  private onAnswer (child: PipelineProcess, answer: string): void {
    const write = this.inflight[0]
    const parts: string[] = []
    let at = 0
    for (const entry of write ?? []) {
      const marker = `[#${entry.seq}]`
      const end = answer.indexOf(marker, at)
      if (end === -1) break
      parts.push(answer.slice(at, end))
      at = end + marker.length
    }
    if (!write || parts.length !== write.length || answer.slice(at).trim() !== '') {
      this.onBroken(child, new UpstreamError(SERVICE, `${this.mode} pipeline answered out of step`, undefined, { engineMessage: this.stderrSaid() }))
      return
    }
    this.inflight.shift()
    this.answered = true
    this.written -= write.length
    for (const entry of write) this.writtenCost -= entry.cost
    write.forEach((entry, i) => this.settle(entry, () => entry.resolve(parts[i]!)))
    this.armHeadTimer()
    this.pump()
  }

  /** Restarts the clock of the request at the head of the FIFO (progress was made). */
  private armHeadTimer (): void {
    clearTimeout(this.headTimer)
    this.headTimer = undefined
    const child = this.child
    if (!child?.started || this.inflight.length === 0) return
    const ms = this.options.requestTimeoutMs * (this.answered ? 1 : START_TIMEOUT_FACTOR)
    this.headTimer = setTimeout(() => this.onBroken(child, new UpstreamTimeoutError(SERVICE, ms)), ms)
  }

  /**
   * Kills a broken process group and writes what was in flight again to a fresh one. The oldest
   * request is the likeliest cause: after a timeout it fails at once, after a crash it fails when
   * it was already tried again; the others fail when caught in a third failure. So a stage killed
   * from outside costs no request, and an input that crashes a stage, or a pipeline that breaks on
   * every input, cannot hold requests forever.
   */
  private onBroken (child: PipelineProcess, error: Error): void {
    if (child !== this.child) return
    const entries = this.inflight.flat().filter(entry => !entry.settled)
    this.inflight = []
    this.written = 0
    this.writtenCost = 0
    this.stop()
    const retry: Entry[] = []
    entries.forEach((entry, i) => {
      const tries = i > 0 ? 2 : error instanceof UpstreamTimeoutError ? 0 : 1
      if (entry.attempts < tries) {
        entry.attempts++
        retry.push(entry)
      } else if (i === 0) {
        this.settle(entry, () => entry.reject(error))
      } else {
        this.settle(entry, () => entry.reject(new UpstreamError(SERVICE, `${this.mode} pipeline failed ${entry.attempts + 1} times while this request waited`, error,
          { engineMessage: error instanceof ServiceError ? error.engineMessage : undefined })))
      }
    })
    for (const entry of retry) this.wait(entry)
    this.retries = [...retry, ...this.retries]
    if (!this.closed) this.pump()
  }

  private whenIdle (): void {
    if (this.inflight.length > 0 || !this.child) return
    this.child.keepAlive(false)
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => this.stop(), this.options.idleMs)
    this.idleTimer.unref()
    // another pipeline may be waiting for this one's slot
    this.options.slots?.idle(this)
  }
}
