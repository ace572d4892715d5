/**
 * A worker thread that owns something long-lived (the Apertium pipelines) and serves calls on
 * the channel: started on the first call, started again by the next call after it died (its
 * calls in flight fail with a 503), stopped by close().
 */
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads'
import { connect, serve, parentEndpoint, workerEndpoint, type Connection, type Handlers } from './channel.js'
import { collectedWhenIdle } from './idle-gc.js'

/**
 * A worker thread running `name` (a sibling of the module at `from`, without extension). From
 * sources the thread registers tsx itself (a thread does not inherit the loader hooks); a string
 * entry inherits the process's options as they are (a file entry breaks under --input-type, and
 * passing execArgv refuses V8 options such as --max-semi-space-size).
 */
export function startModuleThread (from: string, name: string, workerData?: unknown, transferList?: Transferable[], resourceLimits?: ResourceLimits): Worker {
  const ext = from.endsWith('.ts') ? '.ts' : '.js'
  const url = new URL(`${name}${ext}`, from).href
  const load = ext === '.ts'
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(m => { m.register() }).then(() => import(${JSON.stringify(url)}))`
    : `import(${JSON.stringify(url)})`
  return new Worker(load, { eval: true, workerData, ...(transferList === undefined ? {} : { transferList }), ...(resourceLimits === undefined ? {} : { resourceLimits }) })
}

/** Inside such a thread: serves `handlers` to the thread that started it; returns what sends it notices. The heap its calls grow goes back to the system once it is idle (idle-gc.ts). */
export function serveParent (handlers: Handlers): (notice: unknown) => void {
  return serve(parentEndpoint(), collectedWhenIdle(handlers)).notify
}

export interface ServiceThreadOptions {
  /** The module, as startModuleThread takes it: `import.meta.url` of a sibling, and its name without extension. */
  from: string
  name: string
  /** Names the thread in errors. */
  label: string
  /** The thread's `workerData` (its settings). */
  data?: unknown
  /** Receives what the thread notifies. */
  onNotice?: (notice: unknown) => void
  /** Called when the thread stops other than by close() (it crashed or exited). */
  onExit?: () => void
  /** V8's limits for the thread's heap (default: the process's flags). */
  resourceLimits?: ResourceLimits
}

/** The caller's side of a thread that serves its parent (serveParent). */
export class ServiceThread {
  private worker: Worker | undefined
  private connection: Connection | undefined

  constructor (private readonly options: ServiceThreadOptions) {}

  /** Calls `method` in the thread (starting it when it is not running); rejects at once when `signal` aborts. */
  async call<T> (method: string, args: unknown[], signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted()
    return await this.start().call<T>(method, args, signal)
  }

  /** Whether the thread is running. */
  running (): boolean {
    return this.worker !== undefined
  }

  async close (): Promise<void> {
    const worker = this.worker
    const connection = this.connection
    this.worker = undefined
    this.connection = undefined
    connection?.failAll(new Error(`${this.options.label} closed`))
    if (worker !== undefined) await worker.terminate()
  }

  private start (): Connection {
    if (this.connection !== undefined) return this.connection
    const worker = this.worker = startModuleThread(this.options.from, this.options.name, this.options.data, undefined, this.options.resourceLimits)
    const connection = this.connection = connect(workerEndpoint(worker), this.options.label)
    if (this.options.onNotice) connection.onNotice(this.options.onNotice)
    const down = (): void => {
      if (this.worker !== worker) return
      // the calls in flight failed with the thread (channel.ts); the next call starts a new one
      this.worker = undefined
      this.connection = undefined
      this.options.onExit?.()
    }
    worker.on('error', down)
    worker.on('exit', down)
    return connection
  }
}
