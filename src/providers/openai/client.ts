/**
 * The one OpenAI-compatible chat client of the process (translate, edit and analyze share it):
 * one structured call per batch as API.md "The LLM protocol" fixes it, run through one
 * RemoteService so every call shares the slots, the breaker, the retries and the deadline.
 *
 * `response_format` as servers take it (why the json_object fallback exists):
 * - OpenAI: `json_schema` with `strict: true` (Structured Outputs); `json_object` too.
 * - Ollama (`/v1` OpenAI-compatible endpoint): `json_schema` since 0.5 (mapped to its `format`
 *   schema); older versions only honour `json_object` and ignore other types, so their answer
 *   may be free text, which the content check catches.
 * - llama.cpp server: `json_schema` and `json_object` (optionally with a `schema`), both turned
 *   into a grammar; `strict` is ignored.
 * - vLLM: `json_schema` through guided decoding (structured outputs); `json_object` too.
 * - Others (LM Studio, proxies, older servers) may answer 400 to `json_schema`: then the same
 *   request is sent once with `{"type":"json_object"}`, and once that works the process keeps
 *   using `json_object` with that server. The instructions always describe the JSON answer,
 *   so `json_object` (which OpenAI only accepts when a message says "JSON") works everywhere.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import { UpstreamError } from '../../errors.js'
import { RemoteService, createRedactor, statusError, type Redactor, type RemoteOptions } from '../remote/index.js'

/** Service name in errors, metrics and `options.service`. */
export const OPENAI_SERVICE = 'openai'

/** What `check` throws when an answer is unusable; its message says what is wrong, never what was sent. */
export class CheckError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'CheckError'
  }
}

export interface LlmClientOptions {
  /** Base URL including the version path, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseUrl: string
  /** Absent for local servers that take no key. */
  apiKey?: string
  model: string
  remote: Omit<RemoteOptions, 'service'>
}

/** One structured chat call: instructions, a JSON payload, the JSON schema of the answer and its checker. */
export interface StructuredCall<T> {
  system: string
  payload: Record<string, unknown>
  /** response_format json_schema name: a-z, A-Z, 0-9, `_` and `-`, at most 64. */
  schemaName: string
  schema: Record<string, unknown>
  temperature: number
  /** Returns the typed answer or throws a CheckError describing what is wrong. */
  check: (json: unknown) => T
}

export interface LlmClient {
  readonly remote: RemoteService
  readonly model: string
  /**
   * One structured call per API.md: json_schema strict, one json_object retry on a 400 refusing
   * it, one retry of an answer that is not JSON or fails `check`, then a non-retryable
   * UpstreamError. All of it inside one RemoteService call, so UPSTREAM_TIMEOUT_MS bounds it.
   */
  complete: <T>(call: StructuredCall<T>, signal: AbortSignal) => Promise<T>
}

type ResponseFormat = NonNullable<OpenAI.ChatCompletionCreateParamsNonStreaming['response_format']>

/** Local servers need no key, but the SDK insists on one. */
const NO_KEY = 'not-needed'
/** Answers checked per call: the first and one retry. */
const CONTENT_TRIES = 2

