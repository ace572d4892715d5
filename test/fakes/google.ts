/**
 * A fake translate.google.com over real https (a test CA from ./tls.ts), speaking what
 * @vitalets/google-translate-api v9 sends: POST /translate_a/single?client=at&dt=t&dt=rm&dj=1 with
 * the form fields sl, tl and q, answered with `{"sentences":[{"trans","orig"},…,{"src_translit"}],"src",…}`.
 * It "translates" by upper-casing letters, keeping everything else (tokens, separators).
 */
import { createServer, type Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { quotingPage, quotingWords } from './engine-server.js'
import { createTestTls } from './tls.js'

/** 'quote-error': a 400 quoting the text it was sent (the endpoint takes no key), as an HTML page or as JSON. */
export type FakeBehaviour = 'ok' | 'error500' | 'rate-limit' | 'hang' | 'malformed' | 'drop-tag' | 'quote-error'

export interface FakeEngine {
  url: string
  /** '127.0.0.1:<port>', as GOOGLE_TRANSLATE_HOST. */
  host: string
  /** The test CA: PEM for the adapter's `ca` option, and its file for NODE_EXTRA_CA_CERTS. */
  caPath: string
  ca: string
  /** Every request, translate calls and others; `body` is the form as an object. */
  calls: Array<{ method: string, path: string, body: unknown }>
  behaviour: FakeBehaviour
  /** The behaviour applies to the next N translate calls only, then the fake is back to 'ok' (default Infinity). */
  failTimes: number
  retryAfterSeconds: number
  latencyMs: number
  /** Like Google at times: spaces inside tokens (`[ 3 ]`) and between a token and a word next to it. */
  padTokens: boolean
  /** How a 'quote-error' answer is written (default 'html'). */
  quoteAs: 'html' | 'json'
  close: () => Promise<void>
}

// the adapter's tokens, as this fake knows them
const TOKEN = /\[(\d+)\]/g

export async function startFakeGoogle (): Promise<FakeEngine> {
  const tls = await createTestTls()
  const sockets = new Set<Duplex>()
  const server: Server = createServer({ key: tls.key, cert: tls.cert })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  const engine: FakeEngine = {
    url: `https://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    caPath: tls.caPath,
    ca: tls.ca,
    calls: [],
    behaviour: 'ok',
    failTimes: Infinity,
    retryAfterSeconds: 1,
    latencyMs: 0,
    padTokens: false,
    quoteAs: 'html',
    async close () {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>(resolve => server.close(() => resolve()))
      await tls.cleanup()
    }
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(engine, req, res).catch(() => { res.destroy() })
  })
  return engine
}

async function handle (engine: FakeEngine, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const raw = Buffer.concat(chunks).toString('utf8')
  const url = new URL(req.url ?? '/', engine.url)
  const form = Object.fromEntries(new URLSearchParams(raw))
  engine.calls.push({ method: req.method ?? '', path: url.pathname + url.search, body: form })

  const query = url.searchParams
  const isTranslate = req.method === 'POST' && url.pathname === '/translate_a/single'
  if (!isTranslate) return send(res, 404, 'text/html', '<html><body>Not Found</body></html>')
  if (query.get('client') !== 'at' || !query.getAll('dt').includes('t') || query.get('dj') !== '1' ||
    !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded') ||
    typeof form['q'] !== 'string' || typeof form['sl'] !== 'string' || typeof form['tl'] !== 'string') {
    return send(res, 400, 'text/html', '<html><body>Bad Request</body></html>')
  }

  let behaviour = engine.behaviour
  if (behaviour !== 'ok') {
    if (engine.failTimes > 0) engine.failTimes--
    else behaviour = 'ok'
    if (engine.failTimes <= 0) {
      engine.behaviour = 'ok'
      engine.failTimes = Infinity
    }
  }
  if (behaviour === 'hang') return // never answers; close() destroys the socket
  if (engine.latencyMs > 0) await new Promise(resolve => setTimeout(resolve, engine.latencyMs))

  switch (behaviour) {
    case 'error500':
      return send(res, 500, 'text/html', '<html><body>Error 500 (Server Error)</body></html>')
    case 'rate-limit':
      // Google's "unusual traffic" page, which the library mines for IP, time and URL
      return send(res, 429, 'text/html', '<html><body>Our systems have detected unusual traffic from your computer network.<br>' +
        `IP address: 127.0.0.1<br>Time: ${new Date().toISOString()}<br>URL: ${engine.url}/translate_a/single?client=at&amp;dt=t<br></body></html>`,
      { 'retry-after': String(engine.retryAfterSeconds) })
    case 'malformed':
      return send(res, 200, 'application/json; charset=utf-8', ')]}\'\n[["wrb.fr",null,null,"generic"]')
    case 'quote-error':
      return engine.quoteAs === 'html'
        ? send(res, 400, 'text/html', quotingPage(400, '', [form['q']]))
        : send(res, 400, 'application/json; charset=utf-8', JSON.stringify({ error: { code: 400, message: quotingWords('', [form['q']], 'json') } }))
    default:
      break
  }

  let text = form['q'].toUpperCase()
  if (behaviour === 'drop-tag') text = text.replace(/\[\d+\]/, '')
  if (engine.padTokens) {
    text = text.replace(TOKEN, '[ $1 ]')
      .replace(/(\p{L})(?=\[ \d+ \])/gu, '$1 ')
      .replace(/(\[ \d+ \])(?=\p{L})/gu, '$1 ')
  }
  // Google answers sentence by sentence (lines included); the library joins them
  const sentences: Array<Record<string, unknown>> = text.split(/(?<=\n|[.!?] )/)
    .map(trans => ({ trans, orig: trans, backend: 10 }))
  sentences.push({ src_translit: '' })
  return send(res, 200, 'application/json; charset=utf-8', JSON.stringify({
    sentences,
    src: form['sl'],
    confidence: 1,
    spell: {},
    ld_result: { srclangs: [form['sl']], srclangs_confidences: [1], extended_srclangs: [form['sl']] }
  }))
}

function send (res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, ...headers })
  res.end(body)
}
