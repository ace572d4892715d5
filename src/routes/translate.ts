/** POST /language/translate, /language/translate/bulk; GET /language/translate/locales(/supported). */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Config } from '../config.js'
import { translateSchemas, TranslateLocales, TranslateLocalesQuery, SupportedQuery, Supported, type TranslationRequestT } from '../schemas/translate.js'
import { DEFAULT_LIMITS } from '../core/limits.js'
import { SECURITY, accessConfig, securedResponses } from './secured.js'
import { withinDeadline } from './signal.js'
import { invalidField } from '../errors.js'
import { settingName as s } from '../settings.js'
import { tryCanonicalTag } from '../core/languages.js'
import type { Progress, TranslatedDocument, TranslateInput } from '../core/translation/index.js'
import type { DocumentT } from '../schemas/common.js'
import type { TranslateOptionsT } from '../schemas/translate.js'
import type { SubstitutionT } from '../schemas/common.js'
import { defined, wireDocument } from './wire.js'

/** MAX_TARGETS counts distinct languages: repeats ("es", "ES") are removed before counting. */
export function checkDistinctTargets (targets: readonly string[], limit: number): void {
  if (targets.length <= limit) return
  // a malformed tag counts as itself; translation reports it at its index
  const distinct = new Set(targets.map(tag => tryCanonicalTag(tag) ?? tag))
  if (distinct.size > limit) throw invalidField(['targets'], `must NOT have more than ${limit} distinct languages (repeats are removed first; the limit is set by ${s('MAX_TARGETS')})`)
}

/** The domain's translation request from the fields a single and a bulk request share. */
function translateInput (body: { source?: string, targets: string[], options?: TranslateOptionsT, substitutions?: SubstitutionT[] }, targetLimit: number): Omit<TranslateInput, 'documents' | 'documentPath'> {
  checkDistinctTargets(body.targets, targetLimit)
  const o = body.options
  return defined({
    source: body.source,
    targets: body.targets,
    substitutions: body.substitutions,
    options: o === undefined
      ? undefined
      : defined({
        service: o.service,
        fallback: o.fallback,
        formality: o.formality,
        context: o.context,
        preservePlaceholders: o.preserve_placeholders,
        caseSensitive: o.substitutions_case_sensitive,
        cache: o.cache
      })
  })
}

function documentIn (document: DocumentT): TranslateInput['documents'][number] {
  return { value: document.value, ...wireDocument(document) }
}

/** Results with the wire's field names. */
function resultsOut (doc: TranslatedDocument): Record<string, { value: TranslatedDocument['results'][string]['value'], language: string, mime_type: string }> {
  const out: Record<string, { value: TranslatedDocument['results'][string]['value'], language: string, mime_type: string }> = {}
  for (const [target, r] of Object.entries(doc.results)) out[target] = { value: r.value, language: r.language, mime_type: r.mimeType }
  return out
}

/** POST /language/translate's answer to `body` (a job's work too: `progress` told as segments are translated). */
export async function translateOne (app: FastifyInstance, body: TranslationRequestT, targetLimit: number, signal: AbortSignal, progress?: Progress): Promise<{ results: ReturnType<typeof resultsOut>, original: TranslationRequestT, extra: TranslatedDocument['extra'] }> {
  const input = { ...oneInput(body, targetLimit), ...(progress === undefined ? {} : { progress }) }
  const [doc] = await app.services.translation.translate(input, signal)
  return { results: resultsOut(doc!), original: body, extra: doc!.extra }
}

/** Throws what translateOne would answer before any work (a job's request, checked before it is taken). */
export async function checkOne (app: FastifyInstance, body: TranslationRequestT, targetLimit: number, signal: AbortSignal): Promise<void> {
  await app.services.translation.check(oneInput(body, targetLimit), signal)
}

function oneInput (body: TranslationRequestT, targetLimit: number): TranslateInput {
  return { ...translateInput(body, targetLimit), documents: [documentIn(body.document)], documentPath: () => ['document'] }
}

