/**
 * The apertium-apy-compatible API (COMPAT_APY) at /apy: `list?q=pairs` (and its alias
 * `listPairs`), `translate`, `identifyLang`, `listLanguageNames` and `getLocale`, each by GET or POST, as apy's
 * clients (Weblate's Apertium backend, apy's own web page, html-tools) call them, with ISO 639-3
 * codes, JSONP (`callback`) as apy answers it (apertium_apy/handlers/base.py). HTTP and mapping only: translation is core's, as for /language/translate, done as the
 * key's client's (`key`, a client's api_keys). Unknown words are never marked (`markUnknown` is
 * accepted and ignored: no engine says which words it did not know).
 */
import { STATUS_CODES } from 'node:http'
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod, preValidationAsyncHookHandler } from 'fastify'
import { Type, type TObject } from 'typebox'
import type { Config } from '../../config.js'
import { ServiceError, ValidationError, type FieldPath } from '../../errors.js'
import { HEADERS, header, problemResponse } from '../../schemas/common.js'
import { withinDeadline } from '../../routes/signal.js'
import { KEYED_ROUTE, OPEN_ROUTE, bodyOptional, compatErrorHandler, compatForms, field, keyed, type KeyHooks } from '../keyed.js'
import { languagePairs } from '../pairs.js'
import { fromApy, toApy } from './codes.js'

export const APY_TAG = 'apertium-apy compatible'

/** A JSONP callback name: what a script names a function by, and nothing a script could run (no brackets, quotes, operators). */
const CALLBACK_PATTERN = '^[A-Za-z0-9_.$]+$'
const CALLBACK = new RegExp(CALLBACK_PATTERN)
const CALLBACK_MAX = 100

const Key = Type.String({ maxLength: 512, description: 'One of a client\'s `api_keys` in AUTH_CLIENTS.' })
const Params = Type.Object({
  langpair: Type.Optional(Type.String({ maxLength: 200, description: 'Source and target, ISO 639-3 codes as listPairs gives them: `eng|spa`.' })),
  q: Type.Optional(Type.String({ description: 'The text.' })),
  markUnknown: Type.Optional(Type.String({ maxLength: 10, description: 'Accepted and ignored: unknown words are never marked.' })),
  key: Type.Optional(Key),
  callback: Type.Optional(Type.String({ maxLength: CALLBACK_MAX, pattern: CALLBACK_PATTERN, description: 'JSONP, as apy answers it: the answer (errors too) comes back as `callback(json)`, `application/javascript`. Letters, digits, `_`, `.` and `$` only; anything else is a 400.' }))
}, { additionalProperties: true })
/** Params and a route's own parameters, as one object: a large POST form keeps only the fields its schema's properties name (http/body-tasks.ts). */
const paramsWith = (own: TObject['properties']): TObject => Type.Object({ ...Params.properties, ...own }, { additionalProperties: true })
const ListParams = paramsWith({
  q: Type.Optional(Type.String({ maxLength: 50, description: '`pairs` (the default), or a kind of mode (none served: `{}`).' })),
  src: Type.Optional(Type.String({ maxLength: 100, description: 'Only the pairs from this language (ISO 639-3).' })),
  include_deprecated_codes: Type.Optional(Type.String({ maxLength: 10, description: 'Present: each pair in ISO 639-1 codes too.' }))
})
const LanguageNamesParams = paramsWith({
  locale: Type.Optional(Type.String({ maxLength: 100, description: 'The language of the names.' })),
  languages: Type.Optional(Type.String({ maxLength: 10_000, description: 'The codes to name, separated by spaces.' }))
})
const Pairs = Type.Object({
  responseData: Type.Array(Type.Object({ sourceLanguage: Type.String(), targetLanguage: Type.String() })),
  responseDetails: Type.Null(),
  responseStatus: Type.Integer()
})
/** The kinds of mode apy's /list lists besides pairs: none are served here, so each is `{}`. */
const MODE_LISTS = new Set(['analyzers', 'analysers', 'generators', 'taggers', 'disambiguators', 'spellers', 'guessers'])
/** The kinds apy's /list answers as pair lists: none are served here, so each is an empty list. */
const PAIR_LISTS = new Set(['bilsearch', 'billookup', 'embeddings'])
/** What apy's /list answers for a `q` other than pairs: no analysers, generators, taggers, spellers nor guessers are served. */
const NoModes = Type.Object({}, { additionalProperties: false, description: 'For `q` analysers, generators, taggers, disambiguators, spellers or guessers: none are served' })
const Identified = Type.Record(Type.String(), Type.Number(), { description: 'Each candidate language (ISO 639-3, as apy writes it) and its confidence, 0-1' })
const LanguageNames = Type.Record(Type.String(), Type.String(), { description: 'Each language code and its name in the locale asked' })
const Translated = Type.Object({
  responseData: Type.Object({ translatedText: Type.String() }),
  responseDetails: Type.Null(),
  responseStatus: Type.Integer()
})
const ApyError = Type.Object({ status: Type.String(), code: Type.Integer(), message: Type.String(), explanation: Type.String() }, { description: 'apy\'s error shape' })

