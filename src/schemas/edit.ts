/** POST /language/edit shapes and the tone list. */
import { Type, type Static } from 'typebox'
import { Document, FreeObject, StringMap } from './common.js'
import type { Limits } from '../core/limits.js'
import { TONES } from '../core/tones.js'

export const Tone = Type.Enum([...TONES])

export const Edit = Type.Unsafe<
  | { type: 'grammar' | 'syntax' | 'simplify' | 'clarify' }
  | { type: 'length', length: 'default' | 'expand' | 'shorten' }
  | { type: 'tone', tone: typeof TONES[number] }
>({
  type: 'object',
  description: 'One edit: {type: grammar|syntax|simplify|clarify}, {type: "length", length: default|expand|shorten} or {type: "tone", tone: <tone>}.',
  discriminator: { propertyName: 'type' },
  required: ['type'],
  oneOf: [
    { type: 'object', properties: { type: { const: 'grammar' } }, required: ['type'], additionalProperties: false },
    { type: 'object', properties: { type: { const: 'syntax' } }, required: ['type'], additionalProperties: false },
    { type: 'object', properties: { type: { const: 'simplify' } }, required: ['type'], additionalProperties: false },
    { type: 'object', properties: { type: { const: 'clarify' } }, required: ['type'], additionalProperties: false },
    { type: 'object', properties: { type: { const: 'length' }, length: { enum: ['default', 'expand', 'shorten'] } }, required: ['type', 'length'], additionalProperties: false },
    { type: 'object', properties: { type: { const: 'tone' }, tone: { enum: [...TONES] } }, required: ['type', 'tone'], additionalProperties: false }
  ]
})

export function editSchemas (limits: Limits) {
  const EditRequest = Type.Object({
    document: Document,
    edits: Type.Array(Edit, { minItems: 1, maxItems: limits.edits }),
    tone_level: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 5, description: 'Strength of the tone edit.' })),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0.3 })),
    meta: Type.Optional(StringMap)
  }, {
    additionalProperties: false,
    examples: [{ document: { value: 'Their going to the libary tomorow.', language: 'en' }, edits: [{ type: 'grammar' }, { type: 'syntax' }] }]
  })

  const Change = Type.Object({
    offset: Type.Integer({ minimum: 0, description: 'Code points into the original string.' }),
    length: Type.Integer({ minimum: 0, description: 'Code points of the original string replaced (0: an insertion).' }),
    original: Type.String(),
    replacement: Type.String(),
    type: Type.String({ description: 'The edit type that made the change (of a change two edits made, such as a word fixed and capitalised, the first one\'s), or "edit" when several edits were asked and the editor cannot say which.' }),
    reason: Type.Optional(Type.String({ description: 'Why, when the editor says (the offline rules always do); of a change several edits made, their reasons joined by "; ".' })),
    path: Type.Optional(Type.String({ description: 'JSON Pointer of the string leaf inside a JSON object/array document value.' }))
  })

  const EditResponse = Type.Object({
    document: Document,
    original: Document,
    meta: FreeObject,
    changes: Type.Array(Change, { description: 'Changes against the original text.' })
  })
  return { EditRequest, EditResponse }
}

export const Tones = Type.Array(Tone, { description: 'The 33 tones valid for edits, in order.' })

type EditSchemas = ReturnType<typeof editSchemas>
export type EditRequestT = Static<EditSchemas['EditRequest']>
export type EditResponseT = Static<EditSchemas['EditResponse']>
