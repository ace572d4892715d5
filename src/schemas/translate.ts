/** Translation shapes: TranslationRequest, bulk, TranslationResult, locale lists. */
import { Type, type Static } from 'typebox'
import { AppliedSubstitution, Document, LanguageTag, StringMap, Substitution } from './common.js'
import type { Limits } from '../core/limits.js'
import { FORMALITIES } from '../core/formality.js'

export const Formality = Type.Enum([...FORMALITIES], {
  description: 'Formality of the translation; services that cannot honour it ignore prefer_*; plain more|less on such a service is a 400.'
})

export const TranslateOptions = Type.Object({
  service: Type.Optional(Type.Union([
    Type.String({ minLength: 1, maxLength: 64 }),
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 10 })
  ], { description: 'A service name or names to try, in order (see GET /language/translate/locales for the configured ones); a name given twice is tried once, in its first place.' })),
  fallback: Type.Optional(Type.Boolean({ default: true, description: 'On a failing service, try the next one that supports the pair.' })),
  formality: Type.Optional(Formality),
  context: Type.Optional(Type.String({ maxLength: 5000, description: 'Text that helps disambiguation; not translated.' })),
  preserve_placeholders: Type.Optional(Type.Boolean({ default: true, description: 'Protect {name}, {0}, {{name}}, %s, %1$s, %(name)s and <0>…</0> tokens from the engine. URLs, e-mail addresses, paths, file names, code and control characters are protected whatever this says.' })),
  substitutions_case_sensitive: Type.Optional(Type.Boolean({ default: false })),
  cache: Type.Optional(Type.Boolean({ default: true, description: 'Use the segment translation cache.' }))
}, { additionalProperties: false, description: 'Translation options; unknown keys are a 400.' })
export type TranslateOptionsT = Static<typeof TranslateOptions>

/** How many entries `targets` may hold, repeats included, per distinct language allowed (MAX_TARGETS counts distinct ones). */
export const TARGET_ENTRIES_PER_LANGUAGE = 5

/**
 * A copy of a schema without `default` keywords. An echo (`original`) says what the client sent:
 * the response serializer would otherwise write each absent field's default into it.
 */
export function withoutDefaults<T> (schema: T): T {
  return strip(schema, true)
}

function strip<T> (node: T, isSchema: boolean): T {
  if (Array.isArray(node)) return node.map(item => strip(item, isSchema)) as T
  if (node === null || typeof node !== 'object') return node
  // every own key, the non-enumerable ones TypeBox keeps ('~kind', '~optional') included
  const descriptors = Object.getOwnPropertyDescriptors(node) as Record<string, PropertyDescriptor>
  if (isSchema) delete descriptors['default']
  for (const [key, descriptor] of Object.entries(descriptors)) {
    if (!('value' in descriptor)) continue
    // the values of a map of schemas are schemas, its keys are names (a property may be called "default")
    const map = isSchema && (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions')
    descriptor.value = map ? mapOfSchemas(descriptor.value) : strip(descriptor.value, isSchema && !NOT_SCHEMAS.has(key))
  }
  return Object.defineProperties({}, descriptors) as T
}

/** Keywords whose values are data, not schemas. */
const NOT_SCHEMAS = new Set(['enum', 'const', 'examples', 'example', 'required'])

function mapOfSchemas (map: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(map)) out[name] = strip(schema, true)
  return out
}

