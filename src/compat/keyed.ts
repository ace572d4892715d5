/**
 * What every compatible API's keyed route shares: the caller's API key checked (http/auth/api-keys.ts),
 * then the client's rate limit counted (the same count as its token requests), then the rest of the
 * request's work done as that client's (the auth plugin's preHandler: fair queues take turns by it,
 * lib/clients.ts). A key in a header or the query is checked before the body is read; one in
 * the body (LibreTranslate's `api_key`) is read only from an address that is not locked out, and
 * checked before the body is validated. Every other failure before a key is accepted (a body not
 * read, refused, too large) counts against the address as a refused key does.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify'
import type { FastifyError } from 'fastify'
import { ClientClosedError, ServiceError, type FieldPath } from '../errors.js'
import { compatForms, formOf } from '../http/bodies.js'
import { abandonedUpload } from '../http/problem.js'

/**
 * Route config of a keyed route: the global rate limit is not run before the body (it would count
 * the request under its address), but by `keyed` once the key names the client; a refused key
 * counts against the address (`refusals`); its body is read as the drop-in APIs' are (`compat`, http/bodies.ts).
 */
export const KEYED_ROUTE = { rateLimit: false, addressLimit: 'refusals', compat: true } as const
/** Route config of a route answered without a key (a language list): counted as anonymous requests are. */
export const OPEN_ROUTE = { rateLimit: false, compat: true } as const

/** The form bodies a drop-in API reads (url-encoded and multipart, MAX_FORM_FIELDS fields at most): register in its scope. */
export { compatForms }

/** A keyed route's hooks, spread into its options. */
export interface KeyHooks {
  onRequest: onRequestAsyncHookHandler
  preValidation: preValidationAsyncHookHandler
}

/**
 * The hooks that check a route's key: `keyOf` reads it from the request (before the body is read,
 * only its headers and query are there). `optional`: the route answers without a key, and checks
 * one given (a wrong one is a 403); an empty key is none (clients send `api_key=` when theirs is left empty).
 */
export function keyed (app: FastifyInstance, keyOfRequest: (request: FastifyRequest) => string | undefined, options: { optional?: boolean } = {}): KeyHooks {
  const keyOf = options.optional === true
    ? (request: FastifyRequest): string | undefined => {
        const key = keyOfRequest(request)
        return key === '' ? undefined : key
      }
    : keyOfRequest
  const limit = app.rateLimit()
  const check = async (request: FastifyRequest, reply: FastifyReply, key: string | undefined): Promise<void> => {
    await app.apiKeyClient(request, key, 'access')
    await limit.call(app, request, reply)
  }
  return {
    async onRequest (request, reply) {
      const key = keyOf(request)
      if (key !== undefined) return await check(request, reply, key)
      // the key may be in the body: a locked-out address's body is not read at all
      if (options.optional !== true) await app.addressLockedOut(request)
    },
    // before validation: a body that fails the schema without a valid key fails as a refused key
    async preValidation (request, reply) {
      if (request.client !== undefined) return
      const key = keyOf(request)
      if (key === undefined && options.optional === true) return
      await check(request, reply, key)
    }
  }
}

/** The same hooks with `step` made on the body read before the key is checked (and the body validated). */
export function beforeKeyCheck (hooks: KeyHooks, step: (request: FastifyRequest) => void): KeyHooks {
  return {
    onRequest: hooks.onRequest,
    async preValidation (request, reply) {
      step(request)
      await hooks.preValidation.call(this, request, reply)
    }
  }
}

/**
 * The same hooks for a route whose arguments may all be in its query: a POST with no body at all
 * is read as an empty form (its query's fields on a `queryFields` route, http/bodies.ts).
 */
export function bodyOptional (hooks: KeyHooks): KeyHooks {
  return beforeKeyCheck(hooks, request => { request.body ??= formOf(request) })
}

