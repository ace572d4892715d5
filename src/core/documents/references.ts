/** The character references an HTML source spells characters with, so that translated text spells them the same way. */
import { decodeHTML } from 'entities'
import type { Range, SegmentDraft } from './segment-run.js'

// Complete references only: a legacy one without its ";" ("&copy 2024") is not written back,
// since what the translation puts after it could change what it means.
const REFERENCE = /&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g

/** The source ranges of a draft's own text: its range without the markup its tags stand for. */
export function textRanges (draft: SegmentDraft): Range[] {
  const markup: Range[] = []
  for (const ref of draft.tags.values()) {
    if (ref.kind === 'token') markup.push(ref.range)
    else markup.push(ref.open, ref.close)
  }
  markup.sort((a, b) => a.start - b.start)
  const out: Range[] = []
  let at = draft.start
  for (const m of markup) {
    if (m.start > at) out.push({ start: at, end: m.start })
    at = Math.max(at, m.end)
  }
  if (draft.end > at) out.push({ start: at, end: draft.end })
  return out
}

/**
 * Each character that `ranges` of the source spell with a reference, and spell only that way
 * (never literally, never with another reference), mapped to that reference.
 */
export function referenceSpellings (source: string, ranges: readonly Range[]): Map<string, string> {
  const spellings = new Map<string, string | null>()
  let literal = ''
  for (const { start, end } of ranges) {
    const raw = source.slice(start, end)
    if (!raw.includes('&')) {
      literal += raw
      continue
    }
    literal += raw.replace(REFERENCE, reference => {
      const decoded = decodeHTML(reference)
      // one code point each; anything else (an unknown name) is left as it is
      if (decoded === reference || [...decoded].length !== 1) return reference
      const known = spellings.get(decoded)
      spellings.set(decoded, known === undefined || known === reference ? reference : null)
      return ''
    })
  }
  const out = new Map<string, string>()
  for (const [c, reference] of spellings) if (reference !== null && !literal.includes(c)) out.set(c, reference)
  return out
}
