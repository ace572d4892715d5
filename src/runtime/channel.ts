/**
 * The one channel for every call that crosses a thread or a process: a MessagePort, a worker
 * thread, or a process's IPC channel (cluster workers and their primary). One message shape
 * (calls, cancels, replies and notices, gathered per tick of the event loop into one message),
 * one way to carry errors (the service's own error classes arrive as themselves, with their
 * status and fields), one way to cancel (the caller's AbortSignal aborts the handler's signal on
 * the other side), and the calling client's key carried along (clients.ts), so that queues on
 * the other side are fair too.
 */
import { parentPort, type MessagePort, type Worker } from 'node:worker_threads'
import type { Worker as ClusterWorker } from 'node:cluster'
import * as errors from '../errors.js'
import { currentClient, withClient } from '../lib/clients.js'

/** Marks our messages among anything else on the same port or IPC channel (Node's cluster messages). */
const TAG = 'language-service:channel'

/** An error as it crosses a thread or process: its class name, message and own fields. */
export interface SentError { name: string, message: string, fields: Record<string, unknown> }

interface Call { id: number, method: string, args: unknown[], client?: string }
type Reply = { id: number, result: unknown } | { id: number, error: SentError }
/** What travels: everything one side had to say in one tick of its event loop. */
interface Envelope {
  tag: typeof TAG
  calls?: Call[]
  cancels?: number[]
  replies?: Reply[]
  notices?: unknown[]
}

const isEnvelope = (m: unknown): m is Envelope => (m as Envelope | null)?.tag === TAG

/** One side of a connection: how to send to the other side and hear from it. */
export interface Endpoint {
  /** Sends; `lost` when the message cannot arrive (the other side is gone). */
  post: (message: Envelope, lost: () => void) => void
  listen: (listener: (message: unknown) => void) => void
  /** Called once when the other side is gone for good. */
  onClose: (listener: () => void) => void
  /** Whether this side's event loop is kept alive by the endpoint (calls in flight) or not (idle). */
  keepAlive: (active: boolean) => void
}

/** A MessagePort (one end of a MessageChannel). */
export function portEndpoint (port: MessagePort): Endpoint {
  let closed = false
  port.once('close', () => { closed = true })
  return {
    post: (message, lost) => { if (closed) lost(); else port.postMessage(message) },
    listen: listener => { port.on('message', listener) },
    onClose: listener => { port.once('close', listener) },
    keepAlive: active => { if (active) port.ref(); else port.unref() }
  }
}

/** A worker thread, from the side that started it. */
export function workerEndpoint (worker: Worker): Endpoint {
  let gone = false
  worker.once('exit', () => { gone = true })
  return {
    post: (message, lost) => { if (gone) lost(); else worker.postMessage(message) },
    listen: listener => { worker.on('message', listener) },
    onClose: listener => { worker.once('exit', listener) },
    keepAlive: active => { if (active) worker.ref(); else worker.unref() }
  }
}

/** Inside a worker thread: the thread that started it. */
export function parentEndpoint (): Endpoint {
  const port = parentPort
  if (port === null) throw new Error('parentEndpoint: not in a worker thread')
  return {
    post: message => { port.postMessage(message) },
    listen: listener => { port.on('message', listener) },
    onClose: listener => { port.once('close', listener) },
    // the thread lives as long as its parent wants it
    keepAlive: () => {}
  }
}

/** In a process started with an IPC channel (a cluster worker): its parent (the primary). */
export function processEndpoint (): Endpoint {
  return {
    post: (message, lost) => {
      if (process.send === undefined || !process.connected) return lost()
      process.send(message, undefined, undefined, (err: Error | null) => { if (err) lost() })
    },
    listen: listener => { process.on('message', listener) },
    onClose: listener => { process.once('disconnect', listener) },
    keepAlive: active => {
      const channel = process.channel as { ref?: () => void, unref?: () => void } | undefined
      if (active) channel?.ref?.()
      else channel?.unref?.()
    }
  }
}

let toPrimary: Connection | undefined

/** In a cluster worker: the connection to the primary, one for every caller (two would each take the other's replies). */
export function primaryConnection (): Connection {
  toPrimary ??= connect(processEndpoint(), 'the cluster primary')
  return toPrimary
}

/** In a cluster worker: calls to the primary. */
export function primaryCaller (): Caller {
  return primaryConnection().call
}

/** In the cluster primary: one of its workers. */
export function clusterWorkerEndpoint (worker: ClusterWorker): Endpoint {
  return {
    post: (message, lost) => {
      if (!worker.isConnected()) return lost()
      worker.send(message, undefined, (err: Error | null) => { if (err) lost() })
    },
    listen: listener => { worker.on('message', listener) },
    onClose: listener => { worker.once('exit', listener) },
    keepAlive: () => {}
  }
}

/** The service's error classes by name: they cross as themselves (status, code, fields and all). */
const ERROR_CLASSES = new Map<string, { prototype: Error }>()
for (const [name, value] of Object.entries(errors) as Array<[string, unknown]>) {
  if (typeof value === 'function' && (value as { prototype: unknown }).prototype instanceof Error) ERROR_CLASSES.set(name, value as { prototype: Error })
}

/** An error as it can cross a thread or process boundary (see revive). */
export function sendable (err: unknown): SentError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} }
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(err)) {
    // a cause may hold anything (sockets, functions): it stays on its side
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
  Object.defineProperty(error, 'stack', { value: `${sent.name}: ${sent.message}\n    at ${label} (channel)`, writable: true, configurable: true })
  return error
}

