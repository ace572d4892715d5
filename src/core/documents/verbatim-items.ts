/**
 * What of a run no engine may take for words, made one token copied from the source: a verbatim
 * span (URL, mention, hashtag...) split over inline elements (Mastodon writes a link's URL in
 * three spans and a hashtag as `#<span>tag</span>`), a mention, hashtag or emoji shortcode even
 * in one text node, and an inline element holding no prose (only verbatim text, punctuation,
 * symbols or nothing) or only an absolute path (`<tt>/srv</tt>`, a lone `/name` that
 * findVerbatim does not take in prose), so no translated word can move into it and its content
 * stays in place.
 */
import { findVerbatim, type VerbatimKind } from '../verbatim.js'
import { TOKEN_CHAR } from './protect.js'
import { sliceText, type Item, type TextItem } from './run.js'

const LONE_PATH = /^\s*\/[\w.-]+\s*$/
const LONE_PATH_MAX = 256

/** Kinds made tokens even inside one text node: each stays with its `@`, `#` or colons, and is never escaped (Markdown's `\#`). */
const SOCIAL = new Set<VerbatimKind>(['mention', 'hashtag', 'emoji'])

/**
 * A range of a run's items: from character `from.offset` of item `from.item` to before character
 * `to.offset` of item `to.item` (an open, close or token item is taken whole: offsets 0 and 1).
 */
interface Range {
  from: { item: number, offset: number }
  to: { item: number, offset: number }
}

const before = (a: Range['from'], b: Range['from']): boolean => a.item < b.item || (a.item === b.item && a.offset < b.offset)

/** Each open item's close and each close's open. */
function partners (items: readonly Item[]): Map<number, number> {
  const partner = new Map<number, number>()
  const open: number[] = []
  items.forEach((item, i) => {
    if (item.kind === 'open') open.push(i)
    else if (item.kind === 'close' && open.length > 0) {
      const o = open.pop()!
      partner.set(o, i)
      partner.set(i, o)
    }
  })
  return partner
}

/** The range grown until every element it opens or closes lies wholly inside it; each item is looked at once. */
function balance (range: Range, items: readonly Item[], partner: ReadonlyMap<number, number>): Range {
  let { from, to } = range
  let lo = from.item
  let hi = from.item - 1
  for (;;) {
    let k: number
    if (hi < to.item) k = ++hi
    else if (lo > from.item) k = --lo
    else return { from, to }
    const kind = items[k]!.kind
    const p = partner.get(k)
    if (p === undefined) continue
    if (kind === 'open' && p > to.item) to = { item: p, offset: 1 }
    else if (kind === 'close' && p < from.item) from = { item: p, offset: 0 }
  }
}

/** Whether a range's ends fall where a text item can be cut (its offsets known). */
function cuttable (range: Range, items: readonly Item[]): boolean {
  const first = items[range.from.item]!
  const last = items[range.to.item]!
  return !(first.kind === 'text' && range.from.offset > 0 && first.offsets === null) &&
    !(last.kind === 'text' && range.to.offset < last.text.length && last.offsets === null)
}

/** Whether flat[start, end), an element's content, is one absolute path; a long one is not read, so nested elements stay linear. */
function lonePath (flat: string, start: number, end: number): boolean {
  return end - start <= LONE_PATH_MAX && LONE_PATH.test(flat.slice(start, end))
}

