/**
 * One warm Apertium pipeline: the NUL-flushing shell pipeline of a mode, started lazily in its
 * own process group, answering requests in order (FIFO, many in flight).
 *
 * Each request is written as `<stream>[#<seq>]` and each write ends with a NUL; the answer to a
 * write must hold the same `[#<seq>]` superblanks in order. A stage that dies makes the next
 * stages flush and emit extra NULs, so an answer without its markers means the pipeline broke.
 *
 * Failures (a crash, a broken answer, or no answer within `requestTimeoutMs` while requests wait):
 * the whole process group is killed, the request at the head fails (UpstreamError, or
 * UpstreamTimeoutError on a timeout), and the requests behind it are sent once more to a fresh
 * pipeline; a request caught in a second failure fails too, so a pipeline that breaks on every
 * input cannot hold requests forever. The timeout runs while requests are in flight and restarts
 * whenever an answer arrives, so a long queue is not a timeout.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import type { Socket } from 'node:net'
import { ServiceUnavailableError, UpstreamError, UpstreamTimeoutError } from '../../../errors.js'

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
  /** Told when the process starts (true) and stops (false). */
  onRunning?: (running: boolean) => void
}

interface Entry {
  payload: string
  seq: number
  attempts: number
  /** In the waiting queue (false: written, or not yet queued). */
  waiting: boolean
  settled: boolean
  resolve: (answer: string) => void
  reject: (error: unknown) => void
  signal: AbortSignal | undefined
}

/** The unsettled requests of one abort signal, and the one listener the signal has for them. */
interface Watch {
  entries: Set<Entry>
  onAbort: () => void
}

const SERVICE = 'apertium'
/**
 * NUL-terminated writes in the pipeline at once. Requests that arrive while it is full wait and
 * then travel together in one write (each still with its own marker), up to MAX_BATCH requests
 * and MAX_BATCH_CHARS characters: every write costs a flush in each of the 10-15 stages, so
 * under load fewer, fuller writes cost less CPU (measured on eng-spa with 8 callers: 675 -> 570 us
 * of pipeline CPU and 128 -> 90 us of Node CPU per short request). Up to 4 concurrent requests
 * still go out one by one.
 */
const MAX_WRITES = 4
const MAX_BATCH = 32
const MAX_BATCH_CHARS = 16_384
const STDERR_TAIL = 500
/** Dequeued entries kept at the front of the queue array before it is compacted. */
const COMPACT_AFTER = 1024

export class Pipeline {
  readonly mode: string
  private readonly options: PipelineOptions
  private child: ChildProcessWithoutNullStreams | undefined
  private chunks: Buffer[] = []
  /**
   * Requests not yet written, oldest first, from index `head` on. An aborted one is settled
   * and skipped when it comes up (removing it at once would cost a pass over the queue).
   */
  private queue: Entry[] = []
  private head = 0
  /** Unsettled requests in the queue. */
  private waiting = 0
  /** Written requests, one array per NUL-terminated write, oldest first. */
  private inflight: Entry[][] = []
  private written = 0
  /**
   * One abort listener per signal, not per request: a job's requests share its signal, and
   * EventTarget checks every listener already there when one is added (quadratic in a job's size).
   */
  private readonly watches = new Map<AbortSignal, Watch>()
  private seq = 0
  private headTimer: NodeJS.Timeout | undefined
  private idleTimer: NodeJS.Timeout | undefined
  private stderrTail = ''
  private closed = false

  constructor (options: PipelineOptions) {
    this.options = options
    this.mode = options.mode
  }

  /** Whether the process is running. */
  get running (): boolean {
    return this.child !== undefined
  }

  /** Requests waiting or in flight. */
  get pending (): number {
    return this.waiting + this.written
  }

  /** Sends one request (stream format, no NUL) and resolves with the answer (marker removed). */
  request (payload: string, signal?: AbortSignal): Promise<string> {
    if (this.closed) return Promise.reject(new ServiceUnavailableError('apertium is shutting down'))
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (this.pending >= this.options.maxPending) {
      return Promise.reject(new ServiceUnavailableError(`apertium ${this.mode}: more than ${this.options.maxPending} requests waiting`, 1))
    }
    return new Promise((resolve, reject) => {
      const entry: Entry = {
        payload,
        seq: 0,
        attempts: 0,
        waiting: false,
        settled: false,
        resolve,
        reject,
        signal
      }
      if (signal) this.watch(signal, entry)
      this.enqueue([entry])
      clearTimeout(this.idleTimer)
      this.pump()
    })
  }

  /** Kills the process group now; pending requests fail (503). The pipeline cannot be used again. */
  close (): void {
    this.closed = true
    const error = new ServiceUnavailableError('apertium is shutting down')
    for (const entry of [...this.inflight.flat(), ...this.queue.slice(this.head)]) this.settle(entry, () => entry.reject(error))
    this.inflight = []
    this.written = 0
    this.stop()
  }

