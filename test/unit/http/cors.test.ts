/**
 * CORS (http/cors.ts): browsers' preflights are answered before any token, key or limit, every
 * answer (errors too) names the allowed origin, credentials are never allowed, and CORS_ORIGINS
 * narrows or switches it off. The browser itself: test/system/cors.test.ts.
 */
import { describe, expect, it } from 'vitest'
import type { InjectOptions } from 'fastify'
import { bearer, testApp, tokenFor } from '../../helpers/app.js'
import { loadConfig } from '../../../src/config.js'

const preflight = (origin: string, url = '/language/translate', method = 'POST'): InjectOptions => ({
  method: 'OPTIONS',
  url,
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' }
})

describe('CORS', () => {
  it('answers a preflight with 204 before the token check, for any origin by default, never with credentials', async () => {
    const app = await testApp()
    try {
      for (const url of ['/language/translate', '/libretranslate/translate', '/translate', '/deepl/v2/translate', '/v2/translate', '/apy/translate']) {
        const res = await app.inject(preflight('https://extension.example', url))
        expect(res.statusCode, url).toBe(204)
        expect(res.headers['access-control-allow-origin']).toBe('*')
        expect(String(res.headers['access-control-allow-methods'])).toContain('POST')
        expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization')
        expect(res.headers['access-control-allow-credentials']).toBeUndefined()
        expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0)
      }
      // an OPTIONS that is no browser's preflight (no Origin, no requested method) gets the same 204, not a text/plain 400
      for (const url of ['/language/translate', '*']) {
        const bare = await app.inject({ method: 'OPTIONS', url })
        expect(bare.statusCode, url).toBe(204)
        expect(bare.body).toBe('')
        expect(String(bare.headers['access-control-allow-methods'])).toContain('POST')
      }
    } finally {
      await app.close()
    }
  })

  it('names the origin on answers and errors alike, and lets a script read Retry-After and the request id', async () => {
    const app = await testApp()
    try {
      const token = await tokenFor(app)
      const ok = await app.inject({ method: 'GET', url: '/language/edit/tones', headers: { ...bearer(token), origin: 'https://page.example' } })
      expect(ok.statusCode).toBe(200)
      expect(ok.headers['access-control-allow-origin']).toBe('*')
      expect(String(ok.headers['access-control-expose-headers'])).toMatch(/retry-after/)
      expect(String(ok.headers['access-control-expose-headers'])).toMatch(/x-request-id/)
      // a refused token's 401 must reach the page's script, or it cannot tell the person why
      const refused = await app.inject({ method: 'GET', url: '/language/edit/tones', headers: { origin: 'https://page.example' } })
      expect(refused.statusCode).toBe(401)
      expect(refused.headers['access-control-allow-origin']).toBe('*')
      const unknownKey = await app.inject({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'hi', source: 'en', target: 'es', api_key: 'nope' }, headers: { origin: 'https://page.example' } })
      expect(unknownKey.statusCode).toBe(403)
      expect(unknownKey.headers['access-control-allow-origin']).toBe('*')
    } finally {
      await app.close()
    }
  })

  it('preflights are not counted against the address as requests without credentials', async () => {
    const app = await testApp({ ADDRESS_RATE_LIMIT_MAX: '5' })
    try {
      for (let i = 0; i < 20; i++) expect((await app.inject(preflight('https://page.example'))).statusCode).toBe(204)
      const token = await tokenFor(app)
      expect((await app.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })

  it('CORS_ORIGINS: only the origins listed are named (with Vary: Origin); none switches CORS off', async () => {
    const app = await testApp({ CORS_ORIGINS: 'https://app.example.org, http://localhost:3000' })
    try {
      const allowed = await app.inject(preflight('https://app.example.org'))
      expect(allowed.statusCode).toBe(204)
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.org')
      expect(String(allowed.headers.vary)).toMatch(/origin/i)
      const other = await app.inject(preflight('https://evil.example'))
      expect(other.headers['access-control-allow-origin']).toBeUndefined()
      const answer = await app.inject({ method: 'GET', url: '/health', headers: { origin: 'http://localhost:3000' } })
      expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:3000')
    } finally {
      await app.close()
    }
    const off = await testApp({ CORS_ORIGINS: 'none' })
    try {
      const res = await off.inject(preflight('https://app.example.org'))
      expect(res.statusCode).not.toBe(204)
      expect(res.headers['access-control-allow-origin']).toBeUndefined()
      expect((await off.inject({ method: 'GET', url: '/health', headers: { origin: 'https://app.example.org' } })).headers['access-control-allow-origin']).toBeUndefined()
    } finally {
      await off.close()
    }
  })

  it('refuses a CORS_ORIGINS entry that is not an origin', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example.org/path' })).toThrow(/CORS_ORIGINS/)
    expect(() => loadConfig({ CORS_ORIGINS: 'app.example.org' })).toThrow(/CORS_ORIGINS/)
    expect(loadConfig({ CORS_ORIGINS: 'HTTPS://App.Example.org' }).corsOrigins).toEqual(['https://app.example.org'])
  })
})
