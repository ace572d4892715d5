/**
 * API keys: what the compatible APIs (src/compat/) take instead of a bearer token. A key is one of a
 * client's `api_keys` (or matches one of its `api_key_hashes`) in AUTH_CLIENTS, and the request is
 * then that client's as with a token the service issued it: its scopes, and its key (issuer and
 * subject) for rate limits and fair queues. Failed keys count against the caller's address twice:
 * AUTH_FAILURES_MAX a minute (past it, 429 before any key is checked, the right one included) and the
 * before-authentication limit (ADDRESS_RATE_LIMIT_MAX) as refused tokens do. A key that needs a real
 * check (scrypt, against `api_key_hashes`) reserves its failure before it (auth/throttle.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config, Scope } from '../../config.js'
import { ServiceError } from '../../errors.js'
import { clientKey } from '../../lib/clients.js'
import { addressOf } from '../address-limit.js'
import { apiKeyChecker, type CheckSlots } from './secrets.js'
import type { TokenThrottle } from './throttle.js'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Sets `request.client` to the client the key is of, or throws: 403 (no key, a wrong one, a client
     * without the scope), 429 (the address failed too often), 503 (too many key checks at once).
     */
    apiKeyClient: (request: FastifyRequest, key: string | undefined, scope: Scope) => Promise<void>
  }
}

/** 403 for a missing or wrong API key, or a key whose client lacks the scope. */
export class InvalidApiKeyError extends ServiceError {
  constructor (detail: string) {
    super(403, 'invalid-api-key', 'Forbidden', detail)
  }
}

export function registerApiKeys (app: FastifyInstance, auth: Config['auth'], slots: CheckSlots, throttle: TokenThrottle): void {
  const check = apiKeyChecker(auth.clients, slots)

  /** A 403 counted as a failure (429 instead when the address is at the limit); `counted`: reserved already. */
  const refuse = async (request: FastifyRequest, detail: string, counted = false): Promise<never> => {
    if (!counted) await throttle.reserve(request, undefined)
    await app.refusedCredentials(request)
    throw new InvalidApiKeyError(detail)
  }

  app.decorate('apiKeyClient', async (request: FastifyRequest, key: string | undefined, scope: Scope) => {
    if (key === undefined || key === '') return await refuse(request, 'An API key is required (api_key: one of a client\'s "api_keys" in AUTH_CLIENTS).')
    let reserved = false
    const reserve = async (): Promise<void> => {
      await throttle.reserve(request, undefined)
      reserved = true
    }
    const client = await check(key, addressOf(request), reserve).catch(async (err: unknown) => {
      // not checked (too many checks waiting): no failure
      if (reserved) await throttle.giveBack(request, undefined)
      throw err
    })
    if (client === undefined) return await refuse(request, 'The API key is not valid.', reserved)
    // a key known at once (plain, or a hashed one matched before) is refused too while the address is at the limit
    if (reserved) await throttle.giveBack(request, undefined)
    else await throttle.check(request, undefined)
    if (!client.scopes.includes(scope)) return await refuse(request, `The API key's client lacks the "${scope}" scope this operation needs.`)
    // as a token this service issued the client: the same issuer and subject, so the same rate limit and turn
    request.client = { id: client.id, scopes: client.scopes, issuer: auth.tokenIssuer, key: clientKey(auth.tokenIssuer, client.id) }
  })
}
