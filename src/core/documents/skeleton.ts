/**
 * The skeleton of a string document: its source, and the segment slots that replace ranges of
 * it. Untouched source is copied byte for byte; a slot whose segment comes back unchanged is
 * copied too (so entities and spacing survive), and a translated one is written from the
 * engine's answer with its tags mapped back to their own source.
 */
import { diffWordsWithSpace } from 'diff'
import { parseTagged, type TaggedPart } from '../tagged.js'
import type { TextItem } from './run.js'
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

/** A text of a segment as the engine read it (white space the format collapses one space), each UTF-16 unit with the source it came from. */
interface SourcedText {
  text: string
  starts: number[]
  ends: number[]
}

/** The segment's text of some text items, located in the source; undefined where one's characters are not. `collapse` is global, as every format's is. */
function sourcedText (items: readonly TextItem[], collapse: RegExp | undefined): SourcedText | undefined {
  const out: SourcedText = { text: '', starts: [], ends: [] }
  const push = (c: string, start: number, end: number): void => {
    out.text += c
    out.starts.push(start)
    out.ends.push(end)
  }
  for (const { text, offsets } of items) {
    if (offsets === null) return undefined
    let i = 0
    for (const m of collapse === undefined ? [] : text.matchAll(collapse)) {
      for (; i < m.index; i++) push(text[i]!, offsets.starts[i]!, offsets.ends[i]!)
      i = m.index + m[0].length
      push(' ', offsets.starts[m.index]!, offsets.ends[i - 1]!)
    }
    for (; i < text.length; i++) push(text[i]!, offsets.starts[i]!, offsets.ends[i]!)
  }
  return out
}

/** Past this many edited words a text is written whole (as translated) rather than over its source. */
const MAX_EDIT_LENGTH = 2_000

/** Whether written text ends where a source line starts (after its prefix: indentation, a quote's `>`), where Markdown reads block markup. */
const atLineStart = (written: string): boolean => written === '' || /\n[ \t>]*$/.test(written)

/**
 * Same-language work (edit): the answer written over the segment's source, which is copied
 * wherever the answer kept the text. Between two tags, its words are diffed against the text the
 * engine read: the unchanged ones are the source's bytes with what lies between them (a line
 * break and the next line's `> `, an escape), a changed one is written as translated. A line
 * break at the edge of a changed run, which the engine read as a space, stays where the source
 * has it. Undefined when the answer's tags are not the segment's, in order (then it is written as
 * translated).
 */
function overSource (source: string, draft: SegmentDraft, answer: readonly TaggedPart[], tag: (start: number, end: number) => string): string | undefined {
  const items = draft.items
  if (items === undefined) return undefined
  const own = parseTagged(draft.segment).filter(p => p.type !== 'text')
  const tags = answer.filter(p => p.type !== 'text')
  if (tags.length !== own.length || tags.some((p, i) => p.type !== own[i]!.type || p.id !== (own[i] as { id: number }).id)) return undefined
  // the text between tags: the answer's, and the items of the segment's
  const texts: string[] = ['']
  for (const p of answer) {
    if (p.type === 'text') texts[texts.length - 1] += p.text
    else texts.push('')
  }
  let out = ''
  let gap: TextItem[] = []
  let k = 0
  const writeGap = (): void => {
    out += overText(source, gap, texts[k++]!, draft, out)
    gap = []
  }
  for (const item of items) {
    if (item.kind === 'text') {
      gap.push(item)
      continue
    }
    writeGap()
    out += tag(item.start, item.end)
  }
  writeGap()
  return out
}

