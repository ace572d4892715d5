/**
 * The one OpenAI-compatible chat client of the process (translate, edit and analyze share it):
 * one structured call per batch (the LLM protocol, docs/engines.md "openai"), run through one
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
 *
 * What a model answers is not trusted for size or for characters (SECURITY.md "Limits"): every call
 * asks `max_tokens` in proportion to the question, reads at most a few bytes per token asked (a
 * server that ignores `max_tokens` is cut off there), and refuses characters the question did not
 * hold that make text read otherwise than it is stored (NUL, bidi controls, lone surrogates).
 */
import type OpenAI from 'openai'
import type * as OpenAiSdk from 'openai'
import { lazyPackage } from '../../lib/lazy-package.js'
import { UpstreamError } from '../../errors.js'
import { RemoteService, createRedactor, statusError, type Redactor, type RemoteOptions } from '../../upstream/index.js'

/** The SDK, loaded when a client is made (a process with no OpenAI engine never holds it). */
const openAiSdk = lazyPackage<typeof OpenAiSdk>('openai')

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
  /** The most `max_tokens` a call asks: the model's output limit (OPENAI_MAX_TOKENS; MAX_ANSWER_TOKENS by default). */
  maxTokens?: number
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
  /** The most `max_tokens` a call asks (batches are sized so that their answers fit it). */
  readonly maxTokens: number
  /**
   * One structured call: json_schema strict, one json_object retry on a 400 refusing
   * it, one retry of an answer that is not JSON or fails `check`, then a non-retryable
   * UpstreamError. All of it inside one RemoteService call, so UPSTREAM_TIMEOUT_MS bounds it.
   */
  complete: <T>(call: StructuredCall<T>, signal: AbortSignal) => Promise<T>
}

/** What every try of one call sends and checks against. */
interface Question {
  /** The user message: the payload as JSON. */
  user: string
  maxTokens: number
  /** The client's texts in the payload (see clientTexts). */
  texts: string[]
}

type ResponseFormat = NonNullable<OpenAI.ChatCompletionCreateParamsNonStreaming['response_format']>

/** Local servers need no key, but the SDK insists on one. */
const NO_KEY = 'not-needed'
/** Answers checked per call: the first and one retry. */
const CONTENT_TRIES = 2

/** Tokens asked of any answer, however short the question: the JSON around it and analyze's fixed parts (16 moderation scores). */
const MIN_ANSWER_TOKENS = 1_024
/**
 * Tokens asked per byte of the question. A byte-level BPE token holds at least one byte, so a
 * question's bytes are at least its tokens (about 4 per token in English, 1.5 to 3 in other
 * scripts): 2 per byte is several times the question's tokens, room for a target script that takes
 * more tokens than the source, an edit that expands and the JSON escaping.
 */
const ANSWER_TOKENS_PER_BYTE = 2
/**
 * The most asked of one answer by default: the output limit of gpt-4o and gpt-4o-mini. OpenAI
 * answers 400 to more than a model's own limit, so a model with a lower one (gpt-4-turbo: 4,096)
 * needs OPENAI_MAX_TOKENS.
 */
export const MAX_ANSWER_TOKENS = 16_384
/** Bytes of an answer around its content: id, model, usage, finish_reason and what servers add. */
const ENVELOPE_BYTES = 16 * 1024
/**
 * Bytes read per token asked: a token is a few bytes of text, written at most 6 bytes a character
 * as a JSON escape (servers that escape non-ASCII), twice escaped (a JSON answer inside a JSON string).
 */
const BYTES_PER_TOKEN = 32

/** The `max_tokens` of a call whose user message is `question`, at most `cap`. */
export function answerTokens (question: string, cap = MAX_ANSWER_TOKENS): number {
  return Math.min(cap, MIN_ANSWER_TOKENS + ANSWER_TOKENS_PER_BYTE * Buffer.byteLength(question))
}

