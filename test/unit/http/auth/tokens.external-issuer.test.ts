import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { decodeJwt } from 'jose'
import { CLIENT, READ_ONLY, bearer, testApp, tokenFor } from '../../../helpers/app.js'
import { startOidc, type OidcServer } from '../../../fakes/oidc.js'

describe('tokens of an outside OAuth2/OIDC issuer (AUTH_JWKS_URL)', () => {
  let oidc: OidcServer
  let app: FastifyInstance
  beforeAll(async () => {
    oidc = await startOidc()
    app = await testApp({ AUTH_JWKS_URL: oidc.jwksUrl, AUTH_ISSUER: oidc.issuer, AUTH_AUDIENCE: oidc.audience })
  })
  afterAll(async () => {
    await app.close()
    await oidc.close()
  })
  const tones = (token: string) => app.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })

  it('accepts a JWT access token issued by the outside server', async () => {
    const token = await oidc.token('access')
    expect(decodeJwt(token)).toMatchObject({ iss: oidc.issuer, aud: oidc.audience })
    // its subject is no client of this service's: that check is for this service's own tokens only
    expect([CLIENT.id, READ_ONLY.id]).not.toContain(decodeJwt(token).sub)
    expect((await tones(token)).statusCode).toBe(200)
  })

  it('still accepts its own tokens', async () => {
    expect((await tones(await tokenFor(app))).statusCode).toBe(200)
  })

  it('refuses an outside token for another audience (401)', async () => {
    const token = await oidc.token('access', 'https://other.example')
    const res = await tones(token)
    expect(res.statusCode).toBe(401)
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"')
  })

  it('refuses an outside token without scope access (403)', async () => {
    const res = await tones(await oidc.token('read'))
    expect(res.statusCode).toBe(403)
    expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"')
  })

  it('refuses outside tokens when the issuer does not match AUTH_ISSUER', async () => {
    const strict = await testApp({ AUTH_JWKS_URL: oidc.jwksUrl, AUTH_ISSUER: 'https://someone-else.example', AUTH_AUDIENCE: oidc.audience })
    try {
      const res = await strict.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(await oidc.token('access')) })
      expect(res.statusCode).toBe(401)
    } finally {
      await strict.close()
    }
  })

  it('answers 503 (not 401) when the issuer key set cannot be fetched', async () => {
    const token = await oidc.token('access')
    const unreachable = await testApp({ AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks', AUTH_ISSUER: oidc.issuer, AUTH_AUDIENCE: oidc.audience })
    try {
      const res = await unreachable.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })
      expect(res.statusCode).toBe(503)
      expect(res.headers['content-type']).toMatch(/problem\+json/)
    } finally {
      await unreachable.close()
    }
  })

  it('answers 503 (not 401) when the key set answers an error or no JSON (an identity provider\'s outage), 200 again once it is back', async () => {
    const token = await oidc.token('access')
    let mode: 'error' | 'html' | 'ok' = 'error'
    const keys = createServer((req, res) => {
      if (mode === 'error') res.writeHead(500).end('Internal Server Error')
      else if (mode === 'html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>')
      else fetch(oidc.jwksUrl).then(async r => { res.writeHead(200, { 'content-type': 'application/json' }).end(await r.text()) }).catch(() => res.destroy())
    })
    await new Promise<void>(resolve => keys.listen(0, '127.0.0.1', resolve))
    const flaky = await testApp({ AUTH_JWKS_URL: `http://127.0.0.1:${(keys.address() as AddressInfo).port}/jwks`, AUTH_ISSUER: oidc.issuer, AUTH_AUDIENCE: oidc.audience })
    try {
      for (const m of ['error', 'html'] as const) {
        mode = m
        const res = await flaky.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })
        expect(res.statusCode, m).toBe(503)
        expect(res.json().detail).toMatch(/AUTH_JWKS_URL/)
      }
      mode = 'ok'
      expect((await flaky.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })).statusCode).toBe(200)
    } finally {
      await flaky.close()
      keys.close()
    }
  })
})
