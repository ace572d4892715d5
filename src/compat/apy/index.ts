/**
 * The apertium-apy-compatible API (COMPAT_APY) at /apy: `GET listPairs` and `GET|POST translate`
 * as apy's clients (Weblate's Apertium backend, apy's own web page) call them, with ISO 639-3
 * codes. HTTP and mapping only: translation is core's, as for /language/translate, done as the
 * key's client's (`key`, a client's api_keys). Unknown words are never marked (`markUnknown` is
 * accepted and ignored: no engine says which words it did not know).
 */
import { STATUS_CODES } from 'node:http'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Config } from '../../config.js'
import { ValidationError, type FieldPath } from '../../errors.js'
import { HEADERS, header, problemResponse } from '../../schemas/common.js'
import { withinDeadline } from '../../routes/signal.js'
import { KEYED_ROUTE, OPEN_ROUTE, compatErrorHandler, compatForms, field, keyed } from '../keyed.js'
import { languagePairs } from '../pairs.js'
import { fromApy, toApy } from './codes.js'

export const APY_TAG = 'apertium-apy compatible'

const Key = Type.String({ maxLength: 512, description: 'One of a client\'s `api_keys` in AUTH_CLIENTS.' })
const Params = Type.Object({
  langpair: Type.Optional(Type.String({ maxLength: 200, description: 'Source and target, ISO 639-3 codes as listPairs gives them: `eng|spa`.' })),
  q: Type.Optional(Type.String({ description: 'The text.' })),
  markUnknown: Type.Optional(Type.String({ maxLength: 10, description: 'Accepted and ignored: unknown words are never marked.' })),
  key: Type.Optional(Key)
}, { additionalProperties: true })
const Pairs = Type.Object({
  responseData: Type.Array(Type.Object({ sourceLanguage: Type.String(), targetLanguage: Type.String() })),
  responseDetails: Type.Null(),
  responseStatus: Type.Integer()
})
const Translated = Type.Object({
  responseData: Type.Object({ translatedText: Type.String() }),
  responseDetails: Type.Null(),
  responseStatus: Type.Integer()
})
const ApyError = Type.Object({ status: Type.String(), code: Type.Integer(), message: Type.String(), explanation: Type.String() }, { description: 'apy\'s error shape' })

function responses (ok: unknown, description: string, keyed: boolean): Record<number, unknown> {
  const error = (text: string, headers: Record<string, unknown> = {}): unknown => ({ ...ApyError, description: text, ...(Object.keys(headers).length > 0 ? { headers } : {}) })
  return {
    200: { ...(ok as object), description },
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

  app.get('/listPairs', {
    config: OPEN_ROUTE,
    errorHandler,
    // needs no key, as apy's; a key given is checked all the same
    ...keyed(app, keyOf, { optional: true }),
    schema: {
      tags: [APY_TAG],
      operationId: 'apy_list_pairs',
      summary: 'Translation pairs (apertium-apy\'s GET /listPairs)',
      description: 'Every pair the configured services translate, in ISO 639-3 codes (`eng`, `spa`, `por_BR`). Needs no key, as apy\'s (a key given is checked).',
      querystring: Params,
      response: responses(Pairs, 'The pairs', false)
    }
  }, async () => {
    const list = await pairs()
    return {
      responseData: list.flatMap(source => source.targets.map(target => ({ sourceLanguage: toApy(source.code), targetLanguage: toApy(target) }))),
      responseDetails: null,
      responseStatus: 200
    }
  })

  const translate = async (request: FastifyRequest, reply: Parameters<typeof withinDeadline>[0]): Promise<unknown> => {
    const given = params(request)
    const langpair = field(given, 'langpair')
    const q = field(given, 'q')
    if (langpair === undefined) throw new ValidationError('Missing argument langpair')
    const [from, to, ...more] = langpair.split('|')
    if (from === undefined || from === '' || to === undefined || to === '' || more.length > 0) throw new ValidationError('langpair: must be two codes with a | between them (eng|spa)')
    if (q === undefined) throw new ValidationError('Missing argument q')
    const [doc] = await withinDeadline(reply, deadlineMs, signal => app.services.translation.translate({
      documents: [{ value: q, mimeType: 'text/plain' }],
      documentPath: () => ['q'],
      source: fromApy(from),
      targets: [fromApy(to)]
    }, signal))
    const value = Object.values(doc!.results)[0]?.value
    return { responseData: { translatedText: typeof value === 'string' ? value : '' }, responseDetails: null, responseStatus: 200 }
  }
  const translateSchema = {
    tags: [APY_TAG],
    summary: 'Translate text (apertium-apy\'s /translate)',
    description: 'Through the same translation as `POST /language/translate` (engines, fallback, placeholders, cache): `langpair` (`eng|spa`), `q`, `key` (a client\'s api_keys) in the query or, for POST, a form body. `markUnknown` is accepted; unknown words are never marked.',
    querystring: Params,
    response: responses(Translated, 'The translation', true)
  }
  app.get('/translate', { config: KEYED_ROUTE, ...keyCheck, errorHandler, schema: { ...translateSchema, operationId: 'apy_translate' } }, translate)
  app.post('/translate', {
    config: KEYED_ROUTE,
    ...keyCheck,
    errorHandler,
    schema: { ...translateSchema, operationId: 'apy_translate_post', consumes: ['application/x-www-form-urlencoded'], body: Params }
  }, translate)
}
