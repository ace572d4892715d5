/**
 * The DeepL-API-v2-compatible API (COMPAT_DEEPL) at /deepl and, unless COMPAT_DEEPL_AT_ROOT=false,
 * at the root too (deepl-python joins its server URL and `v2/translate` with urljoin, which drops a
 * path without a trailing slash): `POST v2/translate`,
 * `GET|POST v2/languages`, `GET v2/usage`, `GET v2/glossary-language-pairs`, the document API
 * (`POST v2/document`, `v2/document/{id}`, `v2/document/{id}/result`: ./documents.ts), as DeepL's clients
 * (the official SDKs with `serverUrl`, Weblate's DeepL backend) call them, with a client's API key
 * as `Authorization: DeepL-Auth-Key <key>` (or `auth_key`, which older clients send). HTTP and
 * mapping only: the work is core's translation, as for /language/translate (documents,
 * placeholders, engine choice and fallback, the cache), done as the key's client's.
 */
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify'
import type { TSchema } from 'typebox'
import type { Config } from '../../config.js'
import { ServiceError, ValidationError, invalidField, type FieldPath } from '../../errors.js'
import { fallbackChain } from '../../core/languages.js'
import { withinDeadline } from '../../routes/signal.js'
import type { Formality } from '../../core/formality.js'
import type { TranslateInput } from '../../core/translation/index.js'
import { languagePairs } from '../pairs.js'
import { JSON_OR_FORM, KEYED_ROUTE, beforeKeyCheck, bodyOptional, compatDoc, compatErrorHandler, compatForms, field, keyed } from '../keyed.js'
import { REGIONAL_TARGETS, sourceFromDeepL, sourceToDeepL, targetFromDeepL, toDeepL } from './codes.js'
import { deeplUsage } from './usage.js'
import { deeplDocumentRoutes } from './documents.js'
import { TAG_NAME, keptElements } from '../../core/documents/kept-elements.js'
import {
  DeepLAuthQuery, DeepLGlossaryPairs, DeepLLanguages, DeepLLanguagesQuery, DeepLTranslateRequest, DeepLTranslateResponse, DeepLUsage,
  MAX_TEXTS, deeplResponses
} from './schemas.js'

export const DEEPL_TAG = 'DeepL compatible'

interface TranslateBody {
  text: string | string[]
  target_lang: string
  source_lang?: string
  tag_handling?: 'html' | 'xml'
  ignore_tags?: string | string[]
  formality?: Formality
  context?: string
  show_billed_characters?: boolean | string | number
  model_type?: ModelType
}

type ModelType = 'quality_optimized' | 'latency_optimized' | 'prefer_quality_optimized'
/** The model DeepL says it used for a `model_type` asked: the service has one way of translating, so the kind asked. */
const MODEL_USED: Record<ModelType, string> = { quality_optimized: 'quality_optimized', prefer_quality_optimized: 'quality_optimized', latency_optimized: 'latency_optimized' }

/** Core's field paths in DeepL's names: the documents are `text` (`text[2]` for several), a document upload's `file`, the targets `target_lang`. */
function fieldName (path: FieldPath): string {
  const [first, second, third] = path
  if (first === 'text') return typeof second === 'number' ? `text[${second}]` : 'text'
  if (first === 'document') return 'file'
  if (first === 'targets') return 'target_lang'
  if (first === 'source') return 'source_lang'
  if (first === 'options') return String(second ?? third ?? 'options')
  return String(first ?? 'request')
}