/** A string field of a query or body, when it is one (a form field given twice is an array). */
export function field (source: unknown, name: string): string | undefined {
  if (source === null || typeof source !== 'object') return undefined
  const value = (source as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : undefined
}

/** What an error says to a compatible API's client: its status, a message naming the field, its headers. */
export interface CompatError {
  status: number
  message: string
  headers: Record<string, string>
}

/**
 * An error as a compatible API answers it. `fieldName` names a core field path in the API's own
 * terms (core's ["targets"] is LibreTranslate's `target`). Undefined: the app's error handler
 * answers (a client that went away).
 */
export function compatError (error: Error, request: FastifyRequest, fieldName: (path: FieldPath) => string, expected: Record<string, string> = {}): CompatError | undefined {
  if (error instanceof ClientClosedError || abandonedUpload(error, request)) return undefined
  if (error instanceof ServiceError) {
    if (error.status >= 500) request.log.warn({ err: error }, 'request failed')
    const first = error.errors?.[0]
    const message = first === undefined ? error.message : `${fieldName(first.path)}: ${first.message === error.message ? error.message : `${first.message} (${error.message})`}`
    return { status: error.status, message, headers: error.headers ?? {} }
  }
  const fe = error as FastifyError & { validation?: Array<{ keyword: string, instancePath: string, message?: string, params?: { missingProperty?: string } }>, validationContext?: string }
  if (fe.validation !== undefined) {
    const first = fe.validation[0]
    const missing = first?.keyword === 'required' ? first.params?.missingProperty : undefined
    if (missing !== undefined) return { status: 400, message: `Invalid request: missing ${missing} parameter`, headers: {} }
    const name = first?.instancePath.split('/').filter(Boolean)[0] ?? fe.validationContext ?? 'request'
    const wanted = Object.hasOwn(expected, name) ? expected[name] : undefined
    return { status: 400, message: `Invalid request: ${name}: ${wanted === undefined ? first?.message ?? 'not valid' : `must be ${wanted}`}`, headers: {} }
  }
  const status = typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500
  if (status === 500) {
    request.log.error({ err: error }, 'unexpected error')
    return { status, message: 'An unexpected error occurred. It has been logged with this request id.', headers: {} }
  }
  return { status, message: fe.message, headers: {} }
}

/** Sends a compatible API's error: `body` shapes it ({"error"} for LibreTranslate). */
export function sendCompatError (reply: FastifyReply, error: CompatError, body: (message: string, status: number) => unknown): FastifyReply {
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(body(error.message, error.status))
}

/**
 * A keyed route's failure before any key was accepted (a body unreadable, too large, of too many
 * fields) counts against the address as a refused key does: answered as it is, or as the 429 of an
 * address past its limit. A refused key (403) and a 429 are counted already.
 */
async function countedFailure (error: Error, request: FastifyRequest): Promise<Error> {
  if (request.routeOptions.config.addressLimit !== 'refusals' || request.client !== undefined) return error
  const status = error instanceof ServiceError ? error.status : (error as FastifyError).statusCode ?? 500
  if (status < 400 || status >= 500 || status === 403 || status === 429) return error
  if (error instanceof ClientClosedError || abandonedUpload(error, request)) return error
  try {
    await request.server.refusedCredentials(request)
  } catch (err) {
    return err as Error
  }
  return error
}

/**
 * A compatible API's route error handler: its errors in its own shape (`body`), fields in its own
 * names (`fieldName`, `expected`); a client that went away is left to the app's handler.
 */
export function compatErrorHandler (
  fieldName: (path: FieldPath) => string,
  body: (message: string, status: number) => unknown,
  expected: Record<string, string> = {}
): (error: Error, request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return async (error, request, reply) => {
    const counted = await countedFailure(error, request)
    const answer = compatError(counted, request, fieldName, expected)
    if (answer === undefined) throw counted
    return sendCompatError(reply, answer, body)
  }
}

/** The OpenAPI words of a compatible API's operation, under its tag (`hidden`: left out, as the root copies of LibreTranslate's). */
export function compatDoc (tag: string, hidden = false): (operationId: string, summary: string, description: string) => Record<string, unknown> {
  return (operationId, summary, description) => hidden ? { hide: true } : { tags: [tag], operationId, summary, description }
}

/** What the compatible APIs' POST routes read: JSON and forms (url-encoded or multipart, as a browser's FormData posts), as their clients send any. */
export const JSON_OR_FORM = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']
