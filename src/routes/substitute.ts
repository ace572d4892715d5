/** POST /language/substitute */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from '../config.js'
import { substituteSchemas } from '../schemas/substitute.js'
import { DEFAULT_LIMITS } from '../core/limits.js'
import { withinDeadline } from './signal.js'
import { SECURITY, accessConfig, securedResponses } from './secured.js'
import { mergeMeta } from '../core/meta.js'
import { wireDocument } from './wire.js'

export default async function substituteRoutes (fastify: FastifyInstance, opts: { config: Config }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { SubstituteRequest, SubstituteResponse } = substituteSchemas({ ...DEFAULT_LIMITS, ...opts.config.limits })
  app.post('/language/substitute', {
    config: accessConfig,
    schema: {
      tags: ['substitute'],
      operationId: 'substitute',
      summary: 'Apply custom phrases to a document',
      description: 'The document is in one language L (document.language, else detected); a rule applies only when its source and target are absent or match L. Phrases are literal, whole words, case-insensitive by default; `meta.substitutions` reports what was applied.',
      security: SECURITY,
      body: SubstituteRequest,
      response: securedResponses({ 200: { ...SubstituteResponse, description: 'The document with the phrases replaced, the original and what was applied' } }, 413, 415, 503)
    }
  }, async (request, reply) => {
    const { document, substitutions, options, meta } = request.body
    const { value, language, applied } = await withinDeadline(reply, opts.config.limits.handlerTimeoutMs, signal => app.services.substitute({
      document: { value: document.value, ...wireDocument(document) },
      substitutions,
      caseSensitive: options?.substitutions_case_sensitive === true
    }, signal))
    return { document: { ...document, value, ...(language === undefined ? {} : { language }) }, original: document, meta: mergeMeta(meta, { substitutions: applied }) }
  })
}