/** What each field must be, for the 400 that names it. */
const EXPECTED: Record<string, string> = {
  text: `a string, or an array of 1 to ${MAX_TEXTS} strings`,
  target_lang: 'a language code',
  source_lang: 'a language code',
  tag_handling: '"html" or "xml"',
  ignore_tags: 'a list of tag names, or a comma-separated string of them',
  formality: '"default", "more", "less", "prefer_more" or "prefer_less"',
  context: 'a string',
  split_sentences: '"0", "1" or "nonewlines"',
  preserve_formatting: 'a boolean, 0 or 1',
  show_billed_characters: 'a boolean, 0 or 1',
  model_type: '"quality_optimized", "prefer_quality_optimized" or "latency_optimized"',
  type: '"source" or "target"',
  auth_key: 'a string',
  file: 'a file part of a multipart/form-data body',
  filename: 'a file name',
  output_format: 'a file extension',
  document_key: 'the document_key the upload answered'
}

/** The key where DeepL's clients put it: `Authorization: DeepL-Auth-Key <key>`, else `auth_key` in the body or the query. */
function keyOf (request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  if (typeof header === 'string') {
    const m = /^DeepL-Auth-Key[ \t]+(\S+)[ \t]*$/i.exec(header)
    if (m !== null) return m[1]
  }
  return field(request.body, 'auth_key') ?? field(request.query, 'auth_key')
}

const truthy = (flag: unknown): boolean => flag === true || flag === 1 || flag === '1' || flag === 'true'

/** `ignore_tags` as lower-case names (a list, or a comma-separated string); a name that is not one is a 400. */
function ignoredTags (given: string | string[] | undefined): Set<string> {
  const names = given === undefined ? [] : (Array.isArray(given) ? given : given.split(',')).map(n => n.trim()).filter(n => n !== '')
  for (const name of names) if (!TAG_NAME.test(name)) throw new ValidationError(`ignore_tags: "${name.slice(0, 100)}" is not a tag name`)
  return new Set(names.map(n => n.toLowerCase()))
}

/** 456, as DeepL answers a spent quota: refused for what it would add, so the client may have used less. */
class QuotaExceededError extends ServiceError {
  constructor (limit: number) {
    super(456, 'quota-exceeded', 'Quota exceeded', `Quota exceeded: this request would take this key's client past its ${limit} characters (COMPAT_DEEPL_CHARACTER_LIMIT)`)
  }
}

/** DeepL's words for a language code it does not take, at the field (the SDKs' tests match `target_lang.*not supported`). */
const notSupported = (field: 'source_lang' | 'target_lang', why: string): ValidationError =>
  invalidField([field === 'source_lang' ? 'source' : 'targets'], `Value for '${field}' not supported: ${why}`)

/** The fields of `v2/translate` a client may leave out; one sent empty (`source_lang=`, a bare `source_lang`, JSON null) is left out. */
const OPTIONAL_TRANSLATE_FIELDS = ['source_lang', 'tag_handling', 'ignore_tags', 'formality', 'context', 'split_sentences', 'preserve_formatting', 'show_billed_characters', 'model_type']

/** `body` without the `fields` it holds empty (an empty string or null). */
function dropEmpty (body: unknown, fields: readonly string[]): void {
  if (body === null || typeof body !== 'object') return
  const record = body as Record<string, unknown>
  for (const name of fields) if (Object.hasOwn(record, name) && (record[name] === '' || record[name] === null)) Reflect.deleteProperty(record, name)
}

/** The largest body a GET is read with: `type=target` and an `auth_key` fit many times over. */
const GET_BODY_BYTES = 4096

/**
 * A form body sent with a GET, read as DeepL reads it (deepl-python's `get_target_languages` sends
 * `type=target` so); Fastify reads no body for a GET.
 */
async function readGetForm (request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type']
  if (typeof type !== 'string' || !/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) return
  const tooLarge = (): ServiceError => new ServiceError(413, 'body-too-large', 'Payload Too Large', `A GET's body is read up to ${GET_BODY_BYTES} bytes`)
  if (Number(request.headers['content-length']) > GET_BODY_BYTES) throw tooLarge()
  const chunks: Buffer[] = []
  await new Promise<void>((resolve, reject) => {
    let size = 0
    // past the bound the rest is drained, not kept (the stream left flowing, so the answer can go out)
    request.raw.on('data', (chunk: Buffer) => {
      const before = size
      size += chunk.length
      if (size <= GET_BODY_BYTES) chunks.push(chunk)
      else if (before <= GET_BODY_BYTES) { chunks.length = 0; reject(tooLarge()) }
    })
    request.raw.on('end', () => { resolve() })
    request.raw.on('error', reject)
  })
  request.body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
}

