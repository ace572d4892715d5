/** A real OpenAI-compatible chat-completions server on 127.0.0.1 that answers the tasks of the LLM protocol (docs/engines.md "openai") deterministically, with switchable failures. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { quotingPage, quotingWords, type QuoteForm } from './engine-server.js'

export type FakeBehaviour = 'ok' | 'error500' | 'rate-limit' | 'hang' | 'malformed' | 'wrong-count' | 'mangle-placeholder' | 'refuse-json-schema' | 'quote-error' |
  // analyze: moderation lists only the categories found (as models without strict schemas do), or is malformed while the other parts are fine
  'moderation-found-only' | 'moderation-malformed' |
  // a server that ignores max_tokens: `hugeBytes` of answer streamed (chunked, or with its Content-Length), or as the body of a 500
  'huge' | 'huge-declared' | 'huge-error' |
  // `stranger` written into the first segment (translate, edit) or into every entity name (analyze)
  'stranger' |
  // analyze: entities the text does not have ("Zanzibar"; "Ali", only a piece of "Alice") and an absurd count
  'invent-entities'

export interface FakeCall {
  method: string
  path: string
  /** The parsed JSON body as received: any shape may arrive, tests inspect it (typed boundary). */
  body: any
  authorization: string | undefined
}

export interface FakeLlm {
  /** Base URL including /v1, to give as OPENAI_BASE_URL. */
  url: string
  /** The key it checks ('' when started without one: then any or no key passes). */
  key: string
  model: string
  calls: FakeCall[]
  behaviour: FakeBehaviour
  /** The behaviour applies to the next N completion calls, then 'ok' ('refuse-json-schema' always applies). */
  failTimes: number
  /** How a 'quote-error' answer (a 401) quotes the key it was sent (default 'json'). */
  quoteAs: QuoteForm
  retryAfterSeconds: number
  latencyMs: number
  /** Bytes of answer a 'huge*' behaviour sends (default 60 MiB, as the issue saw). */
  hugeBytes: number
  /** Bytes of the last 'huge*' answer actually written before the client went away. */
  hugeSent: number
  /** What 'stranger' writes into the answer (default U+202E RIGHT-TO-LEFT OVERRIDE). */
  stranger: string
  /** Completion calls only (POST /v1/chat/completions). */
  completions: () => FakeCall[]
  /** Back to 'ok', Infinity, no calls, no latency. */
  reset: () => void
  /** Closes the server and destroys open sockets (a hanging answer included). */
  close: () => Promise<void>
}

/** A task's answer object (the message content, before JSON.stringify), from the user message's payload. */
type TaskHandler = (payload: Record<string, unknown>) => Record<string, unknown>

/** Markup and entities pass through; only the text between them is changed. */
const TAG_OR_ENTITY = /(<[^>]*>|&#?[a-zA-Z0-9]+;)/

/** Applies `change` to the text between tags and entities of every segment. */
function textPieces (payload: Record<string, unknown>, change: (text: string) => string): Record<string, unknown> {
  const segments = Array.isArray(payload['segments']) ? payload['segments'] : []
  return { segments: segments.map(s => String(s).split(TAG_OR_ENTITY).map((piece, i) => i % 2 === 1 ? piece : change(piece)).join('')) }
}

/** The 16 moderation categories the API answers (docs/api.md "Analyze"), in order. */
const MODERATION = ['Toxic', 'Derogatory', 'Violent', 'Sexual', 'Insult', 'Profanity', 'Death Harm & Tragedy', 'Firearms & Weapons',
  'Public Safety', 'Health', 'Religion & Belief', 'Illicit Drugs', 'War & Conflict', 'Politics', 'Finance', 'Legal']

/** How often `word` is written in `text`, as a whole word, any case. */
const count = (text: string, word: string): number => text.toLowerCase().split(/[^\p{L}]+/u).filter(w => w === word).length

/** One handler per `task`. An unknown task is a 400. Answers are computed from the payload, so tests can tell them from the offline ones. */
const TASKS: Record<string, TaskHandler> = {
  // upper case: visibly translated, tags and entities untouched
  translate: (payload) => textPieces(payload, text => text.toUpperCase()),
  // "good" -> "excellent", "bad" -> "poor": a visible edit whatever the edits asked
  edit: (payload) => textPieces(payload, text => text.replace(/\bgood\b/g, 'excellent').replace(/\bbad\b/g, 'poor')),
  analyze: (payload) => {
    const text = String(payload['text'])
    const asked = Array.isArray(payload['analyses']) ? payload['analyses'].map(String) : []
    const answer: Record<string, unknown> = {}
    if (asked.includes('sentiment')) {
      const score = Math.max(-1, Math.min(1, (count(text, 'good') - count(text, 'bad')) * 0.6))
      answer['sentiment'] = { score, magnitude: Math.abs(score) * 1.5 }
    }
    if (asked.includes('entities')) {
      const names = new Map<string, number>()
      for (const m of text.matchAll(/\b[A-Z][a-z]+\b/g)) names.set(m[0], (names.get(m[0]) ?? 0) + 1)
      answer['entities'] = [...names].map(([name, mentions]) => ({ name, type: 'PERSON', mentions }))
    }
    if (asked.includes('moderation')) {
      answer['moderation'] = MODERATION.map(name => ({ name, confidence: name === 'Violent' && count(text, 'kill') > 0 ? 0.93 : 0.02 }))
    }
    if (asked.includes('categories')) {
      answer['categories'] = count(text, 'football') > 0 ? [{ name: '/Sports', confidence: 0.81 }] : []
    }
    return answer
  }
}

const HUGE_BYTES = 60 * 1024 * 1024

export async function startFakeLlm (options: { key?: string, model?: string } = {}): Promise<FakeLlm> {
  const key = options.key ?? `sk-fake-${randomBytes(12).toString('hex')}`
  const model = options.model ?? 'fake-model'
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const fake: FakeLlm = {
    url: `${base}/v1`,
    key,
    model,
    calls: [],
    behaviour: 'ok',
    failTimes: Infinity,
    quoteAs: 'json',
    retryAfterSeconds: 1,
    latencyMs: 0,
    hugeBytes: HUGE_BYTES,
    hugeSent: 0,
    stranger: '\u202e',
    completions: () => fake.calls.filter(c => c.path === '/v1/chat/completions'),
    reset () {
      fake.behaviour = 'ok'
      fake.failTimes = Infinity
      fake.quoteAs = 'json'
      fake.latencyMs = 0
      fake.retryAfterSeconds = 1
      fake.hugeBytes = HUGE_BYTES
      fake.hugeSent = 0
      fake.stranger = '\u202e'
      fake.calls.length = 0
    },
    close: () => new Promise<void>(resolve => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  }

  server.on('request', (req, res) => {
    handle(fake, req, res).catch(err => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err), type: 'server_error' } })
    })
  })
  return fake
}

