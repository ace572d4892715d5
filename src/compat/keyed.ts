/**
 * What every compatible API's keyed route shares: the caller's API key checked (http/auth/api-keys.ts),
 * then the client's rate limit counted (the same count as its token requests), then the rest of the
 * request's work done as that client's (fair queues take turns by it, runtime/clients.ts). The key
 * may come in the body (LibreTranslate's `api_key`), so this runs once the body is read.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify'
import type { FastifyError } from 'fastify'
import { ClientClosedError, ServiceError, type FieldPath } from '../errors.js'
import { abandonedUpload } from '../http/problem.js'
import { withClient } from '../runtime/clients.js'

/**
 * Route config of a keyed route: the global rate limit is not run before the body (it would count
 * the request under its address), but by `keyed` once the key names the client; a refused key
 * counts against the address (`refusals`).
 */
export const KEYED_ROUTE = { rateLimit: false, addressLimit: 'refusals' } as const
/** Route config of a route answered without a key (a language list): counted as anonymous requests are. */
export const OPEN_ROUTE = { rateLimit: false } as const

/** The preHandler of a keyed route: `keyOf` reads the key from the request. */
export function keyed (app: FastifyInstance, keyOf: (request: FastifyRequest) => string | undefined): preHandlerHookHandler {
  const limit = app.rateLimit()
  const check = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await app.apiKeyClient(request, keyOf(request), 'access')
    await limit.call(app, request, reply)
  }
  return function (request, reply, done) {
    check(request, reply).then(() => { withClient(request.client!.key, done) }, (err: Error) => { done(err) })
  }
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
 * A compatible API's route error handler: its errors in its own shape (`body`), fields in its own
 * names (`fieldName`, `expected`); a client that went away is left to the app's handler.
 */
export function compatErrorHandler (
  fieldName: (path: FieldPath) => string,
  body: (message: string, status: number) => unknown,
  expected: Record<string, string> = {}
): (error: Error, request: FastifyRequest, reply: FastifyReply) => unknown {
  return (error, request, reply) => {
    const answer = compatError(error, request, fieldName, expected)
    if (answer === undefined) throw error
    return sendCompatError(reply, answer, body)
  }
}

/** The OpenAPI words of a compatible API's operation, under its tag (`hidden`: left out, as the root copies of LibreTranslate's). */
export function compatDoc (tag: string, hidden = false): (operationId: string, summary: string, description: string) => Record<string, unknown> {
  return (operationId, summary, description) => hidden ? { hide: true } : { tags: [tag], operationId, summary, description }
}

/** What the compatible APIs' POST routes read: JSON and forms, as their clients send either. */
export const JSON_OR_FORM = ['application/json', 'application/x-www-form-urlencoded']
