/**
 * The drop-in APIs' file translation (DeepL's /v2/document, LibreTranslate's /translate_file): an
 * uploaded file becomes a translate request's document (its format from its name's extension, a
 * binary format's bytes in base64 as /language takes them), worked as a document job, and the job's
 * answer becomes the translated file again. Any format core reads is offered; the rest are refused.
 */
import { Type, type TUnsafe } from 'typebox'
import { invalidField, type FieldPath } from '../errors.js'
import { MIME_TYPES, isBinaryType } from '../core/documents/mime.js'
import type { FormFile } from '../http/forms.js'
import type { JobError } from '../jobs/store.js'
import { own } from '../lib/own.js'

/**
 * Why a file's job failed, in a drop-in API's words: the field its error names, by the API's
 * `fieldName` (which calls the request's document the form's `file`), not core's JSON pointer.
 */
export function fileJobMessage (error: JobError | undefined, fieldName: (path: FieldPath) => string): string {
  const first = error?.errors?.[0]
  if (error === undefined) return 'The file could not be translated.'
  if (first === undefined) return error.detail
  const path = first.pointer.split('/').slice(1).map(part => part.replaceAll('~1', '/').replaceAll('~0', '~'))
  return `${fieldName(path)}: ${first.message}`
}

/** File name extensions and the formats they are, for every format a drop-in API's clients send as files. */
const EXTENSIONS: Record<string, string> = {
  txt: 'text/plain',
  htm: 'text/html',
  html: 'text/html',
  xlf: 'application/xliff+xml',
  xliff: 'application/xliff+xml',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
  md: 'text/markdown',
  po: 'text/x-gettext-translation',
  json: 'application/json',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  epub: 'application/epub+zip'
}

/** The extensions of the formats core reads now, in the order above (what the APIs list as supported). */
export function fileExtensions (): string[] {
  return Object.keys(EXTENSIONS).filter(ext => (MIME_TYPES as readonly string[]).includes(EXTENSIONS[ext]!))
}

/** A file name's extension, lower-case, without the dot ('' when none). */
export function extensionOf (filename: string): string {
  const at = filename.lastIndexOf('.')
  return at <= 0 || at === filename.length - 1 ? '' : filename.slice(at + 1).toLowerCase()
}

/** The format of a file by its name; undefined when core does not read it. */
export function formatOf (filename: string): string | undefined {
  const mime = own(EXTENSIONS, extensionOf(filename))
  return mime !== undefined && (MIME_TYPES as readonly string[]).includes(mime) ? mime : undefined
}

/**
 * A multipart body's file part in a route's schema. The body validated holds it as http/forms.ts
 * read it (a FormFile, not a string), so it has no `type` here; its `contentMediaType` has the
 * OpenAPI document declare it a binary string (http/openapi.ts), which Swagger UI uploads a file for.
 */
export function filePart (description: string): TUnsafe<FormFile> {
  return Type.Unsafe<FormFile>({ contentMediaType: 'application/octet-stream', description })
}

/** An uploaded file as a translate request's document (a 400 at `field` when it is not UTF-8 text where text is due). */
export function documentOfFile (file: FormFile, mime: string, field: string): { value: string, mime_type: string } {
  if (isBinaryType(mime)) return { value: Buffer.from(file.bytes).toString('base64'), mime_type: mime }
  let text: string
  try {
    // a byte order mark stays: core reads what follows it and writes it back, so the file keeps it
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(file.bytes)
  } catch {
    throw invalidField([field], 'the file is not UTF-8 text')
  }
  return { value: text, mime_type: mime }
}

/** Characters of a document's text as uploaded (a binary format: its bytes), what the APIs count as billed. */
export function fileCharacters (document: { value: string, mime_type: string }): number {
  return isBinaryType(document.mime_type) ? Buffer.byteLength(document.value, 'base64') : document.value.length - (document.value.startsWith('\uFEFF') ? 1 : 0)
}

/** The translated file in a done job's answer (a translate answer's JSON text, one target). */
export function fileOfResult (result: string): { bytes: Buffer, mime: string } {
  const answer = JSON.parse(result) as { results: Record<string, { value: unknown, mime_type: string }> }
  const [translated] = Object.values(answer.results)
  const value = typeof translated?.value === 'string' ? translated.value : JSON.stringify(translated?.value ?? '')
  const mime = translated?.mime_type ?? 'text/plain'
  return { bytes: isBinaryType(mime) ? Buffer.from(value, 'base64') : Buffer.from(value, 'utf8'), mime }
}

/** An answer's `content` for a translated file: one entry per format core reads (OpenAPI). */
export function fileContent (): Record<string, { schema: { type: 'string', format: 'binary' } }> {
  const mimes = [...new Set(fileExtensions().map(ext => EXTENSIONS[ext]!))]
  return Object.fromEntries(mimes.map(mime => [mime, { schema: { type: 'string', format: 'binary' } }]))
}

/** A Content-Type for a translated file: text formats in UTF-8. */
export function contentTypeOf (mime: string): string {
  return isBinaryType(mime) ? mime : `${mime}; charset=utf-8`
}

/** Content-Disposition for a download named `filename` (RFC 6266: an ASCII fallback and the UTF-8 name). */
export function attachment (filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  // RFC 8187's attr-char has no ' ( ) *, which encodeURIComponent leaves as they are (strict parsers refused "report%20(1).txt")
  const encoded = encodeURIComponent(filename.toWellFormed()).replace(/['()*]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
