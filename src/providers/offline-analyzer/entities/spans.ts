import type { EntityType } from '../../../core/analysis/results.js'

/** A found stretch of text, in UTF-16 offsets, before mentions are grouped into entities. */
export interface Span {
  type: EntityType
  start: number
  end: number
  value?: string
  /** Lower wins where spans overlap. */
  priority: number
}

/** Which finder wins where two spans overlap: precise patterns first, loose guesses last. */
export const PRIORITY = {
  EMAIL: 0,
  URL: 1,
  ADDRESS: 2,
  DATE: 3,
  PHONE_NUMBER: 4,
  PRICE: 5,
  ORGANIZATION: 6,
  PERSON: 7,
  LOCATION: 8,
  /** A lone given name ("Florence") yields to a place of the same spelling. */
  LONE_NAME: 9,
  NUMBER: 10,
  OTHER: 11
} as const

export const span = (type: EntityType, start: number, end: number, priority: number, value?: string): Span =>
  value === undefined ? { type, start, end, priority } : { type, start, end, priority, value }

/**
 * The spans that survive overlaps, in text order: a span is kept when no better one (lower
 * priority, then longer, then earlier) covers any of its characters. Linear in the spans' lengths.
 */
export function resolveOverlaps (spans: Span[], textLength: number): { kept: Span[], taken: Uint8Array } {
  const ranked = spans.filter(s => s.end > s.start && s.start >= 0 && s.end <= textLength)
    .sort((a, b) => a.priority - b.priority || (b.end - b.start) - (a.end - a.start) || a.start - b.start)
  const taken = new Uint8Array(textLength)
  const kept: Span[] = []
  for (const s of ranked) {
    let free = true
    for (let i = s.start; i < s.end; i++) if (taken[i] === 1) { free = false; break }
    if (!free) continue
    taken.fill(1, s.start, s.end)
    kept.push(s)
  }
  kept.sort((a, b) => a.start - b.start)
  return { kept, taken }
}
