/**
 * The one place errors become RFC 9457 problem+json: validation, malformed JSON, 404, 405,
 * 413, 415, 429, auth, upstream and unexpected errors alike. No stack traces in bodies.
 */
import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { settingName as s, type SettingName } from '../settings.js'
import { routedPath } from './log-redaction.js'
import { answeredWhileReading } from './connections.js'
import { ApertiumModesError, CircuitOpenError, ClientClosedError, DocumentsBusyError, EngineBusyError, NothingConfiguredError, RequestDeadlineError, ServiceError, TextLimitError, ValidationError, type FieldPath } from '../errors.js'

/** A field problem as clients see it: located by a JSON Pointer, and where (body unless said). */
export interface WireFieldProblem {
  pointer: string
  message: string
  in?: string
}

export interface ProblemBody {
  type: string
  title: string
  status: number
  detail: string
  instance: string
  request_id: string
  errors?: WireFieldProblem[]
}

const TITLES: Record<number, string> = {
  400: 'Invalid request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  413: 'Request body too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  431: 'Request header fields too large',
  500: 'Internal server error',
  503: 'Service unavailable'
}

const CODES: Record<number, string> = {
  400: 'invalid-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  406: 'not-acceptable',
  408: 'request-timeout',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  429: 'rate-limited',
  431: 'headers-too-large',
  500: 'internal-error',
  503: 'service-unavailable'
}

/** The problem `type` URI for a code; GET /problems/{code} describes it. */
export function problemType (code: string): string {
  return `/problems/${code}`
}

/** The problem+json body for a status, with the type and title of its code unless given. */
function problemBody (status: number, detail: string, instance: string, requestId: string,
  extra: { code?: string, title?: string, errors?: ProblemBody['errors'] } = {}): ProblemBody {
  const body: ProblemBody = {
    type: problemType(extra.code ?? CODES[status] ?? 'error'),
    title: extra.title ?? TITLES[status] ?? 'Error',
    status,
    detail,
    instance,
    request_id: requestId
  }
  if (extra.errors && extra.errors.length > 0) body.errors = extra.errors
  return body
}

/** Sends a problem+json answer. */
export function sendProblem (request: FastifyRequest, reply: FastifyReply, status: number, detail: string,
  extra: { code?: string, title?: string, errors?: ProblemBody['errors'], headers?: Record<string, string> } = {}): FastifyReply {
  const body = problemBody(status, detail, routedPath(request.url), String(request.id), extra)
  if (extra.headers) reply.headers(extra.headers)
  return reply.code(status).type('application/problem+json; charset=utf-8').send(body)
}

interface AjvError {
  instancePath: string
  schemaPath: string
  keyword: string
  params: Record<string, unknown>
  message?: string
}

