/** A fake LibreTranslate server (/translate and /languages) that "translates" by upper-casing text outside tags. */
import { fakeTranslateHtml, quotingPage, quotingWords, startEngineServer, takeBehaviour, type FakeEngine, type FakeReply, type FakeRequest } from './engine-server.js'

/** What a 'malformed' translate answer is (every one is a 200): JSON of the wrong shape (the default), or another break of the protocol. */
export type MalformedAnswer = 'wrong-shape' | 'html' | 'truncated-json' | 'wrong-count' | 'empty'

export interface FakeLibreTranslate extends FakeEngine {
  /** Answer /languages without `targets`, as servers before 1.3 did. */
  legacyLanguages: boolean
  /** The answer of the 'malformed' behaviour (default 'wrong-shape'). */
  malformedAs: MalformedAnswer
}

/** Codes as LibreTranslate names them: "zt" is Traditional Chinese; Japanese only pairs with English here. */
export const LIBRE_LANGUAGES: ReadonlyArray<{ code: string, name: string }> = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Spanish' },
  { code: 'fr', name: 'French' },
  { code: 'de', name: 'German' },
  { code: 'ja', name: 'Japanese' },
  { code: 'pt', name: 'Portuguese' },
  { code: 'pt-BR', name: 'Portuguese (Brazil)' },
  { code: 'zh', name: 'Chinese' },
  { code: 'zt', name: 'Chinese (traditional)' }
]

function targetsOf (code: string): string[] {
  if (code === 'ja') return ['en']
  return LIBRE_LANGUAGES.map(l => l.code).filter(c => c !== code && (c !== 'ja' || code === 'en'))
}

/** The server's --batch-limit and --char-limit, set to the caps our client promises. */
const BATCH_LIMIT = 50
const CHAR_LIMIT = 30_000

export async function startFakeLibreTranslate (): Promise<FakeLibreTranslate> {
  // the handler gets the same object Object.assign extends below
  const engine = await startEngineServer('libretranslate', (request, self) => handle(request, self as FakeLibreTranslate))
  return Object.assign(engine, { legacyLanguages: false, malformedAs: 'wrong-shape' as MalformedAnswer })
}

function handle (request: FakeRequest, engine: FakeLibreTranslate): FakeReply | undefined {
  if (request.method === 'GET' && request.path === '/languages') {
    const body = LIBRE_LANGUAGES.map(l => engine.legacyLanguages ? l : { ...l, targets: targetsOf(l.code) })
    return { status: 200, body }
  }
  if (request.method === 'POST' && request.path === '/translate') return translate(request, engine)
  return error(404, 'Not Found')
}

function translate (request: FakeRequest, engine: FakeLibreTranslate): FakeReply | undefined {
  // LibreTranslate takes JSON or a form; keys are optional unless the server requires them
  const body = (request.body ?? {}) as Record<string, unknown>
  if (body['api_key'] !== undefined && body['api_key'] !== engine.key) return error(403, 'Invalid API key')
  const { q, source, target, format } = body
  if (q === undefined || q === '') return error(400, 'Invalid request: missing q parameter')
  if (source === undefined) return error(400, 'Invalid request: missing source parameter')
  if (target === undefined) return error(400, 'Invalid request: missing target parameter')
  const texts = Array.isArray(q) ? q : [q]
  if (!texts.every(t => typeof t === 'string')) return error(400, 'Invalid request: q must be text')
  if (texts.length > BATCH_LIMIT) return error(400, `Invalid request: request (${texts.length}) exceeds text limit (${BATCH_LIMIT})`)
  const chars = texts.reduce((n, t) => n + t.length, 0)
  if (chars > CHAR_LIMIT) return error(400, `Invalid request: request (${chars}) exceeds text limit (${CHAR_LIMIT})`)
  if (typeof source !== 'string' || !LIBRE_LANGUAGES.some(l => l.code === source)) return error(400, `${String(source)} is not supported`)
  if (typeof target !== 'string' || !targetsOf(source).includes(target)) return error(400, `${String(target)} is not supported`)
  const behaviour = takeBehaviour(engine)
  switch (behaviour) {
    case 'hang': return undefined
    case 'error500': return error(500, 'Cannot translate text: worker crashed')
    case 'rate-limit': return { ...error(429, 'Slowdown: 10 per 1 minute'), headers: { 'retry-after': String(engine.retryAfterSeconds) } }
    case 'malformed': return malformed(engine.malformedAs, texts)
    // the key it was sent (from the body) and the texts, in a JSON error or a framework's HTML error page
    case 'quote-error': return engine.quoteAs === 'html'
      ? { status: 400, body: undefined, headers: { 'content-type': 'text/html; charset=utf-8' }, raw: quotingPage(400, String(body['api_key'] ?? ''), texts as string[]) }
      : error(400, quotingWords(String(body['api_key'] ?? ''), texts as string[], engine.quoteAs))
    default: {
      const out = texts.map(t => format === 'html' ? fakeTranslateHtml(t, behaviour === 'drop-tag') : t.toUpperCase())
      return { status: 200, body: { translatedText: Array.isArray(q) ? out : out[0] } }
    }
  }
}

/** A 200 that is not LibreTranslate's answer to `texts`. */
function malformed (kind: MalformedAnswer, texts: unknown[]): FakeReply {
  switch (kind) {
    case 'html': return { status: 200, body: undefined, headers: { 'content-type': 'text/html; charset=utf-8' }, raw: '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>' }
    case 'truncated-json': return { status: 200, body: undefined, raw: JSON.stringify({ translatedText: texts }).slice(0, -3) }
    case 'wrong-count': return { status: 200, body: { translatedText: [...texts, 'ONE MORE'] } }
    case 'empty': return { status: 200, body: undefined, raw: '' }
    default: return { status: 200, body: { translation: texts } }
  }
}

function error (status: number, message: string): FakeReply {
  return { status, body: { error: message } }
}
