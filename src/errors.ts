/**
 * Typed errors shared by every layer. Each one knows its HTTP status and problem type;
 * src/http/problem.ts is the one place that turns them into RFC 9457 problem+json.
 */

/** One field-level problem, located by a JSON Pointer (RFC 6901) into the request. */
export interface FieldProblem {
  pointer: string
  message: string
}

export class ServiceError extends Error {
  readonly status: number
  /** Short slug used to build the problem `type` URI. */
  readonly code: string
  readonly title: string
  readonly errors?: FieldProblem[]
  /** Extra response headers (e.g. Retry-After). */
  readonly headers?: Record<string, string>

  constructor (status: number, code: string, title: string, detail: string,
    extra: { errors?: FieldProblem[], headers?: Record<string, string>, cause?: unknown } = {}) {
    super(detail, extra.cause === undefined ? undefined : { cause: extra.cause })
    this.name = new.target.name
    this.status = status
    this.code = code
    this.title = title
    if (extra.errors) this.errors = extra.errors
    if (extra.headers) this.headers = extra.headers
  }
}

/** 400: the request is well-formed JSON but asks for something invalid. */
export class ValidationError extends ServiceError {
  constructor (detail: string, errors?: FieldProblem[]) {
    super(400, 'invalid-request', 'Invalid request', detail, errors ? { errors } : {})
  }
}

/** Builds a ValidationError for a single field. */
export function invalidField (pointer: string, message: string): ValidationError {
  return new ValidationError(`${pointer || '/'}: ${message}`, [{ pointer, message }])
}

/** 400: no configured service can translate these language pairs. */
export class UnsupportedPairError extends ServiceError {
  readonly pairs: Array<{ from: string, to: string }>
  constructor (pairs: Array<{ from: string, to: string }>, pointer = '/targets') {
    const list = pairs.map(p => `${p.from}->${p.to}`).join(', ')
    super(400, 'unsupported-language-pair', 'Unsupported language pair',
      `No configured translation service supports ${list}. GET /language/translate/locales lists the supported languages.`,
      { errors: [{ pointer, message: `unsupported pair(s): ${list}` }] })
    this.pairs = pairs
  }
}

/** 404: the thing asked for does not exist. */
export class NotFoundError extends ServiceError {
  constructor (detail: string) {
    super(404, 'not-found', 'Not found', detail)
  }
}

/** 501: the capability is declared in the API but its engine is not built into this version. */
export class NotImplementedError extends ServiceError {
  constructor (detail: string) {
    super(501, 'not-implemented', 'Not implemented', detail)
  }
}

/** 503: nothing is configured (or ready) to serve this; the detail says what to configure. */
export class ServiceUnavailableError extends ServiceError {
  constructor (detail: string, retryAfterSeconds?: number) {
    super(503, 'service-unavailable', 'Service unavailable', detail,
      retryAfterSeconds === undefined ? {} : { headers: { 'retry-after': String(retryAfterSeconds) } })
  }
}

/** 502: an engine or outside service failed or answered something unusable. */
export class UpstreamError extends ServiceError {
  readonly service: string
  constructor (service: string, detail: string, cause?: unknown) {
    super(502, 'upstream-error', 'Upstream service failed', `${service}: ${detail}`, { cause })
    this.service = service
  }
}

/** 504: an engine or outside service did not answer in time. */
export class UpstreamTimeoutError extends ServiceError {
  readonly service: string
  constructor (service: string, timeoutMs: number, cause?: unknown) {
    super(504, 'upstream-timeout', 'Upstream service timed out', `${service} did not answer within ${timeoutMs} ms`, { cause })
    this.service = service
  }
}

/** The client closed the connection before its answer; nobody is left to answer (not logged as a failure). */
export class ClientClosedError extends Error {
  constructor () {
    super('client closed the connection')
    this.name = 'ClientClosedError'
  }
}
