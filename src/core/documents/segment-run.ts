/** Cutting a run into sentence segments in tagged form, each knowing its source range and tags. */
import { escapeText } from '../tagged.js'
import { TOKEN_CHAR } from './protect.js'
import type { Item, TextFormat } from './run.js'
import { MAX_SENTENCE_CHARS, sentenceBreaks } from './sentences.js'
import { keepVerbatim } from './verbatim-items.js'

export interface Range {
  start: number
  end: number
}

/** What segment id N stands for in the source. */
export type TagRef =
  | { kind: 'pair', open: Range, close: Range, whole?: boolean }
  | { kind: 'token', range: Range }

/** One segment of a run: its tagged text, the source range it replaces, and its tags. */
export interface SegmentDraft extends Range {
  segment: string
  tags: Map<number, TagRef>
  format: TextFormat
  /** The run's items it was made of, in order: where its text lies in the source, for a rebuild over it (skeleton.ts, in place). */
  items?: readonly Item[]
}

/** A run item with its offset in the run's flat text (where sentence breaks are found). */
type Placed = Item & { at: number }
type PlacedText = Extract<Item, { kind: 'text' }> & { at: number }

const LETTER = /\p{L}/u
const SPACE = /\s/u

/** Splits a text item at `k` (0 < k < length); its offsets say where each half lies. */
function splitText (item: PlacedText, k: number): [PlacedText, PlacedText] {
  const o = item.offsets!
  return [
    { kind: 'text', text: item.text.slice(0, k), start: item.start, end: o.ends[k - 1]!, offsets: { starts: o.starts.subarray(0, k), ends: o.ends.subarray(0, k) }, at: item.at },
    { kind: 'text', text: item.text.slice(k), start: o.starts[k]!, end: item.end, offsets: { starts: o.starts.subarray(k), ends: o.ends.subarray(k) }, at: item.at + k }
  ]
}

/** For each open item, the index of its close. */
function partners (items: readonly Placed[]): Map<number, number> {
  const closes = new Map<number, number>()
  const open: number[] = []
  items.forEach((item, i) => {
    if (item.kind === 'open') open.push(i)
    else if (item.kind === 'close') closes.set(open.pop()!, i)
  })
  return closes
}

/**
 * The items without what belongs to the skeleton: white space and weak tokens at both edges,
 * and inline elements wrapping everything (`<p><b>All bold.</b></p>` sends `All bold.`).
 */
function trim (items: readonly Placed[]): Placed[] {
  const out = items.slice()
  const close = partners(out)
  let lo = 0
  let hi = out.length - 1
  for (let changed = true; changed && lo <= hi;) {
    changed = false
    const first = out[lo]!
    if (first.kind === 'token' && first.weak) {
      lo++
      changed = true
    } else if (first.kind === 'text' && first.offsets && SPACE.test(first.text[0]!)) {
      const k = first.text.length - first.text.trimStart().length
      if (k === first.text.length) lo++
      else out[lo] = splitText(first, k)[1]
      changed = true
    } else if (first.kind === 'open' && close.get(lo) === hi) {
      lo++
      hi--
      changed = true
    }
    if (lo > hi) break
    const last = out[hi]!
    if (last.kind === 'token' && last.weak) {
      hi--
      changed = true
    } else if (last.kind === 'text' && last.offsets && SPACE.test(last.text.at(-1)!)) {
      const k = last.text.trimEnd().length
      if (k === 0) hi--
      else out[hi] = splitText(last, k)[0]
      changed = true
    }
  }
  return out.slice(lo, hi + 1)
}

/** The run's items placed in its flat text (tokens one character, tags none) and that text. */
function place (items: readonly Item[]): { placed: Placed[], flat: string } {
  let flat = ''
  const placed = items.map(item => {
    const at = flat.length
    if (item.kind === 'text') flat += item.text.replace(/[\t\n\v\f\r]/g, ' ')
    else if (item.kind === 'token') flat += item.breaks ? '\n' : TOKEN_CHAR
    return { ...item, at }
  })
  return { placed, flat }
}

