/** POST /language/detect shapes. */
import { Type, type Static } from 'typebox'
import { Document, LanguageTag, StringMap } from './common.js'

export const DetectRequest = Type.Object({
  document: Document,
  source_hint: Type.Optional(LanguageTag),
  static: Type.Optional(Type.Unsafe<Record<string, string>>({
    type: 'object',
    additionalProperties: { type: 'string', minLength: 1, maxLength: 64 },
    maxProperties: 10_000,
    description: 'Known texts: when the whole trimmed text equals a key (case-insensitive), that language is answered with confidence 1.'
  })),
  min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0, description: 'Below it, answer source_hint if given, else "und".' })),
  min_chars: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 1, description: 'Shorter text (letters only) answers source_hint if given, else "und" with confidence 0.' })),
  max_chars: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10_000, description: 'Only the first max_chars characters are read.' })),
  limit_results: Type.Optional(Type.Array(LanguageTag, { minItems: 1, maxItems: 200, description: 'Candidate languages are only these.' })),
  no_override: Type.Optional(Type.Boolean({ default: false, description: 'true: static and source_hint never replace the detector answer.' })),
  meta: Type.Optional(StringMap)
}, { additionalProperties: false, examples: [{ document: { value: 'Où est la gare, s\'il vous plaît ?' } }] })

export const Candidate = Type.Object({
  language: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1 })
})

export const DetectResponse = Type.Object({
  language: Type.String({ description: 'BCP 47 tag of the detected language; "und" when undetermined.' }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  meta: StringMap,
  alternatives: Type.Array(Candidate, { maxItems: 5, description: 'Other candidates, best first.' })
})

export type DetectRequestT = Static<typeof DetectRequest>
export type DetectResponseT = Static<typeof DetectResponse>
