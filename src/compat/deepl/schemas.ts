/** DeepL API v2's request and answer shapes, as its clients send and read them (for validation and the OpenAPI document). */
import { Type, type TSchema } from 'typebox'
import { HEADERS, header, problemResponse } from '../../schemas/common.js'

/** At most this many texts in one request, as DeepL allows. */
export const MAX_TEXTS = 50

const Flag = (description: string): TSchema => Type.Union([Type.Boolean(), Type.Literal('0'), Type.Literal('1'), Type.Literal(0), Type.Literal(1), Type.Literal('true'), Type.Literal('false')], { description })
const Lang = (description: string): TSchema => Type.String({ minLength: 1, maxLength: 64, description })

export const DeepLTranslateRequest = Type.Object({
  text: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: MAX_TEXTS })], { description: `The text, or up to ${MAX_TEXTS} texts (a JSON array, or \`text\` repeated in a form).` }),
  target_lang: Lang('The target, a DeepL code in any case: `ES`, `EN-US`, `en-gb`, `PT-BR`, `ZH-HANS`; bare `EN` is `en-US` and bare `PT` `pt-PT`. Any BCP 47 tag the service reads is taken too.'),
  source_lang: Type.Optional(Lang('The source, a DeepL code (`EN`, `de`); omitted: detected per text. A variant (`EN-GB`) is a 400, as DeepL answers it.')),
  tag_handling: Type.Optional(Type.Union([Type.Literal('html'), Type.Literal('xml')], { description: '`html`: markup kept, its text translated (as text/html documents are). `xml`: read the same way, self-closing elements, CDATA sections and entity references HTML does not know (`&product;`) kept as written, no HTML-only entity written, every element but HTML\'s inline ones (`<b>`, `<br/>`), script, style and pre read as one HTML does not know (`<title>`, `<svg>`, `<head>`, `<td>`: its markup kept, its text translated), and no attribute translated. Omitted: plain text.' })),
  ignore_tags: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })], { description: 'Elements whose content comes back untouched (`x` for Weblate\'s placeholders `<x id="1"></x>`), a list or a comma-separated string; with `tag_handling` only.' })),
  formality: Type.Optional(Type.Union([Type.Literal('default'), Type.Literal('more'), Type.Literal('less'), Type.Literal('prefer_more'), Type.Literal('prefer_less')], { description: 'The service\'s own formality option: `more`/`less` is a 400 where no service can honour it for the pair, `prefer_*` is ignored there.' })),
  context: Type.Optional(Type.String({ maxLength: 10_000, description: 'Text around the texts, given to engines that take context (not translated).' })),
  split_sentences: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('nonewlines'), Type.Literal(0), Type.Literal(1)], { description: 'Accepted; texts are always split into sentences as the service splits documents, newlines kept.' })),
  preserve_formatting: Type.Optional(Flag('Accepted; white space and markup are always kept, punctuation and case are the engine\'s.')),
  show_billed_characters: Type.Optional(Flag('Answer `billed_characters` per text (the characters counted in `usage`).')),
  model_type: Type.Optional(Type.Union([Type.Literal('quality_optimized'), Type.Literal('prefer_quality_optimized'), Type.Literal('latency_optimized')], { description: 'Answered in `model_type_used`; the service has one way of translating (engines chosen as for `/language/translate`), so it answers the kind asked (`prefer_quality_optimized`: `quality_optimized`).' })),
  auth_key: Type.Optional(Type.String({ maxLength: 512, description: 'The key, for clients that send it in the body rather than `Authorization: DeepL-Auth-Key <key>`.' }))
}, { additionalProperties: true, description: 'JSON or form-urlencoded; other fields (`glossary_id`, `outline_detection`, ...) are accepted and ignored.' })

export const DeepLTranslateResponse = Type.Object({
  translations: Type.Array(Type.Object({
    detected_source_language: Type.String({ description: 'The source language in DeepL\'s code (`EN`): detected, or the `source_lang` given.' }),
    text: Type.String(),
    billed_characters: Type.Optional(Type.Integer({ description: 'With `show_billed_characters` only.' })),
    model_type_used: Type.Optional(Type.String({ description: 'With `model_type` only: `quality_optimized` or `latency_optimized`.' }))
  }), { description: 'One per text, in order.' })
})

export const DeepLLanguagesQuery = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal('source'), Type.Literal('target')], { description: '`source` (the default) or `target`.' })),
  auth_key: Type.Optional(Type.String({ maxLength: 512 }))
}, { additionalProperties: true })

export const DeepLLanguages = Type.Array(Type.Object({
  language: Type.String({ description: 'DeepL\'s code: `EN` for a source, `EN-US`, `ES`, `PT-BR` for a target.' }),
  name: Type.String({ description: 'The language\'s English name.' }),
  supports_formality: Type.Optional(Type.Boolean({ description: 'Targets only: whether some service can honour `formality: more|less` into it.' }))
}))

export const DeepLUsage = Type.Object({
  character_count: Type.Integer({ description: 'Characters of text this client has had translated through this API this calendar month (UTC): texts and documents, a failed one given back.' }),
  character_limit: Type.Integer({ description: 'COMPAT_DEEPL_CHARACTER_LIMIT.' })
})

export const DeepLGlossaryPairs = Type.Object({
  supported_languages: Type.Array(Type.Object({ source_lang: Type.String(), target_lang: Type.String() }), { description: 'Every pair translated (lower-case base codes, as DeepL gives them): substitutions (the service\'s glossary) apply to each.' })
})

export const DeepLAuthQuery = Type.Object({ auth_key: Type.Optional(Type.String({ maxLength: 512 })) }, { additionalProperties: true })

const DeepLError = Type.Object({ message: Type.String() }, { description: 'DeepL\'s error shape.' })

const counted = { 'RateLimit-Limit': header(HEADERS.rateLimitLimit, false), 'RateLimit-Remaining': header(HEADERS.rateLimitRemaining, false), 'RateLimit-Reset': header(HEADERS.rateLimitReset, false) }

/** The answers of a DeepL route: its result, and its errors as `{"message"}`. */
export function deeplResponses (ok: TSchema, description: string, translates: boolean): Record<number, unknown> {
  const error = (text: string, headers: Record<string, unknown> = {}): unknown => ({ ...DeepLError, description: text, ...(Object.keys(headers).length > 0 ? { headers } : {}) })
  return {
    200: { ...ok, description, headers: counted },
    400: error('Invalid request: the message names the field'),
    403: error('No key (`Authorization: DeepL-Auth-Key <key>` or `auth_key`), a wrong one, or one whose client lacks the `access` scope'),
    405: problemResponse(405),
    ...(translates ? { 413: error('Body too large (BODY_LIMIT), or more text than MAX_TEXT_CHARS'), 415: error('A body neither JSON nor form-urlencoded'), 456: error('The client\'s characters this process has translated reached COMPAT_DEEPL_CHARACTER_LIMIT') } : {}),
    429: error('Rate limited (the client\'s RATE_LIMIT_MAX, or too many failed keys from this address)', { 'Retry-After': header(HEADERS.retryAfter, true) }),
    500: error('A bug (logged with the request id)'),
    ...(translates ? { 502: error('Every engine tried failed'), 504: error('Every engine tried timed out') } : {}),
    503: error('Nothing configured to serve this, or too busy', { 'Retry-After': header(HEADERS.retryAfter, false) })
  }
}
