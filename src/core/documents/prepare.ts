/**
 * The translation core's entry point: a document as segments ready for an engine (verbatim
 * spans, placeholders and glossary phrases protected), and the finish that turns the engine's answers back into the
 * document value. Bulk translation gathers the `segments` of many documents into one engine
 * call and hands each document's `finish` its own slice of the answer, in order.
 */
import { appliedSubstitutions, compileGlossary, findPhrases, protectPhrases, type AppliedSubstitution, type Glossary, type PhraseMatch, type Substitution } from '../glossary.js'
import { findPlaceholders } from '../placeholders.js'
import { plainText } from '../tagged.js'
import type { FieldPath } from '../../errors.js'
import { segmentDocument, type FinishedEntries } from './segment.js'
import type { MimeType } from './mime.js'
import type { KeptElements } from './kept-elements.js'
import { findVerbatim } from '../verbatim.js'
import { protect, type Mark, type PairMark, type Protected } from './protect.js'

export interface PrepareOptions {
  /** Protect placeholders (`preserve_placeholders`, default true in the API). */
  placeholders: boolean
  /** Glossary rules that apply to this pair, most specific first (see rulesForPair). */
  rules: readonly Substitution[]
  /** `substitutions_case_sensitive`. */
  caseSensitive: boolean
  /** Source language, for sentence boundaries. */
  language?: string | undefined
  /** Where the value is in the request, for errors. */
  path?: FieldPath | undefined
  /** text/html: elements kept whole. */
  kept?: KeptElements | undefined
  /** A catalog's finished entries: kept as they are (translation), or their translation read (edit, substitution). */
  finished?: FinishedEntries | undefined
  /** Same-language work (edit): changed sentences written over their source (SegmentOptions). */
  inPlace?: boolean | undefined
  /** The language a catalog is translated into (SegmentOptions). */
  target?: string | undefined
}

export interface Prepared {
  /** What the engine must translate (segments with no letters left are not sent). */
  segments: string[]
  /** The document value, in the input's shape, from the engine's answers to `segments`, and the substitutions applied. */
  finish: (translated: string[], target?: string) => { value: unknown, applied: AppliedSubstitution[] }
}

const LETTER = /\p{L}/u

// bulk requests pass one rules array for all their documents: compile it once
const compiled = new WeakMap<readonly Substitution[], Map<boolean, Glossary>>()

function glossaryFor (rules: readonly Substitution[], caseSensitive: boolean): Glossary {
  let byCase = compiled.get(rules)
  if (byCase === undefined) compiled.set(rules, byCase = new Map())
  let glossary = byCase.get(caseSensitive)
  if (glossary === undefined) byCase.set(caseSensitive, glossary = compileGlossary(rules, { caseSensitive }))
  return glossary
}

const unchanged: Protected = { segment: '', restore: translated => translated }

/**
 * The segment with what the engine must not see protected: verbatim spans (URLs, e-mail
 * addresses, paths, file names, code, control characters) always, placeholders when asked.
 * Overlapping tokens become one token; a tag pair that a verbatim span cuts is two tokens. A
 * verbatim span inside a glossary phrase is left to the glossary ("Node.js" -> "Node.js®").
 */
export function protectSpans (segment: string, placeholders: boolean, glossary?: Glossary): Protected {
  const { segment: protectedSegment, restore } = protect(segment, flat => {
    const found = placeholders ? findPlaceholders(flat.text) : { tokens: [], pairs: [] }
    let verbatim: Mark[] = findVerbatim(flat.text).map(s => ({ start: s.start, end: s.end, text: flat.text.slice(s.start, s.end) }))
    if (glossary !== undefined && verbatim.length > 0) verbatim = outsidePhrases(verbatim, findPhrases(glossary, flat.text, [...flat.barriers]), found, flat.text.length)
    if (found.tokens.length === 0 && found.pairs.length === 0) return { tokens: verbatim }
    const covered = new Uint8Array(flat.text.length)
    for (const v of verbatim) covered.fill(1, v.start, v.end)
    const overlaps = (m: Mark): boolean => covered.subarray(m.start, m.end).includes(1)
    const pairs: PairMark[] = []
    const tokens = [...verbatim, ...found.tokens]
    for (const pair of found.pairs) {
      if (overlaps(pair.open) || overlaps(pair.close)) tokens.push(pair.open, pair.close)
      else pairs.push(pair)
    }
    return { tokens: union(tokens, flat.text), pairs }
  })
  return { segment: protectedSegment, restore }
}

/** The verbatim marks not inside a glossary phrase that the placeholders leave whole (the phrase protects them). */
function outsidePhrases (verbatim: Mark[], phrases: readonly PhraseMatch[], placeholders: { tokens: Mark[], pairs: PairMark[] }, length: number): Mark[] {
  if (phrases.length === 0) return verbatim
  const taken = new Uint8Array(length)
  for (const m of [...placeholders.tokens, ...placeholders.pairs.flatMap(p => [p.open, p.close])]) taken.fill(1, m.start, m.end)
  const free = phrases.filter(p => !taken.subarray(p.start, p.end).includes(1))
  // phrases are disjoint and in order: each verbatim mark can only lie in the last one starting at or before it
  let i = 0
  return verbatim.filter(v => {
    while (i + 1 < free.length && free[i + 1]!.start <= v.start) i++
    const p = free[i]
    return p === undefined || p.start > v.start || p.end < v.end
  })
}

/** Marks merged where they overlap, in order. */
function union (marks: Mark[], text: string): Mark[] {
  const out: Mark[] = []
  for (const m of marks.sort((a, b) => a.start - b.start)) {
    const last = out.at(-1)
    if (last !== undefined && m.start < last.end) {
      last.end = Math.max(last.end, m.end)
      last.text = text.slice(last.start, last.end)
    } else {
      out.push({ start: m.start, end: m.end, text: m.text })
    }
  }
  return out
}

/** Segments ready for an engine and a finish that restores the engine's answers into the document value. */
export function prepareForTranslation (value: unknown, mimeType: MimeType, options: PrepareOptions): Prepared {
  const doc = segmentDocument(value, mimeType, { language: options.language, path: options.path, kept: options.kept, finished: options.finished, inPlace: options.inPlace, target: options.target })
  const glossary = options.rules.length > 0 ? glossaryFor(options.rules, options.caseSensitive) : undefined
  const marks: Mark[] = []
  const steps = doc.segments.map(segment => {
    const placeholders = protectSpans(segment, options.placeholders, glossary)
    const phrases = glossary ? protectPhrases(placeholders.segment, glossary) : { ...unchanged, segment: placeholders.segment, marks: [] }
    marks.push(...phrases.marks)
    // nothing left to translate (only placeholders, numbers, glossary phrases): keep it as is
    const send = LETTER.test(plainText(phrases.segment))
    return { placeholders, phrases, send }
  })
  const segments = steps.filter(s => s.send).map(s => s.phrases.segment)
  const applied = glossary ? appliedSubstitutions(glossary, marks) : []

  const finish = (translated: string[], target?: string): { value: unknown, applied: AppliedSubstitution[] } => {
    if (translated.length !== segments.length) {
      throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
    }
    let k = 0
    const answers = steps.map(s => s.placeholders.restore(s.phrases.restore(s.send ? translated[k++]! : s.phrases.segment)))
    return { value: doc.rebuild(answers, target), applied: applied.map(a => ({ ...a })) }
  }
  return { segments, finish }
}