/** RFC 6901 escaping of one reference token. */
export function escapePointer (token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** The JSON Pointer of a field path (["documents", 3, "value"] -> "/documents/3/value"). */
export function pointerOf (path: FieldPath): string {
  return path.map(token => '/' + escapePointer(String(token))).join('')
}

/** The settings that bound the lists of a /language request body, by pointer (its schemas take their values). */
const LIST_LIMITS: Readonly<Record<string, SettingName>> = { '/targets': s('MAX_TARGETS'), '/documents': s('MAX_BULK_DOCUMENTS'), '/edits': s('MAX_EDITS') }

/** Field problems (JSON pointers and readable messages) from ajv errors; `limits`: the settings that bound a list, by its pointer. */
export function fieldProblems (errors: AjvError[], context: string | undefined, limits: Readonly<Record<string, SettingName>> = {}): WireFieldProblem[] {
  const where = context === 'querystring' ? 'query' : context === 'params' ? 'path' : context === 'headers' ? 'header' : 'body'
  // errors inside a failed anyOf/oneOf branch are noise once the union itself is reported
  const unions = errors.filter(e => e.keyword === 'anyOf' || e.keyword === 'oneOf').map(e => e.schemaPath + '/')
  const out: WireFieldProblem[] = []
  const seen = new Set<string>()
  for (const e of errors) {
    if (unions.some(u => e.schemaPath.startsWith(u))) continue
    let pointer = e.instancePath
    let message: string
    switch (e.keyword) {
      case 'required':
        pointer += '/' + escapePointer(String(e.params['missingProperty']))
        message = 'is required'
        break
      case 'additionalProperties':
        pointer += '/' + escapePointer(String(e.params['additionalProperty']))
        message = 'is not a known field'
        break
      case 'enum':
        message = `must be one of: ${(e.params['allowedValues'] as unknown[]).map(v => JSON.stringify(v)).join(', ')}`
        break
      case 'const':
        message = `must be ${JSON.stringify(e.params['allowedValue'])}`
        break
      case 'anyOf':
      case 'oneOf':
        message = 'does not match any allowed form (see the schema in /docs)'
        break
      case 'discriminator':
        message = e.params['error'] === 'mapping'
          ? `has an unknown "${String(e.params['tag'])}" value`
          : `needs a string "${String(e.params['tag'])}" field`
        if (e.params['error'] === 'mapping') pointer += '/' + escapePointer(String(e.params['tag']))
        break
      case 'maxItems':
        message = (e.message ?? 'has too many items') + (context === 'body' && Object.hasOwn(limits, pointer) ? ` (the limit is set by ${limits[pointer]!})` : '')
        break
      default:
        message = e.message ?? 'is invalid'
    }
    const key = pointer + '\u0000' + message
    if (seen.has(key)) continue
    seen.add(key)
    const problem: WireFieldProblem = { pointer, message }
    if (where !== 'body') problem.in = where
    out.push(problem)
  }
  return out
}

/**
 * Marks where field problems raised after validation point: `in: "path"` or `"query"` when their
 * pointer names a parameter of the URL (a malformed `/tag` of /language/locale/{tag}, a bad
 * `/display`), as schema errors on parameters are; body fields stay unmarked.
 */
function located (request: FastifyRequest, errors: ServiceError['errors'] & object): WireFieldProblem[] {
  const params = request.params as Record<string, unknown> | null | undefined
  const query = request.query as Record<string, unknown> | null | undefined
  return errors.map(({ path, message }) => {
    const e = { pointer: pointerOf(path), message }
    const first = path[0]
    if (first === undefined) return e
    const name = String(first)
    if (params != null && Object.hasOwn(params, name)) return { ...e, in: 'path' }
    if (request.body == null && query != null && Object.hasOwn(query, name)) return { ...e, in: 'query' }
    return e
  })
}

/** Whether an error is the client closing its connection while it was still sending the body. */
export function abandonedUpload (error: Error, request: FastifyRequest): boolean {
  return !request.raw.complete && (request.raw.aborted || (error as { code?: string }).code === 'ECONNRESET')
}

/** Registers the error and not-found handlers for the whole app. */
async function problemPlugin (app: FastifyInstance): Promise<void> {
  // route patterns seen at registration, to tell 405 from 404
  const routes: Array<{ matcher: RegExp, methods: Set<string> }> = []
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    // CORS preflights are answered on any path (http/cors.ts): that says nothing of which paths exist
    if (route.url.endsWith('*') && methods.every(m => m === 'OPTIONS')) return
    // built from our own route patterns, never from client input
    const source = route.url.split('/').map(part => {
      if (part.startsWith(':')) return '[^/]+'
      if (part === '*') return '.*'
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    }).join('/')
    const matcher = new RegExp(`^${source}/?$`)
    const existing = routes.find(r => r.matcher.source === matcher.source)
    if (existing) for (const m of methods) existing.methods.add(m)
    else routes.push({ matcher, methods: new Set(methods) })
  })

  /** 405 with Allow when the path takes other methods, else 404. */
  const notFound = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = routedPath(request.url)
    const allowed = new Set<string>()
    for (const r of routes) if (r.matcher.test(path)) for (const m of r.methods) allowed.add(m)
    // a route that takes this method and found nothing (a missing file under a static prefix) is a 404
    if (allowed.size > 0 && !allowed.has(request.method)) {
      return sendProblem(request, reply, 405, `${request.method} is not allowed on ${path}; allowed: ${[...allowed].sort().join(', ')}`,
        { headers: { allow: [...allowed].sort().join(', ') } })
    }
    return sendProblem(request, reply, 404, `No route ${request.method} ${path}. The API is described at /docs.`)
  }
  app.setNotFoundHandler(notFound)

  app.setErrorHandler((error: FastifyError | ServiceError | Error, request, reply) => {
    if (error instanceof ClientClosedError) {
      request.log.info('client closed the connection before its answer')
      // 499 (as nginx logs it): there is no one to send it to
      return reply.code(499).send()
    }
    // the client's doing, not a failure: no error, no stack
    if (abandonedUpload(error, request)) {
      request.log.info({ bytes_expected: request.headers['content-length'] }, 'client closed the connection while sending its body')
      return reply.code(499).send()
    }
    // a request no route takes whose body could not be read (a QUERY without Content-Type, which
    // Fastify refuses before the not-found handler, a media type nothing parses, malformed JSON):
    // what is wrong is the method or the path, not the body
    if (request.is404 && REFUSED_BODY.has(statusOf(error))) return notFound(request, reply)
    if (error instanceof ServiceError) {
      // nothing configured to serve this is the service's expected answer, not a failure: no stack
      if (error instanceof NothingConfiguredError) request.log.info({ status: error.status, capability: error.capability, detail: error.message }, 'not configured to serve this')
      else if (error.status >= 500) request.log.warn({ err: error }, 'request failed')
      const first = error.errors?.[0]
      const message = error instanceof ValidationError && error.aboutField && first !== undefined
        ? `${pointerOf(first.path) || '/'}: ${error.message}`
        : error.message
      const hint = settingHint(error)
      // the hint is a sentence of its own, after an engine's words too ("deepl: failed 5 calls in a row ...")
      const detail = hint !== '' && !/[.!?]$/.test(message) ? `${message}.${hint}` : message + hint
      return sendProblem(request, reply, error.status, detail, {
        code: error.code,
        title: error.title,
        ...(error.errors ? { errors: located(request, error.errors) } : {}),
        ...(error.headers ? { headers: error.headers } : {})
      })
    }
    const fe = error as FastifyError & { validation?: AjvError[], validationContext?: string }
    if (fe.validation) {
      const errors = fieldProblems(fe.validation, fe.validationContext, request.routeOptions.url?.startsWith('/language/') === true ? LIST_LIMITS : {})
      const first = errors[0]
      const detail = first
        ? `${first.pointer || '/'} ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`
        : 'The request does not match the schema.'
      return sendProblem(request, reply, 400, detail, { errors })
    }
    const status = typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 600 ? fe.statusCode : 500
    if (status >= 500) {
      request.log.error({ err: error }, 'unexpected error')
      return sendProblem(request, reply, 500, 'An unexpected error occurred. It has been logged with this request id.')
    }
    return sendProblem(request, reply, status, clientMessage(fe, status, request.routeOptions.url === '/oauth/token'))
  })
}

