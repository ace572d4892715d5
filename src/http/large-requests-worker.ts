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
import type { EnginePorts, ForwardedAnswer, ForwardedRequest } from './large-requests.js'

// below the event loop that answers everyone (as the document threads): on Linux a thread's nice
// value is its own, so large requests take the CPU that short ones leave
try {
  setPriority(10)
} catch {
  // not permitted here: the thread runs at the process's priority
}

const { config, ports } = workerData as { config: Config, ports: EnginePorts }
const app = await buildApp(config, { embedded: { ports } })
await app.ready()

serveCalls({
  handle: async (request: ForwardedRequest, signal: AbortSignal): Promise<ForwardedAnswer> => {
    app.log.debug({ request_id: request.headers['x-request-id'], url: request.url, bytes: request.body.byteLength }, 'answering a large request')
    const answer = await app.inject({
      method: request.method as 'POST',
      url: request.url,
      headers: request.headers,
      payload: Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength),
      remoteAddress: request.remoteAddress,
      signal
    })
    return { status: answer.statusCode, headers: answer.headers as Record<string, string | string[]>, body: answer.rawPayload }
  },
  close: async () => { await app.close() }
})
