/** POST /language/substitute shapes. */
import { Type, type Static } from 'typebox'
import { AppliedSubstitution, Document, StringMap, Substitution } from './common.js'
import type { Limits } from '../core/limits.js'

export function substituteSchemas (limits: Limits) {
  const SubstituteRequest = Type.Object({
    document: Document,
    substitutions: Type.Array(Substitution, { maxItems: limits.substitutions }),
    meta: Type.Optional(StringMap),
    options: Type.Optional(Type.Object({
      substitutions_case_sensitive: Type.Optional(Type.Boolean({ default: false }))
    }, { additionalProperties: false }))
  }, {
    additionalProperties: false,
    examples: [{ document: { value: 'Sign in to Acme Cloud to continue.' }, substitutions: [{ text: 'Acme Cloud', substitution: 'Acme Cloud™' }] }]
  })

  const SubstituteResponse = Type.Object({
    document: Document,
    original: Document,
    meta: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      description: 'The request meta unchanged, plus `substitutions`: what was applied, with counts. A request meta key `substitutions` is never overwritten: what was applied is then under `service_substitutions`.',
      properties: { substitutions: Type.Union([Type.Array(AppliedSubstitution), Type.String()]), service_substitutions: Type.Array(AppliedSubstitution) },
      additionalProperties: true
    })
  })
  return { SubstituteRequest, SubstituteResponse }
}

type SubstituteSchemas = ReturnType<typeof substituteSchemas>
export type SubstituteRequestT = Static<SubstituteSchemas['SubstituteRequest']>
export type SubstituteResponseT = Static<SubstituteSchemas['SubstituteResponse']>
