/**
 * The large-request thread (see large-requests.ts): the whole service as a second Fastify instance,
 * answering the requests its event loop forwards, by inject. Rate limits and load shedding were
 * applied where the request arrived; the engines that hold models are that process's, over ports.
 */
import { setPriority } from 'node:os'
import { workerData } from 'node:worker_threads'
import type { Config } from '../config.js'
import { buildApp } from '../app.js'
import { serveCalls } from '../shared/module-thread.js'
import type { EnginePorts } from '../registry.js'
import type { ForwardedAnswer, ForwardedRequest } from './large-requests.js'

// below the event loop that answers everyone (as the document threads): on Linux a thread's nice
// value is its own, so large requests take the CPU that short ones leave
try {
  setPriority(10)
} catch {
  // not permitted here: the thread runs at the process's priority
}

const { config, ports } = workerData as { config: Config, ports: EnginePorts }
const app = await buildApp(config, { embedded: { ports } })

/** The signals of the requests being answered, by the call number set on each (the caller's own header is overwritten). */
const CALL_HEADER = 'x-large-request-call'
const signals = new Map<string, AbortSignal>()
let calls = 0
// a request whose client went away is withdrawn as over a socket: its response closes, which the
// route's own signal (routes/signal.ts) takes as the client gone
app.addHook('onRequest', async (request, reply) => {
  const signal = signals.get(String(request.headers[CALL_HEADER]))
  if (signal === undefined) return
  const close = (): void => { reply.raw.destroy() }
  if (signal.aborted) close()
  else signal.addEventListener('abort', close, { once: true })
})
await app.ready()

serveCalls({
  handle: async (request: ForwardedRequest, signal: AbortSignal): Promise<ForwardedAnswer> => {
    app.log.debug({ request_id: request.headers['x-request-id'], url: request.url, bytes: request.body.byteLength }, 'answering a large request')
    const call = String(++calls)
    signals.set(call, signal)
    try {
      const answer = await app.inject({
        method: request.method as 'POST',
        url: request.url,
        headers: { ...request.headers, [CALL_HEADER]: call },
        payload: Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength),
        remoteAddress: request.remoteAddress
      })
      return { status: answer.statusCode, headers: answer.headers as Record<string, string | string[]>, body: answer.rawPayload }
    } finally {
      signals.delete(call)
    }
  },
  close: async () => { await app.close() }
})