/** The ranges to make tokens: verbatim spans across items or of a social kind, and inline elements without prose. */
function keptRanges (items: readonly Item[], partner: ReadonlyMap<number, number>): Range[] {
  const at: number[] = []
  let flat = ''
  for (const item of items) {
    at.push(flat.length)
    if (item.kind === 'text') flat += item.text.replace(/[\t\n\v\f\r]/g, ' ')
    else if (item.kind === 'token') flat += TOKEN_CHAR
  }
  // the item holding flat character c: the last whose start is at or before it (tags hold none)
  const itemAt = (c: number): number => {
    let lo = 0
    let hi = items.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (at[mid]! <= c) lo = mid + 1
      else hi = mid
    }
    return lo - 1
  }
  const hasElements = items.some(item => item.kind === 'open')
  // without elements only a social span or an @/# before a token can make a range
  if (!hasElements && !/[@#:]/.test(flat)) return []
  const spans = findVerbatim(flat)
  const ranges: Range[] = []
  for (const span of spans) {
    const i = itemAt(span.start)
    const j = itemAt(span.end - 1)
    if (i === j && !SOCIAL.has(span.kind)) continue
    ranges.push({ from: { item: i, offset: span.start - at[i]! }, to: { item: j, offset: span.end - at[j]! } })
  }
  // an @ or # right before a token (GFM reads bob@host.org of "@bob@host.org" as an e-mail link) goes with it
  for (const m of flat.matchAll(/(?<![\p{L}\p{N}_])[@#]\uFFFC/gu)) {
    const i = itemAt(m.index)
    ranges.push({ from: { item: i, offset: m.index - at[i]! }, to: { item: itemAt(m.index + 1), offset: 1 } })
  }
  if (!hasElements) return ranges
  // prose letters (letters outside verbatim spans) before each item, in one pass over the letters
  const proseBefore = new Uint32Array(items.length + 1)
  let item = 0
  let span = 0
  let count = 0
  const letters = /\p{L}/gu
  for (let m = letters.exec(flat); m !== null; m = letters.exec(flat)) {
    const c = m.index
    for (; item < items.length && at[item]! <= c; item++) proseBefore[item] = count
    while (span < spans.length && spans[span]!.end <= c) span++
    if (span >= spans.length || spans[span]!.start > c) count++
  }
  for (; item < items.length; item++) proseBefore[item] = count
  items.forEach((it, o) => {
    const c = partner.get(o)
    if (it.kind === 'open' && c !== undefined && (proseBefore[c] === proseBefore[o] || lonePath(flat, at[o]!, at[c]!))) ranges.push({ from: { item: o, offset: 0 }, to: { item: c, offset: 1 } })
  })
  return ranges
}

/** The run's items with what no engine may take for words made weak tokens (see the file's comment). */
export function keepVerbatim (items: Item[]): Item[] {
  if (items.length === 0) return items
  const partner = partners(items)
  const ranges = keptRanges(items, partner)
    .map(r => balance(r, items, partner))
    .filter(r => cuttable(r, items))
    .sort((a, b) => before(a.from, b.from) ? -1 : before(b.from, a.from) ? 1 : 0)
  if (ranges.length === 0) return items
  // balanced ranges that overlap make a balanced union
  const merged: Range[] = []
  for (const r of ranges) {
    const last = merged.at(-1)
    if (last !== undefined && before(r.from, last.to)) {
      if (before(last.to, r.to)) last.to = r.to
    } else {
      merged.push({ from: { ...r.from }, to: { ...r.to } })
    }
  }
  const out: Item[] = []
  // everything before character `offset` of item `at` is written
  let at = 0
  let offset = 0
  const rest = (): void => {
    const item = items[at]!
    out.push(offset === 0 ? item : sliceText(item as TextItem, offset, (item as TextItem).text.length))
    at++
    offset = 0
  }
  for (const { from, to } of merged) {
    while (at < from.item) rest()
    const first = items[at]!
    if (from.offset > offset) out.push(sliceText(first as TextItem, offset, from.offset))
    const start = from.offset > 0 ? (first as TextItem).offsets!.starts[from.offset]! : first.start
    const last = items[to.item]!
    const whole = last.kind !== 'text' || to.offset >= last.text.length
    const end = whole ? last.end : last.offsets!.ends[to.offset - 1]!
    let breaks = false
    for (let k = from.item; k <= to.item; k++) {
      const item = items[k]!
      if (item.kind === 'token' && item.breaks) breaks = true
    }
    out.push({ kind: 'token', start, end, weak: true, breaks })
    at = whole ? to.item + 1 : to.item
    offset = whole ? 0 : to.offset
  }
  while (at < items.length) rest()
  return out
}
