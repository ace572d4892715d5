import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { CLIENT, JWT_SECRET, testConfig, tokenFor } from '../helpers/app.js'
import { emptyRegistry } from '../../src/providers/registry.js'

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
