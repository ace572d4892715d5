/**
 * fast-check arbitraries from JSON Schema: the subset the service's OpenAPI document uses
 * (object, array, string, integer, number, boolean, null, enum, const, pattern, anyOf/oneOf, $ref).
 */
import fc from 'fast-check'

/** A JSON Schema object as the OpenAPI document holds it (read field by field). */
export type JsonSchema = { [keyword: string]: unknown }

/** The parts of an OpenAPI 3.1 document the fuzzer reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation | unknown>>
  components?: { schemas?: Record<string, JsonSchema> }
}

export interface OpenApiParameter {
  name: string
  in: 'query' | 'path' | 'header' | 'cookie'
  required?: boolean
  schema: JsonSchema
}

export interface OpenApiOperation {
  operationId?: string
  parameters?: OpenApiParameter[]
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>
}

export interface SchemaArbitraryOptions {
  /**
   * Realistic values for a property by name (a random string is almost never a language tag or
   * a MIME type the service knows): used instead of the schema's own strings for that name.
   */
  vocabulary?: Record<string, fc.Arbitrary<unknown>>
  /** Values for a schema that says nothing (`{}` items, free-form objects). */
  anything?: fc.Arbitrary<unknown>
  /** Largest array generated when the schema allows more (default 4). */
  maxItems?: number
  /** Largest random string when the schema allows more (default 40). */
  maxLength?: number
}

/** The schema a `#/...` reference points at in `document`. */
export function lookupRef (ref: string, document: OpenApiDocument): JsonSchema {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported, got ${ref}`)
  let node: unknown = document
  for (const raw of ref.slice(2).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    node = (node as Record<string, unknown> | undefined)?.[token]
  }
  if (node === null || typeof node !== 'object') throw new Error(`${ref} does not resolve`)
  return node as JsonSchema
}

/** `schema` with every `$ref` replaced by what it points at (the document's schemas are not recursive). */
export function resolveRefs (schema: unknown, document: OpenApiDocument, depth = 0): unknown {
  if (depth > 64) throw new Error('schema references nest too deep (recursive schema?)')
  if (Array.isArray(schema)) return schema.map(s => resolveRefs(s, document, depth + 1))
  if (schema === null || typeof schema !== 'object') return schema
  const node = schema as JsonSchema
  if (typeof node['$ref'] === 'string') return resolveRefs(lookupRef(node['$ref'], document), document, depth + 1)
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(node)) out[key] = resolveRefs(value, document, depth + 1)
  return out
}

const plainAnything: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 })

/** Random strings: mostly printable, sometimes any code point (lone surrogates included). */
function randomString (minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength }), weight: 3 },
    { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }), weight: 1 },
    { arbitrary: fc.string({ minLength, maxLength, unit: 'binary' }), weight: 1 }
  )
}

function asSchemas (value: unknown): JsonSchema[] {
  return Array.isArray(value) ? value.filter((s): s is JsonSchema => s !== null && typeof s === 'object') : []
}

/** An arbitrary of values valid against `schema` (references resolved in `document`); `name` is the property it is for. */
export function schemaArbitrary (schema: JsonSchema, document: OpenApiDocument, options: SchemaArbitraryOptions = {}, name?: string): fc.Arbitrary<unknown> {
  const maxItems = options.maxItems ?? 4
  const maxLength = options.maxLength ?? 40
  const anything = options.anything ?? plainAnything

  const build = (s: JsonSchema, prop: string | undefined, depth: number): fc.Arbitrary<unknown> => {
    if (depth > 32) return fc.constant(null)
    if (typeof s['$ref'] === 'string') return build(lookupRef(s['$ref'], document), prop, depth + 1)
    const named = prop === undefined ? undefined : options.vocabulary?.[prop]
    // a property with a vocabulary and no structure of its own to keep (not an object or array schema)
    if (named !== undefined && s['type'] !== 'object' && s['type'] !== 'array') return named
    if ('const' in s) return fc.constant(s['const'])
    if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as unknown[]))
    const union = asSchemas(s['oneOf']).concat(asSchemas(s['anyOf']))
    if (union.length > 0) {
      // sibling keywords (a discriminator's `required`, `type`) hold for every branch
      const { oneOf: _o, anyOf: _a, discriminator: _d, ...shared } = s
      return fc.oneof(...union.map(branch => build({ ...shared, ...branch }, prop, depth + 1)))
    }
    const type = s['type']
    if (Array.isArray(type)) return fc.oneof(...type.map(t => build({ ...s, type: t }, prop, depth + 1)))
    switch (type) {
      case 'object': return objectArbitrary(s, prop, depth)
      case 'array': {
        const items = (s['items'] ?? {}) as JsonSchema
        const min = typeof s['minItems'] === 'number' ? s['minItems'] : 0
        const max = Math.max(min, Math.min(typeof s['maxItems'] === 'number' ? s['maxItems'] : maxItems, maxItems))
        // items take the array's name: `targets` items are language tags
        return fc.array(build(items, prop, depth + 1), { minLength: min, maxLength: max })
      }
      case 'string': {
        const min = typeof s['minLength'] === 'number' ? s['minLength'] : 0
        const max = Math.max(min, Math.min(typeof s['maxLength'] === 'number' ? s['maxLength'] : maxLength, maxLength))
        const examples = Array.isArray(s['examples']) ? (s['examples'] as unknown[]).filter(e => typeof e === 'string') : []
        // a pattern is approximated by its examples (or one string the pattern accepts)
        if (typeof s['pattern'] === 'string') {
          return examples.length > 0 ? fc.constantFrom(...examples) : fc.stringMatching(new RegExp(s['pattern']), { maxLength: max })
        }
        const random = randomString(min, max)
        return examples.length > 0 ? fc.oneof(fc.constantFrom(...examples), random) : random
      }
      case 'integer': {
        const min = typeof s['minimum'] === 'number' ? Math.ceil(s['minimum']) : -1_000_000
        const max = typeof s['maximum'] === 'number' ? Math.floor(s['maximum']) : 1_000_000
        return fc.integer({ min, max })
      }
      case 'number': {
        const min = typeof s['minimum'] === 'number' ? s['minimum'] : -1e6
        const max = typeof s['maximum'] === 'number' ? s['maximum'] : 1e6
        return fc.double({ min, max, noNaN: true, noDefaultInfinity: true })
      }
      case 'boolean': return fc.boolean()
      case 'null': return fc.constant(null)
      default: return anything
    }
  }

  const objectArbitrary = (s: JsonSchema, prop: string | undefined, depth: number): fc.Arbitrary<unknown> => {
    const properties = (s['properties'] ?? {}) as Record<string, JsonSchema>
    const required = new Set(Array.isArray(s['required']) ? (s['required'] as string[]) : [])
    const extra = s['additionalProperties']
    const maxKeys = Math.min(typeof s['maxProperties'] === 'number' ? s['maxProperties'] : maxItems, maxItems)
    const declared = Object.keys(properties)
    // a free-form object ({additionalProperties: true}) holds anything; `meta` maps to strings
    if (declared.length === 0) {
      if (extra === false) return fc.constant({})
      const values = extra === true || extra === undefined ? anything : build(extra as JsonSchema, prop, depth + 1)
      return fc.dictionary(fc.string({ maxLength: 12 }), values, { maxKeys, noNullPrototype: true })
    }
    const model: Record<string, fc.Arbitrary<unknown>> = {}
    for (const [key, sub] of Object.entries(properties)) model[key] = build(sub, key, depth + 1)
    return fc.record(model, { requiredKeys: declared.filter(k => required.has(k)) })
  }

  return build(schema, name, 0)
}
