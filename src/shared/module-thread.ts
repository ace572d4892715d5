/**
 * Worker threads that run a module of ours, from sources (tsx) or from dist/ alike, and a small
 * call protocol for a thread that owns a model or an engine: the caller's side (`ModelThread`: a
 * call whose request gave up is dropped if it has not started and aborted if it has, the service's
 * typed errors come back as themselves, a thread that dies fails its calls and is started again on
 * the next one) and the thread's side (`serveCalls`, `notify`).
 */
import { parentPort, Worker, type MessagePort, type Transferable } from 'node:worker_threads'
import * as errors from '../errors.js'

/**
 * A worker thread running `name` (a sibling of the module at `from`, without extension). From
 * sources the thread registers tsx itself (a thread does not inherit the loader hooks); a string
 * entry inherits the process's options as they are (a file entry breaks under --input-type, and
 * passing execArgv refuses V8 options such as --max-semi-space-size).
 */
export function startModuleThread (from: string, name: string, workerData?: unknown, transferList?: Transferable[]): Worker {
  const ext = from.endsWith('.ts') ? '.ts' : '.js'
  const url = new URL(`${name}${ext}`, from).href
  const load = ext === '.ts'
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(m => { m.register() }).then(() => import(${JSON.stringify(url)}))`
    : `import(${JSON.stringify(url)})`
  return new Worker(load, { eval: true, workerData, ...(transferList === undefined ? {} : { transferList }) })
}

/** What a thread serves: each handler gets the call's arguments, then a signal aborted when the caller gives up. */
type Handlers = Record<string, (...args: never[]) => unknown>

interface Call { id: number, method: string, args: unknown[] }
type Message = Call | { cancel: number }
/** An error as it crosses threads: its class name, message and own fields (what structured clone keeps of an Error is too little). */
export interface SentError { name: string, message: string, fields: Record<string, unknown> }
type Reply = { id: number, result: unknown } | { id: number, error: SentError } | { ready: true } | { notice: unknown }

/** The service's error classes by name: they cross threads as themselves (status, code, fields and all). */
const ERROR_CLASSES = new Map<string, { prototype: Error }>()
for (const [name, value] of Object.entries(errors) as Array<[string, unknown]>) {
  if (typeof value === 'function' && (value as { prototype: unknown }).prototype instanceof Error) ERROR_CLASSES.set(name, value as { prototype: Error })
}

/** An error as it can cross a thread or process boundary (see revive). */
export function sendable (err: unknown): SentError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} }
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(err)) {
    // a cause may hold anything (sockets, functions): it stays in this thread
    if (key === 'cause') continue
    try {
      fields[key] = structuredClone(value)
    } catch {
      // not cloneable: left out
    }
  }
  return { name: err.name, message: err.message, fields }
}

/** The error `sendable` made, as itself again: the service's own errors with their class and fields, any other as a plain Error named after `label`. */
export function revive (sent: SentError, label: string): Error {
  const Class = ERROR_CLASSES.get(sent.name)
  // the service's own errors are answers to the client as they are; anything else is a fault to locate
  if (Class === undefined) return Object.assign(new Error(`${label}: ${sent.message}`), { name: sent.name })
  const error = Object.create(Class.prototype) as Error
  Object.assign(error, sent.fields)
  Object.defineProperty(error, 'message', { value: sent.message, writable: true, configurable: true })
  Object.defineProperty(error, 'stack', { value: `${sent.name}: ${sent.message}\n    at ${label} (thread)`, writable: true, configurable: true })
  return error
}

/**
 * The thread's side: starts each call it is sent in a turn of the event loop of its own (so a
 * cancel sent meanwhile drops a call not started yet; one started has its signal aborted) and
 * posts its result or the error it threw. Calls run side by side: one that yields now and then
 * (the rules editor does, and the engine pipelines wait on other processes) lets the others on;
 * one that does not runs to its end first. Posts `{ ready }` once listening.
 */
export function serveCalls (handlers: Handlers, port: MessagePort = parentPort!): void {
  const queue: Call[] = []
  const running = new Map<number, AbortController>()
  const start = (): void => {
    const call = queue.shift()
    if (call === undefined) return
    const controller = new AbortController()
    running.set(call.id, controller)
    Promise.resolve().then(() => (handlers[call.method] as (...args: unknown[]) => unknown)(...call.args, controller.signal)).then(
      result => { port.postMessage({ id: call.id, result } satisfies Reply) },
      (err: unknown) => { port.postMessage({ id: call.id, error: sendable(err) } satisfies Reply) }
    ).finally(() => running.delete(call.id))
  }
  port.on('message', (msg: Message) => {
    if ('cancel' in msg) {
      const at = queue.findIndex(c => c.id === msg.cancel)
      if (at !== -1) queue.splice(at, 1)
      running.get(msg.cancel)?.abort(new Error('the caller gave up'))
      return
    }
    queue.push(msg)
    setImmediate(start)
  })
  port.postMessage({ ready: true } satisfies Reply)
}

/**
 * `ask` answered once and kept for later callers; forgotten when it fails, so the next caller asks
 * again (what an engine's thread or process serves that does not change, such as its languages).
 */
export function keptUntilFailed<T> (ask: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined
  return () => {
    if (kept === undefined) {
      const asked = kept = ask()
      asked.catch(() => { if (kept === asked) kept = undefined })
    }
    return kept
  }
}

/** Calls a method of a thread's served object (ModelThread.call, or portCaller's). */
export type Caller = <T>(method: string, args: unknown[], signal?: AbortSignal) => Promise<T>

/**
 * The caller's side of `serveCalls(handlers, port)` run at the other end of a MessagePort (another
 * thread's object, reached without a thread of its own): as ModelThread.call. Calls in flight fail
 * when the port closes.
 */
export function portCaller (port: MessagePort, label: string): Caller {
  const pending = new Map<number, { resolve: (value: unknown) => void, reject: (err: Error) => void }>()
  let nextId = 0
  let closed = false
  port.on('message', (msg: Reply) => {
    if (!('id' in msg)) return
    const waiting = pending.get(msg.id)
    if (waiting === undefined) return
    pending.delete(msg.id)
    if (pending.size === 0) port.unref()
    if ('error' in msg) waiting.reject(revive(msg.error, label))
    else waiting.resolve(msg.result)
  })
  port.once('close', () => {
    closed = true
    for (const waiting of pending.values()) waiting.reject(new errors.ServiceUnavailableError(`${label}: the thread that serves it has gone`))
    pending.clear()
  })
  // a port with calls to answer keeps this thread alive (as ModelThread's worker); an idle one does not
  port.unref()
  return async <T>(method: string, args: unknown[], signal?: AbortSignal): Promise<T> => {
    signal?.throwIfAborted()
    if (closed) throw new errors.ServiceUnavailableError(`${label}: the thread that serves it has gone`)
    const id = nextId++
    return await new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        pending.delete(id)
        if (pending.size === 0) port.unref()
        port.postMessage({ cancel: id } satisfies Message)
        reject(signal!.reason as Error) // eslint-disable-line prefer-promise-reject-errors
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      port.ref()
      pending.set(id, {
        resolve: value => { signal?.removeEventListener('abort', onAbort); resolve(value as T) },
        reject: err => { signal?.removeEventListener('abort', onAbort); reject(err) }
      })
      port.postMessage({ id, method, args } satisfies Message)
    })
  }
}

/** From the thread: tells the caller's `onNotice` something it did not ask for (the processes it runs, say). */
export function notify (notice: unknown): void {
  parentPort!.postMessage({ notice } satisfies Reply)
}

export interface ModelThreadOptions {
  /** The module, as startModuleThread takes it: `import.meta.url` of a sibling, and its name without extension. */
  from: string
  name: string
  /** Names the thread in errors. */
  label: string
  /** The thread's `workerData` (its settings); or made for each start, with what it transfers (MessagePorts). */
  data?: unknown
  start?: () => { data: unknown, transferList: Transferable[] }
  /** Receives what the thread `notify`s. */
  onNotice?: (notice: unknown) => void
  /** Called when the thread stops other than by close() (it crashed or exited). */
  onExit?: () => void
}

/** The caller's side of a thread that serves `serveCalls`. */
export class ModelThread {
  private worker: Worker | undefined
  private loaded: Promise<void> | undefined
  private readonly pending = new Map<number, { resolve: (value: unknown) => void, reject: (err: Error) => void }>()
  private nextId = 0
  private readonly label: string

  constructor (private readonly options: ModelThreadOptions) {
    this.label = options.label
  }

  /** Resolves once the thread is listening (starting it when it is not running). */
  async started (): Promise<void> {
    this.start()
    await this.loaded
  }

  /** Whether the thread is running (started and not stopped). */
  running (): boolean {
    return this.worker !== undefined
  }

  /** Calls `method` in the thread; rejects at once when `signal` aborts (the call is dropped, or aborted in the thread). */
  async call<T> (method: string, args: unknown[], signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted()
    const worker = this.start()
    const id = this.nextId++
    return await new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        this.pending.delete(id)
        if (this.pending.size === 0) worker.unref()
        worker.postMessage({ cancel: id } satisfies Message)
        // the request's own reason (its timeout, the client gone), as every other await would throw it
        reject(signal!.reason as Error) // eslint-disable-line prefer-promise-reject-errors
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.pending.set(id, {
        resolve: value => { signal?.removeEventListener('abort', onAbort); resolve(value as T) },
        reject: err => { signal?.removeEventListener('abort', onAbort); reject(err) }
      })
      // a thread with calls to answer keeps the process alive; an idle one does not
      worker.ref()
      worker.postMessage({ id, method, args } satisfies Message)
    })
  }

  async close (): Promise<void> {
    const worker = this.worker
    this.worker = undefined
    this.loaded = undefined
    for (const waiting of this.pending.values()) waiting.reject(new Error(`${this.label} closed`))
    this.pending.clear()
    if (worker !== undefined) await worker.terminate()
  }

  private start (): Worker {
    if (this.worker !== undefined) return this.worker
    const made = this.options.start?.()
    const worker = this.worker = made === undefined
      ? startModuleThread(this.options.from, this.options.name, this.options.data)
      : startModuleThread(this.options.from, this.options.name, made.data, made.transferList)
    let markReady!: () => void
    let fail!: (err: Error) => void
    this.loaded = new Promise<void>((resolve, reject) => { markReady = resolve; fail = reject })
    // nobody may be waiting for it yet
    this.loaded.catch(() => {})
    worker.on('message', (msg: Reply) => {
      if ('ready' in msg) return markReady()
      if ('notice' in msg) return this.options.onNotice?.(msg.notice)
      const waiting = this.pending.get(msg.id)
      if (waiting === undefined) return
      this.pending.delete(msg.id)
      if (this.pending.size === 0) worker.unref()
      if ('error' in msg) waiting.reject(revive(msg.error, this.label))
      else waiting.resolve(msg.result)
    })
    const down = (err: Error): void => {
      if (this.worker !== worker) return
      this.worker = undefined
      fail(err)
      // the calls in flight are lost with the thread; the next call starts a new one
      for (const waiting of this.pending.values()) waiting.reject(err)
      this.pending.clear()
      this.options.onExit?.()
    }
    worker.on('error', down)
    worker.on('exit', code => down(new Error(`${this.label} thread exited with code ${code}`)))
    worker.unref()
    return worker
  }
}
