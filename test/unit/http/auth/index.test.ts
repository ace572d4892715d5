import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { SignJWT, UnsecuredJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, exportPKCS8 } from 'jose'
import { writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLIENT, JWT_SECRET, READ_ONLY, bearer, testApp, tokenFor } from '../../../helpers/app.js'
import { hashSecret } from '../../../../src/http/auth/secrets.js'

const basic = (id: string, secret: string): string => 'Basic ' + Buffer.from(`${id}:${secret}`).toString('base64')
const form = { 'content-type': 'application/x-www-form-urlencoded' }
const secret = new TextEncoder().encode(JWT_SECRET)

describe('POST /oauth/token', () => {
  let app: FastifyInstance
  beforeAll(async () => { app = await testApp() })
  afterAll(async () => { await app.close() })

  it('issues a JWT for HTTP Basic credentials and a form body', async () => {
    const res = await app.inject({ method: 'POST', url: '/oauth/token', headers: { ...form, authorization: basic(CLIENT.id, CLIENT.secret) }, payload: 'grant_type=client_credentials' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['pragma']).toBe('no-cache')
    const body = res.json()
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'access read write' })
    const claims = decodeJwt(body.access_token)
    expect(claims).toMatchObject({ iss: 'language-service', aud: 'language-service', sub: CLIENT.id, scope: 'access read write' })
    expect(typeof claims.jti).toBe('string')
    expect(claims.exp! - claims.iat!).toBe(3600)
    expect(decodeProtectedHeader(body.access_token).alg).toBe('HS256')
  })

  it('accepts client_id/client_secret in a form or JSON body, and narrows scopes on request', async () => {
    const viaForm = await app.inject({ method: 'POST', url: '/oauth/token', headers: form, payload: `grant_type=client_credentials&client_id=${CLIENT.id}&client_secret=${CLIENT.secret}&scope=access` })
    expect(viaForm.statusCode).toBe(200)
    expect(viaForm.json().scope).toBe('access')
    const viaJson = await app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret, scope: 'read' } })
    expect(viaJson.statusCode).toBe(200)
    expect(decodeJwt(viaJson.json().access_token).scope).toBe('read')
  })

  it('decodes form-urlencoded Basic credentials (RFC 6749 §2.3.1)', async () => {
    const hashed = await hashSecret('p@ss word:+')
    const other = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: 'odd:id', secret_hash: hashed, scopes: ['access'] }]) })
    try {
      const res = await other.inject({ method: 'POST', url: '/oauth/token', headers: { ...form, authorization: basic('odd%3Aid', encodeURIComponent('p@ss word:+')) }, payload: 'grant_type=client_credentials' })
      expect(res.statusCode).toBe(200)
      expect(decodeJwt(res.json().access_token).sub).toBe('odd:id')
    } finally {
      await other.close()
    }
  })

  it('answers RFC 6749 §5.2 errors', async () => {
    const cases: Array<[string, Record<string, string>, string, number, string]> = [
      ['no grant_type', { authorization: basic(CLIENT.id, CLIENT.secret) }, '', 400, 'invalid_request'],
      ['other grant', { authorization: basic(CLIENT.id, CLIENT.secret) }, 'grant_type=password', 400, 'unsupported_grant_type'],
      ['wrong secret', { authorization: basic(CLIENT.id, 'nope-nope') }, 'grant_type=client_credentials', 401, 'invalid_client'],
      ['unknown client', { authorization: basic('ghost', CLIENT.secret) }, 'grant_type=client_credentials', 401, 'invalid_client'],
      ['no credentials', {}, 'grant_type=client_credentials', 401, 'invalid_client'],
      ['scope not allowed', { authorization: basic(READ_ONLY.id, READ_ONLY.secret) }, 'grant_type=client_credentials&scope=access', 400, 'invalid_scope'],
      ['unknown scope', { authorization: basic(CLIENT.id, CLIENT.secret) }, 'grant_type=client_credentials&scope=admin', 400, 'invalid_scope'],
      ['two methods', { authorization: basic(CLIENT.id, CLIENT.secret) }, `grant_type=client_credentials&client_id=${READ_ONLY.id}&client_secret=${READ_ONLY.secret}`, 400, 'invalid_request'],
      ['repeated field', { authorization: basic(CLIENT.id, CLIENT.secret) }, 'grant_type=client_credentials&grant_type=client_credentials', 400, 'invalid_request']
    ]
    for (const [name, headers, payload, status, error] of cases) {
      const res = await app.inject({ method: 'POST', url: '/oauth/token', headers: { ...form, ...headers }, payload })
      expect(res.statusCode, name).toBe(status)
      expect(res.json().error, name).toBe(error)
      expect(typeof res.json().error_description, name).toBe('string')
      expect(res.headers['cache-control'], name).toBe('no-store')
      if (status === 401 && headers['authorization']) expect(res.headers['www-authenticate'], name).toMatch(/^Basic /)
    }
  })

  it('answers a body too large (413) or of a type it does not read (415) as problem+json, like every route, not as a mix of both shapes', async () => {
    const cases: Array<[string, Record<string, string>, string, number]> = [
      ['too large', form, `grant_type=client_credentials&pad=${'x'.repeat(17 * 1024)}`, 413],
      ['text/plain', { 'content-type': 'text/plain' }, 'grant_type=client_credentials', 415]
    ]
    for (const [name, headers, payload, status] of cases) {
      const res = await app.inject({ method: 'POST', url: '/oauth/token', headers, payload })
      expect(res.statusCode, name).toBe(status)
      expect(res.headers['content-type'], name).toMatch(/^application\/problem\+json/)
      expect(res.json().status, name).toBe(status)
      expect(res.json().error, name).toBeUndefined()
      expect(res.json().detail, name).toMatch(status === 415 ? /x-www-form-urlencoded/ : /16 KiB/)
    }
  })

  it('never echoes a secret in its answers', async () => {
    const res = await app.inject({ method: 'POST', url: '/oauth/token', headers: form, payload: `grant_type=client_credentials&client_id=${CLIENT.id}&client_secret=wrong-secret-value` })
    expect(res.body).not.toContain('wrong-secret-value')
  })
})