async function handle (fake: FakeLlm, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const text = await readBody(req)
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = text
  }
  const path = new URL(req.url ?? '/', 'http://fake').pathname
  fake.calls.push({ method: req.method ?? 'GET', path, body, authorization: req.headers.authorization })
  if (fake.latencyMs > 0) await new Promise(resolve => setTimeout(resolve, fake.latencyMs))

  if (fake.key !== '' && req.headers.authorization !== `Bearer ${fake.key}`) {
    // like OpenAI, the 401 quotes the key it got (unmasked here, the worst case for redaction)
    const got = req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? ''
    sendJson(res, 401, { error: { message: `Incorrect API key provided: ${got}`, type: 'invalid_request_error', code: 'invalid_api_key' } })
    return
  }
  if (req.method === 'GET' && path === '/v1/models') {
    sendJson(res, 200, { object: 'list', data: [{ id: fake.model, object: 'model', created: 1_700_000_000, owned_by: 'fake' }] })
    return
  }
  if (req.method !== 'POST' || path !== '/v1/chat/completions') {
    sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } })
    return
  }
  await completion(fake, body, res, req.headers.authorization)
}

async function completion (fake: FakeLlm, body: unknown, res: ServerResponse, authorization: string | undefined): Promise<void> {
  const request = (body ?? {}) as { model?: unknown, messages?: unknown, response_format?: { type?: unknown } }
  const messages = Array.isArray(request.messages) ? request.messages as Array<{ role?: unknown, content?: unknown }> : []
  const user = messages.find(m => m.role === 'user')
  let payload: Record<string, unknown> | undefined
  try {
    payload = typeof user?.content === 'string' ? JSON.parse(user.content) as Record<string, unknown> : undefined
  } catch {
    payload = undefined
  }
  if (typeof request.model !== 'string' || request.model === '' || payload === undefined) {
    sendJson(res, 400, { error: { message: 'expected a model and a user message holding a JSON object', type: 'invalid_request_error' } })
    return
  }
  const handler = TASKS[String(payload['task'])]
  if (!handler) {
    sendJson(res, 400, { error: { message: `unknown task ${JSON.stringify(payload['task'])}`, type: 'invalid_request_error' } })
    return
  }
  const format = request.response_format?.type
  if (fake.behaviour === 'refuse-json-schema' && format === 'json_schema') {
    sendJson(res, 400, { error: { message: 'response_format json_schema is not supported', type: 'invalid_request_error', param: 'response_format' } })
    return
  }

  let behaviour: FakeBehaviour = 'ok'
  if (fake.behaviour !== 'ok' && fake.behaviour !== 'refuse-json-schema' && fake.failTimes > 0) {
    behaviour = fake.behaviour
    fake.failTimes--
  }
  switch (behaviour) {
    case 'error500':
      sendJson(res, 500, { error: { message: 'The server had an error while processing your request.', type: 'server_error' } })
      return
    case 'quote-error': {
      // the key from the Authorization header and the texts of the payload
      const got = authorization?.replace(/^Bearer\s+/i, '') ?? ''
      const texts = [...(Array.isArray(payload['segments']) ? payload['segments'].map(String) : []), ...(typeof payload['text'] === 'string' ? [payload['text']] : [])]
      if (fake.quoteAs === 'html') {
        res.writeHead(401, { 'content-type': 'text/html; charset=utf-8' })
        res.end(quotingPage(401, got, texts))
      } else {
        sendJson(res, 401, { error: { message: quotingWords(got, texts, fake.quoteAs), type: 'invalid_request_error', code: 'invalid_api_key' } })
      }
      return
    }
    case 'rate-limit':
      res.setHeader('retry-after', String(fake.retryAfterSeconds))
      sendJson(res, 429, { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } })
      return
    case 'hang':
      // never answers; close() or the client's abort ends the socket
      return
    case 'malformed':
      sendJson(res, 200, chatCompletion(request.model, 'Sure! Here is the translation you asked for.'))
      return
    case 'huge':
    case 'huge-declared':
    case 'huge-error':
      await sendHuge(fake, res, request.model, behaviour)
      return
    default:
      break
  }
  const answer = handler(payload)
  if (behaviour === 'wrong-count' && Array.isArray(answer['segments'])) {
    answer['segments'] = answer['segments'].slice(0, -1)
  }
  if (behaviour === 'mangle-placeholder' && Array.isArray(answer['segments'])) {
    const segments = answer['segments'] as string[]
    const i = segments.findIndex(s => /<x\b[^>]*\/>/.test(s))
    if (i !== -1) segments[i] = segments[i]!.replace(/<x\b[^>]*\/>/, '')
  }
  if (behaviour === 'moderation-found-only' && Array.isArray(answer['moderation'])) {
    answer['moderation'] = (answer['moderation'] as Array<{ confidence: number }>).filter(c => c.confidence > 0.5)
  }
  if (behaviour === 'stranger') {
    if (Array.isArray(answer['segments']) && answer['segments'].length > 0) answer['segments'][0] = `${String(answer['segments'][0])}${fake.stranger}`
    if (Array.isArray(answer['entities'])) for (const e of answer['entities'] as Array<{ name: string }>) e.name += fake.stranger
  }
  if (behaviour === 'invent-entities' && Array.isArray(answer['entities'])) {
    const entities = answer['entities'] as Array<{ name: string, type: string, mentions: number }>
    for (const e of entities) e.mentions = 1_000_000
    entities.push({ name: 'Zanzibar', type: 'LOCATION', mentions: 3 }, { name: 'Ali', type: 'PERSON', mentions: 1 })
  }
  if (behaviour === 'moderation-malformed' && Array.isArray(answer['moderation'])) {
    answer['moderation'] = (answer['moderation'] as Array<{ name: string }>).map(c => ({ name: c.name, confidence: 'high' }))
  }
  sendJson(res, 200, chatCompletion(request.model, JSON.stringify(answer)))
}