/** One text between tags (`items` in the source) written as `answer` says: see overSource. `before`: what the slot wrote before it. */
function overText (source: string, items: readonly TextItem[], answer: string, draft: SegmentDraft, before: string): string {
  const escape = (text: string, written: string): string => text === '' ? '' : draft.format.escape(text, atLineStart(before + written))
  const read = items.length === 0 ? undefined : sourcedText(items, draft.format.collapse)
  if (read === undefined) return escape(answer, '')
  const first = items[0]!.start
  const last = items.at(-1)!.end
  if (read.text === answer) return source.slice(first, last)
  const parts = diffWordsWithSpace(read.text, answer, { maxEditLength: MAX_EDIT_LENGTH })
  if (parts === undefined) return escape(answer, '')
  const breaksLine = (j: number): boolean => read.text[j] === ' ' && source.slice(read.starts[j], read.ends[j]).includes('\n')
  let out = ''
  let cursor = first
  let at = 0
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (!part.added && !part.removed) {
      at += part.value.length
      out += source.slice(cursor, read.ends[at - 1])
      cursor = read.ends[at - 1]!
      continue
    }
    // a changed run: what it removed, then what it added
    let removed = 0
    let added = ''
    for (; i < parts.length && (parts[i]!.added || parts[i]!.removed); i++) {
      if (parts[i]!.removed) removed += parts[i]!.value.length
      else added += parts[i]!.value
    }
    i--
    let from = at
    const to = at + removed
    at = to
    // the source's line breaks at its edges where the engine only put a space there (or took it out)
    if (from < to && breaksLine(from) && (added === '' || /^\s/.test(added))) {
      out += source.slice(cursor, read.ends[from])
      cursor = read.ends[from++]!
      added = added.trimStart()
    }
    let lineAfter = false
    if (from < to && breaksLine(to - 1) && (added === '' || /\s$/.test(added))) {
      lineAfter = true
      added = added.trimEnd()
    }
    if (from < to) {
      out += source.slice(cursor, read.starts[from])
      cursor = read.starts[from]!
    }
    out += escape(added, out)
    if (lineAfter) {
      out = out.replace(/[ \t]+$/, '')
      cursor = read.starts[to - 1]!
    } else if (from < to) {
      cursor = read.ends[to - 1]!
    }
  }
  return out + source.slice(cursor, last)
}

/** A string document split into segments, rebuilt from their translations. */
export interface StringDocument {
  segments: string[]
  /** `target`: the language translated into, for formats that name it (absent for same-language work). */
  rebuild: (translated: readonly string[], target?: string) => string
}

/** A range of the source, outside every segment, written anew for the language translated into (a page's `<html lang>`). */
export interface Retargeted {
  start: number
  end: number
  write: (target: string) => string
}

/**
 * Builds the document of `source` from its segment drafts. `inPlace` (same-language work, edit):
 * a changed segment is written over its source, the text its answer kept as the source has it
 * (overSource), rather than on one line as a translation is. `retargeted`: sorted, disjoint.
 */
export function stringDocument (source: string, drafts: readonly SegmentDraft[], options: { inPlace?: boolean, retargeted?: readonly Retargeted[] } = {}): StringDocument {
  const { inPlace = false, retargeted = [] } = options
  const top = nest(drafts)
  const ordered: Slot[] = []
  number(top, ordered)
  const segments = ordered.map(slot => slot.draft.segment)

  const rebuild = (translated: readonly string[], target?: string): string => {
    if (translated.length !== segments.length) {
      throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
    }
    const copy = (start: number, end: number): string => {
      if (target === undefined || retargeted.length === 0) return source.slice(start, end)
      let out = ''
      let at = start
      for (const r of retargeted) {
        if (r.start < at || r.end > end) continue
        out += source.slice(at, r.start) + r.write(target)
        at = r.end
      }
      return out + source.slice(at, end)
    }
    // children are sorted and disjoint: those inside [start, end) are the run from the first that starts there
    const range = (start: number, end: number, children: readonly Slot[]): string => {
      let out = ''
      let at = start
      for (let i = firstFrom(children, start); i < children.length && children[i]!.draft.end <= end; i++) {
        const child = children[i]!
        out += copy(at, child.draft.start) + slot(child)
        at = child.draft.end
      }
      return out + copy(at, end)
    }
    const slot = (s: Slot): string => {
      const { draft } = s
      const answer = translated[s.index]!
      if (answer === draft.segment) return range(draft.start, draft.end, s.children)
      const kinds = new Map<number, TagKind>([...draft.tags].map(([id, ref]) => [id, ref.kind]))
      const whole = new Set([...draft.tags].filter(([, ref]) => ref.kind === 'pair' && ref.whole === true).map(([id]) => id))
      const spans = pairSpans(parseTagged(draft.segment))
      const parts = withoutEmptiedPairs(resolveTags(parseTagged(answer), kinds, spans, whole))
      const over = inPlace ? overSource(source, draft, parts, (start, end) => range(start, end, s.children)) : undefined
      if (over !== undefined) return over
      let out = ''
      for (const p of parts) {
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
