/** A fake DeepL API v2 on 127.0.0.1 that speaks what deepl-node sends, "translates" by upper-casing text outside tags, and fails on demand. */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { quotingPage, quotingWords, type QuoteForm } from './engine-server.js'

export type FakeBehaviour = 'ok' | 'error500' | 'rate-limit' | 'hang' | 'malformed' | 'drop-tag' | 'quota' | 'quote-error'

export interface FakeCall {
  method: string
  /** Path without the query. */
  path: string
  /** The form or JSON body, or the query of a GET; repeated form fields (`text`) are arrays. */
  body: unknown
  /** Size of the request body. */
  bytes: number
}

export interface FakeEngine {
  /** Base URL to configure (DEEPL_SERVER_URL). */
  url: string
  /** The API key it accepts; any other gets 403. */
  key: string
  calls: FakeCall[]
  /**
   * How the next requests are answered; settable at any time. It applies to every endpoint, except
   * 'drop-tag', which only changes /v2/translate answers.
   */
  behaviour: FakeBehaviour
  /** How many requests the behaviour applies to before it turns back to 'ok' (default Infinity: all). */
  failTimes: number
  /** How a 'quote-error' answer (a 400 to /v2/translate) quotes the key (default 'json'). */
  quoteAs: QuoteForm
  /** Sent as Retry-After with 429 (default 1). */
  retryAfterSeconds: number
  /** Added before every answer (default 0). */
  latencyMs: number
  /** Back to 'ok', no latency, no recorded calls. */
  reset: () => void
  close: () => Promise<void>
}

const SOURCES = [
  { language: 'EN', name: 'English' },
  { language: 'DE', name: 'German' },
  { language: 'ES', name: 'Spanish' },
  { language: 'FR', name: 'French' },
  { language: 'JA', name: 'Japanese' },
  { language: 'PT', name: 'Portuguese' },
  { language: 'ZH', name: 'Chinese' }
]

// as DeepL lists them: English and Portuguese only as regional variants
const TARGETS = [
  { language: 'DE', name: 'German', supports_formality: true },
  { language: 'EN-GB', name: 'English (British)', supports_formality: false },
  { language: 'EN-US', name: 'English (American)', supports_formality: false },
  { language: 'ES', name: 'Spanish', supports_formality: true },
  { language: 'FR', name: 'French', supports_formality: true },
  { language: 'JA', name: 'Japanese', supports_formality: true },
  { language: 'PT-BR', name: 'Portuguese (Brazilian)', supports_formality: true },
  { language: 'PT-PT', name: 'Portuguese (European)', supports_formality: true },
  { language: 'ZH', name: 'Chinese (simplified)', supports_formality: false },
  { language: 'ZH-HANS', name: 'Chinese (simplified)', supports_formality: false }
]

/** Upper-cases text outside tags and entities, so tests see what was translated and tags stay byte-for-byte. */
export function fakeTranslate (text: string): string {
  return text.split(/(<[^>]*>|&#?[a-z0-9]+;)/i).map((piece, i) => i % 2 === 1 ? piece : piece.toUpperCase()).join('')
}

function parseBody (raw: string, type: string | undefined): unknown {
  if (raw === '') return {}
  if (type?.includes('application/json') === true) {
    try {
      return JSON.parse(raw)
    } catch {
      return raw
    }
  }
  return formObject(new URLSearchParams(raw))
}

function formObject (params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key)
    out[key] = key === 'text' || values.length > 1 ? values : values[0]!
  }
  return out
}

function send (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

export async function startFakeDeepl (): Promise<FakeEngine> {
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => { handle(req, res).catch(() => res.destroy()) })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))

  const engine: FakeEngine = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key: `fake-${randomUUID()}:fx`,
    calls: [],
    behaviour: 'ok',
    failTimes: Infinity,
    quoteAs: 'json',
    retryAfterSeconds: 1,
    latencyMs: 0,
    reset () {
      engine.calls.length = 0
      engine.behaviour = 'ok'
      engine.failTimes = Infinity
      engine.quoteAs = 'json'
      engine.retryAfterSeconds = 1
      engine.latencyMs = 0
    },
    async close () {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>(resolve => server.close(() => resolve()))
    }
  }

  /** The behaviour for this request, counting it against failTimes. */
  const behaviourFor = (path: string): FakeBehaviour => {
    const behaviour = engine.behaviour
    if (behaviour === 'ok' || ((behaviour === 'drop-tag' || behaviour === 'quote-error') && path !== '/v2/translate')) return 'ok'
    engine.failTimes--
    if (engine.failTimes <= 0) {
      engine.behaviour = 'ok'
      engine.failTimes = Infinity
    }
    return behaviour
  }

  async function handle (req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const url = new URL(req.url ?? '/', engine.url)
    const method = req.method ?? 'GET'
    const body = method === 'GET' ? formObject(url.searchParams) : parseBody(raw, req.headers['content-type'])
    engine.calls.push({ method, path: url.pathname, body, bytes: Buffer.byteLength(raw) })

    if (engine.latencyMs > 0) await new Promise(resolve => setTimeout(resolve, engine.latencyMs))
    if (req.headers.authorization !== `DeepL-Auth-Key ${engine.key}`) {
      send(res, 403, { message: 'Wrong endpoint. Use https://api.deepl.com' })
      return
    }
    const known = (method === 'POST' && url.pathname === '/v2/translate') ||
      (method === 'GET' && url.pathname === '/v2/languages') ||
      ((method === 'GET' || method === 'POST') && url.pathname === '/v2/usage')
    if (!known) {
      send(res, 404, { message: 'Not found' })
      return
    }
    const behaviour = behaviourFor(url.pathname)
    switch (behaviour) {
      case 'hang':
        return
      case 'error500':
        send(res, 500, { message: 'Internal server error' })
        return
      case 'rate-limit':
        send(res, 429, { message: 'Too many requests' }, { 'retry-after': String(engine.retryAfterSeconds) })
        return
      case 'quota':
        send(res, 456, { message: 'Quota exceeded' })
        return
      case 'malformed':
        send(res, 200, { unexpected: true })
        return
    }

    if (url.pathname === '/v2/usage') {
      send(res, 200, { character_count: 0, character_limit: 500000 })
    } else if (url.pathname === '/v2/languages') {
      send(res, 200, url.searchParams.get('type') === 'target' ? TARGETS : SOURCES)
    } else {
      const fields = body as Record<string, unknown>
      const texts = Array.isArray(fields['text']) ? fields['text'] as unknown[] : []
      if (texts.length === 0 || typeof fields['target_lang'] !== 'string' || texts.length > 50) {
        send(res, 400, { message: 'Bad request: text (1 to 50) and target_lang are required' })
        return
      }
      if (behaviour === 'quote-error') {
        const sent = texts.map(String)
        if (engine.quoteAs === 'html') send(res, 400, quotingPage(400, engine.key, sent), { 'content-type': 'text/html; charset=utf-8' })
        else send(res, 400, { message: quotingWords(engine.key, sent, engine.quoteAs) })
        return
      }
      const source = typeof fields['source_lang'] === 'string' ? fields['source_lang'].toUpperCase() : 'EN'
      let dropped = behaviour !== 'drop-tag'
      const translations = texts.map(t => {
        let text = fakeTranslate(String(t))
        if (!dropped && /<x\b[^>]*\/>/.test(text)) {
          text = text.replace(/<x\b[^>]*\/>/, '')
          dropped = true
        }
        return { detected_source_language: source, text, billed_characters: String(t).length }
      })
      send(res, 200, { translations })
    }
  }

  return engine
}