describe('bearer tokens on /language routes', () => {
  let app: FastifyInstance
  beforeAll(async () => { app = await testApp() })
  afterAll(async () => { await app.close() })
  const call = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/language/edit/tones', headers })

  it('lets a valid token with scope access through', async () => {
    const res = await call(bearer(await tokenFor(app)))
    expect(res.statusCode).toBe(200)
  })

  it('answers 401 invalid_token for missing, malformed, unsigned, forged, expired and wrong-audience tokens', async () => {
    const now = Math.floor(Date.now() / 1000)
    const sign = (claims: Record<string, unknown>, key: Uint8Array = secret) =>
      new SignJWT({ scope: 'access', ...claims }).setProtectedHeader({ alg: 'HS256' }).setSubject(CLIENT.id).sign(key)
    const base = { iss: 'language-service', aud: 'language-service', exp: now + 600 }
    const tokens: Record<string, string | undefined> = {
      missing: undefined,
      malformed: 'not-a-jwt',
      unsigned: new UnsecuredJWT({ scope: 'access', ...base }).setSubject(CLIENT.id).encode(),
      forged: await sign(base, new TextEncoder().encode('another-secret-another-secret-another')),
      expired: await sign({ ...base, exp: now - 120 }),
      'wrong audience': await sign({ ...base, aud: 'someone-else' }),
      'wrong issuer': await sign({ ...base, iss: 'someone-else' })
    }
    for (const [name, token] of Object.entries(tokens)) {
      const res = await call(token === undefined ? {} : bearer(token))
      expect(res.statusCode, name).toBe(401)
      expect(res.headers['content-type'], name).toMatch(/^application\/problem\+json/)
      // no token at all: a challenge without an error code (RFC 6750 §3.1); a token refused: invalid_token
      expect(res.headers['www-authenticate'], name).toMatch(token === undefined ? /^Bearer realm="language-service"$/ : /^Bearer realm="language-service", error="invalid_token"/)
      expect(res.json().status, name).toBe(401)
    }
    const scheme = await call({ authorization: basic(CLIENT.id, CLIENT.secret) })
    expect(scheme.statusCode).toBe(401)
    expect(scheme.headers['www-authenticate']).toBe('Bearer realm="language-service"')
  })

  it('answers 403 insufficient_scope for a valid token without scope access', async () => {
    const res = await call(bearer(await tokenFor(app, READ_ONLY)))
    expect(res.statusCode).toBe(403)
    expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"')
    expect(res.headers['www-authenticate']).toContain('scope="access"')
  })

  it('guards every /language operation', async () => {
    const spec = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const ops = Object.entries(spec.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/language'))
      .flatMap(([path, methods]) => Object.keys(methods).map(m => [m.toUpperCase(), path.replace('{tag}', 'en').replace('{id}', '00000000-0000-4000-8000-000000000000')] as const))
    expect(ops.length).toBe(15)
    for (const [method, url] of ops) {
      const res = await app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) })
      expect(res.statusCode, `${method} ${url}`).toBe(401)
    }
  })
})

