/**
 * The DeepL-API-v2-compatible API (COMPAT_DEEPL) at /deepl: `POST v2/translate`,
 * `GET|POST v2/languages`, `GET v2/usage`, `GET v2/glossary-language-pairs`, as DeepL's clients
 * (the official SDKs with `serverUrl`, Weblate's DeepL backend) call them, with a client's API key
 * as `Authorization: DeepL-Auth-Key <key>` (or `auth_key`, which older clients send). HTTP and
 * mapping only: the work is core's translation, as for /language/translate (documents,
 * placeholders, engine choice and fallback, the cache), done as the key's client's.
 */
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify'
import type { TSchema } from 'typebox'
import formbody from '@fastify/formbody'
import type { Config } from '../../config.js'
import { ServiceError, ValidationError, type FieldPath } from '../../errors.js'
import { withinDeadline } from '../../routes/signal.js'
import type { Formality } from '../../core/formality.js'
import type { TranslateInput } from '../../core/translation/index.js'
import { languagePairs } from '../pairs.js'
import { JSON_OR_FORM, KEYED_ROUTE, compatDoc, compatErrorHandler, field, keyed } from '../keyed.js'
import { REGIONAL_TARGETS, sourceFromDeepL, sourceToDeepL, targetFromDeepL, toDeepL } from './codes.js'
import { TAG_NAME, protectMarkup } from '../../core/documents/kept-elements.js'
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
}

