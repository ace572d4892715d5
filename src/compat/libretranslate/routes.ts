/**
 * The LibreTranslate-compatible API (COMPAT_LIBRETRANSLATE): `POST translate`, `POST detect`,
 * `GET|POST languages`, `GET frontend/settings`, `POST translate_file` with its `download_file`
 * links (./files.ts), as LibreTranslate's clients (Mastodon, Akkoma,
 * Discourse, Weblate, browser extensions, the `translate` npm package) call them, at
 * /libretranslate and, unless COMPAT_LIBRETRANSLATE_AT_ROOT=false, at the root too. HTTP and
 * mapping only: the work is the same core use cases as /language/translate and /language/detect'
 * (documents, placeholders, engine choice and fallback, the cache), done as the key's client's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify'
import type { TSchema } from 'typebox'
import type { Config } from '../../config.js'
import type { FieldPath } from '../../errors.js'
import { withinDeadline } from '../../routes/signal.js'
import { ValidationError } from '../../errors.js'
import { InvalidApiKeyError } from '../../http/auth/api-keys.js'
import type { TranslateInput } from '../../core/translation/index.js'
import { languagePairs } from '../pairs.js'
import { JSON_OR_FORM, KEYED_ROUTE, OPEN_ROUTE, bodyOptional, compatDoc, compatErrorHandler, compatForms, field, keyed, sendCompatError } from '../keyed.js'
import { fromLibreTranslate, toLibreTranslate } from './codes.js'
import { libretranslateFileRoutes, supportedFilesFormat } from './files.js'
import {
  LtDetectRequest, LtDetectResponse, LtFrontendSettings, LtLanguages, LtLanguagesQuery, LtTranslateRequest, LtTranslateResponse,
  MAX_Q_ITEMS, ltResponses, type LtTranslateRequestT
} from './schemas.js'

export const LIBRETRANSLATE_TAG = 'LibreTranslate compatible'

/** Core's field paths in LibreTranslate's names: `document(s)` is `q` (`q[2]` in an array), a file's document `file`, `targets` is `target`. */
function fieldName (path: FieldPath): string {
  const [first, second] = path
  if (first === 'q') return typeof second === 'number' ? `q[${second}]` : 'q'
  if (first === 'document') return 'file'
  if (first === 'targets') return 'target'
  return String(first ?? 'request')
}

/** What each field must be, for the 400 that names it. */
const EXPECTED: Record<string, string> = {
  q: `a string, or an array of 1 to ${MAX_Q_ITEMS} strings`,
  source: 'a language code or "auto"',
  target: 'a language code',
  format: '"text" or "html"',
  alternatives: 'a whole number from 0 to 10',
  api_key: 'a string',
  file: 'a file part of a multipart/form-data body'
}

/**
 * Where LibreTranslate reads a request's fields that is not JSON (app.py: Flask's request.values):
 * the query's and the form's, the query's first; a POST may have no body at all (deep-translator).
 */
const FIELDS_IN_QUERY = { queryFields: true } as const

/** The key where LibreTranslate's clients put it: `api_key` in the body (JSON, or a form read with the query), else in the query. */
function keyOf (request: FastifyRequest): string | undefined {
  return field(request.body, 'api_key') ?? field(request.query, 'api_key')
}

/** Core's confidence (0-1) as LibreTranslate gives it: a percentage. */
const percent = (confidence: number): number => Math.round(confidence * 10_000) / 100
/** LibreTranslate's answer for text with nothing to detect (libretranslate/language.py detect_languages). */
const NOTHING_DETECTED = { confidence: 0, language: 'en' }
/** A text shorter than this (in characters) gets one candidate, as LibreTranslate's detect.py answers it (clients count on it: SnakeSel/libretranslate). */
const SHORT_TEXT_CHARS = 20
/** Candidates of a longer text, at most: LibreTranslate's three best. */
const MAX_CANDIDATES = 3
/**
 * Below this confidence a candidate is left out, as LibreTranslate's langdetect leaves it out: among
 * the languages translated from, a text in another is given them only at a fraction of a percent.
 */
const MIN_CANDIDATE_CONFIDENCE = 0.1
/** LibreTranslate's answer to a request without a key where one is needed (app.py: 400, not 403, which is for a wrong key). */
const KEY_NEEDED = 'Please contact the server operator to get an API key'

