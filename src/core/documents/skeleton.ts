/**
 * The skeleton of a string document: its source, and the segment slots that replace ranges of
 * it. Untouched source is copied byte for byte; a slot whose segment comes back unchanged is
 * copied too (so entities and spacing survive), and a translated one is written from the
 * engine's answer with its tags mapped back to their own source.
 */
import { parseTagged } from '../tagged.js'
import type { SegmentDraft } from './segment-run.js'
import { pairSpans, resolveTags, withoutEmptiedPairs, type TagKind } from './tags.js'

interface Slot {
  draft: SegmentDraft
  index: number
  /** Slots nested inside this one's tags (an attribute of an inline element). */
  children: Slot[]
}

/** Nests slots by containment in document order; a slot partly overlapping another is dropped. */
function nest (drafts: readonly SegmentDraft[]): Slot[] {
  const sorted = [...drafts].sort((a, b) => a.start - b.start || b.end - a.end)
  const top: Slot[] = []
  const stack: Slot[] = []
  for (const d of sorted) {
    while (stack.length > 0 && stack.at(-1)!.draft.end <= d.start) stack.pop()
    const parent = stack.at(-1)
    if (parent && d.end > parent.draft.end) continue
    const slot: Slot = { draft: d, index: -1, children: [] }
    if (parent) parent.children.push(slot)
    else top.push(slot)
    stack.push(slot)
  }
  return top
}

function number (slots: Slot[], ordered: Slot[]): void {
  for (const slot of slots) {
    slot.index = ordered.length
    ordered.push(slot)
    number(slot.children, ordered)
  }
}

/** Index of the first slot starting at or after `offset` (slots sorted by start). */
function firstFrom (slots: readonly Slot[], offset: number): number {
  let lo = 0
  let hi = slots.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (slots[mid]!.draft.start < offset) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A string document split into segments, rebuilt from their translations. */
export interface StringDocument {
  segments: string[]
  /** `target`: the language translated into, for formats that name it (absent for same-language work). */
  rebuild: (translated: readonly string[], target?: string) => string
}

/** Builds the document of `source` from its segment drafts. */
export function stringDocument (source: string, drafts: readonly SegmentDraft[]): StringDocument {
  const top = nest(drafts)
  const ordered: Slot[] = []
  number(top, ordered)
  const segments = ordered.map(slot => slot.draft.segment)

  const rebuild = (translated: readonly string[]): string => {
    if (translated.length !== segments.length) {
      throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
    }
    // children are sorted and disjoint: those inside [start, end) are the run from the first that starts there
    const range = (start: number, end: number, children: readonly Slot[]): string => {
      let out = ''
      let at = start
      for (let i = firstFrom(children, start); i < children.length && children[i]!.draft.end <= end; i++) {
        const child = children[i]!
        out += source.slice(at, child.draft.start) + slot(child)
        at = child.draft.end
      }
      return out + source.slice(at, end)
    }
    const slot = (s: Slot): string => {
      const { draft } = s
      const answer = translated[s.index]!
      if (answer === draft.segment) return range(draft.start, draft.end, s.children)
      const kinds = new Map<number, TagKind>([...draft.tags].map(([id, ref]) => [id, ref.kind]))
      const whole = new Set([...draft.tags].filter(([, ref]) => ref.kind === 'pair' && ref.whole === true).map(([id]) => id))
      let out = ''
      const spans = pairSpans(parseTagged(draft.segment))
      for (const p of withoutEmptiedPairs(resolveTags(parseTagged(answer), kinds, spans, whole))) {
        if (p.type === 'text') {
          out += draft.format.escape(p.text, out === '')
          continue
        }
        const ref = draft.tags.get(p.id)!
        const r = ref.kind === 'token' ? ref.range : p.type === 'open' ? ref.open : ref.close
        out += range(r.start, r.end, s.children)
      }
      return out
    }
    return range(0, source.length, top)
  }
  return { segments, rebuild }
}
