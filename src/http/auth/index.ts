/**
 * OAuth 2.0: the token endpoint (client credentials, RFC 6749 §4.4) and the bearer check
 * every route with `config.scope` gets (401 / 403 with RFC 6750 WWW-Authenticate values).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import formbody from '@fastify/formbody'
import fp from 'fastify-plugin'
import { clientKey, withClient } from '../../lib/clients.js'
import { SCOPES, type Config, type Scope } from '../../config.js'
import { ServiceError } from '../../errors.js'
import { TokenRequest, TokenResponse, OAuthError } from '../../schemas/auth.js'
import { abandonedUpload, problemType } from '../problem.js'
import { originOf } from '../host.js'
import { checkSlots, secretChecker, type CheckSlots } from './secrets.js'
import { tokenThrottle, type TokenThrottle } from './throttle.js'
import { registerApiKeys } from './api-keys.js'
import { addressOf } from '../address-limit.js'
import { InvalidTokenError, createTokenService, type TokenService } from './tokens.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a route needs; routes without it need no token. */
    scope?: Scope
  }
  interface FastifyRequest {
    /** The authenticated client (token subject), set by the bearer check. */
    /** The caller: its token's subject, scopes and issuer, and `key` (issuer and subject) that rate limits and fair queues count by. */
    client?: { id: string, scopes: string[], issuer: string, key: string }
  }
  interface FastifyInstance {
    tokens: TokenService
    /**
     * Throws a 429 when the request's address is locked out: AUTH_FAILURES_MAX failed
     * authentications or ADDRESS_RATE_LIMIT_MAX refused requests this minute. Counts nothing: the
     * drop-in APIs run it before reading a body that may hold their key.
     */
    addressLockedOut: (request: FastifyRequest) => Promise<void>
  }
}

const REALM = 'language-service'

/**
 * 401 for a missing, malformed, forged, expired or wrong-audience token. `noToken`: the request
 * carried no bearer token at all (none, or another scheme), so the challenge names no error
 * (RFC 6750 §3.1); the problem's detail still says what to send.
 */
export class UnauthorizedError extends ServiceError {
  constructor (detail: string, noToken = false) {
    super(401, 'unauthorized', 'Unauthorized', detail, {
      headers: { 'www-authenticate': noToken ? `Bearer realm="${REALM}"` : `Bearer realm="${REALM}", error="invalid_token", error_description="${detail.replace(/"/g, "'")}"` }
    })
  }
}

/** 403 for a valid token without the route's scope. */
export class InsufficientScopeError extends ServiceError {
  constructor (scope: string) {
    super(403, 'insufficient-scope', 'Forbidden', `The access token lacks the "${scope}" scope this operation needs.`, {
      headers: { 'www-authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` }
    })
  }
}

type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope'

/** RFC 6749 §5.2 error, carrying the problem+json fields too. */
function oauthError (request: FastifyRequest, reply: FastifyReply, status: number, error: OAuthErrorCode, description: string, basic = false): FastifyReply {
  if (basic) reply.header('www-authenticate', `Basic realm="${REALM}"`)
  return reply.code(status)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
    .type('application/json; charset=utf-8')
    .send({
      error,
      error_description: description,
      type: problemType(`oauth-${error.replace(/_/g, '-')}`),
      title: 'Token request refused',
      status,
      detail: description,
      instance: '/oauth/token',
      request_id: String(request.id)
    })
}

/** Client credentials from an HTTP Basic header (RFC 6749 §2.3.1: form-urlencoded id and secret). */
function basicCredentials (header: string | undefined): { id: string, secret: string } | undefined | null {
  if (!header) return undefined
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header)
  if (!match) return null
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  try {
    const unform = (s: string): string => decodeURIComponent(s.replace(/\+/g, ' '))
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) }
  } catch {
    return null
  }
}