export default async function libretranslate (app: FastifyInstance, opts: { config: Config, root?: boolean }): Promise<void> {
  await app.register(compatForms, { config: opts.config })
  const deadlineMs = opts.config.limits.handlerTimeoutMs
  const root = opts.root === true
  const doc = compatDoc(LIBRETRANSLATE_TAG, root)
  // no key at all is LibreTranslate's 400 (the refusal is counted against the address all the same)
  const errorHandlerFor = (expected: Record<string, string>): (error: Error, request: FastifyRequest, reply: FastifyReply) => Promise<unknown> => {
    const ltErrors = compatErrorHandler(fieldName, message => ({ error: message }), expected)
    return async (error, request, reply) =>
      error instanceof InvalidApiKeyError && (keyOf(request) ?? '') === ''
        ? sendCompatError(reply, { status: 400, message: KEY_NEEDED, headers: {} }, message => ({ error: message }))
        : await ltErrors(error, request, reply)
  }
  const errorHandler = errorHandlerFor(EXPECTED)
  const keyedRoute = { config: { ...KEYED_ROUTE, ...FIELDS_IN_QUERY }, ...bodyOptional(keyed(app, keyOf)), errorHandler }

  /** A keyed POST's options: its words, the body it reads (JSON or a form) and what it answers. */
  const keyedPost = (words: [string, string, string], body: TSchema, answer: TSchema, what: string, expected = EXPECTED): RouteShorthandOptions =>
    ({ ...keyedRoute, errorHandler: expected === EXPECTED ? errorHandler : errorHandlerFor(expected), schema: { ...doc(...words), consumes: JSON_OR_FORM, body, response: ltResponses(answer, what, true) } })

  app.post('/translate', keyedPost(['libretranslate_translate', 'Translate text (LibreTranslate\'s POST /translate)',
    'As LibreTranslate answers it, through the same translation as `POST /language/translate`: `q` a string or an array, `source` a code or `auto` (detected per text, and answered in `detectedLanguage`), `format` `text` or `html`. The key is `api_key`, one of a client\'s `api_keys`.'],
  LtTranslateRequest, LtTranslateResponse, 'The translation(s)'), async (request, reply) => {
    const body = request.body as LtTranslateRequestT
    const many = Array.isArray(body.q)
    const texts = many ? body.q as string[] : [body.q as string]
    if (!many && texts[0] === '') throw new ValidationError('Invalid request: missing q parameter')
    const auto = body.source === undefined || body.source.toLowerCase() === 'auto'
    const mimeType = body.format === 'html' ? 'text/html' : 'text/plain'
    const input: TranslateInput = {
      documents: texts.map(value => ({ value, mimeType })),
      documentPath: i => many ? ['q', i] : ['q'],
      targets: [fromLibreTranslate(body.target)],
      ...(auto ? {} : { source: fromLibreTranslate(body.source!) })
    }
    const docs = await withinDeadline(reply, deadlineMs, signal => app.services.translation.translate(input, signal))
    const translated = docs.map(d => {
      const value = Object.values(d.results)[0]?.value
      return typeof value === 'string' ? value : ''
    })
    const detected = docs.map(d => {
      const found = d.extra.detected ?? { language: d.extra.source, confidence: 1 }
      // nothing to detect: LibreTranslate's own answer, English at confidence 0 (the text comes back as it was)
      return found.language === 'und' ? NOTHING_DETECTED : { confidence: percent(found.confidence), language: toLibreTranslate(found.language) }
    })
    const wanted = Number(body.alternatives ?? 0)
    return {
      translatedText: many ? translated : translated[0]!,
      ...(auto ? { detectedLanguage: many ? detected : detected[0]! } : {}),
      ...(wanted > 0 ? { alternatives: many ? texts.map(() => []) : [] } : {})
    }
  })

  const pairs = languagePairs(() => app.services.translation)

  app.post('/detect', keyedPost(['libretranslate_detect', 'Detect the language of a text (LibreTranslate\'s POST /detect)',
    'Through the same detection as `POST /language/detect`, among the languages the configured services translate from, as LibreTranslate answers it: a text under 20 characters one candidate, a longer one at most 3, none under 10%, confidences in percent, the most likely first. Text with nothing to detect (numbers, emoji, a URL, a language not translated from) answers `[{"confidence": 0, "language": "en"}]`, as LibreTranslate does.'],
  LtDetectRequest, LtDetectResponse, 'The candidate languages, most likely first', { ...EXPECTED, q: 'a string' }), async (request, reply) => {
    const q = (request.body as { q: string }).q
    if (q === '') throw new ValidationError('Invalid request: missing q parameter')
    // no language known yet (lists still loading, nothing configured): the detection is not narrowed to none
    const sources = (await pairs()).filter(l => l.targets.length > 0).map(l => l.code)
    const options = sources.length > 0 ? { limitResults: sources } : {}
    const result = await withinDeadline(reply, deadlineMs, signal => app.services.detection.detect({ value: q, mimeType: 'text/plain' }, options, signal))
    if (result.language === 'und') return [NOTHING_DETECTED]
    const wanted = [...q].length < SHORT_TEXT_CHARS ? 1 : MAX_CANDIDATES
    const detected: Array<{ confidence: number, language: string }> = []
    for (const c of [{ language: result.language, confidence: result.confidence }, ...result.alternatives]) {
      const language = toLibreTranslate(c.language)
      if (c.confidence < MIN_CANDIDATE_CONFIDENCE || detected.some(d => d.language === language)) continue
      detected.push({ confidence: percent(c.confidence), language })
      if (detected.length === wanted) break
    }
    return detected.length > 0 ? detected : [NOTHING_DETECTED]
  })

  /** The list in LibreTranslate's codes (`zh` as `zh-Hans`), each code once. */
  const languageList = async (): Promise<Array<{ code: string, name: string, targets: string[] }>> => {
    const seen = new Set<string>()
    return (await pairs()).flatMap(({ code, name, targets }) => {
      const listed = toLibreTranslate(code)
      if (seen.has(listed)) return []
      seen.add(listed)
      return [{ code: listed, name, targets: [...new Set(targets.map(toLibreTranslate))] }]
    })
  }
  // on an open route, a key given is checked all the same (a wrong one is a 403), and makes the request its client's
  const languagesRoute = { config: { ...OPEN_ROUTE, ...FIELDS_IN_QUERY }, errorHandler, ...keyed(app, keyOf, { optional: true }) }
  const languagesDescription = 'Every language the configured services translate from or into, with the codes it translates into (`code`, English `name`, `targets`; a language only translated into has `targets: []`), as LibreTranslate lists every language it loaded. Needs no key, as in LibreTranslate (a key given is checked: a wrong one is a 403).'
  /** GET, and POST for the clients that send one: the same list. */
  const languagesSchema = (operationId: string, summary: string, request: Record<string, unknown>): Record<string, unknown> =>
    ({ ...doc(operationId, summary, languagesDescription), ...request, response: ltResponses(LtLanguages, 'The languages', false) })
  app.get('/languages', {
    ...languagesRoute,
    schema: languagesSchema('libretranslate_languages', 'Supported languages (LibreTranslate\'s GET /languages)', { querystring: LtLanguagesQuery })
  }, async () => await languageList())
  app.post('/languages', {
    ...languagesRoute,
    schema: languagesSchema('libretranslate_languages_post', 'Supported languages, for clients that POST (LibreTranslate\'s POST /languages)', { consumes: JSON_OR_FORM })
  }, async () => await languageList())

  libretranslateFileRoutes(app, { keyedRoute, openRoute: { config: OPEN_ROUTE, errorHandler }, doc, deadlineMs, fieldName, maxFileBytes: opts.config.limits.bodyBytes })

  app.get('/frontend/settings', {
    config: OPEN_ROUTE,
    errorHandler,
    schema: {
      ...doc('libretranslate_frontend_settings', 'What a LibreTranslate front end needs to know (GET /frontend/settings)',
        'As LibreTranslate answers it: keys are required (`keyRequired`), `charLimit` is MAX_TEXT_CHARS, files are translated (`filesTranslation`, the extensions in `supportedFilesFormat`: those of the formats `POST /language/translate` reads), no suggestions. Needs no key.'),
      response: ltResponses(LtFrontendSettings, 'The settings', false)
    }
  }, async () => {
    const list = await languageList()
    const english = list.find(l => l.code === 'en')
    const target = english ?? list[0]
    return {
      apiKeys: true,
      keyRequired: true,
      charLimit: opts.config.limits.textChars,
      frontendTimeout: 500,
      suggestions: false,
      filesTranslation: true,
      supportedFilesFormat: supportedFilesFormat(),
      language: {
        source: { code: 'auto', name: 'Auto Detect' },
        target: { code: target?.code ?? 'en', name: target?.name ?? 'English' }
      }
    }
  })
}