export default async function translateRoutes (fastify: FastifyInstance, opts: { config: Config }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const limits = { ...DEFAULT_LIMITS, ...opts.config.limits }
  const deadlineMs = opts.config.limits.handlerTimeoutMs
  const { TranslationRequest, BulkTranslationRequest, TranslationResult } = translateSchemas(limits)

  app.post('/language/translate', {
    config: accessConfig,
    schema: {
      tags: ['translate'],
      operationId: 'translate',
      summary: 'Translate one document into one or more languages',
      description: 'The document keeps its shape and markup (text/plain, text/html, text/markdown, application/json, application/x-subrip, text/vtt, text/x-gettext-translation, application/xliff+xml, application/vnd.android.strings+xml, and DOCX, PPTX, XLSX, ODT, ODS, ODP and EPUB as the file in base64); placeholders, URLs, e-mail addresses, paths, file names, code and control characters are kept from the engine and come back as they were, and substitutions are applied. `source` may be omitted to detect it.',
      security: SECURITY,
      body: TranslationRequest,
      response: securedResponses({ 200: { ...TranslationResult, description: 'The translations, keyed by target' } }, 413, 415, 502, 503, 504)
    }
  }, async (request, reply) => {
    return await withinDeadline(reply, deadlineMs, async signal => await translateOne(app, request.body, limits.targets, signal))
  })

  app.post('/language/translate/bulk', {
    config: accessConfig,
    schema: {
      tags: ['translate'],
      operationId: 'translate_bulk',
      summary: 'Translate many documents at once',
      description: 'One shared source, targets, options and substitutions; the answer is an array of TranslationResult in request order. Segments of all documents go to each engine in one batch per language pair.',
      security: SECURITY,
      body: BulkTranslationRequest,
      response: securedResponses({ 200: Type.Array(TranslationResult, { description: 'One TranslationResult per document, in request order' }) }, 413, 415, 502, 503, 504)
    }
  }, async (request, reply) => {
    const { documents, ...shared } = request.body
    const input = { ...translateInput(shared, limits.targets), documents: documents.map(documentIn), documentPath: (i: number) => ['documents', i] }
    const docs = await withinDeadline(reply, deadlineMs, signal => app.services.translation.translate(input, signal))
    return docs.map((doc, i) => ({ results: resultsOut(doc), original: { ...shared, document: documents[i]! }, extra: doc.extra }))
  })

  app.get('/language/translate/locales', {
    config: accessConfig,
    schema: {
      tags: ['translate'],
      operationId: 'translate_locales',
      summary: 'Languages supported for translation, as source and as target, with the services that support each',
      description: 'Example: `?source=en` lists as `target` only the languages en translates into, each with the services that translate en into it: what `/supported` would answer for each target, in one request.',
      security: SECURITY,
      querystring: TranslateLocalesQuery,
      response: securedResponses({ 200: { ...TranslateLocales, description: 'Source and target languages with their services' } })
    }
  }, async (request) => await app.services.translation.languages(request.query.source))

  app.get('/language/translate/locales/supported', {
    config: accessConfig,
    schema: {
      tags: ['translate'],
      operationId: 'translate_locales_supported',
      summary: 'Whether a source language and target language(s) are supported',
      description: 'Example: `?source=en&target=es&target=fr` or `?source=en&target=es,fr`. All pairs must be supported; `services` lists the services that support every pair.',
      security: SECURITY,
      querystring: SupportedQuery,
      response: securedResponses({ 200: { ...Supported, description: 'Whether the pairs are supported, and by which services' } })
    }
  }, async (request) => {
    const targets = (Array.isArray(request.query.target) ? request.query.target : [request.query.target])
      .flatMap(t => t.split(',')).map(t => t.trim()).filter(Boolean)
    if (targets.length === 0) throw invalidField(['target'], 'names no language (give one or more tags, e.g. target=es,fr)')
    return await app.services.translation.supported(request.query.source, targets)
  })
}
