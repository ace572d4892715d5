/** LibreTranslate's request and answer shapes, as its clients send and read them (for validation and the OpenAPI document). */
import { Type, type Static, type TSchema } from 'typebox'
import { HEADERS, header, problemResponse } from '../../schemas/common.js'

/** At most this many texts in one `q` array (the bulk limit of /language/translate/bulk). */
export const MAX_Q_ITEMS = 100

const ApiKey = Type.String({ maxLength: 512, description: 'One of a client\'s `api_keys` in AUTH_CLIENTS (or a key matching one of its `api_key_hashes`).' })
const Code = Type.String({ minLength: 1, maxLength: 64, description: 'A language code (BCP 47 in any case: `en`, `pt-BR`, `zh-Hant`; LibreTranslate\'s `pb` and `zt` too).' })

export const LtTranslateRequest = Type.Object({
  q: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: MAX_Q_ITEMS })], { description: 'The text, or several texts (a JSON array, or `q` repeated in a form).' }),
  source: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The language of `q`, or `auto` (the default) to detect it (per text for an array).' })),
  target: Code,
  format: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('html')], { description: '`text` (the default) or `html` (markup kept, as text/html documents are).' })),
  api_key: Type.Optional(ApiKey),
  alternatives: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 10 }), Type.String({ pattern: '^(10|[0-9])$' })], { description: 'Alternative translations asked for: accepted, and answered with an empty `alternatives` list (one engine answer per text).' }))
}, { additionalProperties: true, description: 'JSON or form-urlencoded; other fields are ignored as LibreTranslate ignores them.' })
export type LtTranslateRequestT = Static<typeof LtTranslateRequest>

const Detected = Type.Object({
  confidence: Type.Number({ minimum: 0, maximum: 100, description: 'In percent, as LibreTranslate gives it.' }),
  language: Type.String()
})

export const LtTranslateResponse = Type.Object({
  translatedText: Type.Union([Type.String(), Type.Array(Type.String())], { description: 'A string, or one per text when `q` was an array.' }),
  detectedLanguage: Type.Optional(Type.Union([Detected, Type.Array(Detected)], { description: 'With `source: auto` only: the language detected, one per text when `q` was an array.' })),
  alternatives: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Array(Type.Array(Type.String()))], { description: 'With `alternatives` > 0 only: always empty.' }))
})

export const LtDetectRequest = Type.Object({
  q: Type.String({ description: 'The text whose language is asked.' }),
  api_key: Type.Optional(ApiKey)
}, { additionalProperties: true })

export const LtDetectResponse = Type.Array(Detected, { description: 'The most likely language first, then up to two other candidates (one candidate only for a text under 20 characters).' })

export const LtLanguages = Type.Array(Type.Object({
  code: Type.String({ description: 'As LibreTranslate lists it: a BCP 47 tag, Simplified Chinese as `zh-Hans`.' }),
  name: Type.String({ description: 'The language\'s English name.' }),
  targets: Type.Array(Type.String(), { description: 'The codes it translates into: empty for a language only translated into.' })
}))

export const LtLanguagesQuery = Type.Object({ api_key: Type.Optional(ApiKey) }, { additionalProperties: true })

export const LtFrontendSettings = Type.Object({
  apiKeys: Type.Boolean(),
  keyRequired: Type.Boolean(),
  charLimit: Type.Integer(),
  frontendTimeout: Type.Integer(),
  suggestions: Type.Boolean(),
  filesTranslation: Type.Boolean(),
  supportedFilesFormat: Type.Array(Type.String()),
  language: Type.Object({
    source: Type.Object({ code: Type.String(), name: Type.String() }),
    target: Type.Object({ code: Type.String(), name: Type.String() })
  })
})

const LtError = Type.Object({ error: Type.String() }, { description: 'LibreTranslate\'s error shape.' })

const counted = { 'RateLimit-Limit': header(HEADERS.rateLimitLimit, false), 'RateLimit-Remaining': header(HEADERS.rateLimitRemaining, false), 'RateLimit-Reset': header(HEADERS.rateLimitReset, false) }

/** The answers of a LibreTranslate route: its result, and its errors as `{"error"}`. */
export function ltResponses (ok: TSchema, description: string, keyed: boolean): Record<number, unknown> {
  const error = (text: string, headers: Record<string, unknown> = {}): unknown => ({ ...LtError, description: text, ...(Object.keys(headers).length > 0 ? { headers } : {}) })
  return {
    200: { ...ok, description, ...(keyed ? { headers: counted } : {}) },
    400: error('Invalid request: the message names the field; or no API key (`Please contact the server operator to get an API key`, as LibreTranslate answers it)'),
    403: error('A wrong API key, or one whose client lacks the `access` scope'),
    405: problemResponse(405),
    ...(keyed ? { 413: error('Body too large (BODY_LIMIT), or more text than MAX_TEXT_CHARS'), 415: error('A body neither JSON nor form-urlencoded') } : {}),
    429: error('Rate limited (the client\'s RATE_LIMIT_MAX, or too many failed keys from this address)', { 'Retry-After': header(HEADERS.retryAfter, true) }),
    500: error('A bug (logged with the request id)'),
    ...(keyed ? { 502: error('Every engine tried failed'), 504: error('Every engine tried timed out') } : {}),
    503: error('Nothing configured to serve this, or too busy', { 'Retry-After': header(HEADERS.retryAfter, false) })
  }
}
