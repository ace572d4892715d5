/** POST /language/translate, /language/translate/bulk; GET /language/translate/locales(/supported). */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Config } from '../config.js'
import { translateSchemas, TranslateLocales, SupportedQuery, Supported } from '../schemas/translate.js'
import { DEFAULT_LIMITS } from '../schemas/limits.js'
import { SECURITY, accessConfig, securedResponses } from './secured.js'
import { abortSignal } from './signal.js'
import { invalidField } from '../errors.js'

export default async function translateRoutes (fastify: FastifyInstance, opts: { config: Config }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { TranslationRequest, BulkTranslationRequest, TranslationResult } = translateSchemas({ ...DEFAULT_LIMITS, ...opts.config.limits })

  app.post('/language/translate', {
    config: accessConfig,
    schema: {
      tags: ['translate'],
      operationId: 'translate',
      summary: 'Translate one document into one or more languages',
      description: 'The document keeps its shape and markup (text/plain, text/html, text/markdown, application/json); placeholders are protected and substitutions applied. `source` may be omitted to detect it.',
      security: SECURITY,
      body: TranslationRequest,
      response: securedResponses({ 200: { ...TranslationResult, description: 'The translations, keyed by target' } }, 413, 415, 502, 503, 504)
    }
  }, async (request, reply) => app.services.translate(request.body, abortSignal(reply)))

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
  }, async (request, reply) => app.services.translateBulk(request.body, abortSignal(reply)))

  app.get('/language/translate/locales', {
    config: accessConfig,
    schema: {
      tags: ['translate'],
      operationId: 'translate_locales',
      summary: 'Languages supported for translation, as source and as target, with the services that support each',
      security: SECURITY,
      response: securedResponses({ 200: { ...TranslateLocales, description: 'Source and target languages with their services' } })
    }
  }, async () => app.services.translateLocales())

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
    if (targets.length === 0) throw invalidField('/target', 'names no language (give one or more tags, e.g. target=es,fr)')
    return app.services.supported(request.query.source, targets)
  })
}