/** What an answer is with `callback`: its JSON as the argument of a call to the function named. */
const Jsonp = Type.String({ description: 'With `callback`: the JSON answer wrapped as `callback(json)`, a script' })

/** A response apy answers as JSON, or as JSONP (`application/javascript`) with `callback`, errors too. */
function jsonOrJsonp (schema: object, description: string, headers: Record<string, unknown> = {}): unknown {
  return {
    description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: { 'application/json': { schema }, 'application/javascript': { schema: Jsonp } }
  }
}

function responses (ok: unknown, description: string, keyed: boolean): Record<number, unknown> {
  const error = (text: string, headers: Record<string, unknown> = {}): unknown => jsonOrJsonp(ApyError, text, headers)
  return {
    200: jsonOrJsonp(ok as object, description),
    400: error('Invalid request: the explanation names the parameter'),
    403: error('No key, a wrong one, or one whose client lacks the `access` scope'),
    405: problemResponse(405),
    ...(keyed ? { 413: error('More text than MAX_TEXT_CHARS'), 415: error('A body that is not form-urlencoded'), 502: error('Every engine tried failed'), 504: error('Every engine tried timed out') } : {}),
    429: error('Rate limited', { 'Retry-After': header(HEADERS.retryAfter, true) }),
    500: error('A bug (logged with the request id)'),
    503: error('Nothing configured to serve this, or too busy', { 'Retry-After': header(HEADERS.retryAfter, false) })
  }
}

/** The request's parameters: apy reads them from the query and a form body alike. */
function params (request: FastifyRequest): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>
  const body = request.body !== null && typeof request.body === 'object' ? request.body as Record<string, unknown> : {}
  return { ...query, ...body }
}

/** A route's OpenAPI words and parameters (the query of a GET, the form of a POST); its summary names the method. */
interface ApySchema {
  tags: string[]
  operationId: string
  summary: (method: 'GET' | 'POST') => string
  description: string
  params: TObject
  response: Record<number, unknown>
}

/** A POST with no body at all is read as an empty form (its parameters are its query's). */
const withoutBody: preValidationAsyncHookHandler = async request => { request.body ??= {} }

/** The request's JSONP callback, when it has a valid one. */
function callbackOf (request: FastifyRequest): string | undefined {
  const callback = field(params(request), 'callback')
  return callback !== undefined && callback.length <= CALLBACK_MAX && CALLBACK.test(callback) ? callback : undefined
}

/** Core's field paths in apy's names: the source and target are `langpair`, the document `q`. */
function fieldName (path: FieldPath): string {
  const first = path[0]
  return first === 'source' || first === 'targets' ? 'langpair' : String(first ?? 'request')
}

