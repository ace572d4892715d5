/**
 * Typed errors shared by every layer. Each one knows its HTTP status and problem type;
 * src/http/problem.ts is the one place that turns them into RFC 9457 problem+json.
 */

/**
 * Where a problem is in the request, as the keys and indexes leading to it (["documents", 3, "value"]).
 * Core speaks in paths; the HTTP layer turns them into JSON Pointers (RFC 6901).
 */
export type FieldPath = ReadonlyArray<string | number>

/** One field-level problem. */
export interface FieldProblem {
  path: FieldPath
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
  /**
   * What outside engines themselves said (their error message or body), secrets and client texts
   * redacted, cut short: logged with the error (src/http/problem.ts), never sent to the client. A
   * plain string, so it survives the copy of an error across threads.
   */
  readonly engineMessage?: string

  constructor (status: number, code: string, title: string, detail: string,
    extra: { errors?: FieldProblem[], headers?: Record<string, string>, cause?: unknown, engineMessage?: string | undefined } = {}) {
    super(detail, extra.cause === undefined ? undefined : { cause: extra.cause })
    this.name = new.target.name
    this.status = status
    this.code = code
    this.title = title
    if (extra.errors) this.errors = extra.errors
    if (extra.headers) this.headers = extra.headers
    if (extra.engineMessage !== undefined && extra.engineMessage !== '') this.engineMessage = extra.engineMessage
  }
}

/** 400: the request is well-formed JSON but asks for something invalid. */
export class ValidationError extends ServiceError {
  /** Whether the detail is the first problem's message, to be shown after that field's location. */
  readonly aboutField: boolean
  constructor (detail: string, errors?: FieldProblem[], aboutField = false) {
    super(400, 'invalid-request', 'Invalid request', detail, errors ? { errors } : {})
    this.aboutField = aboutField
  }
}

/** Builds a ValidationError for a single field. */
export function invalidField (path: FieldPath, message: string): ValidationError {
  return new ValidationError(message, [{ path, message }], true)
}

/** 413: the request holds more text than the service takes (the HTTP layer names the setting). */
export class TextLimitError extends ServiceError {
  readonly limit: number
  constructor (limit: number, path: FieldPath) {
    super(413, 'text-too-large', 'Too much text', `The request holds more than ${limit} characters of text.`,
      { errors: [{ path, message: `more than ${limit} characters of text` }] })
    this.limit = limit
  }
}

/** 400: no configured service can translate these language pairs. */
export class UnsupportedPairError extends ServiceError {
  readonly pairs: Array<{ from: string, to: string }>
  constructor (pairs: Array<{ from: string, to: string }>, path: FieldPath = ['targets']) {
    const list = pairs.map(p => `${p.from}->${p.to}`).join(', ')
    super(400, 'unsupported-language-pair', 'Unsupported language pair',
      `No configured translation service supports ${list}. GET /language/translate/locales lists the supported languages.`,
      { errors: [{ path, message: `unsupported pair(s): ${list}` }] })
    this.pairs = pairs
  }
}

/** 404: the thing asked for does not exist. */
export class NotFoundError extends ServiceError {
  constructor (detail: string) {
    super(404, 'not-found', 'Not found', detail)
  }
}

/** 503: nothing is configured (or ready) to serve this; the detail says what to configure. */
export class ServiceUnavailableError extends ServiceError {
  constructor (detail: string, retryAfterSeconds?: number) {
    super(503, 'service-unavailable', 'Service unavailable', detail,
      retryAfterSeconds === undefined ? {} : { headers: { 'retry-after': String(retryAfterSeconds) } })
  }
}

/** 503: no engine for this capability is configured at all (the HTTP layer says what to configure). */
export class NothingConfiguredError extends ServiceUnavailableError {
  readonly capability: 'translation' | 'detection' | 'editing' | 'analysis'
  /** Why the configured engines serve nothing, where they said (an Apertium with no modes to read). */
  readonly failures: readonly unknown[]
  constructor (capability: NothingConfiguredError['capability'], detail: string, failures: readonly unknown[] = []) {
    super(detail)
    this.capability = capability
    this.failures = failures
  }
}

/** 503: the embedded Apertium engine has no modes to use in its folder (the HTTP layer names the setting). */
export class ApertiumModesError extends ServiceUnavailableError {
  /** What is wrong with the folder, in words ("does not exist", "holds no usable modes"). */
  readonly problem: string
  constructor (readonly modesDir: string, problem: string, detail: string) {
    super(`apertium: ${detail}`)
    this.problem = problem
  }
}