let sequence = 0

/**
 * An answer of `fake.hugeBytes` (a translation of "A"s for one segment, or a 500's error message)
 * written in chunks as the client reads them, stopping when it goes away; `fake.hugeSent` says how
 * far it got.
 */
async function sendHuge (fake: FakeLlm, res: ServerResponse, model: string, behaviour: 'huge' | 'huge-declared' | 'huge-error'): Promise<void> {
  const [head, tail] = behaviour === 'huge-error'
    ? JSON.stringify({ error: { message: '@@', type: 'server_error' } }).split('@@') as [string, string]
    : JSON.stringify(chatCompletion(model, JSON.stringify({ segments: ['@@'] }))).split('@@') as [string, string]
  const total = Buffer.byteLength(head) + fake.hugeBytes + Buffer.byteLength(tail)
  res.writeHead(behaviour === 'huge-error' ? 500 : 200, {
    'content-type': 'application/json',
    ...(behaviour === 'huge-declared' ? { 'content-length': total } : {})
  })
  fake.hugeSent = 0
  // an object, not a let: the loop below reads what a listener writes
  const client = { gone: false }
  res.once('close', () => { client.gone = true })
  const write = async (chunk: string | Buffer): Promise<void> => {
    if (client.gone) return
    fake.hugeSent += Buffer.byteLength(chunk)
    if (res.write(chunk)) return
    await new Promise<void>(resolve => {
      const done = (): void => { res.off('drain', done); res.off('close', done); resolve() }
      res.on('drain', done)
      res.on('close', done)
    })
  }
  await write(head)
  const chunk = Buffer.alloc(64 * 1024, 'A')
  for (let left = fake.hugeBytes; left > 0 && !client.gone; left -= chunk.length) await write(left >= chunk.length ? chunk : chunk.subarray(0, left))
  await write(tail)
  if (!client.gone) res.end()
}

/** A chat.completion object as OpenAI answers it. */
function chatCompletion (model: string, content: string): Record<string, unknown> {
  const completionTokens = Math.ceil(content.length / 4)
  return {
    id: `chatcmpl-fake${++sequence}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 50, completion_tokens: completionTokens, total_tokens: 50 + completionTokens }
  }
}

function sendJson (res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

async function readBody (req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
