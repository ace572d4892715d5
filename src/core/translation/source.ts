/** The source language of a document: the request's, else the document's, else detected. */
import { invalidField, type FieldPath } from '../../errors.js'
import type { MimeType } from '../documents/mime.js'
import { textOfDocument, type DocumentWork } from '../documents/offload.js'
import { canonicalTag, sameBase } from '../languages.js'
import type { TranslatorCatalog } from './catalog.js'
import type { DetectText, TranslateDocument } from './types.js'

/** Below this confidence a detected language that cannot be translated to the targets is a guess worth revisiting. */
const UNSURE_DETECTION = 0.5

export interface ResolvedSource {
  source: string
  /** Where the source came from, for errors: the request's `source`, the document's `language`, or `source` again when detected (setting it is the fix). */
  origin: FieldPath
  detected?: { language: string, confidence: number }
}

/**
 * The source language. An unsure detection of a language no service translates to every target
 * ("Hi": Tsonga at 0.11) is redone among the languages that reach the most targets (English);
 * a sure one stands and becomes an unsupported pair.
 */
export async function resolveSource (source: string | undefined, doc: TranslateDocument, mime: MimeType, path: FieldPath,
  work: DocumentWork, targets: readonly string[], catalog: TranslatorCatalog, detect: DetectText): Promise<ResolvedSource> {
  const given = source?.trim()
  if (given && given.toLowerCase() !== 'auto') return { source: canonicalTag(given, ['source']), origin: ['source'] }
  if (doc.language) return { source: canonicalTag(doc.language, [...path, 'language']), origin: [...path, 'language'] }
  const text = await textOfDocument(doc.value, mime, work, { path: [...path, 'value'] })
  let detected = await detect(text)
  const reach = (from: string): number => targets.filter(to => sameBase(from, to) || catalog.choices(from, to).length > 0).length
  const reached = detected.language !== 'und' && detected.confidence < UNSURE_DETECTION ? reach(detected.language) : targets.length
  if (reached < targets.length) {
    // among the sources that reach the most targets (all of them when some source can)
    const sources = catalog.languages('source').map(l => ({ tag: l.tag, reach: reach(l.tag) }))
    const best = Math.max(0, ...sources.map(s => s.reach))
    const candidates = best > reached ? sources.filter(s => s.reach === best).map(s => s.tag) : []
    const again = candidates.length > 0 ? await detect(text, candidates) : undefined
    if (again !== undefined && again.language !== 'und') detected = again
  }
  if (detected.language === 'und') {
    throw invalidField([...path, 'value'], 'the source language could not be detected (too little text); set "source" or document.language')
  }
  return { source: detected.language, origin: ['source'], detected }
}
