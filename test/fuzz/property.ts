/**
 * The fuzzing property: every answer is a 2xx whose body matches the OpenAPI document's response
 * schema, or a 4xx problem+json (RFC 6749 errors on the token endpoint, a drop-in API's own shape
 * as its operation declares it: DeepL's {message}); never a 5xx, except a
 * 503 whose detail names the setting that enables the capability (or that bounds how long a request
 * may wait for the document threads, DOCUMENT_QUEUE_TIMEOUT_MS; a drop-in API says it is busy in
 * its own words); never past the time limit.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import formats from 'ajv-formats'
import type { FuzzCase } from './arbitraries.js'
import { resolveRefs, type JsonSchema, type OpenApiDocument, type OpenApiOperation } from './schema-arbitrary.js'

/** What came back for one case. */
export interface Answer {
  status: number
  contentType: string
  text: string
  /** Milliseconds from sending to the whole body read. */
  ms: number
}

/** The service's default BODY_LIMIT (bytes) and Node's header size limit (the URL is part of it). */
export const BODY_LIMIT_BYTES = 1024 * 1024
export const HEADER_LIMIT_BYTES = 16 * 1024

/**
 * Whether the server may answer `c` (413, 431) and close the connection before reading all of it:
 * the client then sees its own write fail (EPIPE, ECONNRESET), which is no fault of the service.
 */
export function oversized (c: FuzzCase): boolean {
  return c.url.length > HEADER_LIMIT_BYTES || (c.body !== undefined && Buffer.byteLength(c.body) > BODY_LIMIT_BYTES)
}

/** Sends `c` to `base`, with the bearer token on /language routes; rejects after `timeoutMs` (a hang). */
export async function send (base: string, token: string, c: FuzzCase, timeoutMs: number): Promise<Answer> {
  const headers = { ...c.headers }
  if (c.url.startsWith('/language/')) headers['authorization'] = `Bearer ${token}`
  const started = performance.now()
  const init: RequestInit = { method: c.method, headers, signal: AbortSignal.timeout(timeoutMs) }
  if (c.body !== undefined) init.body = c.body
  try {
    const res = await fetch(base + c.url, init)
    const text = await res.text()
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, ms: performance.now() - started }
  } catch (err) {
    const e = err as Error
    if (e.name === 'TimeoutError') throw new Error(`no answer within ${timeoutMs} ms (${c.endpoint})`)
    // refused before it was read in full: the answer (if any) was lost with the connection
    if (oversized(c)) return { status: 0, contentType: '', text: '', ms: performance.now() - started }
    throw new Error(`${c.endpoint}: the request failed (${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''})`)
  }
}

/** An environment variable's name: how a 503 says which setting enables what is missing. */
const SETTING_NAME = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/
/** A drop-in API's 503 for a busy service (its clients get the original API's words, without our settings): the threads or the deadline. */
const BUSY = /^The service's threads are busy with other clients' heavy work|^The service did not finish this request within/

/** Checks answers against the operations of one OpenAPI document. */
export class AnswerChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true })
  private readonly validators = new Map<string, ValidateFunction>()
  private readonly problem: ValidateFunction

  constructor (private readonly document: OpenApiDocument) {
    formats.default(this.ajv)
    const problem = document.components?.schemas?.['Problem']
    if (problem === undefined) throw new Error('the OpenAPI document has no Problem schema')
    this.problem = this.ajv.compile(resolveRefs(problem, document) as JsonSchema)
  }

  /** The validator of the response schema an operation declares for a status (undefined when it declares none). */
  private responseValidator (endpoint: string, status: number): ValidateFunction | undefined {
    const key = `${endpoint} ${status}`
    if (this.validators.has(key)) return this.validators.get(key)
    const [method, path] = endpoint.split(' ') as [string, string]
    const operation = this.document.paths[path]?.[method.toLowerCase()] as OpenApiOperation | undefined
    const schema = operation?.responses[String(status)]?.content?.['application/json']?.schema
    if (schema === undefined) return undefined
    const validate = this.ajv.compile(resolveRefs(schema, this.document) as JsonSchema)
    this.validators.set(key, validate)
    return validate
  }

  /** What is wrong with `answer` to `c`, or undefined when it holds the property. */
  check (c: FuzzCase, answer: Answer): string | undefined {
    const { status, contentType, text } = answer
    if (status === 0) return oversized(c) ? undefined : 'the connection closed without an answer'
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      return `${status} with a body that is not JSON: ${text.slice(0, 200)}`
    }
    const declared = this.responseValidator(c.endpoint, status)
    const schemaErrors = (validate: ValidateFunction): string =>
      (validate.errors ?? []).slice(0, 3).map(e => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join('; ')

    if (status >= 200 && status < 300) {
      if (!contentType.startsWith('application/json')) return `${status} with content-type "${contentType}"`
      if (declared === undefined) return `${status} is not a status the operation declares`
      if (!declared(body)) return `${status} body does not match its response schema: ${schemaErrors(declared)}`
      return undefined
    }

    // RFC 6749 §5.2: the token endpoint's own 400 and 401 are { error, error_description }, not problems (its 413, 415, 429 and 503 are)
    if (c.endpoint === 'POST /oauth/token' && status >= 400 && status < 500 && !contentType.startsWith('application/problem+json')) {
      const oauth = declared ?? this.responseValidator(c.endpoint, 400)
      if (!contentType.startsWith('application/json')) return `${status} with content-type "${contentType}"`
      if (oauth === undefined || !oauth(body)) return `${status} is not an RFC 6749 error: ${oauth ? schemaErrors(oauth) : 'no schema'}`
      return undefined
    }

    // a drop-in API's errors are its own shape (DeepL's {message}), as its operation declares them
    if (!c.url.startsWith('/language/') && !c.url.startsWith('/oauth/') && !contentType.startsWith('application/problem+json')) {
      if (!contentType.startsWith('application/json')) return `${status} with content-type "${contentType}"`
      if (declared === undefined) return `${status} is not a status the operation declares`
      if (!declared(body)) return `${status} body does not match its response schema: ${schemaErrors(declared)}`
      // DeepL's {message}, LibreTranslate's {error}
      const { message, error } = (body ?? {}) as { message?: unknown, error?: unknown }
      const said = typeof message === 'string' ? message : typeof error === 'string' ? error : ''
      if (status < 500 || (status === 503 && (SETTING_NAME.test(said) || BUSY.test(said)))) return undefined
      return `${status}: ${text.slice(0, 300)}`
    }
    if (!contentType.startsWith('application/problem+json')) return `${status} with content-type "${contentType}" (a problem+json was expected)`
    if (!this.problem(body)) return `${status} problem does not match the Problem schema: ${schemaErrors(this.problem)}`
    const problem = body as { status: number, detail: string, title: string, type: string }
    if (problem.status !== status) return `${status} problem says status ${problem.status}`
    if (declared !== undefined && !declared(body)) return `${status} problem does not match its declared schema: ${schemaErrors(declared)}`
    if (status >= 400 && status < 500) return undefined
    // a capability that needs configuration (a model for tone edits), or document threads busy past the
    // request's allowance: legitimate only when the answer names the setting
    if (status === 503 && SETTING_NAME.test(problem.detail)) return undefined
    return `${status} ${problem.title}: ${problem.detail}`
  }
}
