/**
 * Bearer tokens must expire: a token without `exp` is refused, ours or an outside issuer's, and
 * one of ours claiming a lifetime longer than AUTH_TOKEN_TTL (or issued in the future) is refused
 * too, even when correctly signed (a leaked signing secret must not mint eternal tokens).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from 'jose'
import { CLIENT, JWT_SECRET, bearer, testApp, testConfig, tokenFor } from '../../../helpers/app.js'
import { InvalidTokenError, createTokenService } from '../../../../src/http/auth/tokens.js'

const TTL = 600
const now = (): number => Math.floor(Date.now() / 1000)
const tones = (app: FastifyInstance, token: string) => app.inject({ method: 'GET', url: '/language/edit/tones', headers: bearer(token) })

function expectInvalidToken (res: Awaited<ReturnType<typeof tones>>, name: string): void {
  expect(res.statusCode, name).toBe(401)
  expect(res.headers['www-authenticate'], name).toMatch(/error="invalid_token"/)
}

describe('our own tokens', () => {
  let app: FastifyInstance
  beforeAll(async () => { app = await testApp({ AUTH_TOKEN_TTL: String(TTL) }) })
  afterAll(async () => { await app.close() })

  const sign = (claims: JWTPayload) => new SignJWT({ scope: 'access', iss: 'language-service', aud: 'language-service', sub: CLIENT.id, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .sign(new TextEncoder().encode(JWT_SECRET))

  it('accepts what the token endpoint issues, and a signed token within the lifetime', async () => {
    expect((await tones(app, await tokenFor(app))).statusCode).toBe(200)
    expect((await tones(app, await sign({ iat: now(), exp: now() + TTL }))).statusCode).toBe(200)
  })

  it('refuses a correctly signed token without exp, without iat, or living longer than AUTH_TOKEN_TTL', async () => {
    const cases: Record<string, JWTPayload> = {
      'no exp': { iat: now() },
      'no exp, no iat': {},
      'no iat': { exp: now() + 60 },
      'a lifetime over the TTL': { iat: now(), exp: now() + TTL + 60 },
      'a year': { iat: now() - 10, exp: now() + 365 * 86400 },
      'issued in the future': { iat: now() + 3600, exp: now() + 3600 + TTL },
      'issued longer ago than the TTL': { iat: now() - 2 * TTL, exp: now() + 60 }
    }
    for (const [name, claims] of Object.entries(cases)) expectInvalidToken(await tones(app, await sign(claims)), name)
  })
})

describe('verified tokens kept until they expire', () => {
  afterEach(() => { vi.useRealTimers() })

  it('refuses a token it verified before once it has expired, and a copy of it with another signature', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const tokens = await createTokenService(testConfig({ AUTH_TOKEN_TTL: String(TTL) }).auth)
    const { token } = await tokens.issue(CLIENT.id, ['access'])
    expect((await tokens.verify(token)).subject).toBe(CLIENT.id)
    // verified again from what it kept: the same answer
    expect((await tokens.verify(token)).subject).toBe(CLIENT.id)
    const [head, body, signature] = token.split('.')
    const forged = `${head}.${body}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`
    await expect(tokens.verify(forged)).rejects.toThrow(InvalidTokenError)
    // past its exp (and the 5 s of clock tolerance)
    vi.setSystemTime(Date.now() + (TTL + 10) * 1000)
    await expect(tokens.verify(token)).rejects.toThrow(/expired/)
  })
})

describe('tokens of an outside issuer (AUTH_JWKS_URL)', () => {
  let app: FastifyInstance
  let server: Server
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']
  let issuer: string
  const audience = 'https://language.example'

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true })
    privateKey = pair.privateKey
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'outside-1', alg: 'ES256', use: 'sig' }
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }))
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    app = await testApp({ AUTH_JWKS_URL: `${issuer}/jwks`, AUTH_ISSUER: issuer, AUTH_AUDIENCE: audience })
  })
  afterAll(async () => {
    await app.close()
    server.closeAllConnections()
    await new Promise(resolve => server.close(resolve))
  })

  const sign = (claims: JWTPayload) => new SignJWT({ scope: 'access', iss: issuer, aud: audience, sub: 'outside-client', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'outside-1' })
    .sign(privateKey)

  it('accepts one with exp (its lifetime is the issuer\'s policy)', async () => {
    expect((await tones(app, await sign({ iat: now(), exp: now() + 600 }))).statusCode).toBe(200)
    expect((await tones(app, await sign({ iat: now(), exp: now() + 30 * 86400 }))).statusCode).toBe(200)
  })

  it('refuses one without exp', async () => {
    expectInvalidToken(await tones(app, await sign({ iat: now() })), 'no exp')
    expectInvalidToken(await tones(app, await sign({})), 'no exp, no iat')
  })
})
