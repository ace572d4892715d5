/** Shapes shared by several endpoints: Document, Substitution, meta maps, language tags, problems. */
import { Type, type Static, type TSchema } from 'typebox'
import type { Substitution as SharedSubstitution } from '../core/substitution/types.js'

/** An object whose values are all strings (request `meta`). */
export const StringMap = Type.Unsafe<Record<string, string>>({
  type: 'object',
  additionalProperties: { type: 'string', maxLength: 10_000 },
  maxProperties: 100,
  description: 'Metadata with string values; echoed unchanged in the response `meta`.'
})

/** A free-form JSON object. */
export const FreeObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true })

export const LanguageTag = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'BCP 47 language tag ("en", "pt-BR", "zh-Hant", "sr-Latn"); matched case-insensitively, answered canonical.',
  examples: ['en']
})

export const DocumentValue = Type.Unsafe<string | Record<string, unknown> | unknown[]>({
  description: 'The content: a string, or a JSON object/array whose string leaves are the text (keys, numbers, booleans and null pass through unchanged).',
  // additionalProperties/items spelled out: the response serializer drops what a bare {type: object} does not name
  anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }, { type: 'array', items: {} }]
})

export const Document = Type.Object({
  value: DocumentValue,
  mime_type: Type.Optional(Type.String({
    maxLength: 200,
    description: 'text/plain (default), text/html, text/markdown, application/json, application/x-subrip (SubRip .srt), text/vtt (WebVTT), text/x-gettext-translation (gettext PO), application/xliff+xml (XLIFF 1.2 or 2.0), application/vnd.android.strings+xml (Android strings.xml), application/vnd.openxmlformats-officedocument.wordprocessingml.document (DOCX), application/vnd.openxmlformats-officedocument.presentationml.presentation (PPTX), application/vnd.openxmlformats-officedocument.spreadsheetml.sheet (XLSX), application/vnd.oasis.opendocument.text (ODT), application/vnd.oasis.opendocument.spreadsheet (ODS), application/vnd.oasis.opendocument.presentation (ODP) or application/epub+zip (EPUB); parameters such as "; charset=utf-8" are ignored. A binary format (DOCX, PPTX, XLSX, ODT, ODS, ODP, EPUB) is sent as the file in base64 and answered so; its base64 counts against the body limit, its text against the text limit (docs/api.md).',
    examples: ['text/plain']
  })),
  language: Type.Optional(LanguageTag),
  meta: Type.Optional(FreeObject)
}, { additionalProperties: false, description: 'A document: its value, content type, language and free-form metadata.' })
export type DocumentT = Static<typeof Document>

export const Substitution = Type.Object({
  source: Type.Optional(Type.String({ maxLength: 64, description: 'Source language the rule applies to: that language and its more specific tags ("en" applies to en, en-GB, en-US; "en-GB" to en-GB only, not to a text that is just "en"); absent = any.' })),
  text: Type.String({ minLength: 1, maxLength: 1000, description: 'The literal phrase to match (whole words, case-insensitive unless options.substitutions_case_sensitive). Never a pattern.' }),
  target: Type.Optional(Type.String({ maxLength: 64, description: 'Target language the rule applies to, matched as `source` is ("es" applies to es and es-MX; "es-MX" to es-MX only); absent = any.' })),
  substitution: Type.String({ minLength: 1, maxLength: 1000, description: 'What the phrase becomes, exactly as given.' })
}, { additionalProperties: false, description: 'A custom phrase (glossary entry): when text in `source` is translated into `target`, `text` becomes `substitution`.' })
export type SubstitutionT = Static<typeof Substitution>
// the wire shape is the domain's Substitution (src/core/substitution/types.ts), checked at compile time
export const substitutionShapeMatches: SubstitutionT extends SharedSubstitution ? (SharedSubstitution extends SubstitutionT ? true : false) : false = true

export const AppliedSubstitution = Type.Object({
  text: Type.String(),
  substitution: Type.String(),
  count: Type.Integer({ minimum: 1 })
})

export const FieldProblem = Type.Object({
  pointer: Type.String({ description: 'JSON Pointer (RFC 6901) into the request body, or /<name> of a query or path parameter.' }),
  message: Type.String(),
  in: Type.Optional(Type.Union([Type.Literal('body'), Type.Literal('query'), Type.Literal('path'), Type.Literal('header')]))
})