export function createLlmClient (options: LlmClientOptions): LlmClient {
  const remote = new RemoteService({ ...options.remote, service: OPENAI_SERVICE })
  const key = options.apiKey !== undefined && options.apiKey !== '' ? options.apiKey : undefined
  const sdk = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: key ?? NO_KEY,
    // retries, backoff and the deadline are RemoteService's; the SDK's own would multiply them
    maxRetries: 0,
    timeout: options.remote.timeoutMs,
    // the SDK's debug log prints requests; nothing of a request is logged here
    logLevel: 'off'
  })
  // set once a server answered 400 to json_schema and accepted json_object: ask it json_object from then on
  let jsonSchemaRefused = false
  // servers quote a key they refuse, as it is, base64-encoded or spaced out: never logged as it is
  const redactor = createRedactor([key])

  async function send (call: StructuredCall<unknown>, format: ResponseFormat, signal: AbortSignal): Promise<unknown> {
    return await sdk.chat.completions.create({
      model: options.model,
      temperature: call.temperature,
      messages: [
        { role: 'system', content: call.system },
        { role: 'user', content: JSON.stringify(call.payload) }
      ],
      response_format: format
    }, { signal })
  }

  /** One completion, falling back to json_object when the server refuses json_schema. */
  async function chat (call: StructuredCall<unknown>, signal: AbortSignal): Promise<unknown> {
    const texts = clientTexts(call.payload)
    const mapped = (err: unknown): unknown => mapError(err, redactor, texts)
    if (jsonSchemaRefused) return await send(call, { type: 'json_object' }, signal).catch(err => { throw mapped(err) })
    const schemaFormat: ResponseFormat = {
      type: 'json_schema',
      json_schema: { name: call.schemaName, strict: true, schema: call.schema }
    }
    try {
      return await send(call, schemaFormat, signal)
    } catch (err) {
      // any 400/422 qualifies: servers word the refusal differently, and a request that is bad for
      // another reason fails the json_object retry as well, so nothing is remembered then
      if (!(err instanceof APIError) || (err.status !== 400 && err.status !== 422)) throw mapped(err)
    }
    const answer = await send(call, { type: 'json_object' }, signal).catch(err => { throw mapped(err) })
    jsonSchemaRefused = true
    return answer
  }

  return {
    remote,
    model: options.model,
    async complete<T>(call: StructuredCall<T>, signal: AbortSignal): Promise<T> {
      // counted outside the attempt: a 5xx retry by RemoteService does not buy another bad answer
      let badAnswers = 0
      return await remote.call(async attemptSignal => {
        for (;;) {
          const completion = await chat(call, attemptSignal)
          try {
            return call.check(contentJson(completion))
          } catch (err) {
            if (!(err instanceof CheckError)) throw err
            badAnswers++
            // CheckError messages are our own words about the answer, never its content
            if (badAnswers >= CONTENT_TRIES) throw new UpstreamError(OPENAI_SERVICE, `${err.message} (after ${CONTENT_TRIES} tries)`)
          }
        }
      }, signal)
    }
  }
}

/** The message content of a chat.completion parsed as JSON; CheckError when there is none or it is not JSON. */
function contentJson (completion: unknown): unknown {
  const choices = (completion as { choices?: unknown } | null)?.choices
  if (!Array.isArray(choices) || choices.length === 0) throw new CheckError('answered no choices')
  const choice = choices[0] as { message?: { content?: unknown, refusal?: unknown }, finish_reason?: unknown } | null
  const message = choice?.message
  // the refusal text may quote the request: only its presence is reported
  if (typeof message?.refusal === 'string' && message.refusal !== '') throw new CheckError('refused to answer')
  if (choice?.finish_reason === 'length') throw new CheckError('answer was cut off (finish_reason "length")')
  if (typeof message?.content !== 'string' || message.content.trim() === '') throw new CheckError('answered no content')
  try {
    return JSON.parse(unfence(message.content))
  } catch {
    throw new CheckError('answered content that is not JSON')
  }
}

/** Drops a Markdown code fence some models put around JSON even in JSON mode. */
function unfence (text: string): string {
  const m = /^\s*```[a-z]*\s*\n([\s\S]*?)\n?\s*```\s*$/i.exec(text)
  return m ? m[1]! : text
}

/** The client's texts in a payload (every string in it but the task's name), replaced in what is logged of an error. */
function clientTexts (payload: Record<string, unknown>): string[] {
  const texts: string[] = []
  const walk = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value)
    else if (Array.isArray(value)) value.forEach(walk)
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk)
  }
  for (const [name, value] of Object.entries(payload)) if (name !== 'task') walk(value)
  return texts
}

/**
 * SDK errors as the typed errors RemoteService understands: 429 and 5xx retryable (with
 * Retry-After), a dropped connection retryable, anything else final. The client is told the status
 * in our words; the server's own error (its body) goes to `engineMessage`, redacted, for the log.
 */
function mapError (err: unknown, redactor: Redactor, texts: readonly string[]): unknown {
  // RemoteService sees its signal aborted and reports the timeout or the caller's reason
  if (err instanceof APIUserAbortError) return err
  if (err instanceof APIConnectionTimeoutError) {
    return new UpstreamError(OPENAI_SERVICE, 'did not answer in time', undefined, { retryable: true })
  }
  if (err instanceof APIConnectionError) {
    const cause = err.cause as { code?: string, cause?: { code?: string } } | undefined
    const code = cause?.cause?.code ?? cause?.code
    return new UpstreamError(OPENAI_SERVICE, `connection failed${code === undefined ? '' : ` (${code})`}`, undefined, { retryable: true })
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    // the body's `error` when it was JSON with one; else the SDK's message holds the raw body after the status
    const body = err.error !== undefined ? JSON.stringify(err.error) : err.message.replace(/^\d{3} /, '')
    return statusError(OPENAI_SERVICE, err.status, redactor.engineMessage(body, texts), err.headers?.get('retry-after'))
  }
  return err
}
