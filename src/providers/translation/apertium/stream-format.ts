/**
 * Tagged segments to and from Apertium's stream format, in TypeScript (what apertium-destxt and
 * apertium-retxt do for plain text, plus inline markup):
 * - text is escaped (`\ [ ] ^ $ / < > @ { }` get a backslash);
 * - line breaks, tabs, control characters and `~` (the post-generator's marker, which no
 *   escape protects) travel in superblanks `[...]`; a line break or tab also ends the
 *   sentence with `.[]`, as apertium-destxt does, so no word moves across it;
 * - `<g id="N">…</g>` becomes word-bound blanks `[[t:g:N]]word[[/]]` on its words, which
 *   Apertium carries through reordering (`The <g>red</g> car` -> `El coche <g>rojo</g>`);
 * - `<x id="N"/>` (and an empty `<g>`) becomes an unknown word in a word-bound blank,
 *   `[[t:x:N]]Zxqv[[/]]`: unknown words pass untranslated and keep their place in the sentence
 *   better than superblanks, which stay put while the words around them move; a segment whose
 *   text contains `zxqv` uses `Zxqvx`, `Zxqvxx`... instead, so the text is never taken for a token;
 * - every segment ends with `.[]`.
 */
import type { TaggedPart } from '../../../core/tagged.js'

/** The word a protected token travels as: unknown to every pair, so it passes through untranslated. */
const TOKEN_WORD = 'Zxqv'
const TOKEN_WORD_PATTERN = new RegExp(TOKEN_WORD, 'gi')
const TOKEN_WORD_IN_TEXT = /zxqv(x*)/gi
const HAS_TOKEN_WORD = /zxqv/i

/** One piece of a segment with the groups (`<g>` ids, outermost first) around it. */
type Unit =
  | { kind: 'text', text: string, groups: number[] }
  | { kind: 'token' | 'empty', id: number, groups: number[] }
  | { kind: 'stray', groups: number[] }

// characters that travel in superblanks, and the ones among them that end a sentence; the
// lookbehinds here and in WORD_END let a match start only where a run starts (otherwise every
// position of a long run of spaces or letters is tried again to its end: quadratic in its length)
// eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach the analyser
const SPECIAL_RUN = /(?<! ) *[\x01-\x1f\x7f\x85\u2028\u2029~][ \x01-\x1f\x7f\x85\u2028\u2029~]*/g
const BREAK = /[\t\n\v\f\r\x85\u2028\u2029]/
const WORD_END = /(?<![\p{L}\p{N}\p{M}])[\p{L}\p{N}\p{M}]+$/u
const WORD_START = /^[\p{L}\p{N}\p{M}]+/u

/** Escapes text for the stream format. */
export function escapeStream (text: string): string {
  return text.replace(/[\\[\]^$/<>@{}]/g, c => '\\' + c)
}

/**
 * The token word of a segment: `Zxqv`, or when the segment's text contains it (in any case),
 * `Zxqv` with one `x` more than any such occurrence has, so that text never reads as a token.
 */
function tokenWord (parts: readonly TaggedPart[]): string {
  // joined: text on both sides of a tag touches once the tag is gone, and forms words there too
  let text = ''
  for (const p of parts) if (p.type === 'text') text += p.text
  if (!HAS_TOKEN_WORD.test(text)) return TOKEN_WORD
  let longest = -1
  for (const m of text.matchAll(TOKEN_WORD_IN_TEXT)) longest = Math.max(longest, m[1]!.length)
  return TOKEN_WORD + 'x'.repeat(longest + 1)
}

function isPrefix (short: readonly number[], long: readonly number[]): boolean {
  return short.length < long.length && short.every((id, i) => id === long[i])
}

/** Indexes of the close tag matching each open tag. */
function matchingCloses (parts: readonly TaggedPart[]): Map<number, number> {
  const closes = new Map<number, number>()
  const stack: number[] = []
  parts.forEach((p, i) => {
    if (p.type === 'open') stack.push(i)
    else if (p.type === 'close' && stack.length > 0) closes.set(stack.pop()!, i)
  })
  return closes
}

/** For each index, the first part at or after it that is not blank text (parts.length if none). */
function nextFilled (parts: readonly TaggedPart[]): number[] {
  const next = new Array<number>(parts.length + 1)
  next[parts.length] = parts.length
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!
    next[i] = p.type === 'text' && p.text.trim() === '' ? next[i + 1]! : i
  }
  return next
}

