/**
 * Apertium's answers (stream format) back into tagged segments with the source's tags, each once:
 * word-bound blanks give groups their words back, token words take the source's tokens in order.
 */
import type { TaggedPart } from '../../../core/tagged.js'
import { closeIndexes, toPieces, tokenWord, TOKEN_WORD } from './encode.js'

const TOKEN_WORD_PATTERN = new RegExp(TOKEN_WORD, 'gi')

/** A unit of an answer: the group ids its word-bound blank named (innermost ones; merged words name several). */
type Unit =
  | { kind: 'text', text: string, groups: number[] }
  | { kind: 'token' | 'empty', id: number, groups: number[] }
  | { kind: 'stray', groups: number[] }

interface Header {
  groups: number[]
  tokens: Array<{ kind: 'token' | 'empty', id: number }>
}

function parseHeader (text: string): Header {
  const parsed: Header = { groups: [], tokens: [] }
  const seenGroups = new Set<number>()
  const seenTokens = new Set<number>()
  // merged words join their headers with "; " and may repeat entries
  for (const entry of text.split(';')) {
    const m = /^t:([gxe]):(\d+)$/.exec(entry.trim())
    if (!m) continue
    const id = Number(m[2])
    const seen = m[1] === 'g' ? seenGroups : seenTokens
    if (seen.has(id)) continue
    seen.add(id)
    if (m[1] === 'g') parsed.groups.push(id)
    else parsed.tokens.push({ kind: m[1] === 'x' ? 'token' : 'empty', id })
  }
  return parsed
}

/** Splits text at token words: the words take the header's tokens in order, extra ones are strays. */
function splitTokens (text: string, head: Header, word: RegExp, units: Unit[]): void {
  let last = 0
  let next = 0
  const pushText = (t: string): void => {
    if (t) units.push({ kind: 'text', text: t, groups: head.groups })
  }
  for (const m of text.matchAll(word)) {
    pushText(text.slice(last, m.index))
    const token = head.tokens[next++]
    units.push(token ? { ...token, groups: head.groups } : { kind: 'stray', groups: head.groups })
    last = m.index + m[0].length
  }
  pushText(text.slice(last))
  // tokens whose word was lost stay with the rest of their word-bound blank
  for (const token of head.tokens.slice(next)) units.push({ ...token, groups: head.groups })
}

/** Reads a stream-format answer into units; `word` matches the segment's token word. */
function readStream (stream: string, word: RegExp): Unit[] {
  const units: Unit[] = []
  const plain: Header = { groups: [], tokens: [] }
  let head = plain
  let buffer = ''
  const flush = (): void => {
    splitTokens(buffer, head, word, units)
    buffer = ''
  }
  const dropSentenceMark = (): void => {
    if (buffer.endsWith('.')) buffer = buffer.slice(0, -1)
    else if (!buffer) {
      const last = units.at(-1)
      if (last?.kind === 'text' && last.text.endsWith('.')) last.text = last.text.slice(0, -1)
    }
  }
  let i = 0
  while (i < stream.length) {
    const c = stream[i]!
    if (c === '\\' && i + 1 < stream.length) {
      buffer += stream[i + 1]
      i += 2
    } else if (stream.startsWith('[[/]]', i)) {
      flush()
      head = plain
      i += 5
    } else if (stream.startsWith('[[', i)) {
      const end = stream.indexOf(']]', i + 2)
      if (end === -1) break
      flush()
      head = parseHeader(stream.slice(i + 2, end))
      i = end + 2
    } else if (c === '[') {
      let j = i + 1
      let content = ''
      while (j < stream.length && stream[j] !== ']') {
        if (stream[j] === '\\' && j + 1 < stream.length) j++
        content += stream[j]
        j++
      }
      if (content === '') dropSentenceMark()
      else {
        flush()
        units.push({ kind: 'text', text: content, groups: [] })
      }
      i = j + 1
    } else {
      buffer += c
      i++
    }
  }
  flush()
  return units
}

/** The ids a source segment carries, in document order. */
interface Inventory {
  tokens: number[]
  empties: number[]
  /** Groups with words, each id with its rank in document order. */
  groups: Map<number, number>
  /** The group each group is nested in (ids, first occurrence). */
  parents: Map<number, number>
}

function inventory (parts: readonly TaggedPart[]): Inventory {
  const pieces = toPieces(parts, closeIndexes(parts))
  const empties = pieces.flatMap(u => u.kind === 'empty' ? [u.id] : [])
  const emptyIds = new Set(empties)
  const groups = new Map<number, number>()
  const parents = new Map<number, number>()
  const stack: number[] = []
  for (const p of parts) {
    if (p.type === 'open') {
      if (!emptyIds.has(p.id) && !groups.has(p.id)) {
        groups.set(p.id, groups.size)
        // the enclosing group was seen first, so parents never form a cycle
        const parent = stack.at(-1)
        if (parent !== undefined && parent !== p.id) parents.set(p.id, parent)
      }
      stack.push(p.id)
    } else if (p.type === 'close') {
      stack.pop()
    }
  }
  return { tokens: pieces.flatMap(u => u.kind === 'token' ? [u.id] : []), empties, groups, parents }
}