async function tokenRoute (app: FastifyInstance, opts: { config: Config, slots: CheckSlots, throttle: TokenThrottle }): Promise<void> {
  await app.register(formbody, { bodyLimit: 16 * 1024 })
  const check = secretChecker(opts.config.auth.clients, opts.slots)
  const throttle = opts.throttle

  app.post('/oauth/token', {
    bodyLimit: 16 * 1024,
    // failed client authentications are throttled here, per client id and per address (auth/throttle.ts)
    config: { addressLimit: false },
    schema: {
      tags: ['auth'],
      operationId: 'token',
      summary: 'Get an access token (OAuth 2.0 client credentials)',
      description: 'RFC 6749 §4.4. Send `grant_type=client_credentials` as a form (or JSON) body, with the client id and secret by HTTP Basic or as `client_id`/`client_secret` fields. The answer is a JWT bearer token for `Authorization: Bearer <access_token>`.',
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
      body: TokenRequest,
      response: {
        200: { ...TokenResponse, description: 'An access token' },
        400: { ...OAuthError, description: 'Malformed request, unsupported grant or scope (RFC 6749 §5.2)' },
        401: { ...OAuthError, description: 'Client authentication failed' }
      }
    },
    // RFC 6749 clients expect {error, error_description}; keep them even for body parse errors
    errorHandler: (error, request, reply) => {
      // rate limiting, throttles, load shedding, size and media type limits answer as everywhere else
      // (problem+json, with their headers); a request the service refuses as invalid (a body nested too
      // deeply) is an OAuth invalid_request; an upload the client abandoned is logged as everywhere else
      if (abandonedUpload(error, request)) throw error
      if (error instanceof ServiceError) {
        if (error.status !== 400) throw error
        return oauthError(request, reply, 400, 'invalid_request', error.message)
      }
      const status = (error as { statusCode?: number }).statusCode
      if (status === 413 || status === 415) throw error
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return oauthError(request, reply, status, 'invalid_request', error.message || 'malformed token request')
      }
      request.log.error({ err: error }, 'token endpoint failed')
      return oauthError(request, reply, 500, 'invalid_request', 'the token request could not be processed')
    }
  }, async (request, reply) => {
    const raw = (request.body ?? {}) as Record<string, unknown>
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value !== 'string') return oauthError(request, reply, 400, 'invalid_request', `"${key}" must be given once, as a string`)
    }
    const body = raw as Record<string, string | undefined>
    const grant = body['grant_type']
    if (grant === undefined || grant === '') return oauthError(request, reply, 400, 'invalid_request', 'grant_type is required')
    if (grant !== 'client_credentials') return oauthError(request, reply, 400, 'unsupported_grant_type', 'only grant_type=client_credentials is supported')

    // an address that failed client authentication too often this minute is refused before any more work
    await throttle.check(request, undefined)
    const basic = basicCredentials(request.headers.authorization)
    if (basic === null) {
      await throttle.reserve(request, undefined)
      return oauthError(request, reply, 401, 'invalid_client', 'the Authorization header is not valid HTTP Basic client authentication', true)
    }
    const bodyId = body['client_id']
    const bodySecret = body['client_secret']
    if (basic && (bodyId !== undefined || bodySecret !== undefined) && !(bodyId === basic.id && bodySecret === undefined)) {
      return oauthError(request, reply, 400, 'invalid_request', 'use one client authentication method: HTTP Basic or client_id/client_secret')
    }
    const credentials = basic ?? (bodyId !== undefined && bodySecret !== undefined ? { id: bodyId, secret: bodySecret } : undefined)
    if (!credentials) {
      await throttle.reserve(request, undefined)
      return oauthError(request, reply, 401, 'invalid_client', 'client authentication is required (HTTP Basic or client_id and client_secret)', true)
    }

    // the check's failure is counted before it runs (checks at once cannot all pass the limit), given back when it succeeds;
    // a client id or address at the limit is refused before its secret is checked, the right one included
    await throttle.reserve(request, credentials.id)
    const client = await check(credentials.id, credentials.secret, addressOf(request)).catch(async (err: unknown) => {
      // not checked (too many checks waiting): no failure
      await throttle.giveBack(request, credentials.id)
      throw err
    })
    if (!client) return oauthError(request, reply, 401, 'invalid_client', 'unknown client or wrong secret', basic !== undefined)
    await throttle.giveBack(request, credentials.id)

    let scopes: string[] = client.scopes
    const asked = body['scope']
    if (asked !== undefined && asked.trim() !== '') {
      const wanted = [...new Set(asked.split(' ').filter(Boolean))]
      const refused = wanted.filter(s => !(client.scopes as string[]).includes(s))
      if (refused.length > 0) {
        const known = refused.every(s => (SCOPES as readonly string[]).includes(s))
        return oauthError(request, reply, 400, 'invalid_scope', known
          ? `this client may not have scope(s): ${refused.join(' ')}`
          : `unknown scope(s): ${refused.join(' ')} (known: ${SCOPES.join(' ')})`)
      }
      scopes = wanted
    }
    const { token, expiresIn } = await app.tokens.issue(client.id, scopes)
    request.log.info({ client: client.id, scopes }, 'token issued')
    return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
      .send({ access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: scopes.join(' ') })
  })
}

