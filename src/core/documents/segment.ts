/** Documents <-> segments: the one place every format is reduced to tagged-text segments and rebuilt. */
import { invalidField, type FieldPath } from '../../errors.js'

const DOCUMENT_VALUE: FieldPath = ['document', 'value']
import { readHtml, type HtmlReading } from './html.js'
import { jsonTextDocument, structuredDocument, type SegmentedDocument } from './json.js'
import { markdownDrafts } from './markdown.js'
import type { MimeType } from './mime.js'
import { plainDrafts } from './plain.js'
import { stringDocument, type StringDocument } from './skeleton.js'
import { subtitleDocument } from './subtitles.js'
import { gettextDocument } from './gettext.js'
import { xliffDocument } from './xliff.js'
import { androidDocument } from './android.js'
import { isOfficeType, officeDocument } from './office/document.js'
import { protectMarkup, xmlTextDrafts, type KeptElements } from './kept-elements.js'

export { parseMimeType, MIME_TYPES, type MimeType } from './mime.js'
export type { SegmentedDocument } from './json.js'
export type { KeptElements } from './kept-elements.js'

/**
 * What is read of a catalog's finished entries (a PO entry with every msgstr filled, not fuzzy;
 * an XLIFF unit whose target is final): `kept` out of the segments, as translation keeps them
 * (the default); their `source` (msgid, XLIFF source), for detection and analysis, which read a
 * catalog's every source. `translation`, for edit and substitution, which work on a translator's
 * text: every entry's translation (msgstr, XLIFF target; fuzzy and not final ones too), rebuilt in
 * place where it changed, and nothing of an entry that has none (its source is no translation).
 */
export type FinishedEntries = 'kept' | 'source' | 'translation'

export interface SegmentOptions {
  /**
   * The document's language, for sentence boundaries (default "en"); where given, text/html and
   * EPUB elements marked as another language are left as written, and a page's `<html lang>`
   * that named it names the target when rebuilt for one.
   */
  language?: string | undefined
  /** Where the value is in the request, for errors (default document.value). */
  path?: FieldPath | undefined
  /** text/html: elements kept whole (DeepL's tag_handling and ignore_tags). */
  kept?: KeptElements | undefined
  /** text/x-gettext-translation, application/xliff+xml: what is read of finished entries. */
  finished?: FinishedEntries | undefined
  /**
   * Same-language work (edit): a changed sentence of text/markdown and text/plain is written over
   * its source, keeping its line breaks and what starts its lines, rather than on one line.
   */
  inPlace?: boolean | undefined
  /**
   * text/x-gettext-translation: the language the catalog is translated into. Its finished entries
   * are kept only where they are translations into it (the catalog's `Language` is the target's,
   * a plural has the target's number of forms); the others are translated from their msgid.
   */
  target?: string | undefined
}

/**
 * A control character absent from `text` (tab and line breaks aside), to stand for NUL while
 * a parser reads it: HTML drops NUL from text and Markdown replaces it, so without a stand-in a
 * translated segment would lose it. Undefined when the text holds every one of them.
 */
function nulStandIn (text: string): string | undefined {
  for (let code = 1; code < 0x20; code++) {
    const c = String.fromCharCode(code)
    if ((code < 0x09 || code > 0x0d) && !text.includes(c)) return c
  }
  return undefined
}

/** A text/html document whose page's `<html lang>` and `<body lang>` that named the source language name the target when rebuilt for one. */
function htmlDocument (text: string, reading: HtmlReading, restore?: (rebuilt: string) => string): StringDocument {
  const doc = stringDocument(text, reading.drafts, { retargeted: reading.pageLanguage })
  return restore === undefined ? doc : { segments: doc.segments, rebuild: (translated, target) => restore(doc.rebuild(translated, target)) }
}

/**
 * One string of a format as a document; `path` (called only for an error) is where it is in the
 * request; `language`: the source language where known (`locale` is read for sentences either way).
 */
