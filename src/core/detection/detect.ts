/** The detection use case: the language of a document (HTML and JSON reduced to their text first) under the detection policy. */
import { NothingConfiguredError } from '../../errors.js'
import type { Detector } from '../ports.js'
import { DocumentWork, textOfDocument, type DocumentRunner } from '../documents/offload.js'
import { openDocument } from '../text-limit.js'
import { detectLanguage, detectLimited, type DetectOptions, type DetectResult } from './policy.js'

export { detectLanguage, type DetectOptions, type DetectResult } from './policy.js'

export interface DetectDocument {
  value: unknown
  mimeType?: string
}

export interface Detection {
  /** The language of a document. */
  detect: (document: DetectDocument, options: DetectOptions, signal?: AbortSignal) => Promise<DetectResult>
  /**
   * The language of plain text, among `candidates` when given (what translation and substitution
   * need), with the candidates' share of the unrestricted detection (1 without candidates).
   */
  detectText: (text: string, candidates?: readonly string[]) => Promise<{ language: string, confidence: number, share: number }>
}

/** The configured detector, or a 503 saying there is none. */
function requireDetector (detector: Detector | undefined): Detector {
  if (!detector) throw new NothingConfiguredError('detection', 'No language detector is configured.')
  return detector
}

export function createDetection (detector: Detector | undefined, textChars: number, documents?: DocumentRunner): Detection {
  return {
    async detect (document, options, signal) {
      const work = new DocumentWork(documents, signal)
      // a catalog's every source is read, its finished entries' too
      const { mime } = await openDocument(document, textChars, work, 'source')
      return await detectLanguage(await textOfDocument(document.value, mime, work, { finished: 'source' }), options, requireDetector(detector))
    },
    async detectText (text, candidates) {
      const options = candidates === undefined ? {} : { limitResults: candidates }
      const { language, confidence, limitsShare } = await detectLimited(text, options, requireDetector(detector))
      return { language, confidence, share: limitsShare }
    }
  }
}
