/**
 * One set of Apertium pipelines for every WORKERS process (APERTIUM_SHARED_PIPELINES=true): the
 * cluster primary runs the Apertium thread (thread.ts) and the workers send it their jobs over the
 * IPC channel. A direction then has one warm pipeline for the whole service, fed by every worker,
 * instead of one per worker: the pipelines batch as many requests per write as with WORKERS=1, and
 * take their memory once. Calls made in the same turn of a worker's event loop travel in one
 * message, and their replies in one. A request that gives up (its deadline, its client gone)
 * withdraws its job from the pipelines; a worker that dies has its jobs withdrawn.
 */
import cluster, { type Worker } from 'node:cluster'
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

/**
 * In the primary: serves every worker's calls from `apertium` (the thread that owns the
 * pipelines). Returns what stops serving; closing `apertium` is the caller's.
 */
export function serveApertiumToWorkers (apertium: Translator): () => void {
  const running = new Map<Worker, Map<number, AbortController>>()
  const outboxes = new Map<Worker, Reply[]>()

  const reply = (worker: Worker, answer: Reply): void => {
    running.get(worker)?.delete(answer.id)
    let outbox = outboxes.get(worker)
    if (outbox === undefined) {
      outboxes.set(worker, outbox = [])
      setImmediate(() => {
        outboxes.delete(worker)
        if (worker.isConnected()) worker.send({ tag: TAG, replies: outbox! } satisfies ToWorker)
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

  const onMessage = (worker: Worker, message: unknown): void => {
    if (!isToPrimary(message)) return
    let calls = running.get(worker)
    if (calls === undefined) running.set(worker, calls = new Map())
    for (const id of message.cancels) calls.get(id)?.abort(new Error('the worker gave up'))
    for (const call of message.calls) {
      const controller = new AbortController()
      calls.set(call.id, controller)
      perform(call, controller.signal).then(
        result => { reply(worker, { id: call.id, result: result ?? null }) },
        (err: unknown) => { reply(worker, { id: call.id, error: sendable(err) }) }
      )
    }
  }
  // a worker that died gave up everything it asked
  const onExit = (worker: Worker): void => {
    const calls = running.get(worker)
    running.delete(worker)
    outboxes.delete(worker)
    for (const controller of calls?.values() ?? []) controller.abort(new Error('the worker exited'))
  }
  cluster.on('message', onMessage)
  cluster.on('exit', onExit)
  return () => {
    cluster.off('message', onMessage)
    cluster.off('exit', onExit)
  }
}

/** In a worker: the Apertium translator whose pipelines the primary runs (see serveApertiumToWorkers). */
export function createApertiumClient (): Translator {
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
    const lost = (): void => {
      const gone = new ServiceUnavailableError('apertium: the primary process, which runs the pipelines, cannot be reached')
      for (const call of message.calls) pending.get(call.id)?.reject(gone)
    }
    if (!process.connected) return lost()
    process.send!(message, undefined, undefined, (err: Error | null) => { if (err) lost() })
  }
  const queue = (push: () => void): void => {
    if (calls.length === 0 && cancels.length === 0) setImmediate(flush)
    push()
  }

  const call = async <T>(method: Method, args: unknown[], signal?: AbortSignal): Promise<T> => {
    signal?.throwIfAborted()
    if (closed) throw new ServiceUnavailableError('apertium is shutting down')
    if (process.send === undefined) throw new ServiceUnavailableError('apertium: this process has no primary to run the pipelines')
    if (!listening) {
      listening = true
      process.on('message', (message: unknown) => {
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
    // the pipelines are the primary's: it closes them once every worker has finished
    async close () { closed = true }
  }
}
