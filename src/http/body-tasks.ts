/**
 * A large request body on a pool thread (see bodies.ts): parsed and validated there, with the
 * route's own schema and the validator settings the event loop uses, and kept there. The event
 * loop gets back the body without its large document values, which stay held (runtime/held-values.ts).
 */
import { documentCost, INLINE_COST, rawLength } from '../core/documents/cost.js'
import { parseMimeType, type MimeType } from '../core/documents/mime.js'
import { holdBody, parseJsonText } from '../runtime/held-values.js'
import { readForm, withQuery, type FileParts, type FormKind, type FormProblem } from './forms.js'
import { MAX_BODY_DEPTH, textDepth, tooDeep } from './json-text.js'
import { compileValidator, type Validator } from './validation.js'

/** A value left on the thread: where it is in the body, what it is, and its figures. */
export interface HeldEntry {
  path: Array<string | number>
  kind: 'string' | 'object' | 'array'
  cost: number
  rawLength: number
}

export type ReadBody =
  | { view: unknown, held: HeldEntry[] }
  /** Not JSON: the event loop answers as Fastify does for an invalid body. */
  | { invalidJson: true }
  | { tooDeep: string[] }
  /** The schema's errors, as Fastify's validator gives them. */
  | { validation: unknown[] }

const validators = new Map<string, Validator>()

function validatorFor (route: string, schema: unknown): Validator {
  let validate = validators.get(route)
  if (validate === undefined) validators.set(route, validate = compileValidator(schema))
  return validate
}

/** The document values of a body (`document.value`, `documents[i].value`) with their MIME types. */
function documentValues (body: unknown): Array<{ path: Array<string | number>, value: unknown, mime: MimeType }> {
  const out: Array<{ path: Array<string | number>, value: unknown, mime: MimeType }> = []
  const mimeOf = (doc: Record<string, unknown>): MimeType => {
    try {
      return parseMimeType(doc['mime_type'] as string | undefined, [])
    } catch {
      return 'text/plain'
    }
  }
  const record = body as Record<string, unknown>
  const single = record['document'] as Record<string, unknown> | undefined
  if (single !== undefined && 'value' in single) out.push({ path: ['document', 'value'], value: single['value'], mime: mimeOf(single) })
  const many = record['documents']
  if (Array.isArray(many)) {
    many.forEach((doc: Record<string, unknown>, i) => { if ('value' in doc) out.push({ path: ['documents', i, 'value'], value: doc['value'], mime: mimeOf(doc) }) })
  }
  return out
}

/** A JSON body parsed, or why not: not JSON, or nested deeper than MAX_BODY_DEPTH (where). */
function parseJsonBody (bytes: SharedArrayBuffer): { body: unknown } | { invalidJson: true } | { tooDeep: ReturnType<typeof tooDeep> & {} } {
  const text = Buffer.from(bytes).toString('utf8')
  let body: unknown
  try {
    body = parseJsonText(text)
  } catch {
    return { invalidJson: true }
  }
  if (textDepth(text) > MAX_BODY_DEPTH) {
    const path = tooDeep(body, MAX_BODY_DEPTH)
    if (path !== undefined) return { tooDeep: path }
  }
  return { body }
}

/**
 * Parses, measures and validates a body (its bytes shared, not copied), keeps it under `key`,
 * and answers it without its costly document values (each named by a HeldEntry instead).
 */
export function readBody (key: string, bytes: SharedArrayBuffer, route: string, schema: unknown, textChars: number): ReadBody {
  const parsed = parseJsonBody(bytes)
  if (!('body' in parsed)) return parsed
  const body = parsed.body
  const validate = validatorFor(route, schema)
  if (validate(body) !== true) return { validation: validate.errors ?? [] }
  const held: HeldEntry[] = []
  for (const { path, value, mime } of documentValues(body)) {
    if (typeof value !== 'string' && (typeof value !== 'object' || value === null)) continue
    const cost = documentCost(value, mime)
    // cheap values go to the event loop as they are: they cost less to copy than to work on here
    if (cost <= INLINE_COST) continue
    held.push({ path, kind: typeof value === 'string' ? 'string' : Array.isArray(value) ? 'array' : 'object', cost, rawLength: rawLength(value, textChars + 1) })
  }
  // the answer is copied to the event loop: the held values are not part of it, and stay here
  if (held.length === 0) return { view: body, held }
  holdBody(key, body, bytes.byteLength)
  const view = withoutHeld(body, held)
  return { view, held }
}

/** A shallow copy of the body along the held values' paths, with each held value replaced by null. */
function withoutHeld (body: unknown, held: HeldEntry[]): unknown {
  const copy = { ...(body as Record<string, unknown>) }
  for (const { path } of held) {
    let at: Record<string | number, unknown> = copy
    for (let i = 0; i < path.length - 1; i++) {
      const step = path[i]!
      const next = at[step] as Record<string | number, unknown>
      at[step] = Array.isArray(next) ? [...next] : { ...next }
      at = at[step] as Record<string | number, unknown>
    }
    at[path.at(-1)!] = null
  }
  return copy
}

/** A drop-in API's body read on the pool: the fields its schema names, or why it was refused. */
export type ReadFields =
  | { view: Record<string, unknown> }
  /** The schema's errors, with the body's short string fields (where its key may be) to check the key by. */
  | { view: Record<string, unknown>, validation: unknown[] }
  | { invalidJson: true }
  | { tooDeep: string[] }
  | FormProblem

/** A field longer than this is not kept of a body that failed its schema: no key is that long. */
const KEY_FIELD_CHARS = 1024

/**
 * Parses a drop-in API's body (JSON or a form, with `query`'s fields where its route reads them
 * with the form's), keeps only the fields its schema names (its handler reads no other: a body of
 * 100,000 unknown fields comes back as nothing) and validates them with the route's schema. The
 * event loop gets a body of at most those fields.
 */
export async function readFields (bytes: SharedArrayBuffer, type: 'json' | FormKind, contentType: string, route: string, schema: unknown, files?: FileParts, query?: Record<string, unknown>): Promise<ReadFields> {
  let body: unknown
  if (type === 'json') {
    const parsed = parseJsonBody(bytes)
    if (!('body' in parsed)) return parsed
    body = parsed.body
  } else {
    const read = await readForm(new Uint8Array(bytes), type, contentType, files)
    if ('problem' in read) return read
    body = query === undefined ? read.fields : withQuery(read.fields, query, files)
  }
  const names = Object.keys((schema as { properties?: object } | undefined)?.properties ?? {})
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body)
  const view: Record<string, unknown> = {}
  if (isObject) for (const name of names) if (Object.hasOwn(body as object, name)) view[name] = (body as Record<string, unknown>)[name]
  if (schema === undefined) return { view }
  // a body that is not an object is validated as it is (the schema says what it must be), and not sent back
  const validate = validatorFor(route, schema)
  if (validate(isObject ? view : body) === true) return { view }
  const short: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(view)) if (typeof value === 'string' && value.length <= KEY_FIELD_CHARS) short[name] = value
  return { view: short, validation: validate.errors ?? [] }
}