/** Index of the first break after `at` (breaks ascending). */
function firstBreakAfter (breaks: readonly number[], at: number): number {
  let lo = 0
  let hi = breaks.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (breaks[mid]! <= at) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The items cut at the sentence breaks that fall between them outside every inline element.
 * Inside one, a break is taken only when the piece would otherwise grow past
 * MAX_SENTENCE_CHARS (engines slow down sharply on longer sentences): the elements open there
 * are closed before the cut and opened again after it by empty tags, so each piece stays
 * balanced and the source is rebuilt byte for byte.
 */
function cut (items: readonly Placed[], breaks: readonly number[]): Placed[][] {
  const pieces: Placed[][] = [[]]
  let b = firstBreakAfter(breaks, items[0]!.at)
  // the inline elements open at this point, outermost first
  const opened: Placed[] = []
  const last = items.at(-1)!
  const end = last.at + (last.kind === 'text' ? last.text.length : last.kind === 'token' ? 1 : 0)
  let pieceStart = items[0]!.at
  const cutHere = (at: number): void => {
    if (opened.length === 0 && pieces.at(-1)!.length > 0) {
      pieces.push([])
      pieceStart = at
    }
  }
  for (const item of items) {
    while (b < breaks.length && (breaks[b]! < item.at || (breaks[b] === item.at && item.kind !== 'close'))) {
      cutHere(breaks[b]!)
      b++
    }
    if (item.kind !== 'text') {
      if (item.kind === 'open') opened.push(item)
      else if (item.kind === 'close') opened.pop()
      pieces.at(-1)!.push(item)
      continue
    }
    let rest = item
    for (; b < breaks.length && breaks[b]! < item.at + item.text.length; b++) {
      if (rest.offsets === null) continue
      const at = breaks[b]!
      if (opened.length > 0) {
        const next = b + 1 < breaks.length ? Math.min(breaks[b + 1]!, end) : end
        if (next - pieceStart <= MAX_SENTENCE_CHARS) continue
      }
      const [left, right] = splitText(rest, at - rest.at)
      const piece = pieces.at(-1)!
      piece.push(left)
      if (opened.length > 0) {
        for (let i = opened.length - 1; i >= 0; i--) piece.push({ kind: 'close', start: left.end, end: left.end, at })
        pieces.push(opened.map((o): Placed => ({ kind: 'open', start: right.start, end: right.start, at, whole: o.kind === 'open' && o.whole === true })))
        pieceStart = at
      } else {
        cutHere(at)
      }
      rest = right
    }
    pieces.at(-1)!.push(rest)
  }
  return pieces
}

/** The tagged segment of a run piece, with ids from 1 in order of appearance. */
function draft (items: readonly Placed[], format: TextFormat): SegmentDraft {
  const tags = new Map<number, TagRef>()
  const open: number[] = []
  let segment = ''
  let id = 0
  for (const item of items) {
    const range = { start: item.start, end: item.end }
    if (item.kind === 'text') {
      segment += escapeText(format.collapse ? item.text.replace(format.collapse, ' ') : item.text)
    } else if (item.kind === 'open') {
      tags.set(++id, item.whole === true ? { kind: 'pair', open: range, close: range, whole: true } : { kind: 'pair', open: range, close: range })
      open.push(id)
      segment += `<g id="${id}">`
    } else if (item.kind === 'close') {
      const ref = tags.get(open.pop()!) as Extract<TagRef, { kind: 'pair' }>
      ref.close = range
      segment += '</g>'
    } else {
      tags.set(++id, { kind: 'token', range })
      segment += `<x id="${id}"/>`
    }
  }
  return { start: items[0]!.start, end: items.at(-1)!.end, segment, tags, format, items }
}

/**
 * The items with every open or close that has no partner in the run made a weak token, copied
 * from the source as it is: a pair is only ever a pair within one run, and a stray half must
 * never break the segment's tags.
 */
function paired (items: Item[]): Item[] {
  const open: number[] = []
  const stray = new Set<number>()
  items.forEach((item, i) => {
    if (item.kind === 'open') open.push(i)
    else if (item.kind === 'close' && open.pop() === undefined) stray.add(i)
  })
  for (const i of open) stray.add(i)
  if (stray.size === 0) return items
  return items.map((item, i) => stray.has(i) ? { kind: 'token', start: item.start, end: item.end, weak: true, breaks: false } : item)
}

function hasLetters (items: readonly Item[]): boolean {
  return items.some(item => item.kind === 'text' && LETTER.test(item.text))
}

/** The sentence segments of a run (none when it has no letters); the rest stays in the skeleton. */
export function segmentRun (items: Item[], format: TextFormat, locale: string): SegmentDraft[] {
  const { placed, flat } = place(keepVerbatim(paired(items)))
  if (!hasLetters(placed)) return []
  const breaks = sentenceBreaks(flat, locale)
  const out: SegmentDraft[] = []
  // pieces still to cut, last first; a stack rather than recursion, for deeply nested markup
  const pending: Placed[][] = [placed]
  for (let piece = pending.pop(); piece !== undefined; piece = pending.pop()) {
    const core = trim(piece)
    if (!hasLetters(core)) continue
    // trimming may have unwrapped an element around the whole piece, opening new breaks inside it
    const pieces = cut(core, breaks)
    if (pieces.length === 1) out.push(draft(core, format))
    else for (let i = pieces.length - 1; i >= 0; i--) pending.push(pieces[i]!)
  }
  return out
}
