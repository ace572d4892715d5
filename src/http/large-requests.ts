/**
 * Large requests on a thread of their own. A POST /language body of LARGE_REQUEST_BYTES or more
 * (by its Content-Length, or as read when it is chunked) is not parsed on the event loop that answers everyone: once the bearer
 * check and the rate limit have passed it, its bytes go to the large-request thread, which runs
 * the whole service in a second Fastify instance (large-requests-worker.ts) and answers it there:
 * parsing, validating, handling, serialising, and the garbage they leave, all in that thread's own
 * heap. Parsing a 1 MiB body of 100,000 keys, serialising an answer that echoes it, and the
 * collections of the heap that held it took the event loop 50-250 ms at a time; /health and
 * every short request waited behind them.
 *
 * The thread uses this process's Apertium pipelines, detector, rules editor and offline analyser
 * over MessagePorts (registry.ts serveEngines, sharedEngines), and has document threads of its own. A thread that dies fails its
 * requests with 503 and is started again by the next one. A client that goes away withdraws its
 * request; one the thread does not answer within HANDLER_TIMEOUT_MS and a margin gets a 503.
 */
import { randomBytes } from 'node:crypto'
import { errorCodes, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { Readable } from 'node:stream'
import fp from 'fastify-plugin'
import type { Config } from '../config.js'
import { ClientClosedError, ServiceUnavailableError, ValidationError } from '../errors.js'
import { serveEngines, type Registry } from '../registry.js'
import { ModelThread } from '../shared/module-thread.js'
import { isJsonType } from './limits.js'

/** What the thread is asked to answer: the request as it arrived. */
export interface ForwardedRequest {
  method: string
  url: string
  headers: Record<string, string | string[]>
  remoteAddress: string
  body: Uint8Array
}

/** The thread's answer, as Fastify made it there. */
export interface ForwardedAnswer {
  status: number
  headers: Record<string, string | string[]>
  body: Uint8Array
}

/** Beyond the handler's own deadline, how long the thread may take before the request is answered 503. */
const ANSWER_MARGIN_MS = 5_000
/** Headers of one connection or message, not of the request or answer forwarded: each side's server sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length', 'upgrade', 'expect'])

/** The configuration with a signing key: where none is set, one is made here, for the event loop and the thread to sign and verify alike. */
export function withSigningKey (config: Config): Config {
  const { auth } = config
  if (auth.jwtSecret !== undefined || auth.jwtPrivateKey !== undefined) return config
  return { ...config, auth: { ...auth, jwtSecret: randomBytes(48).toString('base64url') } }
}

/**
 * The large-request thread: started on the first large request (or as the server starts
 * listening), stopped with the app. It reaches this process's engines that hold models over ports
 * (registry.ts serveEngines) instead of loading its own.
 */
export function createLargeRequestThread (config: Config, registry: Registry): ModelThread {
  return new ModelThread({
    from: import.meta.url,
    name: './large-requests-worker',
    label: 'large-request',
    start: () => {
      const { ports, transferList } = serveEngines(registry)
      return { data: { config, ports }, transferList }
    }
  })
}

/**
 * Reads a body: of `declared` bytes when its Content-Length says so (a body that says otherwise is
 * a 400), else (chunked) up to `limit` bytes (a longer one is Fastify's 413).
 */
async function readBody (payload: AsyncIterable<Buffer>, limit: number, declared?: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let length = 0
  for await (const chunk of payload) {
    length += chunk.length
    if (declared !== undefined && length > declared) throw new ValidationError(`the body is longer than its Content-Length (${declared} bytes)`)
    if (length > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()
    chunks.push(chunk)
  }
  if (declared !== undefined && length !== declared) throw new ValidationError(`the body ended after ${length} of its ${declared} bytes (Content-Length)`)
  return Buffer.concat(chunks, length)
}

/** Resolves once the answer has gone out or the connection closed. */
async function sent (reply: FastifyReply): Promise<void> {
  const raw = reply.raw
  if (raw.writableFinished || raw.destroyed) return
  await new Promise<void>(resolve => {
    raw.once('finish', resolve)
    raw.once('close', resolve)
  })
}

async function largeRequestsPlugin (app: FastifyInstance, opts: { config: Config, thread: ModelThread }): Promise<void> {
  const { config, thread } = opts
  const threshold = config.limits.largeRequestBytes
  const deadlineMs = config.limits.handlerTimeoutMs + ANSWER_MARGIN_MS

  const forward = async (request: FastifyRequest, reply: FastifyReply, body: Buffer): Promise<void> => {
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value
    }
    headers['content-length'] = String(body.length)
    // the thread logs and answers with this request's id
    headers['x-request-id'] = request.id
    const controller = new AbortController()
    // the client went away before its answer: the thread withdraws the work
    const onClose = (): void => { if (!reply.raw.writableFinished) controller.abort(new ClientClosedError()) }
    reply.raw.once('close', onClose)
    const late = setTimeout(() => {
      controller.abort(new ServiceUnavailableError(`the large-request thread did not answer within ${deadlineMs / 1000} s; retry later`))
    }, deadlineMs)
    let answer: ForwardedAnswer
    try {
      answer = await thread.call<ForwardedAnswer>('handle', [{
        method: request.method,
        url: request.url,
        headers,
        remoteAddress: request.raw.socket?.remoteAddress ?? '127.0.0.1',
        body
      } satisfies ForwardedRequest], controller.signal)
    } catch (err) {
      if (controller.signal.aborted) throw controller.signal.reason
      // the thread answers every request, errors included: a failed call is the thread itself failing
      request.log.error({ err }, 'the large-request thread failed')
      throw new ServiceUnavailableError('the large-request thread stopped while answering; retry (it starts again)', 1)
    } finally {
      clearTimeout(late)
      reply.raw.off('close', onClose)
    }
    for (const [name, value] of Object.entries(answer.headers)) {
      if (!HOP_BY_HOP.has(name)) reply.header(name, value)
    }
    reply.code(answer.status).send(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength))
    // the answer is on its way: Fastify goes no further with this request once it has gone out
    await sent(reply)
  }

  // after every other preParsing hook of the route (the rate limit's): a forwarded request has
  // passed the bearer check and been counted like any other
  async function offload (request: FastifyRequest, reply: FastifyReply, payload: AsyncIterable<Buffer>): Promise<AsyncIterable<Buffer> | undefined> {
    if (!isJsonType(String(request.headers['content-type'] ?? ''))) return payload
    const declared = request.headers['content-length']
    if (declared !== undefined) {
      const length = Number(declared)
      // small, or over the limit (Fastify's 413)
      if (!(length >= threshold) || length > config.limits.bodyBytes) return payload
      await forward(request, reply, await readBody(payload, config.limits.bodyBytes, length))
      return undefined
    }
    // of unknown length (chunked): read, then forwarded if large, else parsed here as any other
    const body = await readBody(payload, config.limits.bodyBytes)
    if (body.length < threshold) return Readable.from([body], { objectMode: false })
    await forward(request, reply, body)
    return undefined
  }

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.includes('POST') || !route.url.startsWith('/language/')) return
    const hooks = route.preParsing
    route.preParsing = hooks === undefined ? [offload] : Array.isArray(hooks) ? [...hooks, offload] : [hooks, offload]
  })
  // a server starts the thread as it starts listening, and is ready once the thread is (a test's
  // inject starts it on demand): a large request must not wait for it to load
  app.addHook('onListen', async () => { app.trackReadiness('large-requests', thread.started()) })
  app.addHook('onClose', async () => {
    if (thread.running()) {
      try {
        await thread.call('close', [])
      } catch {
        // it went meanwhile
      }
    }
    await thread.close()
  })
}

export default fp(largeRequestsPlugin, { name: 'large-requests' })
