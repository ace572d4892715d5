/** POST /language/analyze and /language/analyze/sentiment */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Analyzed, PartRun } from '../core/analysis/analyze.js'
import type { FoundEntity } from '../core/analysis/results.js'
import { AnalyzeRequest, AnalyzeResponse, SentimentRequest, SentimentResult, type AnalyzeResponseT, type SentimentResultT } from '../schemas/analyze.js'
import { SECURITY, accessConfig, securedResponses } from './secured.js'
import { mergeMeta } from '../core/meta.js'
import type { Config } from '../config.js'
import { withinDeadline } from './signal.js'
import { wireDocument } from './wire.js'

/** A part's `meta`: what served it, and on which text. */
function partMeta (run: PartRun, analyzed: Analyzed): Record<string, string> {
  return {
    analyzer: run.analyzer,
    source_language: analyzed.sourceLanguage,
    ...(run.translatedBy === undefined ? {} : { translated: 'true', translated_by: run.translatedBy }),
    ...(run.fallbackFrom === undefined ? {} : { fallback_from: run.fallbackFrom.analyzer, fallback_reason: run.fallbackFrom.reason })
  }
}

/** Logs once each model that failed and was stood in for, with what its engine said (never sent to the client). */
function logFallbacks (log: FastifyBaseLogger, analyzed: Analyzed): void {
  const runs = [analyzed.entities, analyzed.sentiment, analyzed.moderation, analyzed.categories]
  const failed = new Set(runs.flatMap(run => run?.fallbackFrom === undefined ? [] : [run.fallbackFrom]))
  for (const { analyzer, reason, engineMessage } of failed) {
    log.warn({ analyzer, reason, ...(engineMessage === undefined ? {} : { engineMessage }) }, 'analyzer failed; the offline analysers answered')
  }
}

function sentimentResult (analyzed: Analyzed, requestMeta?: Record<string, string>): SentimentResultT {
  const part = analyzed.sentiment!
  const { score, magnitude, sentiment } = part.score
  return { sentiment, score: round(score), magnitude: round(magnitude), language: part.language, meta: mergeMeta(requestMeta, partMeta(part, analyzed)) }
}

const round = (n: number): number => Math.round(n * 10_000) / 10_000

function entity (found: FoundEntity, language: string): NonNullable<AnalyzeResponseT['entities']>['entities'][number] {
  return {
    name: found.name,
    type: found.type,
    language,
    mentions: Math.max(1, found.count ?? found.mentions.length),
    meta: {
      offsets: found.mentions.map(m => ({ offset: m.offset, length: m.length, text: m.text })),
      ...(found.value === undefined ? {} : { value: found.value })
    }
  }
}

export default async function analyzeRoutes (fastify: FastifyInstance, opts: { config: Config }): Promise<void> {
  const deadlineMs = opts.config.limits.handlerTimeoutMs
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  app.post('/language/analyze', {
    config: accessConfig,
    schema: {
      tags: ['analyze'],
      operationId: 'analyze',
      summary: 'Run one or many analyses (entities, sentiment, moderation, categories) on a document',
      description: '`analyses`: any of entities, sentiment, moderation, categories; absent or empty means all four. Parts not asked for are absent from the answer. HTML, Markdown and JSON documents are analysed on their text. ' +
        'Each part runs in the text\'s own language when an analyser reads it (offline: en, fr, de, es, it, pt, nl; every language with OPENAI_MODEL), else on its English translation (`meta.translated` = "true"). ' +
        'Each part\'s `meta.analyzer` names what served it ("openai" or "offline"); entity `meta.offsets` are code points into the document\'s text (or into the translation when `entities.meta.offsets_in` = "translation"): a plain text\'s as sent; for HTML, Markdown and JSON, the text the analysers read (its pieces in document order, one a line), not the markup as sent. ' +
        '`request` echoes exactly the fields sent. The answer\'s `meta` is the request\'s `meta` unchanged plus `language` (the document\'s, given or detected) and `detected_confidence`; a key the client already sent is not overwritten: the service\'s value is then under `service_<key>` (`service_language`).',
      security: SECURITY,
      body: AnalyzeRequest,
      response: securedResponses({ 200: { ...AnalyzeResponse, description: 'The analyses asked for' } }, 413, 415, 502, 503, 504)
    }
  }, async (request, reply) => {
    const { document, analyses, meta } = request.body
    const analyzed = await withinDeadline(reply, deadlineMs, signal => app.services.analysis.analyze({ document: { value: document.value, ...wireDocument(document) }, parts: analyses ?? [] }, signal))
    logFallbacks(request.log, analyzed)
    const response: AnalyzeResponseT = {
      // the request as it was sent: no field the client left out is added
      request: { document, ...(analyses === undefined ? {} : { analyses }), ...(meta === undefined ? {} : { meta }) },
      meta: mergeMeta(meta, {
        language: analyzed.sourceLanguage,
        ...(analyzed.detected ? { detected_confidence: String(round(analyzed.detected.confidence)) } : {})
      })
    }
    if (analyzed.entities) {
      const part = analyzed.entities
      response.entities = {
        entities: part.entities.map(e => entity(e, part.language)),
        meta: { ...partMeta(part, analyzed), offsets_in: part.offsetsIn }
      }
    }
    if (analyzed.sentiment) response.sentiment = sentimentResult(analyzed)
    if (analyzed.moderation) {
      response.moderation = { categories: analyzed.moderation.categories.map(c => ({ name: c.name, confidence: round(c.confidence) })), meta: partMeta(analyzed.moderation, analyzed) }
    }
    if (analyzed.categories) {
      response.categories = { categories: analyzed.categories.categories.map(c => ({ name: c.name, confidence: round(c.confidence) })), meta: partMeta(analyzed.categories, analyzed) }
    }
    return response
  })

  app.post('/language/analyze/sentiment', {
    config: accessConfig,
    schema: {
      tags: ['analyze'],
      operationId: 'analyze_sentiment',
      summary: 'Sentiment of a document (native language when supported, else translated to English first)',
      description: 'Native offline analysers: en, fr, de, es, it, pt, nl (every language with OPENAI_MODEL). Other languages are translated to English first: then `language` is "en", `meta.translated` = "true" and `meta.source_language` is the document\'s language. ' +
        '`meta` is the request\'s `meta` unchanged plus the service\'s keys (`analyzer`, `source_language`, `translated`, `translated_by`, `fallback_from`, `fallback_reason`); one the client already sent is given as `service_<key>`. ' +
        '`score` in [-1, 1]; `magnitude` >= 0 is the sum of the sentences\' absolute scores; `sentiment` is mixed when strong sentences of both signs meet.',
      security: SECURITY,
      body: SentimentRequest,
      response: securedResponses({ 200: { ...SentimentResult, description: 'The sentiment of the document' } }, 413, 415, 502, 503, 504)
    }
  }, async (request, reply) => {
    const { document, meta } = request.body
    const analyzed = await withinDeadline(reply, deadlineMs, signal => app.services.analysis.analyze({ document: { value: document.value, ...wireDocument(document) }, parts: ['sentiment'] }, signal))
    logFallbacks(request.log, analyzed)
    return sentimentResult(analyzed, meta)
  })
}