  /** Kills the process group (idle shutdown, eviction); a later request starts a new one. */
  stop (): void {
    clearTimeout(this.idleTimer)
    clearTimeout(this.headTimer)
    this.headTimer = undefined
    const child = this.child
    if (!child) return
    this.child = undefined
    this.chunks = []
    killGroup(child)
    this.options.onRunning?.(false)
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
      if (--this.waiting === 0) {
        // nothing live is left: drop the skipped entries at once
        this.queue = []
        this.head = 0
      }
    }
    finish()
  }

  /** Puts entries at the end of the waiting queue (or, with `first`, before every waiting one). */
  private enqueue (entries: Entry[], first = false): void {
    if (entries.length === 0) return
    for (const entry of entries) entry.waiting = true
    this.waiting += entries.length
    if (first) {
      this.queue = [...entries, ...this.queue.slice(this.head)]
      this.head = 0
    } else {
      this.queue.push(...entries)
    }
  }

  /** The oldest waiting request, skipping settled ones; undefined when none waits. */
  private peek (): Entry | undefined {
    while (this.head < this.queue.length && this.queue[this.head]!.settled) this.head++
    return this.queue[this.head]
  }

  /** Takes the oldest waiting request off the queue (call after peek() found one). */
  private dequeue (): Entry {
    const entry = this.queue[this.head++]!
    entry.waiting = false
    this.waiting--
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head)
      this.head = 0
    }
    return entry
  }

  private start (): ChildProcessWithoutNullStreams {
    // $1 is the generator flag: -n leaves unknown words unmarked (no * # @); $2 the tagger flag.
    // --norc: with a socket as stdin and SHLVL unset or 0 (a service manager, a container), bash
    // takes itself for a remote shell and runs ~/.bashrc, whatever it does or waits for, on every start
    const child = spawn('bash', ['--norc', '-c', this.options.script, `apertium-${this.mode}`, '-n', ''], {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    this.child = child
    this.stderrTail = ''
    child.stdout.on('data', (chunk: Buffer) => this.onData(child, chunk))
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL)
    })
    // a dead stage closes the pipe; 'close' below reports it
    child.stdin.on('error', () => {})
    child.on('error', error => this.onBroken(child, new UpstreamError(SERVICE, `${this.mode} pipeline could not start`, error)))
    child.on('close', (code, signal) => {
      const how = code === null ? `signal ${signal}` : `code ${code}`
      this.onBroken(child, new UpstreamError(SERVICE, `${this.mode} pipeline exited with ${how}${this.stderrSuffix()}`))
    })
    this.options.onRunning?.(true)
    return child
  }

  private stderrSuffix (): string {
    const tail = this.stderrTail.trim()
    return tail ? `: ${tail.split('\n').at(-1)}` : ''
  }

  /** Writes waiting requests while the window has room; starts the process when needed. */
  private pump (): void {
    if (this.waiting === 0) {
      this.whenIdle()
      return
    }
    const child = this.child ?? this.start()
    this.setRef(child, true)
    // one write call for everything that fits: fewer system calls and wake-ups of the first stage
    let out = ''
    while (this.inflight.length < MAX_WRITES && this.peek()) {
      const batch: Entry[] = []
      let chars = 0
      for (let next = this.peek(); next && batch.length < MAX_BATCH && (batch.length === 0 || chars + next.payload.length <= MAX_BATCH_CHARS); next = this.peek()) {
        const entry = this.dequeue()
        entry.seq = ++this.seq
        batch.push(entry)
        chars += entry.payload.length
        out += `${entry.payload}[#${entry.seq}]`
      }
      out += '\0'
      this.inflight.push(batch)
      this.written += batch.length
      if (this.inflight.length === 1) this.armHeadTimer()
    }
    if (out) child.stdin.write(out)
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
    this.written -= batch.length
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
    const ms = this.options.requestTimeoutMs
    this.headTimer = setTimeout(() => this.onBroken(child, new UpstreamTimeoutError(SERVICE, ms)), ms)
  }

  /** Kills a broken process group: the head request fails, the ones behind it get one more try. */
  private onBroken (child: ChildProcessWithoutNullStreams, error: Error): void {
    if (child !== this.child) return
    this.stop()
    const [head, ...rest] = this.inflight.flat()
    this.inflight = []
    this.written = 0
    if (head) this.settle(head, () => head.reject(error))
    const retry: Entry[] = []
    for (const entry of rest) {
      if (entry.settled) continue
      if (entry.attempts >= 1) {
        this.settle(entry, () => entry.reject(new UpstreamError(SERVICE, `${this.mode} pipeline failed twice while this request waited`, error)))
      } else {
        entry.attempts++
        retry.push(entry)
      }
    }
    this.enqueue(retry, true)
    if (!this.closed) this.pump()
  }

  private whenIdle (): void {
    if (this.inflight.length > 0 || !this.child) return
    this.setRef(this.child, false)
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => this.stop(), this.options.idleMs)
    this.idleTimer.unref()
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
