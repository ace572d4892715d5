/**
 * One set of Apertium pipelines for every WORKERS process (APERTIUM_SHARED_PIPELINES=true): the
 * cluster primary runs the Apertium thread (thread.ts) and the workers send it their jobs over the
 * IPC channel. A direction then has one warm pipeline for the whole service, fed by every worker,
 * instead of one per worker: the pipelines batch as many requests per write as with WORKERS=1, and
 * take their memory once. Calls made in the same turn of a worker's event loop travel in one
 * message, and their replies in one. A request that gives up (its deadline, its client gone)
 * withdraws its job from the pipelines; a worker that dies has its jobs withdrawn. The thread that
 * serves large requests (http/large-requests.ts) reaches its process's pipelines the same way,
 * over a MessagePort.
 */
import cluster, { type Worker } from 'node:cluster'
import type { MessagePort } from 'node:worker_threads'
import { ServiceUnavailableError } from '../../../errors.js'
import { keptUntilFailed, revive, sendable, type SentError } from '../../../shared/module-thread.js'
import type { LanguagePair, TranslateJob, Translator } from '../../types.js'

/** Marks our messages among anything else on the IPC channel (rate limits travel on it too). */
const TAG = 'language-service:apertium'

type Method = 'languages' | 'ready' | 'translate'
interface Call { id: number, method: Method, args: unknown[] }
type Reply = { id: number, result: unknown } | { id: number, error: SentError }
/** What a worker sends in one turn: new calls, and the calls it gave up. */
interface ToPrimary { tag: typeof TAG, calls: Call[], cancels: number[] }
interface ToWorker { tag: typeof TAG, replies: Reply[] }

const isToPrimary = (m: unknown): m is ToPrimary => (m as ToPrimary | null)?.tag === TAG && Array.isArray((m as ToPrimary).calls)
const isToWorker = (m: unknown): m is ToWorker => (m as ToWorker | null)?.tag === TAG && Array.isArray((m as ToWorker).replies)

/** One caller of the served pipelines: how to answer it. */
interface Peer {
  send: (message: ToWorker) => void
}

/**
 * Serves one caller (a worker process, a thread) from `apertium`: returns the handler of its
 * messages and what withdraws every call it still has running (it went away).
 */
function servePeer (apertium: Translator, peer: Peer): { onMessage: (message: unknown) => void, gone: () => void } {
  const running = new Map<number, AbortController>()
  let outbox: Reply[] | undefined
  let left = false

  const reply = (answer: Reply): void => {
    running.delete(answer.id)
    if (left) return
    if (outbox === undefined) {
      const replies: Reply[] = outbox = []
      setImmediate(() => {
        outbox = undefined
        if (!left) peer.send({ tag: TAG, replies })
      })
    }
    outbox.push(answer)
  }

  const perform = (call: Call, signal: AbortSignal): Promise<unknown> => {
    switch (call.method) {
      case 'languages': return apertium.languages()
      case 'ready': return apertium.ready?.() ?? Promise.resolve()
      case 'translate': return apertium.translate(call.args[0] as TranslateJob, signal)
      default: return Promise.reject(new Error(`apertium: no method ${String(call.method)}`))
    }
  }

  return {
    onMessage: (message) => {
      if (!isToPrimary(message)) return
      for (const id of message.cancels) running.get(id)?.abort(new Error('the caller gave up'))
      for (const call of message.calls) {
        const controller = new AbortController()
        running.set(call.id, controller)
        perform(call, controller.signal).then(
          result => { reply({ id: call.id, result: result ?? null }) },
          (err: unknown) => { reply({ id: call.id, error: sendable(err) }) }
        )
      }
    },
    // a caller that went away gave up everything it asked
    gone: () => {
      left = true
      for (const controller of running.values()) controller.abort(new Error('the caller went away'))
      running.clear()
    }
  }
}

/**
 * In the primary: serves every worker's calls from `apertium` (the thread that owns the
 * pipelines). Returns what stops serving; closing `apertium` is the caller's.
 */
export function serveApertiumToWorkers (apertium: Translator): () => void {
  const peers = new Map<Worker, ReturnType<typeof servePeer>>()
  const onMessage = (worker: Worker, message: unknown): void => {
    if (!isToPrimary(message)) return
    let peer = peers.get(worker)
    if (peer === undefined) peers.set(worker, peer = servePeer(apertium, { send: m => { if (worker.isConnected()) worker.send(m) } }))
    peer.onMessage(message)
  }
  const onExit = (worker: Worker): void => {
    peers.get(worker)?.gone()
    peers.delete(worker)
  }
  cluster.on('message', onMessage)
  cluster.on('exit', onExit)
  return () => {
    cluster.off('message', onMessage)
    cluster.off('exit', onExit)
  }
}

