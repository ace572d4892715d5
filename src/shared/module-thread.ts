/**
 * Worker threads that run a module of ours, from sources (tsx) or from dist/ alike, and a small
 * call protocol for a thread that owns a model: the caller's side (`ModelThread`: a call whose
 * request gave up is dropped if it has not started, a thread that dies fails its calls and is
 * started again on the next one) and the thread's side (`serveCalls`).
 */
import { parentPort, Worker } from 'node:worker_threads'

/**
 * A worker thread running `name` (a sibling of the module at `from`, without extension). From
 * sources the thread registers tsx itself (a thread does not inherit the loader hooks); a string
 * entry inherits the process's options as they are (a file entry breaks under --input-type, and
 * passing execArgv refuses V8 options such as --max-semi-space-size).
 */
export function startModuleThread (from: string, name: string): Worker {
  const ext = from.endsWith('.ts') ? '.ts' : '.js'
  const url = new URL(`${name}${ext}`, from).href
  const load = ext === '.ts'
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(m => { m.register() }).then(() => import(${JSON.stringify(url)}))`
    : `import(${JSON.stringify(url)})`
  return new Worker(load, { eval: true })
}

type Handlers = Record<string, (...args: never[]) => unknown>

interface Call { id: number, method: string, args: unknown[] }
type Message = Call | { cancel: number }
type Reply = { id: number, result: unknown } | { id: number, error: { name: string, message: string } } | { ready: true }

/**
 * The thread's side: starts each call it is sent in a turn of the event loop of its own (so a
 * cancel sent meanwhile drops a call not started yet) and posts its result or the error it threw.
 * Calls run side by side: one that yields now and then (the rules editor does) lets the others on;
 * one that does not runs to its end first. Posts `{ ready }` once listening.
 */
export function serveCalls (handlers: Handlers): void {
  const port = parentPort!
  const queue: Call[] = []
  const start = (): void => {
    const call = queue.shift()
    if (call === undefined) return
    Promise.resolve().then(() => (handlers[call.method] as (...args: unknown[]) => unknown)(...call.args)).then(
      result => { port.postMessage({ id: call.id, result } satisfies Reply) },
      (err: Error) => { port.postMessage({ id: call.id, error: { name: err?.name ?? 'Error', message: String(err?.message ?? err) } } satisfies Reply) }
    )
  }
  port.on('message', (msg: Message) => {
    if ('cancel' in msg) {
      const at = queue.findIndex(c => c.id === msg.cancel)
      if (at !== -1) queue.splice(at, 1)
      return
    }
    queue.push(msg)
    setImmediate(start)
  })
  port.postMessage({ ready: true } satisfies Reply)
}

/** The caller's side of a thread that serves `serveCalls`. */
export class ModelThread {
  private worker: Worker | undefined
  private loaded: Promise<void> | undefined
  private readonly pending = new Map<number, { resolve: (value: unknown) => void, reject: (err: Error) => void }>()
  private nextId = 0

  /** `from` and `name` as startModuleThread takes them; `label` names the thread in errors. */
  constructor (private readonly from: string, private readonly name: string, private readonly label: string) {}

  /** Resolves once the thread is listening (starting it when it is not running). */
  async started (): Promise<void> {
    this.start()
    await this.loaded
  }

  /** Calls `method` in the thread; rejects at once when `signal` aborts (the call is dropped if it has not started). */
  async call<T> (method: string, args: unknown[], signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted()
    const worker = this.start()
    const id = this.nextId++
    return await new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        this.pending.delete(id)
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
    const worker = this.worker = startModuleThread(this.from, this.name)
    let markReady!: () => void
    let fail!: (err: Error) => void
    this.loaded = new Promise<void>((resolve, reject) => { markReady = resolve; fail = reject })
    // nobody may be waiting for it yet
    this.loaded.catch(() => {})
    worker.on('message', (msg: Reply) => {
      if ('ready' in msg) return markReady()
      const waiting = this.pending.get(msg.id)
      if (waiting === undefined) return
      this.pending.delete(msg.id)
      if (this.pending.size === 0) worker.unref()
      if ('error' in msg) waiting.reject(Object.assign(new Error(`${this.label}: ${msg.error.message}`), { name: msg.error.name }))
      else waiting.resolve(msg.result)
    })
    const down = (err: Error): void => {
      if (this.worker !== worker) return
      this.worker = undefined
      fail(err)
      // the calls in flight are lost with the thread; the next call starts a new one
      for (const waiting of this.pending.values()) waiting.reject(err)
      this.pending.clear()
    }
    worker.on('error', down)
    worker.on('exit', code => down(new Error(`${this.label} thread exited with code ${code}`)))
    worker.unref()
    return worker
  }
}