/** Each source token exactly once: duplicates dropped, lost ones take stray token words, else go last. */
function settleTokens (units: Unit[], source: Inventory): Unit[] {
  const seen = new Set<string>()
  const wanted = new Set([...source.tokens.map(id => `token:${id}`), ...source.empties.map(id => `empty:${id}`)])
  const kept = units.filter(u => {
    if (u.kind !== 'token' && u.kind !== 'empty') return true
    const key = `${u.kind}:${u.id}`
    if (!wanted.has(key) || seen.has(key)) return false
    seen.add(key)
    return true
  })
  const missing: Unit[] = []
  for (const id of source.tokens) if (!seen.has(`token:${id}`)) missing.push({ kind: 'token', id, groups: [] })
  for (const id of source.empties) if (!seen.has(`empty:${id}`)) missing.push({ kind: 'empty', id, groups: [] })
  let taken = 0
  const out = kept.map(u => u.kind === 'stray' && taken < missing.length ? { ...missing[taken++]!, groups: u.groups } : u)
  return [...out.filter(u => u.kind !== 'stray'), ...missing.slice(taken)]
}

interface Span {
  id: number
  start: number
  end: number
}

/**
 * Group spans over unit indexes, clipped so that they nest. A unit names its innermost groups;
 * each group also spans what the groups nested in it span (children before parents: in
 * reverse document order), so nesting costs no more than one pass.
 */
function groupSpans (units: readonly Unit[], source: Inventory): Span[] {
  const spans = new Map<number, Span>()
  const cover = (id: number, start: number, end: number): void => {
    const span = spans.get(id)
    if (!span) spans.set(id, { id, start, end })
    else {
      if (start < span.start) span.start = start
      if (end > span.end) span.end = end
    }
  }
  units.forEach((u, i) => {
    for (const id of u.groups) if (source.groups.has(id)) cover(id, i, i)
  })
  const ids = [...source.groups.keys()]
  for (let k = ids.length - 1; k >= 0; k--) {
    const span = spans.get(ids[k]!)
    const parent = source.parents.get(ids[k]!)
    if (span && parent !== undefined && source.groups.has(parent)) cover(parent, span.start, span.end)
  }
  const order = (id: number): number => source.groups.get(id)!
  const sorted = [...spans.values()].sort((a, b) => a.start - b.start || b.end - a.end || order(a.id) - order(b.id))
  const stack: Span[] = []
  for (const span of sorted) {
    while (stack.length > 0 && stack.at(-1)!.end < span.start) stack.pop()
    const parent = stack.at(-1)
    if (parent && parent.end < span.end) span.end = parent.end
    stack.push(span)
  }
  return sorted
}

/** Units back to tagged parts; groups that lost all their words come back empty at the end. */
function toParts (units: readonly Unit[], source: Inventory): TaggedPart[] {
  const spans = groupSpans(units, source)
  const parts: TaggedPart[] = []
  const open: Span[] = []
  // spans are sorted by start: one pass opens each where it starts
  let next = 0
  units.forEach((u, i) => {
    for (; next < spans.length && spans[next]!.start === i; next++) {
      parts.push({ type: 'open', id: spans[next]!.id })
      open.push(spans[next]!)
    }
    if (u.kind === 'text') parts.push({ type: 'text', text: u.text })
    else if (u.kind === 'token') parts.push({ type: 'token', id: u.id })
    else if (u.kind === 'empty') parts.push({ type: 'open', id: u.id }, { type: 'close', id: u.id })
    while (open.length > 0 && open.at(-1)!.end === i) parts.push({ type: 'close', id: open.pop()!.id })
  })
  const placed = new Set(spans.map(s => s.id))
  for (const id of source.groups.keys()) {
    if (!placed.has(id)) parts.push({ type: 'open', id }, { type: 'close', id })
  }
  return parts
}

/** What needs reading in an answer's text: escapes, blanks, a token word. */
const NOT_PLAIN = /[\\[\]]|zxqv/i

/**
 * A segment without tags or tokens (most are) answered as plain text ending with the sentence
 * end's two empty blanks: its text, without the full stops the encoding added (each blank takes
 * the one before it, where the engine kept it); undefined when the stream needs reading.
 */
function plainAnswer (stream: string, source: readonly TaggedPart[]): TaggedPart[] | undefined {
  if (!stream.endsWith('[]') || !source.every(p => p.type === 'text')) return undefined
  let body = stream.slice(0, -2)
  if (body.endsWith('.')) body = body.slice(0, -1)
  if (!body.endsWith('[]')) return undefined
  body = body.slice(0, -2)
  if (NOT_PLAIN.test(body)) return undefined
  const text = body.endsWith('.') ? body.slice(0, -1) : body
  return text === '' ? [] : [{ type: 'text', text }]
}

/** An Apertium answer (stream format, request marker removed) as tagged parts with the source's tags, each once. */
export function decodeSegment (stream: string, source: readonly TaggedPart[]): TaggedPart[] {
  const plain = plainAnswer(stream, source)
  if (plain !== undefined) return plain
  const ids = inventory(source)
  const word = tokenWord(source)
  // the word is made of letters only: nothing from the client goes into this expression
  const pattern = word === TOKEN_WORD ? TOKEN_WORD_PATTERN : new RegExp(word, 'gi')
  return toParts(settleTokens(readStream(stream, pattern), ids), ids)
}
