/** The source language of a document: the request's, else the document's, else detected. */
import type { FieldPath } from '../../errors.js'
import type { MimeType } from '../documents/mime.js'
import { textOfDocument, type DocumentWork } from '../documents/offload.js'
import { canonicalTag, sameBase, UNDETERMINED } from '../languages.js'
import type { TranslatorCatalog } from './catalog.js'
import type { DetectText, TranslateDocument } from './types.js'

/** A guess among the languages that reach the targets stands when the unrestricted detection gives them at least this share (a sure guess of another language stays, as an unsupported pair). */
export const PLAUSIBLE_SHARE = 0.03
/** Below this confidence the first guess is unsure: a guess among the languages that reach the targets stands whatever their share ("ok"). */
export const UNSURE_DETECTION = 0.5

export interface ResolvedSource {
  source: string
  /** Where the source came from, for errors: the request's `source`, the document's `language`, or `source` again when detected (setting it is the fix). */
  origin: FieldPath
  detected?: { language: string, confidence: number }
}

/**
 * The source language. A detected language that no service translates to every target is
 * redone among the languages that reach the most targets (all of them when some can), and that
 * guess stands when it is plausible (PLAUSIBLE_SHARE) or the first guess was unsure
 * (UNSURE_DETECTION); else the first guess stays and becomes an unsupported pair. Text with nothing to detect is `und`: copied to every target unchanged.
 */
export async function resolveSource (source: string | undefined, doc: TranslateDocument, mime: MimeType, path: FieldPath,
  work: DocumentWork, targets: readonly string[], catalog: TranslatorCatalog, detect: DetectText): Promise<ResolvedSource> {
  const given = source?.trim()
  if (given && given.toLowerCase() !== 'auto') return { source: canonicalTag(given, ['source']), origin: ['source'] }
  if (doc.language) return { source: canonicalTag(doc.language, [...path, 'language']), origin: [...path, 'language'] }
  const text = await textOfDocument(doc.value, mime, work, { path: [...path, 'value'], kept: doc.kept })
  const first = await detect(text)
  let detected = { language: first.language, confidence: first.confidence }
  if (detected.language === UNDETERMINED) return { source: UNDETERMINED, origin: ['source'], detected: { language: UNDETERMINED, confidence: 0 } }
  const reach = (from: string): number => targets.filter(to => sameBase(from, to) || catalog.choices(from, to).length > 0).length
  const reached = reach(detected.language)
  if (reached < targets.length) {
    // the targets' own languages count too: "Hola" asked for in Spanish is Spanish, copied
    const sources = [...new Set([...catalog.languages('source').map(l => l.tag), ...targets])].map(tag => ({ tag, reach: reach(tag) }))
    const best = Math.max(0, ...sources.map(s => s.reach))
    const candidates = best > reached ? sources.filter(s => s.reach === best).map(s => s.tag) : []
    const again = candidates.length > 0 ? await detect(text, candidates) : undefined
    if (again !== undefined && again.language !== UNDETERMINED && ((again.share ?? 1) >= PLAUSIBLE_SHARE || first.confidence < UNSURE_DETECTION)) {
      detected = { language: again.language, confidence: again.confidence }
    }
  }
  return { source: detected.language, origin: ['source'], detected }
}
