/** A fake Cloud Translation v2 REST server (translate and languages) that "translates" by upper-casing text outside tags. */
import { fakeTranslateHtml, quotingPage, quotingWords, startEngineServer, takeBehaviour, type FakeEngine, type FakeReply, type FakeRequest } from './engine-server.js'

export type { FakeEngine } from './engine-server.js'

/** Google's list keeps legacy codes (iw, jw) next to current ones (he) and region/script codes. */
export const GOOGLE_LANGUAGES: ReadonlyArray<{ language: string, name: string }> = [
  { language: 'en', name: 'English' },
  { language: 'es', name: 'Spanish' },
  { language: 'fr', name: 'French' },
  { language: 'de', name: 'German' },
  { language: 'ja', name: 'Japanese' },
  { language: 'pt', name: 'Portuguese' },
  { language: 'zh', name: 'Chinese (Simplified)' },
  { language: 'zh-CN', name: 'Chinese (Simplified)' },
  { language: 'zh-TW', name: 'Chinese (Traditional)' },
  { language: 'iw', name: 'Hebrew' },
  { language: 'he', name: 'Hebrew' },
  { language: 'jw', name: 'Javanese' },
  { language: 'fil', name: 'Filipino' },
  { language: 'mni-Mtei', name: 'Meiteilon (Manipuri)' }
]
const CODES = new Set(GOOGLE_LANGUAGES.map(l => l.language))

/** Google's hard cap on `q` entries and the size our client promises to stay under. */
const MAX_Q = 128
const MAX_CHARS = 30_000

export async function startFakeGoogleCloud (): Promise<FakeEngine> {
  return startEngineServer('google-cloud', handle)
}

function handle (request: FakeRequest, engine: FakeEngine): FakeReply | undefined {
  const key = request.headers['x-goog-api-key'] ?? request.query.get('key')
  if (key !== engine.key) {
    return problem(403, 'PERMISSION_DENIED', key === undefined || key === null ? 'The request is missing a valid API key.' : 'API key not valid. Please pass a valid API key.')
  }
  if (request.method === 'GET' && request.path === '/language/translate/v2/languages') {
    const named = request.query.has('target')
    return { status: 200, body: { data: { languages: GOOGLE_LANGUAGES.map(l => named ? l : { language: l.language }) } } }
  }
  if (request.method === 'POST' && request.path === '/language/translate/v2') return translate(request, engine)
  return problem(404, 'NOT_FOUND', 'Requested entity was not found.')
}

function translate (request: FakeRequest, engine: FakeEngine): FakeReply | undefined {
  // v2 takes JSON or a form (where `q` repeats); html is its default format
  const body = (request.body ?? {}) as Record<string, unknown>
  const q = typeof body['q'] === 'string' ? [body['q']] : body['q']
  const { source, target, format = 'html' } = body
  if (!Array.isArray(q) || q.length === 0 || !q.every(t => typeof t === 'string')) return problem(400, 'INVALID_ARGUMENT', 'Required Text')
  if (typeof target !== 'string') return problem(400, 'INVALID_ARGUMENT', 'Required Target')
  if (!CODES.has(target) || (source !== undefined && (typeof source !== 'string' || !CODES.has(source)))) return problem(400, 'INVALID_ARGUMENT', 'Invalid Value')
  if (q.length > MAX_Q) return problem(400, 'INVALID_ARGUMENT', 'Too many text segments')
  if (q.reduce((n, t) => n + t.length, 0) > MAX_CHARS) return problem(400, 'INVALID_ARGUMENT', 'Text too long')
  const behaviour = takeBehaviour(engine)
  switch (behaviour) {
    case 'hang': return undefined
    case 'error500': return problem(500, 'INTERNAL', 'Internal error encountered.')
    case 'rate-limit': return { ...problem(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.'), headers: { 'retry-after': String(engine.retryAfterSeconds) } }
    case 'malformed': return { status: 200, body: { data: { translation: q.length } } }
    // Google's "API key not valid" quoting the key, and the texts of the request
    case 'quote-error': return engine.quoteAs === 'html'
      ? { status: 400, body: undefined, headers: { 'content-type': 'text/html; charset=utf-8' }, raw: quotingPage(400, engine.key, q) }
      : problem(400, 'INVALID_ARGUMENT', quotingWords(engine.key, q, engine.quoteAs))
    default: {
      const dropTag = behaviour === 'drop-tag'
      const translations = q.map(text => ({
        translatedText: format === 'text' ? text.toUpperCase() : fakeTranslateHtml(text, dropTag),
        ...(source === undefined ? { detectedSourceLanguage: 'en' } : {})
      }))
      return { status: 200, body: { data: { translations } } }
    }
  }
}

/** Google's error body. */
function problem (code: number, status: string, message: string): FakeReply {
  return { status: code, body: { error: { code, message, errors: [{ message, domain: 'global', reason: 'invalid' }], status } } }
}