/**
 * Characters of text one call may carry so that its answer fits `maxTokens`: after the answer's
 * fixed part, 3/4 of a character a token (CJK takes about one token a character, sometimes more;
 * Latin scripts a quarter of that).
 */
export function charsForTokens (maxTokens: number): number {
  return Math.max(256, Math.floor((maxTokens - MIN_ANSWER_TOKENS) * 3 / 4))
}

/** The bytes read of an answer to a call asking `maxTokens` at most (its error answers included). */
export function answerBytes (maxTokens: number): number {
  return ENVELOPE_BYTES + BYTES_PER_TOKEN * maxTokens
}

/** The key of `fetchOptions` under which a call tells `boundedFetch` how many bytes its answer may take. */
const ANSWER_LIMIT = Symbol('answer bytes')
type BoundedInit = RequestInit & { [ANSWER_LIMIT]?: number }
/** The SDK's per-request fetch options (which it spreads into the RequestInit it gives `fetch`). */
type FetchOptions = NonNullable<NonNullable<Parameters<OpenAI['chat']['completions']['create']>[1]>['fetchOptions']>

/**
 * fetch with the answer's body cut off at the call's limit (or at the largest call's, should the
 * SDK not pass the option on): reading past it aborts the connection and fails with our words, so
 * a server that ignores `max_tokens` costs a bounded read, never a 60 MB parse on the event loop.
 * The error surfaces where the SDK reads the body: thrown as it is from a 2xx answer, as the
 * message of its APIError from another (logged only).
 */
async function boundedFetch (url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const { [ANSWER_LIMIT]: limit = answerBytes(MAX_ANSWER_TOKENS), ...rest } = (init ?? {}) as BoundedInit
  const response = await fetch(url, rest)
  if (response.body === null) return response
  const declared = Number(response.headers.get('content-length') ?? 0)
  let read = 0
  const bounded = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
    // a declared length over the limit is refused before a byte is read
    start: controller => { if (declared > limit) controller.error(tooLarge(limit)) },
    transform: (chunk, controller) => {
      read += chunk.byteLength
      // erroring the stream cancels the source: the connection is dropped, the rest never read
      if (read > limit) controller.error(tooLarge(limit))
      else controller.enqueue(chunk)
    }
  }))
  return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers })
}

function tooLarge (limit: number): UpstreamError {
  return new UpstreamError(OPENAI_SERVICE, `answered more than ${limit} bytes (the answer was not read)`)
}

/**
 * Characters an answer may hold only where the question held them: NUL (ends a string in C code and
 * in many logs), the bidi embeddings, overrides and isolates U+202A-202E and U+2066-2069 (text
 * displayed in another order than it is stored: "Trojan Source"), and lone surrogates (no text at
 * all: encoders replace or refuse them). A faithful answer has no reason to add one; the bidi
 * marks U+200E/U+200F, which reorder nothing, stay allowed.
 */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters looked for
