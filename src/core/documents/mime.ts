/** The document formats the service reads, as `mime_type` names them. */
import { invalidField, type FieldPath } from '../../errors.js'

export const MIME_TYPES = ['text/plain', 'text/html', 'text/markdown', 'application/json', 'application/x-subrip', 'text/vtt', 'text/x-gettext-translation', 'application/xliff+xml', 'application/vnd.android.strings+xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.oasis.opendocument.text', 'application/vnd.oasis.opendocument.spreadsheet', 'application/vnd.oasis.opendocument.presentation', 'application/epub+zip'] as const
export type MimeType = typeof MIME_TYPES[number]

/** The format of a `mime_type` value: default text/plain; parameters (`; charset=utf-8`) and case ignored; unknown -> 400 at `path`. */
export function parseMimeType (value: string | undefined, path: FieldPath = ['document', 'mime_type']): MimeType {
  if (value === undefined) return 'text/plain'
  const essence = value.split(';')[0]!.trim().toLowerCase()
  if (essence === '') return 'text/plain'
  const known = MIME_TYPES.find(t => t === essence)
  if (known === undefined) {
    throw invalidField(path, `unsupported mime type "${value}"; supported: ${MIME_TYPES.join(', ')}`)
  }
  return known
}

/** Formats whose value is a file in base64 (a ZIP package), not text. */
export function isBinaryType (mime: string): boolean {
  return mime.startsWith('application/vnd.openxmlformats-') || mime.startsWith('application/vnd.oasis.opendocument.') || mime === 'application/epub+zip'
}
