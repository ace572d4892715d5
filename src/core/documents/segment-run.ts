/** Cutting a run into sentence segments in tagged form, each knowing its source range and tags. */
import { escapeText } from '../../providers/tagged.js'
import { TOKEN_CHAR } from './protect.js'
import type { Item, TextFormat } from './run.js'
import { sentenceBreaks } from './sentences.js'

export interface Range {
  start: number
  end: number
}

/** What segment id N stands for in the source. */
export type TagRef =
  | { kind: 'pair', open: Range, close: Range }
  | { kind: 'token', range: Range }

/** One segment of a run: its tagged text, the source range it replaces, and its tags. */
export interface SegmentDraft extends Range {
  segment: string
  tags: Map<number, TagRef>
  format: TextFormat
}

type TextItem = Extract<Item, { kind: 'text' }>

const LETTER = /\p{L}/u
const SPACE = /\s/u

/** Splits a text item at `k` (0 < k < length); its offsets say where each half lies. */
function splitText (item: TextItem, k: number): [TextItem, TextItem] {
  const o = item.offsets!
  return [
    { kind: 'text', text: item.text.slice(0, k), start: item.start, end: o.ends[k - 1]!, offsets: { starts: o.starts.subarray(0, k), ends: o.ends.subarray(0, k) } },
    { kind: 'text', text: item.text.slice(k), start: o.starts[k]!, end: item.end, offsets: { starts: o.starts.subarray(k), ends: o.ends.subarray(k) } }
  ]
}

/** Index of the close matching the open at `i`. */
function matchingClose (items: readonly Item[], i: number): number {
  let depth = 0
  for (let k = i; k < items.length; k++) {
    const kind = items[k]!.kind
    if (kind === 'open') depth++
    else if (kind === 'close' && --depth === 0) return k
  }
  return -1
}

/**
 * The items without what belongs to the skeleton: white space and weak tokens at both edges,
 * and inline elements wrapping everything (`<p><b>All bold.</b></p>` sends `All bold.`).
 */
function trim (items: Item[]): Item[] {
  let out = items
  for (let changed = true; changed && out.length > 0;) {
    changed = false
    const first = out[0]!
    if (first.kind === 'token' && first.weak) {
      out = out.slice(1)
      changed = true
    } else if (first.kind === 'text' && first.offsets && SPACE.test(first.text[0]!)) {
      const k = first.text.length - first.text.trimStart().length
      out = k === first.text.length ? out.slice(1) : [splitText(first, k)[1], ...out.slice(1)]
      changed = true
    } else if (first.kind === 'open' && matchingClose(out, 0) === out.length - 1) {
      out = out.slice(1, -1)
      changed = true
    }
    const last = out.at(-1)
    if (last === undefined) break
    if (last.kind === 'token' && last.weak) {
      out = out.slice(0, -1)
      changed = true
    } else if (last.kind === 'text' && last.offsets && SPACE.test(last.text.at(-1)!)) {
      const k = last.text.trimEnd().length
      out = k === 0 ? out.slice(0, -1) : [...out.slice(0, -1), splitText(last, k)[0]]
      changed = true
    }
  }
  return out
}

/** The run's items cut at sentence breaks made outside every inline element. */
function cut (items: readonly Item[], locale: string): Item[][] {
  let flat = ''
  const at: number[] = []
  for (const item of items) {
    at.push(flat.length)
    if (item.kind === 'text') flat += item.text.replace(/[\t\n\v\f\r]/g, ' ')
    else if (item.kind === 'token') flat += item.breaks ? '\n' : TOKEN_CHAR
  }
  const breaks = sentenceBreaks(flat, locale)
  const pieces: Item[][] = [[]]
  let b = 0
  let depth = 0
  const cutHere = (): void => {
    if (depth === 0 && pieces.at(-1)!.length > 0) pieces.push([])
  }
  items.forEach((item, i) => {
    const from = at[i]!
    while (b < breaks.length && (breaks[b]! < from || (breaks[b] === from && item.kind !== 'close'))) {
      cutHere()
      b++
    }
    if (item.kind !== 'text') {
      if (item.kind === 'open') depth++
      else if (item.kind === 'close') depth--
      pieces.at(-1)!.push(item)
      return
    }
    let rest = item
    let restFrom = from
    for (; b < breaks.length && breaks[b]! < from + item.text.length; b++) {
      if (depth > 0 || rest.offsets === null) continue
      const [left, right] = splitText(rest, breaks[b]! - restFrom)
      pieces.at(-1)!.push(left)
      cutHere()
      rest = right
      restFrom = breaks[b]!
    }
    pieces.at(-1)!.push(rest)
  })
  return pieces
}

/** The tagged segment of a run piece, with ids from 1 in order of appearance. */
function draft (items: readonly Item[], format: TextFormat): SegmentDraft {
  const tags = new Map<number, TagRef>()
  const open: number[] = []
  let segment = ''
  let id = 0
  for (const item of items) {
    const range = { start: item.start, end: item.end }
    if (item.kind === 'text') {
      segment += escapeText(format.collapse ? item.text.replace(format.collapse, ' ') : item.text)
    } else if (item.kind === 'open') {
      tags.set(++id, { kind: 'pair', open: range, close: range })
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
  return { start: items[0]!.start, end: items.at(-1)!.end, segment, tags, format }
}

function hasLetters (items: readonly Item[]): boolean {
  return items.some(item => item.kind === 'text' && LETTER.test(item.text))
}

/** Adds the segments of a run piece: cut at sentence breaks, each piece trimmed and cut again. */
function segmentPiece (items: Item[], format: TextFormat, locale: string, out: SegmentDraft[]): void {
  const core = trim(items)
  if (!hasLetters(core)) return
  // trimming may have unwrapped an element around the whole piece, opening new breaks inside it
  const pieces = cut(core, locale)
  if (pieces.length === 1) out.push(draft(core, format))
  else for (const piece of pieces) segmentPiece(piece, format, locale, out)
}

/** The sentence segments of a run (none when it has no letters); the rest stays in the skeleton. */
export function segmentRun (items: Item[], format: TextFormat, locale: string): SegmentDraft[] {
  const out: SegmentDraft[] = []
  segmentPiece(items, format, locale, out)
  return out
}
