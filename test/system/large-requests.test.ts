/**
 * Large request bodies (src/http/bodies.ts), over real HTTP: a body of LARGE_REQUEST_BYTES or more
 * is parsed and validated on the thread pool, its large document values stay there and are worked
 * there, and the answer is exactly what the event loop gives for the same body parsed there, after
 * the same bearer check and rate limit.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../helpers/service.js'

/** A JSON document of `keys` English sentences: its body is well over 4 KiB from 60 keys on. */
function document (keys: number): Record<string, string> {
  const value: Record<string, string> = {}
  for (let i = 0; i < keys; i++) value[`k${i}`] = `The house number ${i} is red and the dog is small.`
  return value
}

/** An answer without what differs from one request to the next. */
function comparable (json: Record<string, any>): Record<string, any> {
  const { request_id: _id, ...rest } = json
  return rest
}

/** The same request sent to both services: the status and the JSON body must be the same. */
const REQUESTS: Array<{ path: string, body: unknown }> = [
  { path: '/language/translate', body: { document: { value: document(120), mime_type: 'application/json' }, source: 'en', targets: ['es', 'pt'] } },
  { path: '/language/translate/bulk', body: { documents: [{ value: Object.values(document(100)).join(' ') }, { value: 'Good morning.' }], source: 'en', targets: ['es'] } },
  { path: '/language/detect', body: { document: { value: Object.values(document(100)).join(' ') } } },
  // the rules editor and the offline analyser, on the pool with the held document's text
  { path: '/language/edit', body: { document: { value: Object.values(document(100)).join(' ').replaceAll('house', 'hosue'), language: 'en' }, edits: [{ type: 'grammar' }] } },
  { path: '/language/analyze', body: { document: { value: Object.values(document(100)).join(' '), language: 'en' } } },
  // invalid: the same 400 naming the same field
  { path: '/language/translate', body: { document: { value: document(120) }, source: 'en', targets: ['es'], bogus: 1 } },
  { path: '/language/translate', body: { document: { value: Object.values(document(100)).join('\n') }, source: 'en', targets: ['xx-nope'] } }
]

