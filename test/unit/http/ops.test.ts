import { describe, expect, it } from 'vitest'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { bearer, testApp, testConfig, tokenFor } from '../../helpers/app.js'
import { buildApp } from '../../../src/app.js'
import { emptyRegistry } from '../../../src/registry.js'
import { DocumentsBusyError, EngineBusyError } from '../../../src/errors.js'

describe('ops endpoints', () => {
  it('/health answers without a token', async () => {
    const app = await testApp()
    try {
      const res = await app.inject({ method: 'GET', url: '/health' })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ status: 'ok' })
    } finally {
      await app.close()
    }
  })

  it('/ready answers 503 until every engine is ready, then 200; a failed engine keeps it 503', async () => {
    let finish!: () => void
    let fail!: (err: Error) => void
    const slow = new Promise<void>(resolve => { finish = resolve })
    const broken = new Promise<void>((_resolve, reject) => { fail = reject })
    const registry = { ...emptyRegistry(), readiness: () => ({ detector: async () => await slow }) }
    const app = await testApp({}, { registry })
    try {
      const starting = await app.inject({ method: 'GET', url: '/ready' })
      expect(starting.statusCode).toBe(503)
      expect(starting.json()).toEqual({ status: 'starting', components: { detector: 'starting' } })
      finish()
      await slow
      const ready = await app.inject({ method: 'GET', url: '/ready' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toEqual({ status: 'ready', components: { detector: 'ready' } })
    } finally {
      await app.close()
    }
    const failing = await testApp({}, { registry: { ...emptyRegistry(), readiness: () => ({ apertium: async () => await broken }) } })
    try {
      fail(new Error('no modes'))
      await broken.catch(() => {})
      const res = await failing.inject({ method: 'GET', url: '/ready' })
      expect(res.statusCode).toBe(503)
      expect(res.json().components.apertium).toBe('failed')
    } finally {
      await failing.close()
    }
  })

  it('/ready recovers from a warm-up that failed because the machine was busy: it is tried again until it succeeds, and /ready says why it waits', async () => {
    // what the offline analyser's warm-up met on a busy machine: every pool thread taken for longer than its queue wait
    let calls = 0
    let busy = true
    const analyzer = async (): Promise<void> => {
      calls++
      if (busy) throw calls === 1 ? new DocumentsBusyError(10_000) : new EngineBusyError('apertium', 'every pipeline slot is busy', 1000)
    }
    const app = await testApp({}, { registry: { ...emptyRegistry(), readiness: () => ({ 'offline-analyzer': analyzer }) } })
    try {
      await expect.poll(() => calls, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
      const waiting = await app.inject({ method: 'GET', url: '/ready' })
      expect(waiting.statusCode).toBe(503)
      expect(waiting.json().status).toBe('starting')
      expect(waiting.json().components).toEqual({ 'offline-analyzer': 'starting' })
      expect(waiting.json().waiting['offline-analyzer']).toMatch(/busy/)
      busy = false
      await expect.poll(async () => (await app.inject({ method: 'GET', url: '/ready' })).statusCode, { timeout: 20_000, interval: 100 }).toBe(200)
      const ready = await app.inject({ method: 'GET', url: '/ready' })
      expect(ready.json()).toEqual({ status: 'ready', components: { 'offline-analyzer': 'ready' } })
    } finally {
      await app.close()
    }
  })

  it('/ready does not retry a warm-up that failed for a lasting cause', async () => {
    let calls = 0
    const app = await testApp({}, { registry: { ...emptyRegistry(), readiness: () => ({ apertium: async () => { calls++; throw new Error('no usable modes') } }) } })
    try {
      await expect.poll(async () => (await app.inject({ method: 'GET', url: '/ready' })).json().status).toBe('failed')
      await new Promise(resolve => setTimeout(resolve, 600))
      expect(calls).toBe(1)
      expect((await app.inject({ method: 'GET', url: '/ready' })).json().waiting).toBeUndefined()
    } finally {
      await app.close()
    }
  })

  it('/metrics counts requests and latency per route pattern and status', async () => {
    const app = await testApp()
    try {
      const token = await tokenFor(app)
      await app.inject({ method: 'GET', url: '/language/locale/pt-BR', headers: bearer(token) })
      await app.inject({ method: 'GET', url: '/language/locale/xx-YY', headers: bearer(token) })
      await app.inject({ method: 'GET', url: '/language/locale/en', headers: bearer(token) })
      const res = await app.inject({ method: 'GET', url: '/metrics' })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
      expect(res.body).toContain('http_requests_total{method="GET",route="/language/locale/:tag",status_code="200"} 2')
      expect(res.body).toContain('http_requests_total{method="GET",route="/language/locale/:tag",status_code="404"} 1')
      expect(res.body).toMatch(/http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/language\/locale\/:tag",status_code="200"\} 2/)
      expect(res.body).toContain('process_resident_memory_bytes')
    } finally {
      await app.close()
    }
  })

  it('/metrics needs the METRICS_TOKEN when one is set', async () => {
    const app = await testApp({ METRICS_TOKEN: 'scrape-token-123' })
    try {
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401)
      expect((await app.inject({ method: 'GET', url: '/metrics', headers: bearer('wrong') })).statusCode).toBe(401)
      expect((await app.inject({ method: 'GET', url: '/metrics', headers: bearer('scrape-token-123') })).statusCode).toBe(200)
      // the scheme in any case, as on /language (a probe's "bearer" was refused); never without it, nor another scheme
      for (const [authorization, status] of [['bearer scrape-token-123', 200], ['BEARER scrape-token-123', 200], ['scrape-token-123', 401], ['Basic scrape-token-123', 401], ['Bearer scrape-token-12', 401]] as const) {
        expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization } })).statusCode, authorization).toBe(status)
      }
    } finally {
      await app.close()
    }
  })

  it('finishes requests in flight on shutdown (real HTTP)', async () => {
    const app = await buildApp(testConfig(), { logger: false, registry: emptyRegistry() })
    app.get('/slow', async () => {
      await new Promise(resolve => setTimeout(resolve, 400))
      return { done: true }
    })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const port = (app.server.address() as AddressInfo).port
    const answer = new Promise<{ status: number, body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/slow' }, res => {
        let body = ''
        res.on('data', c => { body += c })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end()
    })
    await new Promise(resolve => setTimeout(resolve, 100))
    const closing = app.close()
    const res = await answer
    await closing
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ done: true })
  })
})
