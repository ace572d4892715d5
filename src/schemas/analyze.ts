/** POST /language/analyze and /language/analyze/sentiment shapes. */
import { Type, type Static } from 'typebox'
import { Document, FreeObject, StringMap } from './common.js'

export const ANALYSES = ['entities', 'sentiment', 'moderation', 'categories'] as const

export const Entity = Type.Object({
  name: Type.String(),
  type: Type.Enum(['PERSON', 'LOCATION', 'ORGANIZATION', 'EVENT', 'WORK_OF_ART', 'CONSUMER_GOOD', 'PHONE_NUMBER', 'ADDRESS', 'DATE', 'NUMBER', 'PRICE', 'EMAIL', 'URL', 'OTHER']),
  language: Type.String(),
  mentions: Type.Integer({ minimum: 1 }),
  meta: FreeObject
})

export const Category = Type.Object({
  name: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1 })
})

export const EntitiesResult = Type.Object({ entities: Type.Array(Entity), meta: FreeObject })

export const SentimentResult = Type.Object({
  sentiment: Type.Enum(['positive', 'negative', 'neutral', 'mixed']),
  magnitude: Type.Number({ minimum: 0 }),
  score: Type.Number({ minimum: -1, maximum: 1 }),
  language: Type.String({ description: 'The language the analysis ran on.' }),
  meta: FreeObject
})

export const ModerationResult = Type.Object({ categories: Type.Array(Category), meta: FreeObject })
export const CategoriesResult = Type.Object({ categories: Type.Array(Category), meta: FreeObject })

export const AnalyzeRequest = Type.Object({
  document: Document,
  analyses: Type.Optional(Type.Array(Type.Enum([...ANALYSES]), { maxItems: 4, description: 'Absent or empty means all four.' })),
  meta: Type.Optional(StringMap)
}, { additionalProperties: false, examples: [{ document: { value: 'Anna Schmidt moved to Berlin in May 2024 and loves the city.', language: 'en' }, analyses: ['entities', 'sentiment'] }] })

export const AnalyzeResponse = Type.Object({
  request: Type.Object({ document: Document, analyses: Type.Optional(Type.Array(Type.String())), meta: Type.Optional(StringMap) }, { description: 'Echo of the request: exactly the fields it sent (an absent `analyses` or `meta` stays absent).' }),
  entities: Type.Optional(EntitiesResult),
  sentiment: Type.Optional(SentimentResult),
  moderation: Type.Optional(ModerationResult),
  categories: Type.Optional(CategoriesResult),
  meta: Type.Unsafe<Record<string, unknown>>({
    type: 'object',
    additionalProperties: true,
    description: 'The request\'s `meta` unchanged, plus `language` (the document\'s language, given or detected) and `detected_confidence` (when detected). A key the client already sent is never overwritten: the service\'s value is then under `service_<key>` (e.g. `service_language`).'
  })
})

export const SentimentRequest = Type.Object({
  document: Document,
  meta: Type.Optional(StringMap)
}, { additionalProperties: false, examples: [{ document: { value: 'The food was wonderful and the staff were so friendly!' } }] })

export type AnalyzeRequestT = Static<typeof AnalyzeRequest>
export type AnalyzeResponseT = Static<typeof AnalyzeResponse>
export type SentimentRequestT = Static<typeof SentimentRequest>
export type SentimentResultT = Static<typeof SentimentResult>
