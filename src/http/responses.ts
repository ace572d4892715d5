/**
 * What every documented operation can answer besides its own results, declared by the layer that
 * answers it: the problem handler (400, 404, 405, 500), the rate limiter (429 and RateLimit-*),
 * load shedding and shutdown (503), the body parsers (413, 415), Node's request timeout (408, a
 * body that did not arrive within REQUEST_TIMEOUT_MS), the bearer check (401, 403) and the request
 * id (X-Request-Id on every answer). Added to each route's schema as it is registered,
 * so that the OpenAPI document says what is sent: errors as application/problem+json with their
 * headers. A status the route declares itself is left as it is (the token endpoint's OAuth 400/401).
 */
import type { RouteOptions } from 'fastify'
import { HEADERS, header, problemResponse, type HeaderDeclaration } from '../schemas/common.js'

type Response = Record<string, unknown> & { headers?: Record<string, HeaderDeclaration>, content?: unknown, type?: unknown, description?: string }

interface RouteFacts {
  /** Counted by the rate limiter and shed under load (everything but the probes). */
  limited: boolean
  /** Needs a bearer token with a scope. */
  scoped: boolean
  /** Reads a request body. */
  body: boolean
}

/** The statuses a route can answer from the layers around it. */
function layerStatuses ({ limited, scoped, body }: RouteFacts): number[] {
  if (!limited) return []
  return [
    400, 405, 429, 500, 503,
    ...(scoped ? [401, 403, 404] : []),
    ...(body ? [408, 413, 415] : [])
  ]
}

/** The headers every answer of a route carries (or may carry), by status. */
function layerHeaders (status: number, { limited }: RouteFacts): Record<string, HeaderDeclaration> {
  const out: Record<string, HeaderDeclaration> = { 'X-Request-Id': header(HEADERS.requestId, true) }
  if (limited) {
    // counted before the body is read: an answer refused earlier (401, a malformed URL) has none
    const counted = status < 400
    out['RateLimit-Limit'] = header(HEADERS.rateLimitLimit, counted)
    out['RateLimit-Remaining'] = header(HEADERS.rateLimitRemaining, counted)
    out['RateLimit-Reset'] = header(HEADERS.rateLimitReset, counted)
  }
  // the token endpoint's 401 names Basic only when the client used it (RFC 6749 §5.2)
  if (status === 401) out['WWW-Authenticate'] = header(HEADERS.wwwAuthenticate, false)
  return out
}

/** A response with the layer's headers added (the route's own win); a bare schema becomes application/json content. */
function withHeaders (response: Response, status: number, facts: RouteFacts): Response {
  const headers = { ...layerHeaders(status, facts), ...response.headers }
  if (response.content !== undefined || response.type === 'null') return { ...response, headers }
  const { headers: _own, ...schema } = response
  return {
    description: response.description ?? 'Default Response',
    headers,
    content: { 'application/json': { schema } }
  }
}

/** The onRoute hook: completes a documented route's responses. */
export function declareResponses (route: RouteOptions): void {
  const schema = route.schema as { hide?: boolean, body?: unknown, response?: Record<string, Response> } | undefined
  if (schema === undefined || schema.hide === true || schema.response === undefined) return
  const config = (route.config ?? {}) as { rateLimit?: unknown, scope?: unknown }
  const facts: RouteFacts = { limited: config.rateLimit !== false, scoped: config.scope !== undefined, body: schema.body !== undefined }
  const declared: Record<string, Response> = { ...schema.response }
  for (const status of layerStatuses(facts)) declared[status] ??= problemResponse(status) as Response
  const statuses = Object.keys(declared).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  schema.response = Object.fromEntries(statuses.map(status => [status, withHeaders(declared[status]!, Number(status), facts)]))
}
