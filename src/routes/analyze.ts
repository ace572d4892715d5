/** POST /language/analyze and /language/analyze/sentiment */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AnalyzeRequest, AnalyzeResponse, SentimentRequest, SentimentResult } from '../schemas/analyze.js'
import { SECURITY, accessConfig, securedResponses } from './secured.js'

export default async function analyzeRoutes (fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  app.post('/language/analyze', {
    config: accessConfig,
    schema: {
      tags: ['analyze'],
      operationId: 'analyze',
      summary: 'Run one or many analyses (entities, sentiment, moderation, categories) on a document',
      description: '`analyses`: any of entities, sentiment, moderation, categories; absent or empty means all four. Parts not asked for are absent from the answer.',
      security: SECURITY,
      body: AnalyzeRequest,
      response: securedResponses({ 200: { ...AnalyzeResponse, description: 'The analyses asked for' } }, 413, 415, 501, 502, 503, 504)
    }
  }, async (request, reply) => app.services.analysis.analyze())

  app.post('/language/analyze/sentiment', {
    config: accessConfig,
    schema: {
      tags: ['analyze'],
      operationId: 'analyze_sentiment',
      summary: 'Sentiment of a document (native language when supported, else translated to English first)',
      security: SECURITY,
      body: SentimentRequest,
      response: securedResponses({ 200: { ...SentimentResult, description: 'The sentiment of the document' } }, 413, 415, 501, 502, 503, 504)
    }
  }, async (request, reply) => app.services.analysis.sentiment())
}