function segmentString (text: string, mimeType: Exclude<MimeType, 'application/json'>, locale: string, path: () => FieldPath, kept?: KeptElements, finished: FinishedEntries = 'kept', language?: string, inPlace = false, target?: string): StringDocument {
  if (isOfficeType(mimeType)) return officeDocument(text, mimeType, locale, path, language)
  const standIn = mimeType !== 'text/plain' && text.includes('\u0000') ? nulStandIn(text) : undefined
  if (standIn !== undefined) {
    // the stand-in is a control character too, so it travels as a token and comes back in place
    const doc = segmentString(text.replaceAll('\u0000', standIn), mimeType, locale, path, kept, finished, language, inPlace, target)
    return { segments: doc.segments, rebuild: (translated, target) => doc.rebuild(translated, target).replaceAll(standIn, '\u0000') }
  }
  if (mimeType === 'text/html' && kept !== undefined) {
    const marked = protectMarkup(text, kept, path)
    // XML's attributes are data (DeepL translates none), HTML's alt and title text
    const reading = readHtml(marked.text, locale, !kept.xml, language, marked.named, marked.readAs)
    return htmlDocument(marked.text, kept.xml ? { ...reading, drafts: xmlTextDrafts(reading.drafts) } : reading, marked.restore)
  }
  if (mimeType === 'application/x-subrip' || mimeType === 'text/vtt') {
    return subtitleDocument(text, mimeType === 'text/vtt' ? 'vtt' : 'srt', locale, path)
  }
  if (mimeType === 'text/x-gettext-translation') return gettextDocument(text, locale, path, finished, target)
  if (mimeType === 'application/xliff+xml') return xliffDocument(text, locale, path, finished)
  if (mimeType === 'application/vnd.android.strings+xml') return androidDocument(text, locale, path)
  if (mimeType === 'text/html') return htmlDocument(text, readHtml(text, locale, true, language))
  const drafts = mimeType === 'text/markdown' ? markdownDrafts(text, locale, path) : plainDrafts(text, locale)
  return stringDocument(text, drafts, { inPlace })
}

/** What a catalog format never reads, by type: a document with no text says so. */
const UNREAD: Partial<Record<MimeType, string>> = {
  'text/x-gettext-translation': 'a PO file\'s header and obsolete (#~) entries are not read',
  'application/xliff+xml': 'XLIFF units marked translate="no", <ignorable> and blank sources are not read',
  'application/vnd.android.strings+xml': 'strings marked translatable="false" and resource references are not read'
}

/** What edit and substitution (`translation`) leave unread of a catalog besides: its untranslated entries. */
const UNTRANSLATED: Partial<Record<MimeType, string>> = {
  'text/x-gettext-translation': 'only translations are worked on: entries with an empty msgstr are not read',
  'application/xliff+xml': 'only translations are worked on: units without a target or with an empty one are not read'
}

/** A 400's "has no text to analyse" for a document of `mimeType`, saying what a catalog format leaves unread (`finished` as it was read). */
export function noTextMessage (doing: string, mimeType: MimeType, finished: FinishedEntries = 'kept'): string {
  const untranslated = finished === 'translation' ? UNTRANSLATED[mimeType] : undefined
  const unread = [untranslated, UNREAD[mimeType]].filter(Boolean).join('; ')
  return unread === '' ? `has no text to ${doing}` : `has no text to ${doing} (${unread})`
}

/**
 * A document value as ordered tagged segments and a rebuild back to the value's shape. `value`
 * is a string, or an object/array whose string leaves are documents of `mimeType`
 * (application/json: leaves are plain text, and a string value is JSON text).
 */
const withMark = (rebuilt: unknown): unknown => typeof rebuilt === 'string' ? `\uFEFF${rebuilt}` : rebuilt

export function segmentDocument (value: unknown, mimeType: MimeType, options: SegmentOptions = {}): SegmentedDocument {
  const locale = options.language ?? 'en'
  const path = options.path ?? DOCUMENT_VALUE
  const leafType = mimeType === 'application/json' ? 'text/plain' : mimeType
  const leaf = (text: string, at: () => FieldPath): StringDocument => segmentString(text, leafType, locale, at, options.kept, options.finished, options.language, options.inPlace, options.target)
  if (typeof value === 'string') {
    // a byte order mark (Windows editors write one) is no text: what follows it is read, and it is written back first
    if (value.startsWith('\uFEFF')) {
      const rest = segmentDocument(value.slice(1), mimeType, options)
      return { segments: rest.segments, rebuild: (translated, target) => withMark(rest.rebuild(translated, target)) }
    }
    if (mimeType === 'application/json') return jsonTextDocument(value, leaf, path)
    const doc = leaf(value, () => path)
    return { segments: doc.segments, rebuild: (translated, target) => doc.rebuild(translated, target) }
  }
  if (value !== null && typeof value === 'object') return structuredDocument(value, leaf, path, { metadata: mimeType === 'application/json' })
  throw invalidField(path, `must be a string, an object or an array, not ${value === null ? 'null' : typeof value}`)
}
