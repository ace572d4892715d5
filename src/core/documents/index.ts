/** Documents <-> segments: the one place every format is reduced to tagged-text segments and rebuilt. */
import { invalidField, type FieldPath } from '../../errors.js'

const DOCUMENT_VALUE: FieldPath = ['document', 'value']
import { plainText } from '../tagged.js'
import { htmlDrafts } from './html.js'
import { jsonTextDocument, structuredDocument, type SegmentedDocument } from './json.js'
import { markdownDrafts } from './markdown.js'
import { preparseMarkdown, type SegmentContext } from './markdown-guard.js'
import type { MimeType } from './mime.js'
import { plainDrafts } from './plain.js'
import { stringDocument, type StringDocument } from './skeleton.js'

export { parseMimeType, MIME_TYPES, type MimeType } from './mime.js'
export type { SegmentedDocument } from './json.js'
export type { SegmentContext } from './markdown-guard.js'

export interface SegmentOptions {
  /** The document's language, for sentence boundaries (default "en"). */
  language?: string
  /** Where the value is in the request, for errors (default document.value). */
  path?: FieldPath
  /** What readyToSegment returned for this value (needed for Markdown larger than INLINE_PARSE_CHARS). */
  context?: SegmentContext
}

/** One string of a format as a document. */
function segmentString (text: string, mimeType: Exclude<MimeType, 'application/json'>, locale: string, context: SegmentContext | undefined): StringDocument {
  const drafts = mimeType === 'text/html'
    ? htmlDrafts(text, locale)
    : mimeType === 'text/markdown' ? markdownDrafts(text, locale, context) : plainDrafts(text, locale)
  return stringDocument(text, drafts)
}

/**
 * A document value as ordered tagged segments and a rebuild back to the value's shape. `value`
 * is a string, or an object/array whose string leaves are documents of `mimeType`
 * (application/json: leaves are plain text, and a string value is JSON text).
 */
export function segmentDocument (value: unknown, mimeType: MimeType, options: SegmentOptions = {}): SegmentedDocument {
  const locale = options.language ?? 'en'
  const path = options.path ?? DOCUMENT_VALUE
  const leafType = mimeType === 'application/json' ? 'text/plain' : mimeType
  const leaf = (text: string): StringDocument => segmentString(text, leafType, locale, options.context)
  if (typeof value === 'string') {
    if (mimeType === 'application/json') return jsonTextDocument(value, leaf, path)
    const doc = leaf(value)
    return { segments: doc.segments, rebuild: translated => doc.rebuild(translated) }
  }
  if (value !== null && typeof value === 'object') return structuredDocument(value, leaf, path)
  throw invalidField(path, `must be a string, an object or an array, not ${value === null ? 'null' : typeof value}`)
}

/** The visible text of a document (for language detection): what would be translated, without markup, code or URLs. */
export function documentText (value: unknown, mimeType: MimeType, options: SegmentOptions = {}): string {
  if (typeof value === 'string' && mimeType === 'text/plain') return value
  return segmentDocument(value, mimeType, options).segments.map(plainText).join('\n')
}

const NOTHING_PARSED: SegmentContext = { trees: new Map() }

/**
 * What it takes to segment the document without stalling the event loop: large Markdown is
 * parsed under a time limit (a 400 at `path` when it runs over). Call before segmenting and
 * pass the result as `context` to every segmenting call for this value (segmentDocument,
 * documentText, prepareForTranslation, substituteDocument); drop it with the request.
 */
export async function readyToSegment (value: unknown, mimeType: MimeType, path: FieldPath = DOCUMENT_VALUE): Promise<SegmentContext> {
  return mimeType === 'text/markdown' ? await preparseMarkdown(value, path) : NOTHING_PARSED
}
