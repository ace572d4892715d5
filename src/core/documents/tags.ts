/** Repairing the tags of an engine's answer against the tags its source segment had. */
import type { TaggedPart } from '../tagged.js'

/** What an id stood for in the source segment: an inline pair `<g>…</g>` or a token `<x/>`. */
export type TagKind = 'pair' | 'token'

/** The id -> kind table of a tagged segment's parts. */
export function tagKinds (parts: readonly TaggedPart[]): Map<number, TagKind> {
  const kinds = new Map<number, TagKind>()
  for (const p of parts) {
    if (p.type === 'open') kinds.set(p.id, 'pair')
    else if (p.type === 'token') kinds.set(p.id, 'token')
  }
  return kinds
}

/** Where a pair sat in its source segment: `a` held `b` when a.first < b.first <= a.last. */
export interface PairSpan {
  /** Order of the pair's open among the source's opens. */
  first: number
  /** Order of the last open inside the pair (its own when it held none). */
  last: number
}

/** The id -> span table of a tagged segment's pairs, for telling nested pairs from siblings. */
export function pairSpans (parts: readonly TaggedPart[]): Map<number, PairSpan> {
  const spans = new Map<number, PairSpan>()
  const open: PairSpan[] = []
  let opens = 0
  for (const p of parts) {
    if (p.type === 'open') {
      const span = { first: opens, last: opens }
      opens++
      spans.set(p.id, span)
      open.push(span)
    } else if (p.type === 'close') {
      const span = open.pop()
      if (span) span.last = opens - 1
    }
  }
  return spans
}

/** A pair the answer opened: written (`shown`) or waiting for its next words after a split. */
interface OpenPair {
  id: number
  shown: boolean
  /** Closed early for good, past the splits allowed: the answer's close of it writes nothing. */
  ended?: boolean
  /** Pairs closed early so this one would not open inside them (innermost first), reopened after it closes. */
  split: OpenPair[]
}

/**
 * The parts of an engine's answer made safe to rebuild from: unknown and repeated ids dropped
 * (their text kept), pairs left open closed at the end, a pair answered as a token kept as an
 * empty pair, and tokens the engine lost appended at the end. The result is always balanced.
 *
 * With the source's `spans`, a pair never opens inside a pair it was not nested with in the
 * source: an engine that moves words across sibling links (Apertium on "a | b") answers one
 * inside the other, which HTML and Markdown cannot hold. The outer pair is closed before the
 * inner opens and reopened at its next words after the inner closes, so every word stays in
 * the pairs the engine put it in. Splits are limited to one per answer part, keeping this linear;
 * past that a split pair stays closed. A `whole` pair is never split: what opens inside it stays
 * there, so its markup is written once (a content control's or tracked change's id is unique).
 */
export function resolveTags (
  parts: readonly TaggedPart[],
  kinds: ReadonlyMap<number, TagKind>,
  spans?: ReadonlyMap<number, PairSpan>,
  whole?: ReadonlySet<number>
): TaggedPart[] {
  const out: TaggedPart[] = []
  const used = new Set<number>()
  // the answer's opens in nesting order, undefined for a dropped one
  const answer: Array<OpenPair | undefined> = []
  // the pairs open in `out` (or waiting to reopen), each nested in the source with all below it;
  // deepest[i]: the one of written[0..i] deepest in the source, the one all others hold
  const written: OpenPair[] = []
  const deepest: number[] = []
  let splits = parts.length
  const push = (pair: OpenPair): void => {
    const below = deepest.at(-1)
    const span = spans?.get(pair.id)
    deepest.push(below !== undefined && (span === undefined || (spans!.get(below)?.first ?? -1) > span.first) ? below : pair.id)
    written.push(pair)
  }
  const pop = (): OpenPair => {
    deepest.pop()
    const pair = written.pop()!
    if (pair.shown) out.push({ type: 'close', id: pair.id })
    return pair
  }
  const nested = (a: number, b: number): boolean => {
    const sa = spans?.get(a)
    const sb = spans?.get(b)
    if (sa === undefined || sb === undefined) return true
    return (sa.first < sb.first && sb.first <= sa.last) || (sb.first < sa.first && sa.first <= sb.last)
  }
  // the pairs waiting to reopen are always the top of `written`
  const show = (): void => {
    let i = written.length
    while (i > 0 && !written[i - 1]!.shown) i--
    for (; i < written.length; i++) {
      written[i]!.shown = true
      out.push({ type: 'open', id: written[i]!.id })
    }
  }
  for (const p of parts) {
    if (p.type === 'text') {
      const words = p.text.search(/\S/)
      if (words > 0 && written.at(-1)?.shown === false) {
        // a reopened pair starts at its word, the space before it left outside
        out.push({ type: 'text', text: p.text.slice(0, words) })
        show()
        out.push({ type: 'text', text: p.text.slice(words) })
        continue
      }
      if (words >= 0) show()
      out.push(p)
    } else if (p.type === 'open') {
      if (kinds.get(p.id) !== 'pair' || used.has(p.id)) {
        answer.push(undefined)
        continue
      }
      used.add(p.id)
      const pair: OpenPair = { id: p.id, shown: true, split: [] }
      while (written.length > 0 && !nested(deepest.at(-1)!, p.id) && whole?.has(written.at(-1)!.id) !== true) {
        const closed = pop()
        if (splits > 0) {
          splits--
          pair.split.push(closed)
        } else {
          closed.ended = true
        }
      }
      show()
      out.push(p)
      push(pair)
      answer.push(pair)
    } else if (p.type === 'close') {
      const pair = answer.pop()
      if (pair === undefined) continue
      if (pair.ended !== true) pop()
      for (let i = pair.split.length - 1; i >= 0; i--) {
        const again = pair.split[i]!
        again.shown = false
        push(again)
      }
    } else if (!used.has(p.id)) {
      const kind = kinds.get(p.id)
      if (kind !== undefined) used.add(p.id)
      if (kind === 'token') {
        show()
        out.push(p)
      } else if (kind === 'pair') {
        out.push({ type: 'open', id: p.id }, { type: 'close', id: p.id })
      }
    }
  }
  while (written.length > 0) pop()
  for (const [id, kind] of kinds) {
    if (kind !== 'token' || used.has(id)) continue
    const last = out.at(-1)
    if (last?.type === 'text' && /\S$/.test(last.text)) out.push({ type: 'text', text: ' ' })
    out.push({ type: 'token', id })
  }
  return out
}

/**
 * The parts without the pairs an engine emptied: an inline element whose words the engine merged
 * into others or dropped comes back as an empty pair at the sentence's end, which would be written
 * as stray markup (Markdown's `____`, an empty `<tt></tt>` after the full stop). (A source never
 * sends an empty pair: an element with nothing in it is a token.)
 */
export function withoutEmptiedPairs (parts: readonly TaggedPart[]): TaggedPart[] {
  const out: TaggedPart[] = []
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!
    const next = parts[i + 1]
    if (p.type === 'open' && next?.type === 'close' && next.id === p.id) {
      i++
      continue
    }
    out.push(p)
  }
  return out
}
