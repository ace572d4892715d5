/** MAX_TEXT_CHARS: how much text a request may hold, checked before any per-target work. */
import { TextLimitError, type FieldPath } from '../errors.js'
import { documentText, parseMimeType, readyToSegment, type MimeType, type SegmentContext } from './documents/index.js'

/** Characters in the string leaves of a value: an upper bound of its text (markup included). */
function rawLength (value: unknown): number {
  let total = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v === 'string') total += v.length
    else if (v !== null && typeof v === 'object') for (const child of Object.values(v)) stack.push(child)
  }
  return total
}

/** Refuses documents holding more than `limit` characters of text together (400 at `path`); `context` is readyToSegment's. */
export function checkTextLimit (docs: ReadonlyArray<{ value: unknown, mime: MimeType, context?: SegmentContext }>, limit: number, path: FieldPath): void {
  // the raw length bounds the text: count precisely (which means segmenting) only when it is over
  if (docs.reduce((n, d) => n + rawLength(d.value), 0) <= limit) return
  let chars = 0
  for (const { value, mime, context } of docs) {
    chars += documentText(value, mime, { context }).length
    if (chars > limit) {
      throw new TextLimitError(limit, path)
    }
  }
}

/**
 * A request's one document (`document`) as the single-document use cases take it: its MIME type
 * (400 at /document/mime_type), what segmenting it needs (see readyToSegment), and its text checked
 * against `limit` (413 at /document/value).
 */
export async function openDocument (document: { value: unknown, mimeType?: string | undefined }, limit: number): Promise<{ mime: MimeType, context: SegmentContext }> {
  const mime = parseMimeType(document.mimeType, ['document', 'mime_type'])
  const context = await readyToSegment(document.value, mime)
  checkTextLimit([{ value: document.value, mime, context }], limit, ['document', 'value'])
  return { mime, context }
}