/** Statuses of a body refused before any route ran: the not-found handler answers those instead. */
const REFUSED_BODY = new Set([400, 413, 415])

/** The status an error would be answered with (500 when it names none). */
function statusOf (error: Error): number {
  if (error instanceof ServiceError) return error.status
  const status = (error as { statusCode?: unknown }).statusCode
  return typeof status === 'number' ? status : 500
}

/**
 * Fastify's `frameworkErrors`: URLs the router refuses before any hook runs (a percent-escape that
 * is not UTF-8, a path parameter past maxParamLength), answered as problems like every other error.
 */
export function frameworkError (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // no onRequest hook has run: the request id header is set here
  reply.header('x-request-id', request.id)
  const detail = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? 'A path parameter of the URL is too long.'
    : error.code === 'FST_ERR_BAD_URL'
      ? 'The URL is not valid: a percent-escape in its path does not decode to UTF-8.'
      : 'The URL is not valid.'
  return sendProblem(request, reply, 400, detail)
}

/**
 * Fastify's `clientErrorHandler`: HTTP the server cannot parse (headers over the size limit, a
 * malformed request line, a request that did not arrive in time) is answered by Node before any
 * route exists, still as a problem; the id is a new one. Its `instance` is the path of a request
 * whose body did not arrive in time, else "/": the request line of the others is not known.
 */
