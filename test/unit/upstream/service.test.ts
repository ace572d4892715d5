import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CircuitOpenError, RateLimitedError, UpstreamError, UpstreamTimeoutError } from '../../../src/errors.js'
import { RemoteService, requestJson, retryAfterMs } from '../../../src/upstream/index.js'
import { withClient } from '../../../src/lib/clients.js'

/** A local server whose answers each test scripts: a queue of statuses, a latency, and what it saw. */
let server: Server
let base = ''
const sockets = new Set<Socket>()
let script: Array<{ status: number, headers?: Record<string, string>, body?: string, hang?: boolean }> = []
let latencyMs = 0
let inFlight = 0
let maxInFlight = 0
const seen: number[] = []

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(Date.now())
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    const step = script.shift() ?? { status: 200, body: '{"ok":true}' }
    if (step.hang) return
    setTimeout(() => {
      inFlight--
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers })
      res.end(step.body ?? '{}')
    }, latencyMs)
  })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  for (const s of sockets) s.destroy()
  await new Promise(resolve => server.close(resolve))
})

function reset (): void {
  script = []
  latencyMs = 0
  inFlight = 0
  maxInFlight = 0
  seen.length = 0
}

const call = async (remote: RemoteService, signal?: AbortSignal): Promise<unknown> =>
  await remote.call(s => requestJson('test', `${base}/x`, { method: 'POST', json: { a: 1 } }, s), signal)

async function failure (p: Promise<unknown>): Promise<Error> {
  try {
    await p
  } catch (err) {
    return err as Error
  }
  throw new Error('expected a rejection')
}

describe('RemoteService', () => {
  it('honours Retry-After on a 429 before retrying, then succeeds', async () => {
    reset()
    script = [{ status: 429, headers: { 'retry-after': '1' } }]
    const remote = new RemoteService({ service: 'test', timeoutMs: 5000, backoffMs: 1 })
    expect(await call(remote)).toEqual({ ok: true })
    expect(seen).toHaveLength(2)
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(950)
  })

  it('retries a 5xx at most twice, then fails naming the service; a 4xx is not retried', async () => {
    reset()
    script = [{ status: 503 }, { status: 502 }, { status: 500, body: '{"error":"boom"}' }]
    const remote = new RemoteService({ service: 'test', timeoutMs: 5000, backoffMs: 1 })
    const err = await failure(call(remote))
    expect(err).toBeInstanceOf(UpstreamError)
    // the service's own words are for the log only, never in the message a client sees
    expect(err.message).toBe('test: answered HTTP 500')
    expect((err as UpstreamError).engineMessage).toBe('{"error":"boom"}')
    expect(seen).toHaveLength(3)
    reset()
    script = [{ status: 400, body: '{"error":{"message":"bad field"}}' }]
    const refused = await failure(call(remote)) as UpstreamError
    expect(refused.message).toBe('test: answered HTTP 400')
    expect(refused.engineMessage).toBe('{"error":{"message":"bad field"}}')
    expect(seen).toHaveLength(1)
  })

  it('gives up at the deadline, retries included, and never starts a retry that cannot finish in time', async () => {
    reset()
    script = [{ status: 0, hang: true }]
    const remote = new RemoteService({ service: 'test', timeoutMs: 300 })
    const started = Date.now()
    const err = await failure(call(remote))
    expect(err).toBeInstanceOf(UpstreamTimeoutError)
    expect(Date.now() - started).toBeLessThan(1000)
    reset()
    // the server asks for 5 s; the deadline is 1 s: the 429 is the answer
    script = [{ status: 429, headers: { 'retry-after': '5' } }]
    const limited = await failure(call(new RemoteService({ service: 'test', timeoutMs: 1000 })))
    expect(limited).toBeInstanceOf(RateLimitedError)
    expect(seen).toHaveLength(1)
  })

  it('bounds the calls in flight, and a caller that gives up leaves the queue', async () => {
    reset()
    latencyMs = 50
    const remote = new RemoteService({ service: 'test', timeoutMs: 5000, concurrency: 3 })
    const gone = new AbortController()
    const waiting = call(remote, gone.signal)
    const all = Array.from({ length: 12 }, async () => await call(remote))
    gone.abort(new Error('client left'))
    expect((await failure(waiting)).message).toBe('client left')
    await Promise.all(all)
    expect(maxInFlight).toBeLessThanOrEqual(3)
    expect(seen.length).toBeGreaterThanOrEqual(12)
  })

  it('gives waiting calls their slots by client in turn: one client\'s backlog does not hold another\'s call', async () => {
    reset()
    latencyMs = 40
    const remote = new RemoteService({ service: 'test', timeoutMs: 10_000, concurrency: 1 })
    const order: string[] = []
    const busy = withClient('busy', () => Array.from({ length: 10 }, async (_, i) => { await call(remote); order.push(`busy ${i}`) }))
    const other = withClient('other', async () => { await call(remote); order.push('other') })
    await Promise.all([...busy, other])
    // first come, first served would answer it last
    expect(order.indexOf('other')).toBeLessThanOrEqual(2)
  })

  it('opens its breaker after the configured failures in a row, skips the service, and tries again after the cooldown', async () => {
    reset()
    const remote = new RemoteService({ service: 'test', timeoutMs: 5000, retries: 0, breakerFailures: 2, breakerCooldownMs: 300 })
    script = [{ status: 500 }, { status: 500 }]
    await failure(call(remote))
    await failure(call(remote))
    const open = await failure(call(remote))
    expect(open).toBeInstanceOf(CircuitOpenError)
    expect((open as CircuitOpenError).headers?.['retry-after']).toBe('1')
    expect(seen).toHaveLength(2)
    await new Promise(resolve => setTimeout(resolve, 350))
    expect(await call(remote)).toEqual({ ok: true })
    expect(seen).toHaveLength(3)
  })

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000)
    expect(retryAfterMs(new Date(10_000 + 3000).toUTCString(), 10_000)).toBe(3000)
    expect(retryAfterMs('soon')).toBeUndefined()
    expect(retryAfterMs(null)).toBeUndefined()
  })
})
