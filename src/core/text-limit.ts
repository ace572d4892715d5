/** MAX_TEXT_CHARS: how much text a request may hold, checked before any per-target work. */
import { TextLimitError, type FieldPath } from '../errors.js'
import { parseMimeType, type MimeType } from './documents/mime.js'
import { textOfDocument, type DocumentWork } from './documents/offload.js'
import { rawLength } from './documents/cost.js'
import type { KeptElements } from './documents/kept-elements.js'
import type { FinishedEntries } from './documents/segment.js'

/**
 * Refuses documents holding more than `limit` characters of text together (413 at `path`); `work`
 * is the request's document work, and each document's `at` is where its value is (for its own errors).
 */
export async function checkTextLimit (docs: ReadonlyArray<{ value: unknown, mime: MimeType, at: FieldPath, kept?: KeptElements | undefined, finished?: FinishedEntries | undefined }>, limit: number, path: FieldPath, work: DocumentWork): Promise<void> {
  // the raw length bounds the text: count precisely (which means segmenting) only when it is over
  if (docs.reduce((n, d) => n + rawLength(d.value, limit - n), 0) <= limit) return
  let chars = 0
  for (const { value, mime, at, kept, finished } of docs) {
    chars += (await textOfDocument(value, mime, work, { path: at, kept, finished })).length
    if (chars > limit) {
      throw new TextLimitError(limit, path)
    }
  }
}

/**
 * A request's one document (`document`) as the single-document use cases take it: its MIME type
 * (400 at /document/mime_type) and its text checked against `limit` (413 at /document/value), the
 * costly part of that on the request's document work (`work`); `finished`: what the use case
 * reads of a catalog's finished entries, counted as well.
 */
export async function openDocument (document: { value: unknown, mimeType?: string | undefined }, limit: number, work: DocumentWork, finished?: FinishedEntries): Promise<{ mime: MimeType }> {
  const mime = parseMimeType(document.mimeType, ['document', 'mime_type'])
  await checkTextLimit([{ value: document.value, mime, at: ['document', 'value'], finished }], limit, ['document', 'value'], work)
  return { mime }
}