export function translateSchemas (limits: Limits) {
  const targets = Type.Array(LanguageTag, {
    minItems: 1,
    // the limit counts distinct languages (a repeat, "es" and "ES" alike, is removed first): the
    // route counts them; the schema only bounds the work a list of repeats can cause
    maxItems: limits.targets * TARGET_ENTRIES_PER_LANGUAGE,
    description: `Target languages: 1 to ${limits.targets} distinct ones (repeats are removed; at most ${limits.targets * TARGET_ENTRIES_PER_LANGUAGE} entries in all).`
  })
  const source = Type.Optional(Type.String({
    maxLength: 64,
    description: 'Source language; absent, empty or "auto": taken from document.language, else detected (see extra.detected).'
  }))
  const substitutions = Type.Optional(Type.Array(Substitution, { maxItems: limits.substitutions }))

  // what a single and a bulk request share
  const shared = { source, targets, meta: Type.Optional(StringMap), options: Type.Optional(TranslateOptions), substitutions }

  // the examples are what Swagger UI's "Try it out" sends first: each a request the offline service answers
  const TranslationRequest = Type.Object({ document: Document, ...shared }, {
    additionalProperties: false,
    examples: [{ document: { value: '<p>The red car is <b>fast</b>.</p>', mime_type: 'text/html' }, source: 'en', targets: ['es', 'fr'] }]
  })

  const BulkTranslationRequest = Type.Object({
    documents: Type.Array(Document, { minItems: 1, maxItems: limits.bulkDocuments, description: `1 to ${limits.bulkDocuments} documents.` }),
    ...shared
  }, {
    additionalProperties: false,
    examples: [{ documents: [{ value: 'Good morning.' }, { value: 'Where is the station?' }], source: 'en', targets: ['es'] }]
  })

  const TranslatedDocument = Type.Object({
    value: Document.properties.value,
    language: Type.String(),
    mime_type: Type.String()
  })

  const TranslationResult = Type.Object({
    results: Type.Unsafe<Record<string, Static<typeof TranslatedDocument>>>({
      type: 'object',
      additionalProperties: TranslatedDocument,
      description: 'Keyed by the target tags as the client asked for them (canonical form).'
    }),
    original: withoutDefaults(TranslationRequest),
    extra: Type.Object({
      services: Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' }, description: 'The service that produced each target.' }),
      substitutions: Type.Array(AppliedSubstitution, { description: 'The phrases replaced, each with `count`: how many times it was replaced in all of this document\'s targets together (a phrase met once and replaced in two targets counts 2).' }),
      detected: Type.Optional(Type.Object({ language: Type.String(), confidence: Type.Number() }, { description: 'Present when the source was detected.' })),
      source: Type.String({ description: 'The source language used.' })
    })
  })

  return { TranslationRequest, BulkTranslationRequest, TranslationResult }
}

export const TranslateLocaleEntry = Type.Object({
  name: Type.String(),
  tag: Type.String(),
  services: Type.Array(Type.String())
})

export const TranslateLocales = Type.Object({
  source: Type.Array(TranslateLocaleEntry),
  target: Type.Array(TranslateLocaleEntry)
})

export const TranslateLocalesQuery = Type.Object({
  source: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A source language tag: `target` then lists only the languages it translates into, each with the services translating that pair (as `/supported` answers for it alone). `source` stays the whole list.' }))
})

export const SupportedQuery = Type.Object({
  source: Type.String({ minLength: 1, maxLength: 64, description: 'Source language tag.' }),
  target: Type.Union([
    Type.String({ maxLength: 1400 }),
    Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 20 })
  ], { description: 'Target tag(s): repeat the parameter or separate with commas; all must be supported. Empty parts are left out ("es,", "target=es&target=" ask for es alone); none left (an empty `target=`) is a 400 at /target.' })
}, { additionalProperties: false })

export const Supported = Type.Object({
  supported: Type.Boolean(),
  services: Type.Array(Type.String(), { description: 'Services that support every asked pair.' })
})

type TranslateSchemas = ReturnType<typeof translateSchemas>
export type TranslationRequestT = Static<TranslateSchemas['TranslationRequest']>
export type BulkTranslationRequestT = Static<TranslateSchemas['BulkTranslationRequest']>
export type TranslationResultT = Static<TranslateSchemas['TranslationResult']>
export type TranslateLocalesT = Static<typeof TranslateLocales>
export type SupportedT = Static<typeof Supported>
