/**
 * One warm Apertium pipeline: the NUL-flushing shell pipeline of a mode, started lazily in its
 * own process group, answering requests in order (FIFO, many in flight).
 *
 * Each request is written as `<stream>[#<seq>]` and each write ends with a NUL; the answer to a
 * write must hold the same `[#<seq>]` superblanks in order. A stage that dies makes the next
 * stages flush and emit extra NULs, so an answer without its markers means the pipeline broke.
 *
 * Requests wait in turns: each client (the `turn` its requests share: the client's key, or a job's
 * own object when no client is known) has its own queue, and the clients waiting take one request
 * each in turn, so one client's jobs of any size hold the pipeline for one request at a time while
 * others wait, not for all of their own.
 *
 * Every stage is watched: the shell runs the stages as a background job and kills its whole
 * process group as soon as any of them exits (a CHLD trap), so a stage that crashes or is killed
 * ends the pipeline at once instead of leaving it silent until the timeout.
 *
 * Failures (a crash, a broken answer, or no answer within `requestTimeoutMs` while requests wait):
 * the whole process group is killed and the requests in flight are written again to a fresh
 * pipeline, except the oldest after a timeout (UpstreamTimeoutError) or after a second crash
 * (UpstreamError), and any request caught in a third failure, so a pipeline that breaks on every
 * input cannot hold requests forever. The timeout runs while requests are in flight and restarts
 * whenever an answer arrives, so a long queue is not a timeout. A process that has not answered
 * yet is loading its transducers, which takes seconds for some modes (cat-fra's generator alone:
 * 2.2 s of CPU on an idle core), and longer on busy cores: its first answer may take
 * START_TIMEOUT_FACTOR times as long.
 *
 * A process starts only with a slot from `slots` (the pool's cap on running pipelines); requests
 * that find no free slot wait, at most `requestTimeoutMs`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import type { Socket } from 'node:net'
import { EngineBusyError, ServiceUnavailableError, UpstreamError, UpstreamTimeoutError } from '../../errors.js'
import { streamCost } from './stream-format.js'

/** Who may run a process (the pool's cap). */
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

interface Entry {
  payload: string
  /** Its estimated work for the pipeline (streamCost). */
  cost: number
  seq: number
  attempts: number
  /** In a waiting queue (false: written, or not yet queued). */
  waiting: boolean
  settled: boolean
  resolve: (answer: string) => void
  reject: (error: unknown) => void
  signal: AbortSignal | undefined
  turn: unknown
}

/** The waiting requests of one job, oldest first from `head` on. */
interface Turn {
  key: unknown
  entries: Entry[]
  head: number
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
 * NUL-terminated writes in the pipeline at once. Requests that arrive together (in one turn), or
 * while it is full, travel together in one write (each still with its own marker), up to
 * MAX_BATCH requests and MAX_BATCH_COST of work: every write costs a flush in each of the 10-15
 * stages, so fewer, fuller writes cost less CPU (measured on eng-spa: 853 us of pipeline CPU per
 * short sentence one at a time, 533 with four a write, 422 with 32). At most MAX_INFLIGHT_COST of
 * work is in the pipeline at once (one write always may go): what is written can no longer wait
 * its turn, so this bounds how long another client's request waits behind a long job. Work is
 * counted in words and marks (streamCost), not characters: Apertium's time grows with the square
 * of a sentence's words, and a run of one-letter "words" costs far more than prose of its length.
 */
const MAX_WRITES = 4
const MAX_BATCH = 32
const MAX_BATCH_COST = 400
const MAX_INFLIGHT_COST = 800
const STDERR_TAIL = 500
/** How many times requestTimeoutMs a fresh process has for its first answer (it loads its transducers first). */
export const START_TIMEOUT_FACTOR = 3
/** Dequeued entries kept at the front of a queue array before it is compacted. */
const COMPACT_AFTER = 1024

/**
 * The shell around a mode's pipeline: the stages run as a background job (its first stage keeps
 * our stdin: `0<&0`, or bash would give it /dev/null) and the first stage to exit, for any reason,
 * kills the whole group (`kill 0`), which closes our pipes and tells us at once.
 */
function watchedScript (script: string): string {
  return `trap 'kill -KILL 0' CHLD\n0<&0 ${script} &\nwait\n`
}

export class Pipeline {
  readonly mode: string
  private readonly options: PipelineOptions
  private child: ChildProcessWithoutNullStreams | undefined
  private chunks: Buffer[] = []
  /** Requests written again after a failure, before any other; oldest first from `retryHead` on. */
  private retries: Entry[] = []
  private retryHead = 0
  /** Jobs with waiting requests, in turn order from `turnHead` on, and by key. */
  private turns: Turn[] = []
  private turnHead = 0
  private readonly turnOf = new Map<unknown, Turn>()
  /** Requests sent without a job share this one. */
  private readonly ownTurn = {}
  /** Unsettled requests waiting (not written), and their work. Settled ones are skipped when they come up. */
  private waiting = 0
  private waitingCost = 0
  /** Written requests, one array per NUL-terminated write, oldest first. */
  private inflight: Entry[][] = []
  private written = 0
  private writtenCost = 0
  /**
   * One abort listener per signal, not per request: a job's requests share its signal, and
   * EventTarget checks every listener already there when one is added (quadratic in a job's size).
   */
  private readonly watches = new Map<AbortSignal, Watch>()
  private seq = 0
  private pumpScheduled = false
  private headTimer: NodeJS.Timeout | undefined
  private idleTimer: NodeJS.Timeout | undefined
  /** Set while waiting for a slot: fails the waiting requests when none comes in time. */
  private slotTimer: NodeJS.Timeout | undefined
  private awaitingSlot = false
  /** Asked to give its slot up: writes nothing more and stops once what is written is answered. */
  private draining = false
  private stderrTail = ''
  private closed = false
  /** Whether the running process has answered yet (until then it may still be loading). */
  private answered = false