async function authPlugin (app: FastifyInstance, opts: { config: Config }): Promise<void> {
  // client secrets and API keys share one set of slots: AUTH_SECRET_CONCURRENCY scrypts at most in all
  const slots = checkSlots(opts.config.auth.secretConcurrency)
  // failed client authentications, by secret or by API key, count in one place (auth/throttle.ts)
  const throttle = tokenThrottle(app, opts.config.auth.failuresMax)
  const tokens = await createTokenService(opts.config.auth)
  app.decorate('tokens', tokens)
  app.decorateRequest('client', undefined)
  // the compatible APIs' keys (src/compat/): the same clients, scopes and rate limits
  registerApiKeys(app, opts.config.auth, slots, throttle)
  app.decorate('addressLockedOut', async (request: FastifyRequest) => {
    await throttle.check(request, undefined)
    await app.addressAtLimit(request)
  })

  /** The client a bearer header names, or UnauthorizedError / InsufficientScopeError. */
  const bearerClient = async (header: string | undefined, scope: Scope): Promise<NonNullable<FastifyRequest['client']>> => {
    if (!header) throw new UnauthorizedError('an access token is required: Authorization: Bearer <token> (get one from POST /oauth/token)', true)
    const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header)
    if (!match) throw new UnauthorizedError('the Authorization header must be "Bearer <token>"', !/^Bearer\b/i.test(header))
    let verified
    try {
      verified = await tokens.verify(match[1]!)
    } catch (err) {
      if (err instanceof InvalidTokenError) throw new UnauthorizedError(err.message)
      throw err
    }
    if (!verified.scopes.includes(scope)) throw new InsufficientScopeError(scope)
    return { id: verified.subject, scopes: verified.scopes, issuer: verified.issuer, key: clientKey(verified.issuer, verified.subject) }
  }

  // a refused request counts against its address (ADDRESS_RATE_LIMIT_MAX): past it, 429 instead of 401/403
  app.addHook('onRequest', async (request) => {
    const scope = request.routeOptions.config.scope
    if (!scope) return
    try {
      request.client = await bearerClient(request.headers.authorization, scope)
    } catch (err) {
      if (err instanceof UnauthorizedError || err instanceof InsufficientScopeError) await app.refusedCredentials(request)
      throw err
    }
  })
  // the rest of the request's work (its handler, what it awaits, what it sends to other threads) is the client's:
  // fair queues take turns by it (lib/clients.ts); set after the body is read, whose events are the socket's
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.client === undefined) done()
    else withClient(request.client.key, done)
  })

  await app.register(tokenRoute, { ...opts, slots, throttle })

  const base = {
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...SCOPES],
    // no authorization endpoint: no response type
    response_types_supported: []
  }
  // RFC 8414's issuer is a URL (the one its metadata is found under), its endpoints absolute URLs:
  // AUTH_TOKEN_ISSUER when it is one, else the host and scheme the request came to (behind a proxy, with TRUST_PROXY)
  const issuerUrl = /^https?:\/\/[^/?#]+(?:\/[^?#]*)?$/.test(opts.config.auth.tokenIssuer) ? opts.config.auth.tokenIssuer : undefined
  app.get('/.well-known/oauth-authorization-server', {
    schema: { hide: true }
  }, async (request, reply) => {
    const origin = originOf(request)
    // built on the host asked: no cache may answer it to another
    reply.header('cache-control', 'no-store')
    return { issuer: issuerUrl ?? origin, ...base, token_endpoint: `${origin}/oauth/token`, ...(tokens.publicJwks() ? { jwks_uri: `${origin}/.well-known/jwks.json` } : {}) }
  })
  if (tokens.publicJwks()) {
    app.get('/.well-known/jwks.json', { schema: { hide: true } }, async () => tokens.publicJwks())
  }
}

export default fp(authPlugin, { name: 'auth', dependencies: ['problem'] })
