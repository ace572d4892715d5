import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { CLIENT, JWT_SECRET, testConfig, tokenFor } from '../helpers/app.js'
import { emptyRegistry } from '../../src/registry.js'

describe('logs', () => {
  it('never contain client secrets, signing secrets or access tokens', async () => {
    const lines: string[] = []
    const app = await buildApp(testConfig({ LOG_LEVEL: 'trace' }), { registry: emptyRegistry(), logStream: { write: (line) => { lines.push(line) } } })
    await app.ready()
    try {
      const token = await tokenFor(app)
      await app.inject({ method: 'GET', url: '/language/edit/tones', headers: { authorization: `Bearer ${token}` } })
      await app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: 'a-wrong-secret-value' } })
      await app.inject({ method: 'GET', url: '/language/edit/tones', headers: { authorization: 'Bearer forged.token.value' } })
      const log = lines.join('')
      expect(lines.length).toBeGreaterThan(5)
      expect(log).toContain('"request_id"')
      for (const secret of [CLIENT.secret, 'a-wrong-secret-value', token, token.split('.')[2]!, JWT_SECRET, 'forged.token.value']) {
        expect(log).not.toContain(secret)
      }
    } finally {
      await app.close()
    }
  })
})

describe('a client that goes away', () => {
  it('stops the work and is logged as information, not as an unexpected error', async () => {
    const { abortSignal } = await import('../../src/routes/signal.js')
    const lines: string[] = []
    const app = await buildApp(testConfig({ LOG_LEVEL: 'info' }), { registry: emptyRegistry(), logStream: { write: (line) => { lines.push(line) } } })
    let aborted = false
    app.get('/slow-work', (_request, reply) => new Promise((_resolve, reject) => {
      const signal = abortSignal(reply)
      signal.addEventListener('abort', () => { aborted = true; reject(signal.reason) }, { once: true })
    }))
    await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const address = app.server.address() as { port: number }
      const client = new AbortController()
      const call = fetch(`http://127.0.0.1:${address.port}/slow-work`, { signal: client.signal }).catch(() => undefined)
      await new Promise(resolve => setTimeout(resolve, 200))
      client.abort()
      await call
      for (let i = 0; i < 50 && !lines.some(l => l.includes('client closed')); i++) await new Promise(resolve => setTimeout(resolve, 20))
      expect(aborted).toBe(true)
      const entries = lines.map(l => JSON.parse(l) as { level: number, msg: string })
      expect(entries.some(e => e.msg === 'client closed the connection before its answer' && e.level === 30)).toBe(true)
      expect(entries.filter(e => e.level >= 50)).toEqual([])
    } finally {
      await app.close()
    }
  })
})