describe('large request bodies, read on the thread pool', () => {
  let offloaded: RunningService
  let inLoop: RunningService

  beforeAll(async () => {
    ;[offloaded, inLoop] = await Promise.all([
      startService({ LARGE_REQUEST_BYTES: '4096', LOG_LEVEL: 'debug', RATE_LIMIT_MAX: '40' }),
      startService({ LARGE_REQUEST_BYTES: '0' })
    ])
  }, 120_000)
  afterAll(async () => { await Promise.all([offloaded?.stop(), inLoop?.stop()]) })

  const readOnPool = (service: RunningService, id: string): boolean => service.output().split('\n').some(l => l.includes(id) && l.includes('body read on the pool'))
  /** Whether the service logged reading the request's body on the pool (its log reaches us a moment after the answer). */
  const loggedOnPool = async (service: RunningService, id: string): Promise<boolean> => {
    for (let i = 0; i < 40 && !readOnPool(service, id); i++) await new Promise(resolve => setTimeout(resolve, 50))
    return readOnPool(service, id)
  }

  it('answers a large request read on the pool exactly as one read on the event loop', async () => {
    for (const { path, body } of REQUESTS) {
      expect(JSON.stringify(body).length).toBeGreaterThan(4096)
      const [there, here] = await Promise.all([offloaded.post(path, body), inLoop.post(path, body)])
      expect({ path, status: there.status }).toEqual({ path, status: here.status })
      expect(comparable(there.json)).toEqual(comparable(here.json))
      expect(there.headers.get('content-type')).toBe(here.headers.get('content-type'))
      // the answer carries the request's id and the event loop's rate-limit headers
      expect(there.headers.get('x-request-id')).toBe(there.json['request_id'] ?? there.headers.get('x-request-id'))
      expect(there.headers.get('ratelimit-limit')).toBe('40')
      // and its body was read on the pool (its debug line names the request), the other's not
      expect(await loggedOnPool(offloaded, there.headers.get('x-request-id')!), `${path} was not read on the pool`).toBe(true)
      expect(readOnPool(inLoop, here.headers.get('x-request-id')!)).toBe(false)
    }
    // a translation answered there is a real one
    const answer = await offloaded.post('/language/translate', REQUESTS[0]!.body)
    expect(answer.json['results']['es']['value']['k7']).toMatch(/casa/i)
  }, 120_000)

  it('withdraws the work when the client goes away', async () => {
    const sentences: Record<string, string> = {}
    for (let i = 0; i < 1000; i++) sentences[`s${i}`] = `The engineer number ${i} explained the long report to the committee in the morning.`
    const id = `gone-${Date.now()}`
    const controller = new AbortController()
    const request = fetch(`${offloaded.base}/language/translate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${offloaded.token}`, 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({ document: { value: sentences, mime_type: 'application/json' }, source: 'en', targets: ['es'], options: { cache: false } }),
      signal: controller.signal
    })
    // once its body has been read
    for (let i = 0; i < 100 && !readOnPool(offloaded, id); i++) await new Promise(resolve => setTimeout(resolve, 50))
    controller.abort()
    await expect(request).rejects.toThrow()
    // the request's work was called off: its log line says the client went
    let line: string | undefined
    for (let i = 0; i < 100 && line === undefined; i++) {
      line = offloaded.output().split('\n').find(l => l.includes(id) && l.includes('client closed the connection'))
      if (line === undefined) await new Promise(resolve => setTimeout(resolve, 100))
    }
    expect(line, offloaded.output().split('\n').filter(l => l.includes(id)).join('\n')).toBeDefined()
  }, 30_000)

  it('keeps small requests on the event loop', async () => {
    const small = await offloaded.post('/language/translate', { document: { value: 'The house is red.' }, source: 'en', targets: ['es'] })
    expect(small.status).toBe(200)
    expect(readOnPool(offloaded, small.headers.get('x-request-id')!)).toBe(false)
  })

  it('checks the token and counts the request before reading its body', async () => {
    const body = JSON.stringify(REQUESTS[0]!.body)
    const anonymous = await fetch(`${offloaded.base}/language/translate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(anonymous.status).toBe(401)
    // the limit (40 a minute) counts large requests too
    const statuses: number[] = []
    for (let i = 0; i < 45; i++) {
      const res = await fetch(`${offloaded.base}/language/detect`, {
        method: 'POST',
        headers: { authorization: `Bearer ${offloaded.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(REQUESTS[2]!.body)
      })
      statuses.push(res.status)
      await res.arrayBuffer()
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
        break
      }
    }
    expect(statuses.at(-1)).toBe(429)
  }, 60_000)
})

/** POSTs `body` in 1,000-byte chunks with Transfer-Encoding: chunked (no Content-Length). */
async function postChunked (service: RunningService, path: string, body: string): Promise<{ status: number, id: string, text: string }> {
  const url = new URL(service.base)
  return await new Promise((resolve, reject) => {
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path,
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }
    }, res => {
      let text = ''
      res.on('data', (chunk: Buffer) => { text += chunk.toString() })
      res.on('end', () => { resolve({ status: res.statusCode!, id: String(res.headers['x-request-id']), text }) })
    })
    req.on('error', reject)
    for (let i = 0; i < body.length; i += 1000) req.write(body.slice(i, i + 1000))
    req.end()
  })
}

describe('large requests of unknown length (chunked)', () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService({ LARGE_REQUEST_BYTES: '4096', LOG_LEVEL: 'debug', BODY_LIMIT: '200000' })
  }, 120_000)
  afterAll(async () => { await service?.stop() })

  const answeredThere = (id: string): boolean => service.output().split('\n').some(l => l.includes(id) && l.includes('body read on the pool'))

  it('reads a large chunked body on the pool and a small one on the event loop, with the same answers', async () => {
    const text = 'Das Haus ist rot und der Hund ist klein. '
    const large = await postChunked(service, '/language/detect', JSON.stringify({ document: { value: text.repeat(200) } }))
    const small = await postChunked(service, '/language/detect', JSON.stringify({ document: { value: text } }))
    expect([large.status, small.status]).toEqual([200, 200])
    expect(JSON.parse(large.text).language).toBe('de')
    expect(JSON.parse(small.text).language).toBe('de')
    expect(answeredThere(large.id)).toBe(true)
    expect(answeredThere(small.id)).toBe(false)
  }, 30_000)

  it('refuses a chunked body over BODY_LIMIT with 413', async () => {
    const answer = await postChunked(service, '/language/detect', JSON.stringify({ document: { value: 'x'.repeat(250_000) } }))
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.text).detail).toContain('BODY_LIMIT')
  }, 30_000)
})
