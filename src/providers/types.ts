/**
 * The small interfaces every engine adapter implements. Core depends on these; providers
 * implement them and never import routes or core's use cases (only core's segment format,
 * core/tagged.ts, which is what they translate).
 */
import type { Formality } from '../shared/formality.js'

export type { Formality }

/** A direction a translator can serve, as BCP 47 tags (base languages, or language-script/region where it matters). */
export interface LanguagePair {
  from: string
  to: string
}

/** One call to a translator: every segment in one language pair. */
export interface TranslateJob {
  from: string
  to: string
  /**
   * Segments in the tagged-text form of ./tagged.ts: escaped text with inline
   * `<g id="N">…</g>` pairs and `<x id="N"/>` protected tokens. Answers keep the tags.
   */
  segments: string[]
  context?: string
  formality?: Formality
}

export interface Translator {
  /** Service name as clients name it in `options.service` ("apertium", "google", ...). */
  readonly name: string
  /** Whether this translator can honour `formality: more|less` for the pair. */
  supportsFormality?: (pair: LanguagePair) => boolean
  /** The pairs this translator can serve right now. */
  languages: () => Promise<LanguagePair[]>
  /**
   * Outside engines: calls that may be in flight at once, and segments one call takes. While every
   * call is busy, core gathers the segments of concurrent requests for the same pair into the next
   * call. Absent: each request calls at once (an embedded engine that queues by itself).
   */
  batching?: { concurrency: number, maxSegments: number }
  /** Translates every segment; the answer has the same length and order. Honours the signal. */
  translate: (job: TranslateJob, signal: AbortSignal) => Promise<string[]>
  /** Resolves when the translator can serve requests (for /ready). */
  ready?: () => Promise<void>
  /** Releases processes and sockets. */
  close?: () => Promise<void>
}

/** A language guess with a confidence in [0, 1]. */
export interface Candidate {
  language: string
  confidence: number
}

export interface Detector {
  readonly name: string
  /** Candidates, best first; `only` restricts the candidate languages (BCP 47 tags). Async so a remote detector fits. */
  detect: (text: string, only?: string[]) => Promise<Candidate[]>
  /** Languages this detector can answer. */
  languages: () => string[]
  /** Resolves when models are loaded (for /ready). */
  ready: () => Promise<void>
  close?: () => Promise<void>
}

/** Rewrites text as asked (POST /language/edit); its methods land with that endpoint. */
export interface Editor {
  readonly name: string
  close?: () => Promise<void>
}

/** Analyses text (POST /language/analyze); its methods land with that endpoint. */
export interface Analyzer {
  readonly name: string
  close?: () => Promise<void>
}

/** What one engine can do: a provider factory returns these, so one client serves translation, edit and analysis. */
export interface Capabilities {
  translator?: Translator
  editor?: Editor
  analyzer?: Analyzer
}