  constructor (options: PipelineOptions) {
    this.options = options
    this.mode = options.mode
  }

  /** Whether the process is running. */
  get running (): boolean {
    return this.child !== undefined
  }

  /** The process group of the running process (its shell leads it), if one runs. */
  get processGroup (): number | undefined {
    return this.child?.pid
  }

  /** Requests waiting or in flight. */
  get pending (): number {
    return this.waiting + this.written
  }

  /** Work waiting or in flight (streamCost): how long a request that comes now waits, roughly. */
  get backlogCost (): number {
    return this.waitingCost + this.writtenCost
  }

  /** Starts the process now (a replica made ready before the requests that will need it), when it may. */
  warm (): void {
    if (this.child || this.closed || this.awaitingSlot) return
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
   * Requests of one `turn` (a job) queue behind each other; different turns take turns.
   */
  request (payload: string, signal?: AbortSignal, turn?: unknown): Promise<string> {
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
        turn: turn ?? this.ownTurn
      }
      if (signal) this.watch(signal, entry)
      this.enqueue(entry)
      clearTimeout(this.idleTimer)
      this.schedulePump()
    })
  }

  /**
   * Writes what waits once the requests of this turn are all queued: requests that arrive
   * together (one message of the channel holds a turn's worth of them) go in one write.
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
    const entries = [...this.inflight.flat(), ...this.retries.slice(this.retryHead)]
    for (const turn of this.turns.slice(this.turnHead)) entries.push(...turn.entries.slice(turn.head))
    for (const entry of entries) this.settle(entry, () => entry.reject(error))
    this.inflight = []
    this.written = 0
    this.writtenCost = 0
    this.giveUpSlot()
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
    // the slot is free when the memory is: once the process is gone
    const exited = child.pid === undefined || child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>(resolve => child.once('exit', () => resolve()))
    killGroup(child)
    this.options.slots?.release(this, exited)
  }

  /** The slot asked for is free: start and write what waits. */
  grant (): void {
    clearTimeout(this.slotTimer)
    this.slotTimer = undefined
    this.awaitingSlot = false
    if (this.closed || this.child || this.waiting === 0) {
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
    if (this.child) killGroup(this.child)
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
      entry.waiting = false
      this.waitingCost -= entry.cost
      if (--this.waiting === 0) {
        this.waitingCost = 0
        // nothing live is left: drop the skipped entries at once
        this.retries = []
        this.retryHead = 0
        this.turns = []
        this.turnHead = 0
        this.turnOf.clear()
        if (this.awaitingSlot) this.giveUpSlot()
      }
    }
    finish()
  }

  /** Puts a request at the end of its job's queue (the job at the end of the turns if it had none). */
  private enqueue (entry: Entry): void {
    entry.waiting = true
    this.waiting++
    this.waitingCost += entry.cost
    let turn = this.turnOf.get(entry.turn)
    if (!turn) {
      turn = { key: entry.turn, entries: [], head: 0 }
      this.turnOf.set(entry.turn, turn)
      this.turns.push(turn)
    }
    turn.entries.push(entry)
  }

  /** Puts requests to write again before every waiting one. */
  private enqueueRetries (entries: Entry[]): void {
    if (entries.length === 0) return
    for (const entry of entries) {
      entry.waiting = true
      this.waitingCost += entry.cost
    }
    this.waiting += entries.length
    this.retries = [...entries, ...this.retries.slice(this.retryHead)]
    this.retryHead = 0
  }

  /** The next request to write (retries first, then the job whose turn it is), skipping settled ones. */
  private peek (): Entry | undefined {
    while (this.retryHead < this.retries.length && this.retries[this.retryHead]!.settled) this.retryHead++
    const retry = this.retries[this.retryHead]
    if (retry) return retry
    while (this.turnHead < this.turns.length) {
      const turn = this.turns[this.turnHead]!
      while (turn.head < turn.entries.length && turn.entries[turn.head]!.settled) turn.head++
      const entry = turn.entries[turn.head]
      if (entry) return entry
      // a job with nothing left waiting leaves the turns
      this.turnOf.delete(turn.key)
      this.nextTurn()
    }
    return undefined
  }

  /** Takes the request peek() found off its queue; its job goes to the end of the turns. */
  private dequeue (): Entry {
    let entry: Entry
    if (this.retryHead < this.retries.length) {
      entry = this.retries[this.retryHead++]!
    } else {
      const turn = this.turns[this.turnHead]!
      entry = turn.entries[turn.head++]!
      if (turn.head >= COMPACT_AFTER && turn.head * 2 >= turn.entries.length) {
        turn.entries = turn.entries.slice(turn.head)
        turn.head = 0
      }
      this.nextTurn()
      if (turn.head < turn.entries.length) this.turns.push(turn)
      else this.turnOf.delete(turn.key)
    }
    entry.waiting = false
    this.waiting--
    this.waitingCost -= entry.cost
    return entry
  }

  /** Drops the job at the front of the turns. */
  private nextTurn (): void {
    this.turnHead++
    if (this.turnHead >= COMPACT_AFTER && this.turnHead * 2 >= this.turns.length) {
      this.turns = this.turns.slice(this.turnHead)
      this.turnHead = 0
    }
  }

  private start (): ChildProcessWithoutNullStreams {
    // $1 is the generator flag: -n leaves unknown words unmarked (no * # @); $2 the tagger flag.
    // --norc: with a socket as stdin and SHLVL unset or 0 (a service manager, a container), bash
    // takes itself for a remote shell and runs ~/.bashrc, whatever it does or waits for, on every start
    const child = spawn('bash', ['--norc', '-c', watchedScript(this.options.script), `apertium-${this.mode}`, '-n', ''], {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    this.child = child
    this.answered = false
    this.stderrTail = ''
    child.stdout.on('data', (chunk: Buffer) => this.onData(child, chunk))
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL)
    })
    // a dead stage closes the pipe; 'exit' and 'close' below report it
    child.stdin.on('error', () => {})
    child.on('error', error => this.onBroken(child, new UpstreamError(SERVICE, `${this.mode} pipeline could not start`, error)))
    // 'exit': the shell alone may die, its stages still holding our pipes open ('close' waits for them)
    const ended = (code: number | null, signal: NodeJS.Signals | null): void => {
      const how = code === null ? `signal ${signal}` : `code ${code}`
      this.onBroken(child, new UpstreamError(SERVICE, `${this.mode} pipeline exited with ${how}${this.stderrSuffix()}`))
    }
    child.on('exit', ended)
    child.on('close', ended)
    return child
  }

  private stderrSuffix (): string {
    const tail = this.stderrTail.trim()
    return tail ? `: ${tail.split('\n').at(-1)}` : ''
  }

  /** Writes waiting requests while the window has room; starts the process (with a slot) when needed. */
  private pump (): void {
    if (this.draining) {
      if (this.inflight.length > 0) return
      // the slot goes to the pipeline that waits for it; what waits here asks for one again
      this.stop()
    }
    if (this.waiting === 0) {
      this.whenIdle()
      return
    }
    if (!this.child) {
      if (this.awaitingSlot || this.closed) return
      if (this.options.slots && !this.options.slots.request(this)) {
        this.awaitSlot()
        return
      }
      this.start()
    }
    const child = this.child!
    this.setRef(child, true)
    // one write call for everything that fits: fewer system calls and wake-ups of the first stage
    let out = ''
    while (this.inflight.length < MAX_WRITES && (this.inflight.length === 0 || this.writtenCost < MAX_INFLIGHT_COST) && this.peek()) {
      const batch: Entry[] = []
      let cost = 0
      for (let next = this.peek(); next && batch.length < MAX_BATCH && (batch.length === 0 || cost + next.cost <= MAX_BATCH_COST); next = this.peek()) {
        const entry = this.dequeue()
        entry.seq = ++this.seq
        batch.push(entry)
        cost += entry.cost
        out += `${entry.payload}[#${entry.seq}]`
      }
      out += '\0'
      this.inflight.push(batch)
      this.written += batch.length
      this.writtenCost += cost
      if (this.inflight.length === 1) this.armHeadTimer()
    }
    if (out) child.stdin.write(out)
  }

  /**
   * Waits for a slot, at most requestTimeoutMs: then the waiting requests fail as busy (503 with
   * Retry-After), since every running pipeline is working for other directions.
   */
  private awaitSlot (): void {
    this.awaitingSlot = true
    const ms = this.options.requestTimeoutMs
    this.slotTimer = setTimeout(() => {
      this.giveUpSlot()
      const error = new EngineBusyError(SERVICE, `every pipeline slot was busy with other language directions for ${ms / 1000} s (${this.mode} waited for one)`, BUSY_RETRY_AFTER_MS)
      const entries = this.retries.slice(this.retryHead)
      for (const turn of this.turns.slice(this.turnHead)) entries.push(...turn.entries.slice(turn.head))
      for (const entry of entries) this.settle(entry, () => entry.reject(error))
    }, ms)
  }

  /** Stops waiting for a slot. */
  private giveUpSlot (): void {
    clearTimeout(this.slotTimer)
    this.slotTimer = undefined
    if (!this.awaitingSlot) return
    this.awaitingSlot = false
    this.options.slots?.withdraw(this)
  }

  private onData (child: ChildProcessWithoutNullStreams, chunk: Buffer): void {
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
  private onAnswer (child: ChildProcessWithoutNullStreams, answer: string): void {
    const batch = this.inflight[0]
    const parts: string[] = []
    let at = 0
    for (const entry of batch ?? []) {
      const marker = `[#${entry.seq}]`
      const end = answer.indexOf(marker, at)
      if (end === -1) break
      parts.push(answer.slice(at, end))
      at = end + marker.length
    }
    if (!batch || parts.length !== batch.length || answer.slice(at).trim() !== '') {
      this.onBroken(child, new UpstreamError(SERVICE, `${this.mode} pipeline answered out of step${this.stderrSuffix()}`))
      return
    }
    this.inflight.shift()
    this.answered = true
    this.written -= batch.length
    for (const entry of batch) this.writtenCost -= entry.cost
    batch.forEach((entry, i) => this.settle(entry, () => entry.resolve(parts[i]!)))
    this.armHeadTimer()
    this.pump()
  }

  /** Restarts the clock of the request at the head of the FIFO (progress was made). */
  private armHeadTimer (): void {
    clearTimeout(this.headTimer)
    this.headTimer = undefined
    const child = this.child
    if (!child || this.inflight.length === 0) return
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
  private onBroken (child: ChildProcessWithoutNullStreams, error: Error): void {
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
        this.settle(entry, () => entry.reject(new UpstreamError(SERVICE, `${this.mode} pipeline failed ${entry.attempts + 1} times while this request waited`, error)))
      }
    })
    this.enqueueRetries(retry)
    if (!this.closed) this.pump()
  }

  private whenIdle (): void {
    if (this.inflight.length > 0 || !this.child) return
    this.setRef(this.child, false)
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => this.stop(), this.options.idleMs)
    this.idleTimer.unref()
    // another pipeline may be waiting for this one's slot
    this.options.slots?.idle(this)
  }

  /** An idle pipeline must not keep Node's event loop alive; a busy one must. */
  private setRef (child: ChildProcessWithoutNullStreams, active: boolean): void {
    for (const handle of [child, child.stdin as unknown as Socket, child.stdout as unknown as Socket, child.stderr as unknown as Socket]) {
      if (active) handle.ref()
      else handle.unref()
    }
  }
}

function killGroup (child: ChildProcessWithoutNullStreams): void {
  try {
    // negative pid: the whole group (bash and every stage), spawned detached as its leader
    process.kill(-child.pid!, 'SIGKILL')
  } catch {}
  child.stdin.destroy()
  child.stdout.destroy()
  child.stderr.destroy()
}
