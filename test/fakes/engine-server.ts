/** The base of the fake translation engines: a real HTTP server on 127.0.0.1 that records calls and misbehaves on demand. */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Behaviour = 'ok' | 'error500' | 'rate-limit' | 'hang' | 'malformed' | 'drop-tag' | 'quote-error'

/**
 * How a 'quote-error' answer quotes the key it was given (the worst cases seen of real engines,
 * issue 24): as it is in a JSON error, as it is in an HTML error page, base64-encoded (alone and
 * inside an encoded "Bearer <key>"), or spaced out letter by letter. The texts it was sent are
 * quoted too, as they are and HTML- or JSON-escaped.
 */
export type QuoteForm = 'json' | 'html' | 'base64' | 'spaced'

/** The words of an error answer quoting `key` in `form` (nothing of it when empty) and every one of `texts`. */
export function quotingWords (key: string, texts: readonly string[], form: QuoteForm): string {
  const quoted = form === 'base64'
    ? `${Buffer.from(key).toString('base64')} (as sent: ${Buffer.from(`Bearer ${key}`).toString('base64')})`
    : form === 'spaced' ? Array.from(key).join(' ') : key
  const keyPart = key === '' ? 'Request refused' : `API key not valid: ${quoted}`
  return `${keyPart}. Cannot process ${texts.map(t => JSON.stringify(t)).join(', ')}`
}

/** An HTML error page quoting `key` and `texts` (escaped as HTML), as a proxy or a framework's debug page answers. */
export function quotingPage (status: number, key: string, texts: readonly string[]): string {
  const keyPart = key === '' ? '' : `<p>API key <code>${escapeHtml(key)}</code> is not valid.</p>`
  return `<!doctype html><html><head><title>${status} Error</title><style>body { font: 14px sans-serif }</style></head>` +
    `<body><h1>Error ${status}</h1>${keyPart}<p>Request: ${texts.map(t => `<q>${escapeHtml(t)}</q>`).join(' ')}</p></body></html>`
}

export interface FakeEngine {
  url: string
  key: string
  /** Every request received, its body parsed (JSON, or a form as name -> value or values). */
  calls: Array<{ method: string, path: string, body: unknown }>
  behaviour: Behaviour
  /** How many more translate calls get `behaviour` before the engine answers 'ok' again (Infinity: always). */
  failTimes: number
  /** How a 'quote-error' answer quotes the key (default 'json'). */
  quoteAs: QuoteForm
  /** Retry-After of a 429. */
  retryAfterSeconds: number
  /** Delay before every answer. */
  latencyMs: number
  /** Requests received and not yet answered or dropped by the client. */
  inFlight: number
  /** The most requests in flight at once so far (tests may reset it to 0). */
  peakInFlight: number
  close: () => Promise<void>
}

export interface FakeRequest {
  method: string
  /** Path without the query. */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: unknown
}

export interface FakeReply {
  status: number
  body: unknown
  headers?: Record<string, string>
  /** Sent as it is instead of `body` as JSON (an answer that breaks the protocol); set content-type in `headers`. */
  raw?: string
}

/** Answers one request; undefined leaves it hanging until the client gives up or the server closes. */
export type FakeHandler = (request: FakeRequest, engine: FakeEngine) => FakeReply | undefined

/** Starts a fake engine whose protocol is `handler`. */
export async function startEngineServer (name: string, handler: FakeHandler): Promise<FakeEngine> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const engine: FakeEngine = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key: `${name}-key-${randomUUID()}`,
    calls: [],
    behaviour: 'ok',
    failTimes: Infinity,
    quoteAs: 'json',
    retryAfterSeconds: 1,
    latencyMs: 0,
    inFlight: 0,
    peakInFlight: 0,
    close: () => new Promise<void>(resolve => {
      // the http server tracks its sockets: this also ends requests left hanging
      server.closeAllConnections()
      server.close(() => resolve())
    })
  }
  server.on('request', (req, res) => {
    engine.inFlight++
    engine.peakInFlight = Math.max(engine.peakInFlight, engine.inFlight)
    // a call ends when its answer is done or when the client goes away: the client's FIN is seen at
    // once, the response's 'close' only a turn of the loop later, after a call the client started
    // next may have come in (a service that gave a call up at its timeout and started the next one
    // would look one over its bound)
    let open = true
    const ended = (): void => {
      if (!open) return
      open = false
      engine.inFlight--
    }
    const socket = req.socket
    socket.once('end', ended)
    res.once('close', () => {
      socket.off('end', ended)
      ended()
    })
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', engine.url)
      const body = parseBody(req.headers['content-type'], Buffer.concat(chunks).toString('utf8'))
      const method = req.method ?? 'GET'
      engine.calls.push({ method, path: url.pathname + url.search, body })
      const reply = handler({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body }, engine)
      if (reply === undefined) return
      setTimeout(() => {
        if (res.destroyed) return
        res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...reply.headers })
        res.end(reply.raw ?? JSON.stringify(reply.body))
      }, engine.latencyMs)
    })
  })
  return engine
}

/** The behaviour for this translate call, counting it against `failTimes`. */
export function takeBehaviour (engine: FakeEngine): Behaviour {
  if (engine.behaviour === 'ok' || engine.failTimes <= 0) return 'ok'
  engine.failTimes--
  return engine.behaviour
}

function parseBody (type: string | undefined, text: string): unknown {
  if (text === '') return undefined
  if (type?.startsWith('application/json') === true) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  if (type?.startsWith('application/x-www-form-urlencoded') === true) {
    const form: Record<string, string | string[]> = {}
    for (const [name, value] of new URLSearchParams(text)) {
      const known = form[name]
      form[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value]
    }
    return form
  }
  return text
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/**
 * "Translates" HTML as the engines' html mode does, in a way tests can predict: text upper-cased,
 * tags kept exactly, the answer HTML-escaped as the real engines escape (`'` as `&#39;`).
 * `dropTag` removes the first `<x .../>`, as an engine losing markup would.
 */
export function fakeTranslateHtml (html: string, dropTag = false): string {
  const source = dropTag ? html.replace(/<x\b[^>]*\/>/, '') : html
  return source.split(/(<[^>]*>)/).map((piece, i) => i % 2 === 1 ? piece : escapeHtml(decodeHtml(piece).toUpperCase())).join('')
}

function decodeHtml (text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole
    return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10))
  })
}

function escapeHtml (text: string): string {
  return text.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}
