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

/**
 * The parts of an engine's answer made safe to rebuild from: unknown and repeated ids dropped
 * (their text kept), pairs left open closed at the end, a pair answered as a token kept as an
 * empty pair, and tokens the engine lost appended at the end. The result is always balanced.
 */
export function resolveTags (parts: readonly TaggedPart[], kinds: ReadonlyMap<number, TagKind>): TaggedPart[] {
  const out: TaggedPart[] = []
  const used = new Set<number>()
  // ids of the opens seen, in nesting order; -1 marks an open that was dropped
  const stack: number[] = []
  for (const p of parts) {
    if (p.type === 'text') {
      out.push(p)
    } else if (p.type === 'open') {
      const keep = kinds.get(p.id) === 'pair' && !used.has(p.id)
      if (keep) {
        used.add(p.id)
        out.push(p)
      }
      stack.push(keep ? p.id : -1)
    } else if (p.type === 'close') {
      const id = stack.pop()
      if (id !== undefined && id !== -1) out.push({ type: 'close', id })
    } else if (!used.has(p.id)) {
      const kind = kinds.get(p.id)
      if (kind !== undefined) used.add(p.id)
      if (kind === 'token') out.push(p)
      else if (kind === 'pair') out.push({ type: 'open', id: p.id }, { type: 'close', id: p.id })
    }
  }
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (id !== -1) out.push({ type: 'close', id })
  }
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
