/**
 * The detection policy of POST /language/detect (docs/api.md "Detect"): static answers, the reading
 * limit, minimum length, source hint, confidence threshold and result limits around a Detector.
 */
import { invalidField, type FieldPath } from '../../errors.js'
import type { Candidate, Detector } from '../ports.js'
import { baseLanguage, canonicalTag, UNDETERMINED } from '../languages.js'

export interface DetectOptions {
  /** Whole texts with a fixed answer (matched trimmed, case-insensitively). */
  static?: Record<string, string>
  sourceHint?: string
  minConfidence?: number
  minChars?: number
  maxChars?: number
  /** The only candidate languages. */
  limitResults?: readonly string[]
  noOverride?: boolean
}

export interface DetectResult {
  language: string
  confidence: number
  alternatives: Candidate[]
}

/** A detection among `limit_results`, with how likely the unrestricted detection finds any of them. */
export interface LimitedDetectResult extends DetectResult {
  /** P(one of the limits) in the unrestricted detection: near 0 when the text is plainly in another language. */
  limitsShare: number
}

export const DEFAULT_MAX_CHARS = 10_000
export const DEFAULT_MIN_CHARS = 1
/** Below this best confidence the detector counts as unsure and a matching source hint wins. */
export const UNSURE_BELOW = 0.9
const MAX_ALTERNATIVES = 5

/** Settings with tags canonicalized and numbers checked; a bad one is a ValidationError at its path. */
interface Policy {
  statics: Map<string, string>
  hint: string | undefined
  limits: string[] | undefined
  minConfidence: number
  minChars: number
  maxChars: number
  noOverride: boolean
}

/** Detects the language of plain text (HTML/JSON already reduced by the caller) under the request's options. */
export async function detectLanguage (text: string, options: DetectOptions, detector: Detector): Promise<DetectResult> {
  const { limitsShare: _, ...result } = await detectLimited(text, options, detector)
  return result
}

/** detectLanguage, with the share of the limits in the unrestricted detection (1 without limits). */
export async function detectLimited (text: string, options: DetectOptions, detector: Detector): Promise<LimitedDetectResult> {
  const policy = policyOf(options)
  // URLs and e-mail addresses are not the text's language ("https://example.com/foo" read as Portuguese)
  const read = withoutAddresses(firstCharacters(text, policy.maxChars))

  if (!policy.noOverride && policy.statics.size > 0) {
    const fixed = policy.statics.get(staticKey(firstCharacters(text, policy.maxChars)))
    if (fixed !== undefined) return { language: fixed, confidence: 1, alternatives: [], limitsShare: 1 }
  }

  const fallback = (): LimitedDetectResult => ({
    language: !policy.noOverride && policy.hint !== undefined ? policy.hint : UNDETERMINED,
    confidence: 0,
    alternatives: [],
    limitsShare: 0
  })
  if (letterCount(read, policy.minChars) < policy.minChars) return fallback()

  const { candidates, share } = await candidatesOf(read, policy.limits, detector)
  const best = candidates[0]
  if (best === undefined) return fallback()

  let answer = best
  if (!policy.noOverride && policy.hint !== undefined && best.confidence < UNSURE_BELOW) {
    const hinted = candidates.slice(0, MAX_ALTERNATIVES + 1).find(c => sameLanguage(c.language, policy.hint!))
    if (hinted !== undefined) answer = { language: policy.hint, confidence: hinted.confidence }
  }
  if (answer.confidence < policy.minConfidence) {
    const hintAllowed = !policy.noOverride && policy.hint !== undefined
    const hinted = hintAllowed ? candidates.find(c => sameLanguage(c.language, policy.hint!)) : undefined
    answer = hintAllowed ? { language: policy.hint!, confidence: hinted?.confidence ?? 0 } : { language: UNDETERMINED, confidence: 0 }
  }
  const alternatives = candidates.filter(c => c.language !== answer.language).slice(0, MAX_ALTERNATIVES)
  return { language: answer.language, confidence: answer.confidence, alternatives, limitsShare: share }
}

function policyOf (options: DetectOptions): Policy {
  const statics = new Map<string, string>()
  for (const [key, value] of Object.entries(options.static ?? {})) {
    statics.set(staticKey(key), canonicalTag(value, ['static', key]))
  }
  return {
    statics,
    hint: options.sourceHint === undefined ? undefined : canonicalTag(options.sourceHint, ['source_hint']),
    limits: options.limitResults?.map((tag, i) => canonicalTag(tag, ['limit_results', i])),
    minConfidence: checked(options.minConfidence, 0, ['min_confidence'], 0, 1),
    minChars: checked(options.minChars, DEFAULT_MIN_CHARS, ['min_chars'], 0, Number.MAX_SAFE_INTEGER),
    maxChars: checked(options.maxChars, DEFAULT_MAX_CHARS, ['max_chars'], 1, Number.MAX_SAFE_INTEGER),
    noOverride: options.noOverride ?? false
  }
}

function checked (value: number | undefined, fallback: number, path: FieldPath, min: number, max: number): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value < min || value > max) throw invalidField(path, `must be a number from ${min} to ${max}`)
  return value
}

function staticKey (text: string): string {
  return text.trim().toLowerCase()
}

