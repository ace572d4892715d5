/** POST /language/edit and GET /language/edit/tones */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from '../config.js'
import { editSchemas, Tones } from '../schemas/edit.js'
import { DEFAULT_LIMITS } from '../core/limits.js'
import { TONES } from '../core/tones.js'
import { mergeMeta } from '../core/meta.js'
import { SECURITY, accessConfig, securedResponses } from './secured.js'
import { cachedJson, cachedResponses } from './cached.js'
import { withinDeadline } from './signal.js'
import { wireDocument } from './wire.js'

export const DEFAULT_TONE_LEVEL = 5
export const DEFAULT_TEMPERATURE = 0.3

export default async function editRoutes (fastify: FastifyInstance, opts: { config: Config }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { EditRequest, EditResponse } = editSchemas({ ...DEFAULT_LIMITS, ...opts.config.limits })
  app.post('/language/edit', {
    config: accessConfig,
    schema: {
      tags: ['edit'],
      operationId: 'edit',
      summary: 'Edit a document with generative AI (or the offline rules)',
      description: 'edits: 1 to MAX_EDITS of {type: grammar|syntax|simplify|clarify}, {type: "length", length: default|expand|shorten}, {type: "tone", tone: <one of GET /language/edit/tones>}. ' +
        'With OPENAI_MODEL set a model does every edit (`meta.editor` = "openai"); without it the offline rules do grammar and spelling (English; spelling only in fr, de, es, it, nl, pt), syntax and simplify (English) (`meta.editor` = "rules"), and other edits answer 503 naming the setting that enables them. ' +
        'Markup, code, placeholders and JSON keys are never edited. `changes` is a word-level diff against the original: offsets and lengths in code points of the original string (for a JSON object/array value, of the string leaf at `path`).',
      security: SECURITY,
      body: EditRequest,
      response: securedResponses({ 200: { ...EditResponse, description: 'The edited document, the original and the changes' } }, 413, 415, 502, 503, 504)
    }
  }, async (request, reply) => {
    const { document, edits, tone_level: toneLevel, temperature, meta } = request.body
    const edited = await withinDeadline(reply, opts.config.limits.handlerTimeoutMs, signal => app.services.editing.edit({
      document: { value: document.value, ...wireDocument(document) },
      edits,
      toneLevel: toneLevel ?? DEFAULT_TONE_LEVEL,
      temperature: temperature ?? DEFAULT_TEMPERATURE
    }, signal))
    return {
      document: { ...document, value: edited.value, language: edited.language },
      original: document,
      meta: mergeMeta(meta, { editor: edited.editor, language: edited.language }),
      changes: edited.changes
    }
  })

  const tones = cachedJson([...TONES])
  app.get('/language/edit/tones', {
    config: accessConfig,
    schema: {
      tags: ['edit'],
      operationId: 'edit_tones',
      summary: 'The tones valid for edits',
      security: SECURITY,
      response: securedResponses(cachedResponses({ ...Tones, description: 'The tones, in order' }))
    }
  }, async (request, reply) => tones.send(request, reply))
}