/** Core's field paths in DeepL's names: the documents are `text` (`text[2]` for several), the targets `target_lang`. */
function fieldName (path: FieldPath): string {
  const [first, second, third] = path
  if (first === 'text') return typeof second === 'number' ? `text[${second}]` : 'text'
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
  type: '"source" or "target"',
  auth_key: 'a string'
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

/** 456, as DeepL answers a spent quota. */
class QuotaExceededError extends ServiceError {
  constructor (limit: number) {
    super(456, 'quota-exceeded', 'Quota exceeded', `Quota exceeded: this key's client has had ${limit} characters translated (COMPAT_DEEPL_CHARACTER_LIMIT)`)
  }
}

export default async function deepl (app: FastifyInstance, opts: { config: Config }): Promise<void> {
  await app.register(formbody, { bodyLimit: opts.config.limits.bodyBytes })
  const deadlineMs = opts.config.limits.handlerTimeoutMs
  const characterLimit = opts.config.compat.deeplCharacterLimit
  /** Characters translated per client (its rate-limit key), in this process. */
  const used = new Map<string, number>()
  const errorHandler = compatErrorHandler(fieldName, message => ({ message }), EXPECTED)
  const route = { config: KEYED_ROUTE, preHandler: keyed(app, keyOf), errorHandler }
  const doc = compatDoc(DEEPL_TAG)

  app.post('/v2/translate', {
    ...route,
    schema: {
      ...doc('deepl_translate', 'Translate text (DeepL\'s POST /v2/translate)',
        'As DeepL answers it, through the same translation as `POST /language/translate`: `text` a string or up to 50 (a form repeats `text`), `source_lang` (omitted: detected per text), `target_lang` in DeepL\'s codes, `tag_handling` `html` or `xml` with `ignore_tags`, `formality`, `context`. The key is `Authorization: DeepL-Auth-Key <key>`, one of a client\'s `api_keys`.'),
      consumes: JSON_OR_FORM,
      body: DeepLTranslateRequest,
      response: deeplResponses(DeepLTranslateResponse, 'The translations, one per text', true)
    }
  }, async (request, reply) => {
    const body = request.body as TranslateBody
    const texts = Array.isArray(body.text) ? body.text : [body.text]
    const markup = body.tag_handling !== undefined
    const ignore = ignoredTags(body.ignore_tags)
    const client = request.client!.key
    const chars = texts.reduce((n, t) => n + t.length, 0)
    const before = used.get(client) ?? 0
    if (before + chars > characterLimit) throw new QuotaExceededError(characterLimit)
    const prepared = texts.map(t => markup ? protectMarkup(t, { xml: body.tag_handling === 'xml', ignore }) : undefined)
    const input: TranslateInput = {
      documents: texts.map((t, i) => ({ value: prepared[i]?.text ?? t, mimeType: markup ? 'text/html' : 'text/plain' })),
      documentPath: i => Array.isArray(body.text) ? ['text', i] : ['text'],
      targets: [targetFromDeepL(body.target_lang)],
      ...(body.source_lang === undefined ? {} : { source: sourceFromDeepL(body.source_lang) }),
      options: {
        ...(body.formality === undefined ? {} : { formality: body.formality }),
        ...(body.context === undefined || body.context === '' ? {} : { context: body.context })
      }
    }
    const docs = await withinDeadline(reply, deadlineMs, signal => app.services.translation.translate(input, signal))
    used.set(client, (used.get(client) ?? 0) + chars)
    const billed = truthy(body.show_billed_characters)
    return {
      translations: docs.map((d, i) => {
        const value = Object.values(d.results)[0]?.value
        const text = typeof value === 'string' ? value : ''
        return {
          detected_source_language: sourceToDeepL(d.extra.detected?.language ?? d.extra.source),
          text: prepared[i]?.restore(text) ?? text,
          ...(billed ? { billed_characters: texts[i]!.length } : {})
        }
      })
    }
  })

  const pairs = languagePairs(() => app.services.translation)
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
  app.get('/v2/languages', listing(['deepl_languages', 'Supported languages (DeepL\'s GET /v2/languages)', languagesDescription], DeepLLanguagesQuery, DeepLLanguages, 'The languages'), async request => await languages((request.query as { type?: 'source' | 'target' }).type ?? 'source'))
  app.post('/v2/languages', {
    ...route,
    schema: {
      ...doc('deepl_languages_post', 'Supported languages, for clients that POST (DeepL\'s POST /v2/languages)', languagesDescription + ' `type` in the query or the body.'),
      consumes: JSON_OR_FORM,
      querystring: DeepLLanguagesQuery,
      body: DeepLLanguagesQuery,
      response: deeplResponses(DeepLLanguages, 'The languages', false)
    }
  }, async request => await languages((request.body as { type?: 'source' | 'target' } | undefined)?.type ?? (request.query as { type?: 'source' | 'target' }).type ?? 'source'))

  app.get('/v2/usage', listing(['deepl_usage', 'Characters translated (DeepL\'s GET /v2/usage)',
    'The characters of text the key\'s client has had translated through this API (`character_count`, counted by this process since it started: with WORKERS > 1 each worker counts its own), and COMPAT_DEEPL_CHARACTER_LIMIT (`character_limit`), past which `v2/translate` answers 456.'],
  DeepLAuthQuery, DeepLUsage, 'The usage'), async request => ({ character_count: used.get(request.client!.key) ?? 0, character_limit: characterLimit }))

  app.get('/v2/glossary-language-pairs', listing(['deepl_glossary_language_pairs', 'Pairs glossaries apply to (DeepL\'s GET /v2/glossary-language-pairs)',
    'Every pair of base languages translated here: the service\'s glossary (`substitutions` on `/language/translate`, `/language/substitute`) applies to each. DeepL\'s glossary routes themselves are not served.'],
  DeepLAuthQuery, DeepLGlossaryPairs, 'The pairs'), async () => {
    const seen = new Set<string>()
    const supported: Array<{ source_lang: string, target_lang: string }> = []
    for (const { code, targets } of await pairs()) {
      for (const target of targets) {
        const pair = { source_lang: code.split('-')[0]!, target_lang: target.split('-')[0]! }
        const key = `${pair.source_lang}>${pair.target_lang}`
        if (pair.source_lang === pair.target_lang || seen.has(key)) continue
        seen.add(key)
        supported.push(pair)
      }
    }
    return { supported_languages: supported }
  })
}