describe('tokens of a client no longer configured', () => {
  it('are refused (401) once the client is gone from AUTH_CLIENTS, signing secret unchanged', async () => {
    const before = await testApp()
    const token = await tokenFor(before)
    await before.close()
    // the same signing secret, and only the read-only client left
    const after = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: READ_ONLY.id, secret: READ_ONLY.secret, scopes: ['read', 'access'] }]) })
    try {
      const res = await after.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })
      expect(res.statusCode).toBe(401)
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"')
      expect(res.json().detail).toMatch(/client .*no longer configured/)
      // a token of its own forged for the client by name only is refused too, and the remaining client is served
      const now = Math.floor(Date.now() / 1000)
      const forged = await new SignJWT({ scope: 'access' }).setProtectedHeader({ alg: 'HS256' }).setSubject('someone-never-configured')
        .setIssuer('language-service').setAudience('language-service').setIssuedAt(now).setExpirationTime(now + 600).sign(secret)
      expect((await after.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(forged) })).statusCode).toBe(401)
      expect((await after.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(await tokenFor(after, READ_ONLY)) })).statusCode).toBe(200)
    } finally {
      await after.close()
    }
  })
})

describe('tokens of a client whose scopes were narrowed', () => {
  it('keep only the scopes the client has now (they kept every scope they were issued with)', async () => {
    const before = await testApp()
    const token = await tokenFor(before)
    await before.close()
    const after = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret, scopes: ['read'] }]) })
    try {
      const res = await after.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })
      expect(res.statusCode).toBe(403)
      expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"')
    } finally {
      await after.close()
    }
    // given the scope back, the same token is served
    const again = await testApp()
    try {
      expect((await again.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })).statusCode).toBe(200)
    } finally {
      await again.close()
    }
  })
})

describe('the authorization server metadata (RFC 8414)', () => {
  it('names the token endpoint as an absolute URL on the request\'s host, https behind a trusted proxy; no JWKS with a shared secret', async () => {
    const app = await testApp({ TRUST_PROXY: 'true' })
    try {
      const direct = (await app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: { host: 'localhost:8080' } })).json()
      expect(direct.token_endpoint).toBe('http://localhost:8080/oauth/token')
      expect(direct.jwks_uri).toBeUndefined()
      const proxied = (await app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: { host: 'internal:8080', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.com' } })).json()
      expect(proxied.token_endpoint).toBe('https://api.example.com/oauth/token')
      expect(new URL(proxied.token_endpoint).pathname).toBe('/oauth/token')
    } finally {
      await app.close()
    }
  })
})

describe('signing with a key pair', () => {
  it('signs with the private key, publishes the public JWKS and verifies its own tokens', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true })
    const dir = mkdtempSync(join(tmpdir(), 'lskey-'))
    const file = join(dir, 'key.pem')
    writeFileSync(file, await exportPKCS8(privateKey))
    const app = await testApp({ AUTH_JWT_PRIVATE_KEY_FILE: file })
    try {
      const token = await tokenFor(app)
      expect(decodeProtectedHeader(token).alg).toBe('ES256')
      const jwks = (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json()
      expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' })
      expect(jwks.keys[0].d).toBeUndefined()
      expect((await app.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })).statusCode).toBe(200)
      // RFC 8414 metadata names its endpoints as absolute URLs, on the host the request came to
      const metadata = (await app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: { host: 'lang.example:8080' } })).json()
      expect(metadata).toMatchObject({ token_endpoint: 'http://lang.example:8080/oauth/token', jwks_uri: 'http://lang.example:8080/.well-known/jwks.json', grant_types_supported: ['client_credentials'] })
    } finally {
      await app.close()
    }
  })
})