export default async function apy (app: FastifyInstance, opts: { config: Config }): Promise<void> {
  await app.register(compatForms, { config: opts.config })
  const deadlineMs = opts.config.limits.handlerTimeoutMs
  const pairs = languagePairs(() => app.services.translation)
  const keyOf = (request: FastifyRequest): string | undefined => field(params(request), 'key')
  const errorHandler = compatErrorHandler(fieldName, (explanation, status) => ({ status: 'error', code: status, message: STATUS_CODES[status] ?? 'Error', explanation }))
  const keyCheck = keyed(app, keyOf)
  // JSONP as apy answers it: a callback name outside [A-Za-z0-9_.$] is a 400; a valid one wraps every answer (errors too)
  app.addHook('preValidation', async request => {
    const callback = field(params(request), 'callback')
    if (callback !== undefined && callbackOf(request) === undefined) throw new ValidationError(`callback: must be 1 to ${CALLBACK_MAX} letters, digits, "_", "." or "$"`)
  })
  app.addHook('onSend', async (request, reply, payload) => {
    const callback = callbackOf(request)
    if (callback === undefined || typeof payload !== 'string') return payload
    reply.type('application/javascript; charset=utf-8')
    // a JSONP answer is a script another origin's page loads (no-cors): CORP same-origin made the browser block it
    reply.header('cross-origin-resource-policy', 'cross-origin')
    return `${callback}(${payload})`
  })

  /**
   * A route by GET and by POST, as apy's BaseHandler.post() answers a POST with get(): html-tools
   * (apyFetch) posts every call as a form. A POST's parameters are its form's and its query's
   * (`params`); one with no body at all is its query. `hooks`: the route's key check.
   */
  const serve = (url: string, route: { config: typeof KEYED_ROUTE | typeof OPEN_ROUTE, hooks?: KeyHooks }, schema: ApySchema, handler: RouteHandlerMethod): void => {
    const { summary, operationId, params: fields, ...words } = schema
    app.get(url, { config: route.config, errorHandler, ...route.hooks, schema: { ...words, operationId, summary: summary('GET'), querystring: fields } }, handler)
    app.post(url, {
      config: route.config,
      errorHandler,
      ...(route.hooks === undefined ? { preValidation: withoutBody } : bodyOptional(route.hooks)),
      schema: { ...words, operationId: `${operationId}_post`, summary: summary('POST'), consumes: ['application/x-www-form-urlencoded'], body: fields }
    }, handler)
  }

  const list = async (request: FastifyRequest): Promise<unknown> => {
    const given = params(request)
    const q = field(given, 'q') ?? 'pairs'
    if (MODE_LISTS.has(q)) return {}
    if (PAIR_LISTS.has(q)) return { responseData: [], responseDetails: null, responseStatus: 200 }
    if (q !== 'pairs') throw new ValidationError('Expecting q argument to be one of analysers, generators, guessers, spellers, disambiguators, or pairs')
    const src = field(given, 'src')
    const deprecated = given.include_deprecated_codes !== undefined
    const responseData = (await pairs()).flatMap(source => source.targets.flatMap(target => {
      const pair = { sourceLanguage: toApy(source.code), targetLanguage: toApy(target) }
      if (src !== undefined && pair.sourceLanguage !== src) return []
      // include_deprecated_codes: each pair in ISO 639-1 codes too, as apy adds them
      return deprecated ? [pair, { sourceLanguage: source.code.replace(/-/g, '_'), targetLanguage: target.replace(/-/g, '_') }] : [pair]
    }))
    return { responseData, responseDetails: null, responseStatus: 200 }
  }
  for (const url of ['/list', '/listPairs']) {
    // needs no key, as apy's; a key given is checked all the same
    serve(url, { config: OPEN_ROUTE, hooks: keyed(app, keyOf, { optional: true }) }, {
      tags: [APY_TAG],
      operationId: url === '/list' ? 'apy_list' : 'apy_list_pairs',
      summary: method => url === '/list' ? `Translation pairs (apertium-apy's ${method} /list?q=pairs)` : `Translation pairs (apertium-apy's ${method} /listPairs, an alias of /list)`,
      description: 'Every pair the configured services translate, in ISO 639-3 codes (`eng`, `spa`, `por_BR`): `q=pairs` (the default), `src` only the pairs from that language, `include_deprecated_codes` each pair in ISO 639-1 codes too. `q` analysers, generators, taggers, disambiguators, spellers or guessers answers `{}` (none are served). Needs no key, as apy\'s (a key given is checked).',
      params: ListParams,
      response: responses(Type.Union([Pairs, NoModes]), 'The pairs', false)
    }, list)
  }

  /** Whether some configured service translates the pair (a code no service reads is no pair). */
  const installed = async (from: string, to: string): Promise<boolean> => {
    try {
      return (await app.services.translation.supported(fromApy(from), [fromApy(to)])).supported
    } catch (err) {
      if (err instanceof ServiceError && err.status === 400) return false
      throw err
    }
  }

  serve('/translate', { config: KEYED_ROUTE, hooks: keyCheck }, {
    tags: [APY_TAG],
    operationId: 'apy_translate',
    summary: method => `Translate text (apertium-apy's ${method} /translate)`,
    description: 'Through the same translation as `POST /language/translate` (engines, fallback, placeholders, cache): `langpair` (`eng|spa`), `q`, `key` (a client\'s api_keys) in the query or, for POST, a form body. `markUnknown` is accepted; unknown words are never marked.',
    params: Params,
    response: responses(Translated, 'The translation', true)
  }, async (request, reply) => {
    const given = params(request)
    const langpair = field(given, 'langpair')
    const q = field(given, 'q')
    if (langpair === undefined) throw new ValidationError('Missing argument langpair')
    const [from, to, ...more] = langpair.split('|')
    if (from === undefined || from === '' || to === undefined || to === '' || more.length > 0) throw new ValidationError('That pair is invalid, use e.g. eng|spa')
    if (q === undefined) throw new ValidationError('Missing argument q')
    if (!(await installed(from, to))) throw new ValidationError('That pair is not installed')
    const [doc] = await withinDeadline(reply, deadlineMs, signal => app.services.translation.translate({
      documents: [{ value: q, mimeType: 'text/plain' }],
      documentPath: () => ['q'],
      source: fromApy(from),
      targets: [fromApy(to)]
    }, signal))
    const value = Object.values(doc!.results)[0]?.value
    return { responseData: { translatedText: typeof value === 'string' ? value : '' }, responseDetails: null, responseStatus: 200 }
  })

  serve('/identifyLang', { config: KEYED_ROUTE, hooks: keyCheck }, {
    tags: [APY_TAG],
    operationId: 'apy_identify_lang',
    summary: method => `Identify the language of a text (apertium-apy's ${method} /identifyLang)`,
    description: 'Through the same detection as `POST /language/detect`: `{"eng": 0.97, "nno": 0.02}`, each candidate in ISO 639-3 codes with its confidence (0-1), the most likely first. Text with nothing to detect answers `{}`. Needs a key (`key`, in the query or, for POST, a form body), as every call on text here.',
    params: Params,
    response: responses(Identified, 'The candidates', true)
  }, async (request, reply) => {
    const q = field(params(request), 'q')
    if (q === undefined || q === '') throw new ValidationError('Missing q argument')
    const result = await withinDeadline(reply, deadlineMs, signal => app.services.detection.detect({ value: q, mimeType: 'text/plain' }, {}, signal))
    if (result.language === 'und') return {}
    const answer: Record<string, number> = {}
    for (const c of [{ language: result.language, confidence: result.confidence }, ...result.alternatives]) {
      const code = toApy(c.language)
      if (!Object.hasOwn(answer, code)) answer[code] = c.confidence
    }
    return answer
  })

  serve('/listLanguageNames', { config: OPEN_ROUTE }, {
    tags: [APY_TAG],
    operationId: 'apy_list_language_names',
    summary: method => `Language names in a locale (apertium-apy's ${method} /listLanguageNames)`,
    description: 'Names from CLDR: `locale` (an apy or BCP 47 code; missing: the first of Accept-Language names are known in, else English), `languages` the codes to name, separated by spaces (answered under the codes given); missing: every language CLDR names, under its tag (`en`, `ast`), as apy answers its whole table. A language CLDR has no name for is left out. Needs no key, as apy\'s.',
    params: LanguageNamesParams,
    response: responses(LanguageNames, 'The names', false)
  }, async request => {
    const given = params(request)
    const locale = field(given, 'locale')
    const codes = field(given, 'languages')?.split(' ').filter(code => code !== '').slice(0, 1000)
    const displays = locale !== undefined ? [locale] : [...acceptedLanguages(request.headers['accept-language']), 'en']
    for (const display of displays) {
      const names = await namesIn(codes, fromApy(display))
      if (names !== undefined) return names
      // a locale asked for by name must be one names are known in
      if (locale !== undefined) throw new ValidationError(`locale: no language names are known in ${locale.slice(0, 100)}`)
    }
    return {}
  })

  serve('/getLocale', { config: OPEN_ROUTE }, {
    tags: [APY_TAG],
    operationId: 'apy_get_locale',
    summary: method => `The languages the browser asks for (apertium-apy's ${method} /getLocale)`,
    description: 'The tags of the request\'s Accept-Language header, in its order, without their q values (apy\'s GetLocaleHandler); html-tools picks its interface language from them. No header: a 400. Needs no key, as apy\'s.',
    params: Params,
    response: responses(Type.Array(Type.String()), 'The tags', false)
  }, async request => {
    const header = request.headers['accept-language']
    if (header === undefined) throw new ValidationError('Accept-Language missing from request headers')
    return acceptedLanguages(header)
  })

  /**
   * The names of `codes` in `display` (undefined: no names are known in it); a code CLDR does not
   * name is left out. No codes: every language CLDR names, under its tag (`en`), as apy lists its whole table.
   */
  async function namesIn (codes: string[] | undefined, display: string): Promise<Record<string, string> | undefined> {
    let every
    try {
      every = await app.services.locales(display)
    } catch (err) {
      if (err instanceof ServiceError && err.status < 500) return undefined
      throw err
    }
    const names: Record<string, string> = {}
    if (codes === undefined) {
      for (const locale of every) if (!locale.tag.includes('-')) names[locale.tag] = locale.name
      return names
    }
    for (const code of codes) {
      try {
        names[code] = app.services.locale(fromApy(code), display).name
      } catch (err) {
        if (!(err instanceof ServiceError && err.status < 500)) throw err
      }
    }
    return names
  }
}

/** The languages of an Accept-Language header, in its order (q values are not weighed: apy reads them so too). */
function acceptedLanguages (header: string | undefined): string[] {
  return (header ?? '').split(',').map(part => part.split(';')[0]!.trim()).filter(tag => tag !== '' && tag !== '*').slice(0, 10)
}
