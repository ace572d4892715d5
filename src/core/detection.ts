/** Placeholder until the detector lands: detection answers 503. */
import { ServiceUnavailableError } from '../errors.js'
import type { Candidate, Detector } from '../providers/types.js'

export interface DetectOptions { static?: Record<string, string>, source_hint?: string, min_confidence?: number, min_chars?: number, max_chars?: number, limit_results?: string[], no_override?: boolean }
export interface DetectResult { language: string, confidence: number, alternatives: Candidate[] }

export function detectLanguage (_text: string, _options: DetectOptions, _detector: Detector): DetectResult {
  throw new ServiceUnavailableError('No language detector is configured.')
}
