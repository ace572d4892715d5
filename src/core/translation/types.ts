/** The translation use case's own shapes: what a request asks for in domain terms, and what it gets back. */
import type { FieldPath } from '../../errors.js'
import type { Formality } from '../formality.js'
import type { AppliedSubstitution, Substitution } from '../substitution/types.js'
import type { KeptElements, MimeType } from '../documents/segment.js'
import type { TranslationCache } from './cache.js'
import type { TranslatorCatalog } from './catalog.js'
import type { Batcher } from './batching.js'
import type { DocumentRunner } from '../documents/offload.js'

export interface TranslateDocument {
  value: unknown
  mimeType?: string
  language?: string
  /** text/html: elements kept whole, byte for byte (DeepL's tag_handling xml and ignore_tags). */
  kept?: KeptElements | undefined
}

export interface TranslateOptions {
  /** A service name or names to try, in this order (only those). */
  service?: string | readonly string[]
  /** Try the next supporting service when one fails (default true). */
  fallback?: boolean
  formality?: Formality
  context?: string
  /** Protect placeholders from the engine (default true). */
  preservePlaceholders?: boolean
  /** Substitutions match case-sensitively (default false). */
  caseSensitive?: boolean
  /** Use the segment cache (default true). */
  cache?: boolean
}

export interface TranslateInput {
  documents: readonly TranslateDocument[]
  /** Where document i is in the request, for errors (["document"] or ["documents", 3]). */
  documentPath: (i: number) => FieldPath
  source?: string | undefined
  targets: readonly string[]
  options?: TranslateOptions
  substitutions?: readonly Substitution[]
  /**
   * Told the segments translated so far of all there are to translate (distinct per pair and
   * service), as engines answer: then each pair's segments go to its engine in parts (a job's progress).
   */
  progress?: Progress
}

/** Segments done of total; `done` may go back when a service fails and the next one starts over. */
export type Progress = (state: { done: number, total: number }) => void

/** A Document value: a string, or an object/array whose string leaves are text. */
export type DocumentValue = string | Record<string, unknown> | unknown[]

export interface TranslatedDocument {
  /** Keyed by canonical target tag. */
  results: Record<string, { value: DocumentValue, language: string, mimeType: MimeType }>
  extra: {
    source: string
    services: Record<string, string>
    substitutions: AppliedSubstitution[]
    detected?: { language: string, confidence: number }
  }
}

/**
 * Detects the language of plain text, among `candidates` when given; `share` is how likely the
 * unrestricted detection finds the text in one of the candidates (absent: not known).
 */
export type DetectText = (text: string, candidates?: readonly string[]) => Promise<{ language: string, confidence: number, share?: number }>

export interface TranslationDeps {
  catalog: TranslatorCatalog
  cache: TranslationCache
  textChars: number
  /** Gathers concurrent requests' segments into engine calls; one per process. */
  batcher: Batcher
  detect: DetectText
  /** Runs costly documents off the event loop (app.ts: the thread pool); absent, every document is worked inline. */
  documents?: DocumentRunner | undefined
}