/** The first `max` characters (code points) of a text, never splitting a surrogate pair. */
function firstCharacters (text: string, max: number): string {
  if (text.length <= max) return text
  let units = 0
  for (let chars = 0; chars < max && units < text.length; chars++) {
    const c = text.charCodeAt(units)
    units += c >= 0xd800 && c < 0xdc00 ? 2 : 1
  }
  return text.slice(0, units)
}

const LETTER = /\p{L}/u

/** Letters in a text (whitespace, digits and punctuation do not count), counted up to `enough`. */
function letterCount (text: string, enough: number): number {
  let letters = 0
  for (const char of text) {
    if (LETTER.test(char) && ++letters >= enough) break
  }
  return letters
}

/** Whether two tags name the same language ("pt-BR" and "pt"; Norwegian "no" and Bokmål "nb", which the detector answers). */
function sameLanguage (a: string, b: string): boolean {
  const x = baseLanguage(a)
  const y = baseLanguage(b)
  return x === y || (x === 'no' && y === 'nb') || (x === 'nb' && y === 'no')
}

/**
 * The candidates, best first. With `limit_results` the detector votes among those languages only,
 * but a confidence stays a probability among every language it knows: the restricted vote scaled
 * by the mass the unrestricted detection gives the allowed languages, P(l | allowed) x P(allowed),
 * averaged with what the unrestricted detection itself gives l. Renormalised among the allowed
 * only, a Spanish sentence limited to pt and it would answer Portuguese almost surely; the
 * restricted vote alone, on a word or two, can rank against the whole detection. The confidences
 * still sum to P(allowed).
 */
async function candidatesOf (text: string, limits: string[] | undefined, detector: Detector): Promise<{ candidates: Candidate[], share: number }> {
  if (limits === undefined) return { candidates: await detector.detect(text), share: 1 }
  const [restricted, unrestricted] = await Promise.all([detector.detect(text, limits), detector.detect(text)])
  const free = clientCandidates(unrestricted, limits)
  const mass = Math.min(1, free.reduce((sum, c) => sum + c.confidence, 0))
  const freeOf = new Map(free.map(c => [c.language, c.confidence]))
  const restrictedOf = new Map(clientCandidates(restricted, limits).map(c => [c.language, c.confidence * mass]))
  // the restricted vote's order breaks ties (with no mass at all, it is the only order there is)
  const order = [...new Set([...restrictedOf.keys(), ...freeOf.keys()])]
  const candidates = order.map(language => ({ language, confidence: ((restrictedOf.get(language) ?? 0) + (freeOf.get(language) ?? 0)) / 2 }))
    .sort((a, b) => b.confidence - a.confidence)
  // the share counts a language only in the script its limit is written in: Cyrillic Serbian is no Latin Serbian
  const share = unrestricted.filter(c => limits.some(l => sameLanguage(l, c.language) && scriptOf(l) === scriptOf(c.language)))
    .reduce((sum, c) => sum + c.confidence, 0)
  return { candidates, share: Math.min(1, share) }
}

/** The script a tag is written in, as CLDR's likely subtags give it ("sr" Cyrillic, "sr-Latn" Latin). */
function scriptOf (tag: string): string | undefined {
  try {
    return new Intl.Locale(tag).maximize().script
  } catch {
    return undefined
  }
}

/**
 * The text without the words that are addresses, not language: URLs (a scheme's "://" or a
 * leading "www.") and e-mail addresses. Word by word (split on white space), so linear in the text.
 */
export function withoutAddresses (text: string): string {
  if (!text.includes('://') && !text.includes('www.') && !text.includes('@')) return text
  return text.split(/(\s+)/).map(word => isAddress(word) ? ' ' : word).join('')
}

function isAddress (word: string): boolean {
  const w = word.replace(/^[(<[{"'«“‘]+/, '')
  if (w.includes('://') || w.toLowerCase().startsWith('www.')) return true
  const at = w.lastIndexOf('@')
  // user@host.tld (and a fediverse handle @user@host.tld); a lone @mention is a name, kept
  return at > 0 && w.indexOf('.', at) > at + 1
}

/** Whether a detected language is what a client's tag stands for: the same language, in the script the tag names if it names one ("sr-Latn" is no Cyrillic Serbian, "zh-Hans" no Traditional Chinese). */
function standsFor (limit: string, language: string): boolean {
  if (!sameLanguage(limit, language)) return false
  const named = explicitScript(limit)
  return named === undefined || named === scriptOf(language)
}

function explicitScript (tag: string): string | undefined {
  try {
    return new Intl.Locale(tag).script
  } catch {
    return undefined
  }
}

/**
 * The detector's candidates in the client's terms: with `limit_results`, each language is
 * answered as the client's tag it stands for ("pt" as "pt-BR"), merging those that meet.
 */
function clientCandidates (candidates: Candidate[], limits: string[] | undefined): Candidate[] {
  if (limits === undefined) return candidates
  const merged = new Map<string, number>()
  for (const c of candidates) {
    const tag = limits.find(l => l.toLowerCase() === c.language.toLowerCase()) ??
      limits.find(l => standsFor(l, c.language))
    if (tag !== undefined) merged.set(tag, (merged.get(tag) ?? 0) + c.confidence)
  }
  return [...merged].map(([language, confidence]) => ({ language, confidence: Math.min(1, confidence) }))
    .sort((a, b) => b.confidence - a.confidence)
}
