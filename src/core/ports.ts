/**
 * The ports: the small interfaces every engine implements. Core owns them and depends on nothing
 * in providers; providers implement them and import from core only these ports, the domain types
 * they speak (formality, tones, analysis results) and core/tagged.ts, the segment format they
 * translate. Never routes or core's use cases.
 */
import type { Formality } from './formality.js'
import type { Tone } from './tones.js'
import type { FoundEntity, Scored, SentimentScore } from './analysis/results.js'

export type { Formality }

/** A direction a translator can serve, as BCP 47 tags (base languages, or language-script/region where it matters). */
export interface LanguagePair {
  from: string
  to: string
}

/** One call to a translator: every segment in one language pair. */
export interface TranslateCall {
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
  translate: (call: TranslateCall, signal: AbortSignal) => Promise<string[]>
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

/** One requested edit (docs/api.md "Edit"). */
export type EditItem =
  | { type: 'grammar' | 'syntax' | 'simplify' | 'clarify' }
  | { type: 'length', length: 'default' | 'expand' | 'shorten' }
  | { type: 'tone', tone: Tone }

export type EditType = EditItem['type']

/** One call to an editor: every segment of a document, in one language, with every requested edit. */
export interface EditCall {
  /** The text's language (BCP 47); the edited text stays in it. */
  language: string
  edits: readonly EditItem[]
  /** 1..10: strength of a tone edit. */
  toneLevel: number
  /** 0..1, passed to a generative model as given. */
  temperature: number
  /** Segments in the tagged form of core/tagged.ts; answers keep every tag. */
  segments: string[]
}

/** What an editor changed in a segment, as it knows it (core attributes diff hunks to these). */
export interface EditNote {
  /** The words replaced, as in the segment's plain text. */
  original: string
  replacement: string
  /** The edit type that made the change ("grammar", "simplify", ...). */
  type: EditType
  /** Why, for people ("Misspelling of 'library'", "Wordy: use 'to'"). */
  reason: string
}

export interface EditedSegment {
  /** The edited tagged segment (same tags as sent). */
  segment: string
  /** Known changes in segment order; may be empty when the editor cannot say (a generative model). */
  notes: EditNote[]
}

export interface Editor {
  /** "openai" or "rules" (the response's meta.editor). */
  readonly name: string
  /** Why this editor cannot do `edit` in `language` (a sentence for the 503 detail), or undefined when it can. */
  cannot: (edit: EditItem, language: string) => string | undefined
  /** Edits every segment; the answer has the same length and order. Honours the signal. */
  edit: (job: EditCall, signal: AbortSignal) => Promise<EditedSegment[]>
  /**
   * Whether plain `text` spells as `language`: its words are in this editor's dictionary for it,
   * or misspellings with a clear fix (for a document whose language detection is unsure of).
   * Absent: the editor cannot say.
   */
  spellsAs?: (text: string, language: string, signal: AbortSignal) => Promise<boolean>
  ready?: () => Promise<void>
  close?: () => Promise<void>
}

export type AnalysisPart = 'entities' | 'sentiment' | 'moderation' | 'categories'

/** The parts asked for; parts not asked are absent. */
export interface AnalysisAnswer {
  entities?: FoundEntity[]
  sentiment?: SentimentScore
  moderation?: Scored[]
  categories?: Scored[]
  /** Asked parts the analyzer could not give (a model's answer held them malformed), with why in our words: another analyzer answers them. */
  failed?: Partial<Record<AnalysisPart, string>>
}

export interface Analyzer {
  /** "openai" or "offline" (each part's meta.analyzer). */
  readonly name: string
  /** Whether it analyses `part` in `language` (a base language such as "fr") on the text itself. */
  supports: (part: AnalysisPart, language: string) => boolean
  /** Runs the asked parts on `text` (plain text) in `language`. Honours the signal. */
  analyze: (text: string, language: string, parts: readonly AnalysisPart[], signal: AbortSignal) => Promise<AnalysisAnswer>
  ready?: () => Promise<void>
  close?: () => Promise<void>
}

/** What one engine can do: a provider factory returns these, so one client serves translation, edit and analysis. */
export interface Capabilities {
  translator?: Translator
  editor?: Editor
  analyzer?: Analyzer
}