export default async function deepl (app: FastifyInstance, opts: { config: Config, root?: boolean }): Promise<void> {
  await app.register(compatForms, { config: opts.config })
  const deadlineMs = opts.config.limits.handlerTimeoutMs
  const characterLimit = opts.config.compat.deeplCharacterLimit
  /** Characters translated per client (its rate-limit key) this month, where the rate limits count. */
  const usage = deeplUsage(app.counters, characterLimit)
  const errorHandler = compatErrorHandler(fieldName, message => ({ message }), EXPECTED)
  // a POST with no body at all (curl -X POST, a fetch without one) is an empty form: its answer names the field missing
  const route = { config: KEYED_ROUTE, ...bodyOptional(keyed(app, keyOf)), errorHandler }
  const doc = compatDoc(DEEPL_TAG)
  /** Each route at /deepl, and at the root (left out of the OpenAPI document) unless COMPAT_DEEPL_AT_ROOT=false; one usage count for both. */
  const serve = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options: RouteShorthandOptions, handler: RouteHandlerMethod): void => {
    for (const base of opts.root === true ? ['/deepl', ''] : ['/deepl']) {
      app.route({ ...options, method, url: base + path, handler, ...(base === '' ? { schema: { ...options.schema, hide: true } } : {}) })
    }
  }

  const pairs = languagePairs(() => app.services.translation)
  /**
   * Whether some configured service translates from (into) `tag`, or (core's fallback) a less
   * specific tag of it; with no languages known yet (nothing configured, lists still loading) core answers.
   */
  const translatable = async (tag: string, side: 'source' | 'target'): Promise<boolean> => {
    const known = new Set((await app.services.translation.languages())[side].map(l => l.tag))
    return known.size === 0 || fallbackChain(tag).some(t => known.has(t))
  }

  /** DeepL's 400 for a source (a variant, or one no service reads) or a target it does not take; else the target as core's tag. */
  const checkedLanguages = async (sourceLang: string | undefined, targetLang: string): Promise<string> => {
    if (sourceLang !== undefined && /[-_]/.test(sourceLang)) {
      throw notSupported('source_lang', `${sourceLang.slice(0, 64)} names a variant; a source is a base language (${sourceToDeepL(sourceLang.replace('_', '-'))})`)
    }
    if (sourceLang !== undefined && !(await translatable(sourceFromDeepL(sourceLang), 'source'))) throw notSupported('source_lang', `no configured service translates from ${sourceLang.slice(0, 64)}`)
    const target = targetFromDeepL(targetLang)
    if (!(await translatable(target, 'target'))) throw notSupported('target_lang', `no configured service translates into ${targetLang.slice(0, 64)}`)
    return target
  }

  serve('POST', '/v2/translate', {
    ...route,
    // an optional field sent empty is not sent: Mastodon's form writes a status without a language as a bare `source_lang` (detected, as DeepL does)
    ...beforeKeyCheck(route, request => { dropEmpty(request.body, OPTIONAL_TRANSLATE_FIELDS) }),
    schema: {
      ...doc('deepl_translate', 'Translate text (DeepL\'s POST /v2/translate)',
        'As DeepL answers it, through the same translation as `POST /language/translate`: `text` a string or up to 50 (a form repeats `text`), `source_lang` (omitted: detected per text), `target_lang` in DeepL\'s codes, `tag_handling` `html` or `xml` with `ignore_tags`, `formality`, `context`. The key is `Authorization: DeepL-Auth-Key <key>`, one of a client\'s `api_keys`.'),
      consumes: JSON_OR_FORM,
      body: DeepLTranslateRequest,
      response: deeplResponses(DeepLTranslateResponse, 'The translations, one per text', true)
    }
  }, async (request, reply) => {
    const body = request.body as TranslateBody
    const target = await checkedLanguages(body.source_lang, body.target_lang)
    const texts = Array.isArray(body.text) ? body.text : [body.text]
    const markup = body.tag_handling !== undefined
    const ignore = ignoredTags(body.ignore_tags)
    const client = request.client!.key
    const chars = texts.reduce((n, t) => n + t.length, 0)
    // reserved before the translation, given back if it fails: requests at once cannot all pass the limit
    const reserved = await usage.reserve(client, chars)
    if (reserved === undefined) throw new QuotaExceededError(characterLimit)
    // the markup itself is read (and its kept elements swapped and put back) by core's document work, on the pool when costly
    const kept = markup ? keptElements(body.tag_handling === 'xml', ignore) : undefined
    const input: TranslateInput = {
      documents: texts.map(t => ({ value: t, mimeType: markup ? 'text/html' : 'text/plain', kept })),
      documentPath: i => Array.isArray(body.text) ? ['text', i] : ['text'],
      targets: [target],
      ...(body.source_lang === undefined ? {} : { source: sourceFromDeepL(body.source_lang) }),
      options: {
        ...(body.formality === undefined ? {} : { formality: body.formality }),
        ...(body.context === undefined || body.context === '' ? {} : { context: body.context })
      }
    }
    const docs = await withinDeadline(reply, deadlineMs, signal => app.services.translation.translate(input, signal))
      .catch(async (err: unknown) => { await reserved.giveBack(); throw err })
    const billed = truthy(body.show_billed_characters)
    return {
      translations: docs.map((d, i) => {
        const value = Object.values(d.results)[0]?.value
        const text = typeof value === 'string' ? value : ''
        return {
          detected_source_language: sourceToDeepL(d.extra.detected?.language ?? d.extra.source),
          text,
          ...(billed ? { billed_characters: texts[i]!.length } : {}),
          ...(body.model_type === undefined ? {} : { model_type_used: MODEL_USED[body.model_type] })
        }
      })
    }
  })

  /** DeepL's language lists: sources by base language; targets as tags, a bare `en`/`pt` listed by its regions as DeepL lists them. */
  const languages = async (type: 'source' | 'target'): Promise<Array<{ language: string, name: string, supports_formality?: boolean }>> => {
    const list = await pairs()
    if (type === 'source') {
      const seen = new Map<string, string>()
      for (const { code, name, targets } of list) {
        if (targets.length === 0) continue
        const base = sourceToDeepL(code)
        if (!seen.has(base)) seen.set(base, code.includes('-') ? app.services.locale(code.split('-')[0]!).name : name)
      }
      return [...seen].map(([language, name]) => ({ language, name }))
    }
    const into = new Map<string, string[]>()
    for (const { code, targets } of list) for (const t of targets) into.set(t, [...(into.get(t) ?? []), code])
    const out = new Map<string, { language: string, name: string, supports_formality: boolean }>()
    for (const [tag, sources] of [...into].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
      for (const listed of REGIONAL_TARGETS[tag] ?? [tag]) {
        const language = toDeepL(listed)
        if (out.has(language)) continue
        let formality = false
        for (const source of sources) if (await app.services.translation.formality(source, listed)) { formality = true; break }
        out.set(language, { language, name: app.services.locale(listed).name, supports_formality: formality })
      }
    }
    return [...out.values()]
  }
  const languagesDescription = 'DeepL\'s language lists from the configured services: `type=source` (the default) the languages translated from, by base language (`EN`); `type=target` those translated into (`ES`, `PT-BR`; a service translating into plain English or Portuguese gives `EN-GB` and `EN-US`, `PT-BR` and `PT-PT`, as DeepL lists them), with `supports_formality`.'
  /** A GET route's options: its words, its query and what it answers. */
  const listing = (words: [string, string, string], querystring: TSchema, answer: TSchema, what: string): RouteShorthandOptions =>
    ({ ...route, schema: { ...doc(...words), querystring, response: deeplResponses(answer, what, false) } })
  /** `type` from the body (a POST's, or the form a GET carries as deepl-python sends it), else the query. */
  const listType = (request: FastifyRequest): 'source' | 'target' => {
    const type = field(request.body, 'type') ?? field(request.query, 'type') ?? 'source'
    if (type !== 'source' && type !== 'target') throw invalidField(['type'], `must be ${EXPECTED.type}`)
    return type
  }
  serve('GET', '/v2/languages', {
    ...listing(['deepl_languages', 'Supported languages (DeepL\'s GET /v2/languages)', languagesDescription + ' `type` in the query, or in a form body sent with the GET (as deepl-python sends it).'], DeepLLanguagesQuery, DeepLLanguages, 'The languages'),
    preParsing: async (request, _reply, payload) => { await readGetForm(request); return payload }
  }, async request => await languages(listType(request)))
  serve('POST', '/v2/languages', {
    // a POST with no body at all, `type` in the query (curl -X POST, fetch without a body), is what the query says
    ...route,
    schema: {
      ...doc('deepl_languages_post', 'Supported languages, for clients that POST (DeepL\'s POST /v2/languages)', languagesDescription + ' `type` in the query or the body.'),
      consumes: JSON_OR_FORM,
      querystring: DeepLLanguagesQuery,
      body: DeepLLanguagesQuery,
      response: deeplResponses(DeepLLanguages, 'The languages', false)
    }
  }, async request => await languages(listType(request)))

  serve('GET', '/v2/usage', listing(['deepl_usage', 'Characters translated (DeepL\'s GET /v2/usage)',
    'The characters of text the key\'s client has had translated through this API (`character_count`, this calendar month (UTC), counted where the rate limits count: with REDIS_URL in Redis, for every replica and across restarts; without it in the service\'s memory, for all WORKERS, starting from 0 when the service restarts), and COMPAT_DEEPL_CHARACTER_LIMIT (`character_limit`), past which `v2/translate` answers 456.'],
  DeepLAuthQuery, DeepLUsage, 'The usage'), async request => ({ character_count: await usage.count(request.client!.key), character_limit: characterLimit }))

  deeplDocumentRoutes({
    app,
    serve,
    route,
    doc,
    usage,
    checkedLanguages,
    fieldName,
    quotaExceeded: () => new QuotaExceededError(characterLimit),
    maxFileBytes: opts.config.limits.bodyBytes,
    deadlineMs
  })

  // DeepL's glossary routes (v2's, v3's multilingual ones): not served, and said so in DeepL's shape
  // (a 404 there is deepl-node's GlossaryNotFoundError, which a probe's createGlossary and listGlossaries got)
  for (const path of ['/v2/glossaries', '/v2/glossaries/*', '/v3/glossaries', '/v3/glossaries/*']) {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      serve(method, path, { ...route, schema: { hide: true } }, async () => {
        throw new ServiceError(400, 'glossaries-not-served', 'Glossaries not served',
          'Glossaries are not stored here: send the phrases with each request (`substitutions` on POST /language/translate)')
      })
    }
  }

  // none: no glossary is stored here, and a client that sees a pair (Weblate's DeepL backend) lists and creates glossaries, which fail
  serve('GET', '/v2/glossary-language-pairs', listing(['deepl_glossary_language_pairs', 'Pairs DeepL glossaries can be made for (DeepL\'s GET /v2/glossary-language-pairs): none',
    'None: DeepL\'s glossary routes store nothing here (a 400 says so), and a client that saw pairs would try them (Weblate lists and creates glossaries when a pair is listed). The service\'s own glossary is sent with each request: `substitutions` on `/language/translate`, `/language/substitute`.'],
  DeepLAuthQuery, DeepLGlossaryPairs, 'No pairs'), async () => ({ supported_languages: [] }))
}