/** 503: the request waited too long for the thread pool (the HTTP layer names the setting). */
export class DocumentsBusyError extends ServiceUnavailableError {
  constructor (waitedMs: number) {
    const seconds = Math.max(1, Math.ceil(waitedMs / 1000))
    super(`The service's threads are busy with other clients' heavy work: this request waited more than ${Math.round(waitedMs) / 1000} s for them in all. Retry later, or send smaller documents.`, seconds)
  }
}

/**
 * 503: the request was not answered within its deadline: its work is called off and Retry-After says
 * when to try again (the HTTP layer names the settings). Why is not known here: an engine slow to
 * answer (a probe's idle service, an engine hanging, was said to be busy) or the service busy.
 */
export class RequestDeadlineError extends ServiceUnavailableError {
  constructor (deadlineMs: number) {
    super(`The service did not finish this request within ${deadlineMs / 1000} s (an engine may be slow to answer, or the service busy). Retry later, or send less at once.`, 5)
  }
}

/**
 * 502: an engine or outside service failed or answered something unusable. The detail is in our own
 * words (the service's name, the HTTP status): what the engine said goes in `engineMessage`, for the log.
 */
export class UpstreamError extends ServiceError {
  readonly service: string
  /** Whether trying the same call again may succeed (a 5xx, a 429, a dropped connection). */
  readonly retryable: boolean
  constructor (service: string, detail: string, cause?: unknown,
    options: { retryable?: boolean, status?: number, code?: string, title?: string, headers?: Record<string, string>, engineMessage?: string | undefined } = {}) {
    super(options.status ?? 502, options.code ?? 'upstream-error', options.title ?? 'Upstream service failed', `${service}: ${detail}`,
      { cause, ...(options.headers ? { headers: options.headers } : {}), engineMessage: options.engineMessage })
    this.service = service
    this.retryable = options.retryable ?? false
  }
}

/** 504: an engine or outside service did not answer in time. */
export class UpstreamTimeoutError extends UpstreamError {
  constructor (service: string, timeoutMs: number, cause?: unknown) {
    super(service, `did not answer within ${timeoutMs} ms`, cause, { status: 504, code: 'upstream-timeout', title: 'Upstream service timed out' })
  }
}

/**
 * 503: an engine of ours had no room for the call within its wait (every Apertium pipeline slot
 * busy with other directions): the service is overloaded, not broken; Retry-After says when to
 * try again (the HTTP layer names the setting that adds room).
 */
export class EngineBusyError extends UpstreamError {
  readonly retryAfterMs: number
  constructor (service: string, detail: string, retryAfterMs: number) {
    super(service, detail, undefined, {
      status: 503,
      code: 'engine-busy',
      title: 'Engine busy',
      retryable: true,
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) }
    })
    this.retryAfterMs = retryAfterMs
  }
}

/** 503: an outside service kept answering 429 (too many requests); `retryAfterMs` is what it asked for. */
export class RateLimitedError extends UpstreamError {
  readonly retryAfterMs: number | undefined
  constructor (service: string, retryAfterMs: number | undefined, cause?: unknown, engineMessage?: string) {
    super(service, `is rate limiting this service (429)${retryAfterMs === undefined ? '' : `; it asked to wait ${Math.ceil(retryAfterMs / 1000)} s`}`, cause, {
      status: 503,
      code: 'upstream-rate-limited',
      title: 'Upstream service rate limited',
      retryable: true,
      headers: { 'retry-after': String(Math.max(1, Math.ceil((retryAfterMs ?? 1000) / 1000))) },
      engineMessage
    })
    this.retryAfterMs = retryAfterMs
  }
}

/** 503: the service failed too many calls in a row and is skipped until `retryAfterMs` has passed (circuit breaker open; the HTTP layer names the settings). */
export class CircuitOpenError extends UpstreamError {
  readonly retryAfterMs: number
  constructor (service: string, failures: number, retryAfterMs: number) {
    super(service, `failed ${failures} ${failures === 1 ? 'call' : 'calls'} in a row and is skipped for ${Math.ceil(retryAfterMs / 1000)} s`, undefined, {
      status: 503,
      code: 'upstream-unavailable',
      title: 'Upstream service unavailable',
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) }
    })
    this.retryAfterMs = retryAfterMs
  }
}

/** The client closed the connection before its answer; nobody is left to answer (not logged as a failure). */
export class ClientClosedError extends Error {
  constructor () {
    super('client closed the connection')
    this.name = 'ClientClosedError'
  }
}

/** Whether an error is a passing state of a busy machine (threads or an engine busy, a deadline run out), so the same call may succeed later. */
export function isPassing (error: unknown): boolean {
  return error instanceof DocumentsBusyError || error instanceof RequestDeadlineError || error instanceof EngineBusyError
}