/** Serves the calls that come on `port` (a thread's createApertiumClient(portChannel(...))) from `apertium`, until the port closes. */
export function serveApertiumOnPort (apertium: Translator, port: MessagePort): void {
  const peer = servePeer(apertium, { send: m => { port.postMessage(m) } })
  port.on('message', peer.onMessage)
  port.once('close', peer.gone)
  // the port does not keep this thread alive: the thread at its other end is what is waited for
  port.unref()
}

/** How a client reaches the side that runs the pipelines. */
export interface Channel {
  /** Whether there is such a side at all. */
  readonly available: () => boolean
  /** Sends; `lost` is called when the message cannot arrive. */
  send: (message: ToPrimary, lost: () => void) => void
  onMessage: (listener: (message: unknown) => void) => void
  /** Called if the other side goes away for good. */
  onClose?: (listener: () => void) => void
}

/** A cluster worker's channel: the IPC channel to the primary. */
export const processChannel: Channel = {
  available: () => process.send !== undefined,
  send: (message, lost) => {
    if (!process.connected) return lost()
    process.send!(message, undefined, undefined, (err: Error | null) => { if (err) lost() })
  },
  onMessage: listener => { process.on('message', listener) }
}

/** A thread's channel: a MessagePort whose other end serveApertiumOnPort serves. */
export function portChannel (port: MessagePort): Channel {
  let closed = false
  port.once('close', () => { closed = true })
  // calls in flight keep the thread busy anyway; an idle port must not keep it alive
  port.unref()
  return {
    available: () => true,
    send: (message, lost) => {
      if (closed) return lost()
      port.postMessage(message)
    },
    onMessage: listener => { port.on('message', listener) },
    onClose: listener => { port.once('close', listener) }
  }
}

/** A client of pipelines run elsewhere: by the cluster primary (the default), or by the thread at the other end of a port. */
export function createApertiumClient (channel: Channel = processChannel): Translator {
  const pending = new Map<number, { resolve: (value: unknown) => void, reject: (err: Error) => void }>()
  let calls: Call[] = []
  let cancels: number[] = []
  let nextId = 0
  let listening = false
  let closed = false

  const flush = (): void => {
    const message: ToPrimary = { tag: TAG, calls, cancels }
    calls = []
    cancels = []
    channel.send(message, () => {
      const gone = new ServiceUnavailableError('apertium: the process or thread that runs the pipelines cannot be reached')
      for (const call of message.calls) pending.get(call.id)?.reject(gone)
    })
  }
  const queue = (push: () => void): void => {
    if (calls.length === 0 && cancels.length === 0) setImmediate(flush)
    push()
  }

  const call = async <T>(method: Method, args: unknown[], signal?: AbortSignal): Promise<T> => {
    signal?.throwIfAborted()
    if (closed) throw new ServiceUnavailableError('apertium is shutting down')
    if (!channel.available()) throw new ServiceUnavailableError('apertium: this process has no primary to run the pipelines')
    if (!listening) {
      listening = true
      channel.onClose?.(() => {
        const gone = new ServiceUnavailableError('apertium: the process or thread that runs the pipelines has gone')
        for (const waiting of [...pending.values()]) waiting.reject(gone)
      })
      channel.onMessage((message: unknown) => {
        if (!isToWorker(message)) return
        for (const answer of message.replies) {
          const waiting = pending.get(answer.id)
          if (waiting === undefined) continue
          if ('error' in answer) waiting.reject(revive(answer.error, 'apertium'))
          else waiting.resolve(answer.result)
        }
      })
    }
    const id = nextId++
    return await new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        pending.delete(id)
        // not sent yet: it never leaves; sent: the primary withdraws it
        const at = calls.findIndex(c => c.id === id)
        if (at !== -1) calls.splice(at, 1)
        else queue(() => cancels.push(id))
        // the request's own reason (its deadline, its client gone), as every other await would throw it
        reject(signal!.reason as Error) // eslint-disable-line prefer-promise-reject-errors
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      const settle = (): void => {
        pending.delete(id)
        signal?.removeEventListener('abort', onAbort)
      }
      pending.set(id, {
        resolve: value => { settle(); resolve(value as T) },
        reject: err => { settle(); reject(err) }
      })
      queue(() => calls.push({ id, method, args }))
    })
  }

  return {
    name: 'apertium',
    supportsFormality: () => false,
    languages: keptUntilFailed(async () => await call<LanguagePair[]>('languages', [])),
    translate: async (job, signal) => await call<string[]>('translate', [job], signal),
    ready: async () => { await call('ready', []) },
    // the pipelines are the serving side's: it closes them once every caller has finished
    async close () { closed = true }
  }
}