export function clientError (error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
  const [status, detail] = timedOut
    ? [408, `The request did not arrive in time. The time it may take is set by ${s('REQUEST_TIMEOUT_MS')}.`]
    : error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are larger than the server accepts.']
      : [400, 'The request is not valid HTTP.']
  // Node's parser holds the request being read (its headers were, its body not yet); a complete one is an earlier request of the connection
  const reading = (socket as Duplex & { parser?: { incoming?: { url?: string, complete?: boolean } | null } }).parser?.incoming
  const instance = timedOut && reading?.complete === false && reading.url !== undefined ? routedPath(reading.url) : '/'
  const id = randomUUID()
  const body = JSON.stringify(problemBody(status, detail, instance, id))
  // not into the middle of an answer already on its way (a pipelined request after it), as Node's own handler
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  // nor after the answer a refused body already had (its rest was being read when the time ran out)
  if (socket.writable && answering?.headersSent !== true && !answeredWhileReading(socket)) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`)
  }
  socket.destroy(error)
}

/** The settings that switch the outside translation engines on. */
const OUTSIDE_TRANSLATORS = `outside engines are switched on by ${s('DEEPL_API_KEY')}, ${s('GOOGLE_CLOUD_API_KEY')}, ${s('GOOGLE_TRANSLATE_ENABLED')}, ${s('OPENAI_MODEL')} (with ${s('OPENAI_BASE_URL')} or ${s('OPENAI_API_KEY')}) or ${s('LIBRETRANSLATE_URL')}.`
/** The settings an operator changes for errors that depend on configuration (core does not know their names). */
const SETTINGS: Record<NothingConfiguredError['capability'], string> = {
  translation: ` The embedded Apertium engine needs its Debian packages (make run installs them); ${OUTSIDE_TRANSLATORS}`,
  detection: ' The embedded detector loads at start; /ready says when it is loaded.',
  editing: ` Generative edits need a model: set ${s('OPENAI_BASE_URL')} and ${s('OPENAI_MODEL')} (and ${s('OPENAI_API_KEY')} for OpenAI itself).`,
  analysis: ` A model analyses every language: set ${s('OPENAI_BASE_URL')} and ${s('OPENAI_MODEL')} (and ${s('OPENAI_API_KEY')} for OpenAI itself); or configure an engine that translates the language into English (${s('DEEPL_API_KEY')}, ${s('GOOGLE_CLOUD_API_KEY')}, ${s('GOOGLE_TRANSLATE_ENABLED')}, ${s('LIBRETRANSLATE_URL')}, or the Apertium pair).`
}

function settingHint (error: ServiceError): string {
  if (error instanceof TextLimitError) return ` The limit is set by ${s('MAX_TEXT_CHARS')}.`
  if (error instanceof NothingConfiguredError) {
    // an Apertium that could not start is a setting to check, not packages to install (a probe's APERTIUM_DIR=/nonexistent)
    const modes = error.failures.find((failure): failure is ApertiumModesError => failure instanceof ApertiumModesError)
    if (error.capability === 'translation' && modes !== undefined) {
      return ` The embedded Apertium engine cannot start: its modes folder ${modes.modesDir} ${modes.problem}; check ${s('APERTIUM_DIR')} (the folder its Debian packages install into, /usr/share/apertium: make run installs them); ${OUTSIDE_TRANSLATORS}`
    }
    return SETTINGS[error.capability]
  }
  if (error instanceof DocumentsBusyError) return ` The wait is set by ${s('DOCUMENT_QUEUE_TIMEOUT_MS')}.`
  if (error instanceof RequestDeadlineError) return ` The deadline is set by ${s('HANDLER_TIMEOUT_MS')}; keep it above ${s('UPSTREAM_TIMEOUT_MS')}, an engine call's, so that a slow engine is answered as its own timeout.`
  if (causes(error).some(e => e instanceof EngineBusyError && e.service === 'apertium')) {
    return ` The number of pipelines is set by ${s('APERTIUM_MAX_PIPELINES')} (each takes 15 MB to ~1 GB, by language pair), and their memory by ${s('APERTIUM_MAX_MEMORY_MB')} when set.`
  }
  if (causes(error).some(e => e instanceof CircuitOpenError)) {
    return ` How many failed calls in a row skip a service is set by ${s('BREAKER_FAILURES')}, and for how long by ${s('BREAKER_COOLDOWN_MS')}.`
  }
  return ''
}

/** The error and its causes, outermost first. */
function causes (error: unknown): unknown[] {
  const chain: unknown[] = []
  for (let e = error; e instanceof Error && chain.length < 10; e = e.cause) chain.push(e)
  return chain
}

/** A safe, useful message for Fastify's own 4xx errors (body parsing, media type, size). */
function clientMessage (error: FastifyError, status: number, tokenEndpoint: boolean): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // the token endpoint takes forms too (RFC 6749 clients send them)
      return tokenEndpoint ? 'Content-Type must be application/x-www-form-urlencoded or application/json.' : 'Content-Type must be application/json.'
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tokenEndpoint ? 'The request body is larger than the token endpoint takes (16 KiB).' : `The request body is larger than the configured limit (${s('BODY_LIMIT')}).`
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty; a JSON object is expected.'
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      // the parser also refuses prototype-poisoning keys, and says no more than this
      return 'The request body is not valid JSON (or holds a "__proto__" key, which is refused).'
    default:
      if (error instanceof SyntaxError) return `The request body is not valid JSON: ${error.message}`
      return status === 413 ? 'The request body is too large.' : (error.message || (TITLES[status] ?? 'Error'))
  }
}

export default fp(problemPlugin, { name: 'problem' })
