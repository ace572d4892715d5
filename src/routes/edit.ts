/** POST /language/edit and GET /language/edit/tones */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from '../config.js'
import { editSchemas, Tones } from '../schemas/edit.js'
import { DEFAULT_LIMITS } from '../shared/limits.js'
import { TONES } from '../shared/tones.js'
import { SECURITY, accessConfig, securedResponses } from './secured.js'
import { cachedJson } from './cached.js'

export default async function editRoutes (fastify: FastifyInstance, opts: { config: Config }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { EditRequest, EditResponse } = editSchemas({ ...DEFAULT_LIMITS, ...opts.config.limits })
  app.post('/language/edit', {
    config: accessConfig,
    schema: {
      tags: ['edit'],
      operationId: 'edit',
      summary: 'Edit a document with generative AI',
      description: 'edits: 1 to 10 of {type: grammar|syntax|simplify|clarify}, {type: "length", length: default|expand|shorten}, {type: "tone", tone: <one of GET /language/edit/tones>}. Edits that need a generative model answer 503 naming the setting that enables them when none is configured.',
      security: SECURITY,
      body: EditRequest,
      response: securedResponses({ 200: { ...EditResponse, description: 'The edited document, the original and the changes' } }, 413, 415, 501, 502, 503, 504)
    }
  }, async (request, reply) => app.services.editing.edit())

  const tones = cachedJson([...TONES])
  app.get('/language/edit/tones', {
    config: accessConfig,
    schema: {
      tags: ['edit'],
      operationId: 'edit_tones',
      summary: 'The tones valid for edits',
      security: SECURITY,
      response: securedResponses({ 200: { ...Tones, description: 'The tones, in order' } })
    }
  }, async (request, reply) => tones.send(request, reply))
}