/** Turns parts into units; a group with no words inside becomes a unit of its own. */
function toUnits (parts: readonly TaggedPart[]): Unit[] {
  const closes = matchingCloses(parts)
  const filled = nextFilled(parts)
  const units: Unit[] = []
  const stack: number[] = []
  const skip = new Set<number>()
  parts.forEach((p, i) => {
    if (skip.has(i)) return
    if (p.type === 'text') {
      const text = p.text.replaceAll('\0', '')
      if (text) units.push({ kind: 'text', text, groups: [...stack] })
    } else if (p.type === 'token') {
      units.push({ kind: 'token', id: p.id, groups: [...stack] })
    } else if (p.type === 'open') {
      const close = closes.get(i) ?? parts.length
      // empty: nothing but blank text before its close
      if (filled[i + 1]! >= close) {
        units.push({ kind: 'empty', id: p.id, groups: [...stack] })
        skip.add(close)
      } else {
        stack.push(p.id)
      }
    } else {
      stack.pop()
    }
  })
  return units
}

/** Moves word fragments across group boundaries so a group never starts or ends inside a word. */
function wholeWords (units: Unit[]): Unit[] {
  for (let i = 0; i + 1 < units.length; i++) {
    const a = units[i]!
    const b = units[i + 1]!
    if (a.kind !== 'text' || b.kind !== 'text') continue
    const tail = WORD_END.exec(a.text)?.[0]
    const head = WORD_START.exec(b.text)?.[0]
    if (tail === undefined || head === undefined) continue
    if (isPrefix(a.groups, b.groups)) {
      a.text = a.text.slice(0, -tail.length)
      b.text = tail + b.text
    } else if (isPrefix(b.groups, a.groups)) {
      a.text += head
      b.text = b.text.slice(head.length)
    }
  }
  return units.filter(u => u.kind !== 'text' || u.text !== '')
}

function header (groups: readonly number[], extra?: string): string {
  const entries = groups.map(id => `t:g:${id}`)
  if (extra !== undefined) entries.push(extra)
  return `[[${entries.join(';')}]]`
}

/** One stretch of text: superblanks for special runs, word-bound blanks around words in groups. */
function encodeText (text: string, groups: readonly number[]): string {
  let out = ''
  let last = 0
  const words = (piece: string): string => {
    if (groups.length === 0) return escapeStream(piece)
    let start = 0
    let end = piece.length
    while (start < end && piece[start] === ' ') start++
    while (end > start && piece[end - 1] === ' ') end--
    if (start === end) return piece
    return `${piece.slice(0, start)}${header(groups)}${escapeStream(piece.slice(start, end))}[[/]]${piece.slice(end)}`
  }
  for (const m of text.matchAll(SPECIAL_RUN)) {
    out += words(text.slice(last, m.index))
    out += (BREAK.test(m[0]) ? '.[]' : '') + `[${m[0]}]`
    last = m.index + m[0].length
  }
  return out + words(text.slice(last))
}

/** A tagged segment (parsed) in Apertium's stream format, ending with `.[]`. */
export function encodeSegment (parts: readonly TaggedPart[]): string {
  const word = tokenWord(parts)
  let out = ''
  for (const unit of wholeWords(toUnits(parts))) {
    if (unit.kind === 'text') out += encodeText(unit.text, unit.groups)
    else if (unit.kind === 'token') out += `${header(unit.groups, `t:x:${unit.id}`)}${word}[[/]]`
    else if (unit.kind === 'empty') out += `${header(unit.groups, `t:e:${unit.id}`)}${word}[[/]]`
  }
  return out + '.[]'
}

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
}

function inventory (parts: readonly TaggedPart[]): Inventory {
  const units = toUnits(parts)
  const empties = units.flatMap(u => u.kind === 'empty' ? [u.id] : [])
  const emptyIds = new Set(empties)
  const groups = new Map<number, number>()
  for (const p of parts) if (p.type === 'open' && !emptyIds.has(p.id) && !groups.has(p.id)) groups.set(p.id, groups.size)
  return { tokens: units.flatMap(u => u.kind === 'token' ? [u.id] : []), empties, groups }
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

/** Group spans over unit indexes, clipped so that they nest. */
function groupSpans (units: readonly Unit[], source: Inventory): Span[] {
  const spans = new Map<number, Span>()
  units.forEach((u, i) => {
    for (const id of u.groups) {
      if (!source.groups.has(id)) continue
      const span = spans.get(id)
      if (span) span.end = i
      else spans.set(id, { id, start: i, end: i })
    }
  })
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

/** An Apertium answer (stream format, request marker removed) as tagged parts with the source's tags, each once. */
export function decodeSegment (stream: string, source: readonly TaggedPart[]): TaggedPart[] {
  const ids = inventory(source)
  const word = tokenWord(source)
  // the word is made of letters only: nothing from the client goes into this expression
  const pattern = word === TOKEN_WORD ? TOKEN_WORD_PATTERN : new RegExp(word, 'gi')
  return toParts(settleTokens(readStream(stream, pattern), ids), ids)
}
