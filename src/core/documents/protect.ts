/**
 * Protecting spans of a tagged segment's text from the engine: each span becomes a new
 * `<x id="N"/>` token (or a `<g id="N">…</g>` pair around text that is still translated),
 * and `restore` writes the span's own text back into the engine's answer.
 */
import { parseTagged, serializeTagged, type TaggedPart } from '../tagged.js'
import { resolveTags, tagKinds, type TagKind } from './tags.js'

/** Stands for an existing `<x/>` token in the flat text, so no span can run through it. */
export const TOKEN_CHAR = '\uFFFC'

/** A segment seen as plain text: text parts joined, each token one TOKEN_CHAR, tags zero-width. */
export interface Flat {
  text: string
  /** Offsets where a tag or token sits; a protected span may start or end there, never cross one. */
  barriers: Set<number>
}

/** A span [start, end) of the flat text and the text that replaces it after translation. */
export interface Mark {
  start: number
  end: number
  text: string
  /** Which rule produced the mark (glossary), for counting. */
  rule?: number
}

/** Two marks whose text between them is translated: they become a `<g>` pair. */
export interface PairMark {
  open: Mark
  close: Mark
}

export interface Protected {
  /** The segment with the spans replaced by tokens and pairs. */
  segment: string
  /** The engine's answer for `segment` back in the source segment's tags, spans restored. */
  restore: (translated: string) => string
}

export interface ProtectedMarks extends Protected {
  /** The token marks that were protected (marks that would cross a tag are left alone). */
  marks: Mark[]
}

interface Edit {
  start: number
  end: number
  part: 'token' | 'open' | 'close'
  mark: Mark
  /** Index of the pair (for open/close), to give both sides one id. */
  pair?: number
}

/** The flat view of parsed tagged parts, with the depth changes of its tags. */
function flatten (parts: readonly TaggedPart[]): Flat & { tokens: Set<number>, depth: Array<[number, number]> } {
  let text = ''
  const barriers = new Set<number>()
  const tokens = new Set<number>()
  const depth: Array<[number, number]> = []
  for (const p of parts) {
    if (p.type === 'text') {
      text += p.text
      continue
    }
    barriers.add(text.length)
    if (p.type === 'token') {
      tokens.add(text.length)
      text += TOKEN_CHAR
      barriers.add(text.length)
    } else {
      depth.push([text.length, p.type === 'open' ? 1 : -1])
    }
  }
  return { text, barriers, tokens, depth }
}

/** Protects what `find` marks in the segment's flat text; marks must not overlap each other. */
export function protect (segment: string, find: (flat: Flat) => { tokens?: Mark[], pairs?: PairMark[] }): ProtectedMarks {
  const parts = parseTagged(segment)
  const flat = flatten(parts)
  const found = find(flat)
  const inside = (m: Mark): boolean => {
    if (m.end <= m.start) return false
    for (let i = m.start + 1; i < m.end; i++) if (flat.barriers.has(i)) return false
    for (let i = m.start; i < m.end; i++) if (flat.tokens.has(i)) return false
    return true
  }
  // a pair may wrap tags only when they open and close between its two sides
  const balanced = (from: number, to: number): boolean => {
    let level = 0
    for (const [at, delta] of flat.depth) {
      if (at < from || at > to) continue
      level += delta
      if (level < 0) return false
    }
    return level === 0
  }
  const edits: Edit[] = []
  const marks: Mark[] = []
  const token = (m: Mark): void => {
    if (!inside(m)) return
    edits.push({ start: m.start, end: m.end, part: 'token', mark: m })
    marks.push(m)
  }
  for (const m of found.tokens ?? []) token(m)
  for (const [i, { open, close }] of (found.pairs ?? []).entries()) {
    if (inside(open) && inside(close) && open.end <= close.start && balanced(open.end, close.start)) {
      edits.push({ start: open.start, end: open.end, part: 'open', mark: open, pair: i })
      edits.push({ start: close.start, end: close.end, part: 'close', mark: close, pair: i })
    } else {
      // the two sides cannot wrap the text between them: protect each alone
      token(open)
      token(close)
    }
  }
  if (edits.length === 0) return { segment, restore: translated => translated, marks }
  edits.sort((a, b) => a.start - b.start)

  const kinds = tagKinds(parts)
  let next = 1
  for (const id of kinds.keys()) if (id >= next) next = id + 1
  const added = new Map<number, { kind: TagKind, open: string, close: string }>()
  // pair index -> [id, open text], set when its open side is written
  const pairs = new Map<number, [number, string]>()
  const out: TaggedPart[] = []
  let offset = 0
  let e = 0
  for (const p of parts) {
    if (p.type !== 'text') {
      out.push(p)
      if (p.type === 'token') offset += 1
      continue
    }
    const end = offset + p.text.length
    let from = offset
    for (; e < edits.length && edits[e]!.start < end; e++) {
      const edit = edits[e]!
      if (edit.start > from) out.push({ type: 'text', text: p.text.slice(from - offset, edit.start - offset) })
      if (edit.part === 'token') {
        added.set(next, { kind: 'token', open: edit.mark.text, close: '' })
        out.push({ type: 'token', id: next++ })
      } else if (edit.part === 'open') {
        pairs.set(edit.pair!, [next, edit.mark.text])
        out.push({ type: 'open', id: next++ })
      } else {
        const [id, open] = pairs.get(edit.pair!)!
        added.set(id, { kind: 'pair', open, close: edit.mark.text })
        out.push({ type: 'close', id })
      }
      from = edit.end
    }
    if (from < end) out.push({ type: 'text', text: p.text.slice(from - offset) })
    offset = end
  }
  for (const [id, a] of added) kinds.set(id, a.kind)

  const restore = (translated: string): string => {
    const restored: TaggedPart[] = []
    for (const p of resolveTags(parseTagged(translated), kinds)) {
      const a = p.type === 'text' ? undefined : added.get(p.id)
      if (a === undefined) restored.push(p)
      else restored.push({ type: 'text', text: p.type === 'close' ? a.close : a.open })
    }
    return serializeTagged(restored)
  }
  return { segment: serializeTagged(out), restore, marks }
}