/** Gathers what one side says in a tick of its event loop into one message. */
class Outbox {
  private pending: Envelope | undefined
  constructor (private readonly endpoint: Endpoint, private readonly lost: (envelope: Envelope) => void) {}

  add<K extends 'calls' | 'cancels' | 'replies' | 'notices'> (key: K, item: NonNullable<Envelope[K]>[number]): void {
    if (this.pending === undefined) {
      const envelope: Envelope = this.pending = { tag: TAG }
      setImmediate(() => {
        this.pending = undefined
        this.endpoint.post(envelope, () => this.lost(envelope))
      })
    }
    const list = (this.pending[key] ??= []) as unknown[]
    list.push(item)
  }
}

/** What a side serves: each handler gets the call's arguments, then a signal aborted when the caller gives up. */
export type Handlers = Record<string, (...args: never[]) => unknown>

/**
 * Serves `handlers` to the other side of `endpoint`: each call runs in the calling client's
 * context (clients.ts), side by side with the others; a cancel aborts its signal; a caller that
 * goes away has every call it made aborted. Returns a function that sends the other side a notice
 * (something it did not ask for).
 */
export function serve (endpoint: Endpoint, handlers: Handlers): { notify: (notice: unknown) => void } {
  const running = new Map<number, AbortController>()
  const outbox = new Outbox(endpoint, () => {})
  const start = (call: Call): void => {
    const controller = new AbortController()
    running.set(call.id, controller)
    const handler = handlers[call.method] as ((...args: unknown[]) => unknown) | undefined
    const run = async (): Promise<unknown> => {
      if (handler === undefined) throw new Error(`no method ${call.method}`)
      return await handler(...call.args, controller.signal)
    }
    withClient(call.client, run).then(
      result => { if (running.delete(call.id)) outbox.add('replies', { id: call.id, result: result ?? null }) },
      (err: unknown) => { if (running.delete(call.id)) outbox.add('replies', { id: call.id, error: sendable(err) }) }
    )
  }
  endpoint.listen(message => {
    if (!isEnvelope(message)) return
    const cancels = new Set<number>()
    for (const id of message.cancels ?? []) {
      const controller = running.get(id)
      if (controller === undefined) {
        // a call given up in the same tick it was made: it never starts
        cancels.add(id)
        continue
      }
      running.delete(id)
      controller.abort(new Error('the caller gave up'))
    }
    for (const call of message.calls ?? []) if (!cancels.has(call.id)) start(call)
  })
  endpoint.onClose(() => {
    for (const controller of running.values()) controller.abort(new Error('the caller went away'))
    running.clear()
  })
  return { notify: notice => { outbox.add('notices', notice) } }
}

/** Calls a method served on the other side. */
export type Caller = <T>(method: string, args: unknown[], signal?: AbortSignal) => Promise<T>

export interface Connection {
  call: Caller
  /** Receives what the other side `notify`s. */
  onNotice: (listener: (notice: unknown) => void) => void
  /** Fails every call in flight with `error` (the other side is gone, or being replaced). */
  failAll: (error: Error) => void
}

/**
 * The caller's side: a call whose signal aborts rejects at once with the signal's reason (and the
 * other side aborts it); errors come back as themselves; when the other side goes away, the calls
 * in flight fail with a 503 naming `label`. Calls in flight keep this side's event loop alive.
 */
export function connect (endpoint: Endpoint, label: string): Connection {
  const pending = new Map<number, { resolve: (value: unknown) => void, reject: (err: Error) => void }>()
  const noticeListeners: Array<(notice: unknown) => void> = []
  let nextId = 0
  let gone = false
  const gone503 = (): errors.ServiceUnavailableError => new errors.ServiceUnavailableError(`${label}: the thread or process that serves it has gone; retry`, 1)
  const outbox = new Outbox(endpoint, envelope => {
    for (const call of envelope.calls ?? []) pending.get(call.id)?.reject(gone503())
  })
  const failAll = (error: Error): void => {
    for (const waiting of [...pending.values()]) waiting.reject(error)
  }
  endpoint.listen(message => {
    if (!isEnvelope(message)) return
    for (const notice of message.notices ?? []) for (const listener of noticeListeners) listener(notice)
    for (const reply of message.replies ?? []) {
      const waiting = pending.get(reply.id)
      if (waiting === undefined) continue
      if ('error' in reply) waiting.reject(revive(reply.error, label))
      else waiting.resolve(reply.result)
    }
  })
  endpoint.onClose(() => {
    gone = true
    failAll(gone503())
  })
  endpoint.keepAlive(false)
  const call = async <T>(method: string, args: unknown[], signal?: AbortSignal): Promise<T> => {
    signal?.throwIfAborted()
    if (gone) throw gone503()
    const id = nextId++
    return await new Promise<T>((resolve, reject) => {
      const settle = (): void => {
        pending.delete(id)
        signal?.removeEventListener('abort', onAbort)
        if (pending.size === 0) endpoint.keepAlive(false)
      }
      const onAbort = (): void => {
        settle()
        outbox.add('cancels', id)
        // the request's own reason (its deadline, its client gone), as every other await would throw it
        reject(signal!.reason as Error) // eslint-disable-line prefer-promise-reject-errors
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      pending.set(id, {
        resolve: value => { settle(); resolve(value as T) },
        reject: err => { settle(); reject(err) }
      })
      if (pending.size === 1) endpoint.keepAlive(true)
      const client = currentClient()
      outbox.add('calls', client === undefined ? { id, method, args } : { id, method, args, client })
    })
  }
  return { call, onNotice: listener => { noticeListeners.push(listener) }, failAll }
}
