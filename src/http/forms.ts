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

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+"
/** A Content-Disposition value read as RFC 2045 parameters, whose quoted strings may hold quoted pairs. */
const DISPOSITION = new RegExp(`^[ \\t]*${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}[ \\t]*=[ \\t]*(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))*[ \\t]*;?[ \\t]*$`)
const QUOTED = /"((?:[^"\\]|\\.)*)"/g

/**
 * A part's header lines with the quoted pairs `\"` and `\\` of its Content-Disposition (RFC 7578
 * and 2045, as Go's mime/multipart writes `filename="My \"Best\" Report.txt"`) as the WHATWG
 * encoding undici reads (`%22`, `\`). A line that does not read whole as parameters with quoted
 * pairs is left as it was: a browser escapes no backslash (`filename="dir\"` is its own name).
 */
function whatwgHeaders (headers: string): string {
  return headers.split('\r\n').map(line => {
    const colon = line.indexOf(':')
    if (!/^content-disposition[ \t]*:/i.test(line) || !line.includes('\\')) return line
    const value = line.slice(colon + 1)
    if (!DISPOSITION.test(value)) return line
    return line.slice(0, colon + 1) + value.replace(QUOTED, (_quoted, inner: string) => `"${inner.replace(/\\(["\\])/g, (_pair, c: string) => c === '"' ? '%22' : c)}"`)
  }).join('\r\n')
}

/**
 * The multipart body with each part's headers as undici reads them (whatwgHeaders), only where
 * one has a backslash; the body itself when none does. The parts' contents are not touched.
 */
function withWhatwgPartHeaders (bytes: Uint8Array, boundary: string): Uint8Array {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (body.indexOf(0x5c) === -1) return bytes
  const delimiter = Buffer.from(`--${boundary}`, 'latin1')
  const afterBreak = Buffer.from(`\r\n--${boundary}`, 'latin1')
  const nextDelimiter = (from: number): number => {
    const found = body.indexOf(afterBreak, from)
    return found === -1 ? -1 : found + 2
  }
  const pieces: Uint8Array[] = []
  let copied = 0
  // the first delimiter may open the body; every other follows a line break
  let at = body.subarray(0, delimiter.length).equals(delimiter) ? 0 : nextDelimiter(0)
  // up to the closing delimiter ("--" after the boundary)
  while (at !== -1 && body.toString('latin1', at + delimiter.length, at + delimiter.length + 2) !== '--') {
    const lineEnd = body.indexOf('\r\n', at + delimiter.length, 'latin1')
    const end = lineEnd === -1 ? -1 : body.indexOf('\r\n\r\n', lineEnd, 'latin1')
    if (end === -1) break
    const start = lineEnd + 2
    const headers = body.toString('latin1', start, end)
    // latin1 keeps every byte as it was, a UTF-8 file name's too
    const rewritten = headers.includes('\\') ? whatwgHeaders(headers) : headers
    if (rewritten !== headers) {
      pieces.push(body.subarray(copied, start), Buffer.from(rewritten, 'latin1'))
      copied = end
    }
    at = nextDelimiter(end)
  }
  if (pieces.length === 0) return bytes
  pieces.push(body.subarray(copied))
  return Buffer.concat(pieces)
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
    const read = withWhatwgPartHeaders(bytes, boundary)
    // a body shared with a pool thread is copied: a Response takes no shared memory
    const owned = read.buffer instanceof SharedArrayBuffer ? new Uint8Array(read) : read
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