export const Problem = Type.Object({
  type: Type.String({ description: 'URI reference naming the problem type.' }),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  instance: Type.String({ description: 'The request path.' }),
  request_id: Type.String(),
  errors: Type.Optional(Type.Array(FieldProblem))
}, { description: 'RFC 9457 problem details (application/problem+json).' })

/** The media type of every problem answer (RFC 9457). */
export const PROBLEM_JSON = 'application/problem+json'

/**
 * A response header as @fastify/swagger reads it from a route's response: its schema, with the
 * description and `required` lifted onto the OpenAPI header object (src/http/openapi.ts).
 */
export interface HeaderDeclaration {
  type: 'string' | 'integer'
  description: string
  required?: boolean
  [key: string]: unknown
}

/** The response headers the service sends, by the name OpenAPI shows. */
export const HEADERS = {
  requestId: { type: 'string', description: 'The request id: the client\'s own X-Request-Id when it is sane (at most 64 letters, digits, ".", "_" or "-"), else a new UUID. Logged with the request.' },
  retryAfter: { type: 'integer', minimum: 0, description: 'Seconds to wait before trying again.' },
  rateLimitLimit: { type: 'integer', minimum: 0, description: 'Requests allowed per minute (RATE_LIMIT_MAX), per client, or per address before a token is checked.' },
  rateLimitRemaining: { type: 'integer', minimum: 0, description: 'Requests left in the current minute.' },
  rateLimitReset: { type: 'integer', minimum: 0, description: 'Seconds until the current minute\'s count starts again.' },
  wwwAuthenticate: { type: 'string', description: 'The authentication scheme to use, and why the credentials were refused (RFC 6750: error="invalid_token" or "insufficient_scope").' },
  allow: { type: 'string', description: 'The methods the path takes.' },
  etag: { type: 'string', description: 'Strong validator of the answer; send it back in If-None-Match to get 304 when it has not changed.' },
  cacheControl: { type: 'string', description: 'How long the answer may be kept (private: it is per client).' }
} satisfies Record<string, HeaderDeclaration>

/** A header declaration, required or not. */
export function header (declaration: HeaderDeclaration, required: boolean): HeaderDeclaration {
  return { ...declaration, required }
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (problem+json, with JSON pointers in `errors`)',
  401: 'Missing, invalid or expired access token',
  403: 'The access token lacks the required scope',
  404: 'Not found: the URL names nothing this service has',
  405: 'The path does not take this method (Allow lists those it takes)',
  408: 'The request did not arrive within REQUEST_TIMEOUT_MS (its headers: that or 60 s, the shorter); the connection is closed',
  413: 'Request body too large',
  415: 'The body is not of a media type the operation takes, or it is compressed or not UTF-8',
  429: 'Rate limited (see Retry-After and RateLimit-* headers)',
  500: 'Unexpected error (a bug; no details are leaked)',
  502: 'An engine or outside service failed',
  503: 'Nothing is configured or ready to serve this, or the service is busy or shutting down (Retry-After, when present, says when to try again)',
  504: 'An engine or outside service timed out'
}

/** A problem+json response for a status, with the headers that status always carries. */
export function problemResponse (status: number, description = ERROR_DESCRIPTIONS[status] ?? 'Error'): Record<string, unknown> {
  const headers: Record<string, HeaderDeclaration> = {}
  if (status === 401) headers['WWW-Authenticate'] = header(HEADERS.wwwAuthenticate, true)
  if (status === 403) headers['WWW-Authenticate'] = header(HEADERS.wwwAuthenticate, true)
  if (status === 405) headers['Allow'] = header(HEADERS.allow, true)
  if (status === 429) headers['Retry-After'] = header(HEADERS.retryAfter, true)
  if (status === 503) headers['Retry-After'] = header(HEADERS.retryAfter, false)
  return {
    description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: { [PROBLEM_JSON]: { schema: Type.Ref('Problem') } }
  }
}

/** The error responses a route declares, as problem+json. */
export function errorResponses (...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {}
  for (const s of statuses) out[s] = problemResponse(s) as TSchema
  return out
}
