/**
 * Form bodies of the drop-in APIs: application/x-www-form-urlencoded (node:querystring) and
 * multipart/form-data (the platform's own FormData reader, undici's). A field given twice is an
 * array, as JSON clients send one. Fields are counted on the raw bytes first: past MAX_FORM_FIELDS
 * the form is refused before any of it is parsed. Used on the event loop for small bodies and on a
 * pool thread for large ones (http/bodies.ts), so it answers problems as values.
 */
import { parse as parseQuery } from 'node:querystring'

/** At most this many fields in one form: the drop-in APIs read a few fields and up to 100 texts. */
export const MAX_FORM_FIELDS = 1000

export type FormKind = 'urlencoded' | 'multipart'
/** A file part of a multipart form, read where a route takes one (its name, media type and bytes as sent). */
export interface FormFile {
  filename: string
  type: string
  bytes: Uint8Array
}
/** A form's fields (no prototype: a field named `__proto__` is only a field). */
export type FormFields = Record<string, string | string[] | FormFile>
/** The file parts a route takes: their field names, and the most bytes each may have. */
export interface FileParts {
  names: readonly string[]
  maxBytes: number
}

/** Whether a field's value is a file part. */
export function isFormFile (value: unknown): value is FormFile {
  return typeof value === 'object' && value !== null && typeof (value as FormFile).filename === 'string' && (value as FormFile).bytes instanceof Uint8Array
}
/** Why a form was refused: 413 (too many fields) or 400 (not a form of its type). */
export interface FormProblem { problem: { status: 400 | 413, message: string, file?: true } }
/** A form read: its fields, or why it was refused. */
export type ReadForm = { fields: FormFields } | FormProblem

const tooMany = (): FormProblem => ({ problem: { status: 413, message: `The form has more than ${MAX_FORM_FIELDS} fields.` } })

/** The kind of form a Content-Type names, if it names one. */
export function formKind (contentType: string | undefined): FormKind | undefined {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  return essence === 'application/x-www-form-urlencoded' ? 'urlencoded' : essence === 'multipart/form-data' ? 'multipart' : undefined
}

/**
 * A form's fields with its request's query's, the query's first where both have a field (as
 * Flask's request.values reads LibreTranslate's); a file part is the form's alone.
 */
export function withQuery (fields: FormFields, query: Record<string, unknown>, files?: FileParts): FormFields {
  const merged: FormFields = Object.assign(Object.create(null) as FormFields, fields)
  for (const [name, value] of Object.entries(query)) {
    if (files?.names.includes(name) !== true && (typeof value === 'string' || Array.isArray(value))) merged[name] = value as string | string[]
  }
  return merged
}

/** How many times `needle` occurs in `bytes`, counting no further than `stop`. */
function occurrences (bytes: Uint8Array, needle: Uint8Array | number, stop: number): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const step = typeof needle === 'number' ? 1 : needle.length
  let n = 0
  for (let at = buffer.indexOf(needle); at !== -1 && n <= stop; at = buffer.indexOf(needle, at + step)) n++
  return n
}

/** The boundary a multipart Content-Type names (quoted or not), as RFC 2046 allows it. */
function boundaryOf (contentType: string): string | undefined {
  const m = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType)
  return m?.[1] ?? m?.[2]
}

/**
 * Reads a form body of `kind`; `contentType` (the request's header) gives a multipart body's
 * boundary. A file part is refused unless `files` names its field (then it is read, up to its size).
 */
export async function readForm (bytes: Uint8Array, kind: FormKind, contentType: string, files?: FileParts): Promise<ReadForm> {
  if (kind === 'urlencoded') {
    // '&' separates fields: counted in C++ over the bytes before any string is made
    if (occurrences(bytes, 0x26, MAX_FORM_FIELDS) >= MAX_FORM_FIELDS) return tooMany()
    const parsed = parseQuery(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), '&', '=', { maxKeys: MAX_FORM_FIELDS })
    return { fields: parsed as FormFields }
  }
  const boundary = boundaryOf(contentType)
  if (boundary === undefined) return { problem: { status: 400, message: 'A multipart/form-data body needs a boundary in its Content-Type.' } }
  // each part opens with the delimiter; the closing one adds one more
  if (occurrences(bytes, Buffer.from(`--${boundary}`, 'latin1'), MAX_FORM_FIELDS + 1) > MAX_FORM_FIELDS + 1) return tooMany()
  let data: FormData
  try {
    // a body shared with a pool thread is copied: a Response takes no shared memory
    const owned = bytes.buffer instanceof SharedArrayBuffer ? new Uint8Array(bytes) : bytes
    data = await new Response(owned, { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }).formData()
  } catch {
    return { problem: { status: 400, message: 'The body is not valid multipart/form-data.' } }
  }
  const fields: FormFields = Object.create(null) as FormFields
  for (const [name, value] of data) {
    if (typeof value !== 'string') {
      if (files === undefined || !files.names.includes(name)) return { problem: { status: 400, message: `${name.slice(0, 100)}: a file is not read here; send the text as a field.` } }
      if (value.size > files.maxBytes) return { problem: { status: 413, message: `${name}: the file has more than ${files.maxBytes} bytes.`, file: true } }
      if (name in fields) return { problem: { status: 400, message: `${name}: one file only.` } }
      fields[name] = { filename: value.name.slice(0, 1000), type: value.type.slice(0, 200), bytes: new Uint8Array(await value.arrayBuffer()) }
      continue
    }
    const before = fields[name]
    if (isFormFile(before)) return { problem: { status: 400, message: `${name}: a file and a field of the same name.` } }
    if (before === undefined) fields[name] = value
    else if (Array.isArray(before)) before.push(value)
    else fields[name] = [before, value]
  }
  return { fields }
}
