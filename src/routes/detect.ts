/** POST /language/detect */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { DetectRequest, DetectResponse } from '../schemas/detect.js'
import { SECURITY, accessConfig, securedResponses } from './secured.js'
import { mergeMeta } from '../core/meta.js'
import type { Config } from '../config.js'
import { withinDeadline } from './signal.js'
import { defined, wireDocument } from './wire.js'

export default async function detectRoutes (fastify: FastifyInstance, opts: { config: Config }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  app.post('/language/detect', {
    config: accessConfig,
    schema: {
      tags: ['detect'],
      operationId: 'detect',
      summary: 'Detect the language of a document',
      description: 'HTML and JSON documents are reduced to their text first. `static`, `source_hint`, `min_confidence`, `min_chars`, `max_chars`, `limit_results` and `no_override` steer the answer (see each field).',
      security: SECURITY,
      body: DetectRequest,
      response: securedResponses({ 200: { ...DetectResponse, description: 'The detected language, its confidence and the alternatives' } }, 413, 415, 503)
    }
  }, async (request, reply) => {
    const { document, meta, static: statics, source_hint: sourceHint, min_confidence: minConfidence, min_chars: minChars, max_chars: maxChars, limit_results: limitResults, no_override: noOverride } = request.body
    const options = defined({ static: statics, sourceHint, minConfidence, minChars, maxChars, limitResults, noOverride })
    const result = await withinDeadline(reply, opts.config.limits.handlerTimeoutMs,
      signal => app.services.detection.detect({ value: document.value, ...wireDocument(document) }, options, signal))
    return { language: result.language, confidence: result.confidence, meta: mergeMeta(meta, {}), alternatives: result.alternatives }
  })
}