const STRANGERS = /[\u0000\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** The strangers written in `texts`, each once. */
function strangersIn (texts: readonly string[]): Set<string> {
  const found = new Set<string>()
  for (const text of texts) for (const m of text.matchAll(STRANGERS)) found.add(m[0])
  return found
}

/** CheckError when a string of the checked answer holds a stranger the question did not. */
function refuseStrangers (answer: unknown, allowed: ReadonlySet<string>): void {
  for (const text of strings(answer)) {
    for (const m of text.matchAll(STRANGERS)) {
      if (allowed.has(m[0])) continue
      const code = `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
      const what = m[0] >= '\uD800' && m[0] <= '\uDFFF' ? `a lone surrogate (${code})` : code
      throw new CheckError(`answered ${what}, which the text did not hold`)
    }
  }
}

export function createLlmClient (options: LlmClientOptions): LlmClient {
  const cap = options.maxTokens ?? MAX_ANSWER_TOKENS
  const remote = new RemoteService({ ...options.remote, service: OPENAI_SERVICE })
  const key = options.apiKey !== undefined && options.apiKey !== '' ? options.apiKey : undefined
  const sdk = new (openAiSdk().OpenAI)({
    baseURL: options.baseUrl,
    apiKey: key ?? NO_KEY,
    // retries, backoff and the deadline are RemoteService's; the SDK's own would multiply them
    maxRetries: 0,
    timeout: options.remote.timeoutMs,
    // the SDK's debug log prints requests; nothing of a request is logged here
    logLevel: 'off',
    fetch: boundedFetch
  })
  // set once a server answered 400 to json_schema and accepted json_object: ask it json_object from then on
  let jsonSchemaRefused = false
  // servers quote a key they refuse, as it is, base64-encoded or spaced out: never logged as it is
  const redactor = createRedactor([key])

  async function send (call: StructuredCall<unknown>, question: Question, format: ResponseFormat, signal: AbortSignal): Promise<unknown> {
    const fetchOptions = { [ANSWER_LIMIT]: answerBytes(question.maxTokens) } as FetchOptions
    return await sdk.chat.completions.create({
      model: options.model,
      temperature: call.temperature,
      // max_tokens rather than max_completion_tokens: the one every OpenAI-compatible server takes
      max_tokens: question.maxTokens,
      messages: [
        { role: 'system', content: call.system },
        { role: 'user', content: question.user }
      ],
      response_format: format
    }, { signal, fetchOptions })
  }

  /** One completion, falling back to json_object when the server refuses json_schema. */
  async function chat (call: StructuredCall<unknown>, question: Question, signal: AbortSignal): Promise<unknown> {
    const mapped = (err: unknown): unknown => mapError(err, redactor, question.texts)
    if (jsonSchemaRefused) return await send(call, question, { type: 'json_object' }, signal).catch(err => { throw mapped(err) })
    const schemaFormat: ResponseFormat = {
      type: 'json_schema',
      json_schema: { name: call.schemaName, strict: true, schema: call.schema }
    }
    try {
      return await send(call, question, schemaFormat, signal)
    } catch (err) {
      // any 400/422 qualifies: servers word the refusal differently, and a request that is bad for
      // another reason fails the json_object retry as well, so nothing is remembered then
      if (!(err instanceof openAiSdk().APIError) || (err.status !== 400 && err.status !== 422)) throw mapped(err)
    }
    const answer = await send(call, question, { type: 'json_object' }, signal).catch(err => { throw mapped(err) })
    jsonSchemaRefused = true
    return answer
  }

  return {
    remote,
    model: options.model,
    maxTokens: cap,
    async complete<T>(call: StructuredCall<T>, signal: AbortSignal): Promise<T> {
      // counted outside the attempt: a 5xx retry by RemoteService does not buy another bad answer
      let badAnswers = 0
      const user = JSON.stringify(call.payload)
      const texts = clientTexts(call.payload)
      const question: Question = { user, maxTokens: answerTokens(user, cap), texts }
      const allowed = strangersIn(texts)
      return await remote.call(async attemptSignal => {
        for (;;) {
          const completion = await chat(call, question, attemptSignal)
          try {
            // the checked answer: entities a tagged segment wrote as &#x202E; are characters by then
            const answer = call.check(contentJson(completion))
            refuseStrangers(answer, allowed)
            return answer
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
  return Object.entries(payload).flatMap(([name, value]) => name === 'task' ? [] : strings(value))
}

/** Every string value in a JSON-like value, however deep. */
function strings (value: unknown): string[] {
  const out: string[] = []
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v)
    else if (Array.isArray(v)) v.forEach(walk)
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk)
  }
  walk(value)
  return out
}

/**
 * SDK errors as the typed errors RemoteService understands: 429 and 5xx retryable (with
 * Retry-After), a dropped connection retryable, anything else final. The client is told the status
 * in our words; the server's own error (its body) goes to `engineMessage`, redacted, for the log.
 */
function mapError (err: unknown, redactor: Redactor, texts: readonly string[]): unknown {
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = openAiSdk()
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
