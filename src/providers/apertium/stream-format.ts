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
import type { TaggedPart } from '../../core/tagged.js'

/** The word a protected token travels as: unknown to every pair, so it passes through untranslated. */
const TOKEN_WORD = 'Zxqv'
const TOKEN_WORD_PATTERN = new RegExp(TOKEN_WORD, 'gi')
const TOKEN_WORD_IN_TEXT = /zxqv(x*)/gi
const HAS_TOKEN_WORD = /zxqv/i

/**
 * One piece of a source segment and the innermost group around it: `node` is the index of that
 * group's open part (-1 outside every group). Only the innermost id travels in a word-bound
 * blank, the ones around it follow from the source's nesting: listing every enclosing id on
 * every word made the stream grow with the square of the nesting depth (4,000 nested `<b>`
 * were 68 MB, and held the pipeline for its whole timeout).
 */
type Piece =
  | { kind: 'text', text: string, node: number }
  | { kind: 'token' | 'empty', id: number, node: number }

/** A unit of an answer: the group ids its word-bound blank named (innermost ones; merged words name several). */
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

/** For each open part, the index of its close (parts.length when it is never closed). */
function closeIndexes (parts: readonly TaggedPart[]): Int32Array {
  const closes = new Int32Array(parts.length).fill(parts.length)
  const stack: number[] = []
  parts.forEach((p, i) => {
    if (p.type === 'open') stack.push(i)
    else if (p.type === 'close' && stack.length > 0) closes[stack.pop()!] = i
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

/** Turns parts into pieces; a group with no words inside becomes a piece of its own. */
function toPieces (parts: readonly TaggedPart[], closes: Int32Array): Piece[] {
  const filled = nextFilled(parts)
  const pieces: Piece[] = []
  // open parts of the groups around the current part, innermost last
  const stack: number[] = []
  const skip = new Set<number>()
  parts.forEach((p, i) => {
    if (skip.has(i)) return
    const node = stack.length > 0 ? stack[stack.length - 1]! : -1
    if (p.type === 'text') {
      const text = p.text.replaceAll('\0', '')
      if (text) pieces.push({ kind: 'text', text, node })
    } else if (p.type === 'token') {
      pieces.push({ kind: 'token', id: p.id, node })
    } else if (p.type === 'open') {
      const close = closes[i]!
      // empty: nothing but blank text before its close
      if (filled[i + 1]! >= close) {
        pieces.push({ kind: 'empty', id: p.id, node })
        skip.add(close)
      } else {
        stack.push(i)
      }
    } else {
      stack.pop()
    }
  })
  return pieces
}

/** Moves word fragments across group boundaries so a group never starts or ends inside a word. */
function wholeWords (pieces: Piece[], closes: Int32Array): Piece[] {
  // whether group `outer` (an open part's index, -1 for none) holds `inner` and is not it
  const holds = (outer: number, inner: number): boolean =>
    inner !== -1 && (outer === -1 || (outer < inner && closes[inner]! <= closes[outer]!))
  for (let i = 0; i + 1 < pieces.length; i++) {
    const a = pieces[i]!
    const b = pieces[i + 1]!
    if (a.kind !== 'text' || b.kind !== 'text') continue
    const tail = WORD_END.exec(a.text)?.[0]
    const head = WORD_START.exec(b.text)?.[0]
    if (tail === undefined || head === undefined) continue
    if (holds(a.node, b.node)) {
      a.text = a.text.slice(0, -tail.length)
      b.text = tail + b.text
    } else if (holds(b.node, a.node)) {
      a.text += head
      b.text = b.text.slice(head.length)
    }
  }
  return pieces.filter(u => u.kind !== 'text' || u.text !== '')
}

/** The word-bound blank header of a piece: its innermost group and, for a token, the token. */
function header (group: number | undefined, extra?: string): string {
  if (group === undefined) return `[[${extra}]]`
  return extra === undefined ? `[[t:g:${group}]]` : `[[t:g:${group};${extra}]]`
}

/** One stretch of text: superblanks for special runs, word-bound blanks around words in a group. */
function encodeText (text: string, group: number | undefined): string {
  let out = ''
  let last = 0
  const words = (piece: string): string => {
    if (group === undefined) return escapeStream(piece)
    let start = 0
    let end = piece.length
    while (start < end && piece[start] === ' ') start++
    while (end > start && piece[end - 1] === ' ') end--
    if (start === end) return piece
    return `${piece.slice(0, start)}${header(group)}${escapeStream(piece.slice(start, end))}[[/]]${piece.slice(end)}`
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
  const closes = closeIndexes(parts)
  const groupOf = (node: number): number | undefined => node === -1 ? undefined : (parts[node] as { id: number }).id
  let out = ''
  for (const piece of wholeWords(toPieces(parts, closes), closes)) {
    const group = groupOf(piece.node)
    if (piece.kind === 'text') out += encodeText(piece.text, group)
    else if (piece.kind === 'token') out += `${header(group, `t:x:${piece.id}`)}${word}[[/]]`
    else out += `${header(group, `t:e:${piece.id}`)}${word}[[/]]`
  }
  return out + '.[]'
}

/**
 * Requests longer than this (in stream characters), or holding more than MAX_REQUEST_COST words
 * and marks, are cut. Apertium's time grows with the square of a sentence's words (one
 * 60,000-character sentence of one-letter words: ~13 s; "a." x 1,000 without a space: ~1 s, x 250:
 * ~50 ms, x 100: ~10 ms on 2 busy cores), and a request is what a pipeline's turns are made of:
 * another client's sentence may wait behind one, so no request may cost much.
 */
export const MAX_REQUEST_CHARS = 2500
export const MAX_REQUEST_COST = 250

/** Apertium's work for a stream, estimated: its words and marks (blanks and escapes count as what they hold). */
export function streamCost (stream: string): number {
  let cost = 0
  let inWord = false
  for (let i = 0; i < stream.length; i++) {
    const c = stream.charCodeAt(i)
    // letters and digits of any script (and marks inside words) make a word; a space or a bracket ends it; any other character is a mark of its own
    const wordChar = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0xc0
    if (wordChar) {
      if (!inWord) cost++
      inWord = true
    } else {
      inWord = false
      if (c !== 32 && c !== 91 && c !== 93 && c !== 92 && c !== 10) cost++
    }
  }
  return cost
}
/** What ends a clause: a piece preferably ends after one. */
const CLAUSE_END = /[,;:)]/
/** A word-bound blank of a protected token: its word must not be cut. */
const TOKEN_HEADER = /t:[xe]:/

/**
 * A segment's stream (encodeSegment) as requests of about `max` characters, each ending with a
 * sentence end: cut at the last space before the limit, preferably one after a clause (a comma)
 * in the second half of the piece (the space travels as a superblank `[ ]`, so Apertium keeps
 * it), or inside a longer word, never inside a blank or an escape. A
 * word-bound blank cut in two is closed before the cut and opened again after it. The answers,
 * joined, read as one answer to the whole stream (decodeSegment drops the sentence ends).
 */
export function splitStream (stream: string, max = MAX_REQUEST_CHARS, maxCost = MAX_REQUEST_COST): string[] {
  if (stream.length <= max && streamCost(stream) <= maxCost) return [stream]
  const pieces: string[] = []
  let start = 0
  // the word-bound blank header the current piece starts inside ('' for none), and the one open here
  let reopen = ''
  let open = ''
  // the last space outside blanks since `start`, and the header open there
  let space = -1
  let spaceOpen = ''
  // where the text of the last word-bound blank opened starts
  let openedAt = -1
  // the piece's words and marks so far (as streamCost counts them)
  let cost = 0
  let inWord = false
  let i = 0
  while (i < stream.length) {
    const c = stream[i]!
    const code = c.charCodeAt(0)
    const wordChar = (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code >= 0xc0
    if (wordChar) {
      if (!inWord) cost++
      inWord = true
    } else {
      inWord = false
      if (code !== 32 && code !== 91 && code !== 93 && code !== 92 && code !== 10) cost++
    }
    if (c === ' ') {
      // after a clause (a comma...) if there is one in the second half of the piece
      if (!(space > start + max / 2 && CLAUSE_END.test(stream[space - 1]!)) || CLAUSE_END.test(stream[i - 1] ?? '')) {
        space = i
        spaceOpen = open
      }
    }
    if (i - start + reopen.length >= max || cost >= maxCost) {
      if (space > start) {
        pieces.push(`${reopen}${stream.slice(start, space)}${spaceOpen ? '[[/]]' : ''}.[][ ]`)
        cost = streamCost(stream.slice(space + 1, i))
        start = space + 1
        reopen = spaceOpen
        space = -1
      } else if (i > start && i !== openedAt && !stream.startsWith('[[/]]', i) && !isLowSurrogate(stream.charCodeAt(i)) && !TOKEN_HEADER.test(open) && stream[i - 1] !== '\\') {
        // inside a word longer than a piece; never leaving a word-bound blank empty
        pieces.push(`${reopen}${stream.slice(start, i)}${open ? '[[/]]' : ''}.[]`)
        start = i
        reopen = open
        cost = 0
      }
    }
    if (c === '\\') {
      i += 2
    } else if (c === '[') {
      if (stream.startsWith('[[/]]', i)) {
        open = ''
        i += 5
      } else if (stream[i + 1] === '[') {
        const end = stream.indexOf(']]', i + 2)
        if (end === -1) break
        open = stream.slice(i, end + 2)
        i = openedAt = end + 2
      } else {
        // a superblank: to its first unescaped ]
        let j = i + 1
        while (j < stream.length && stream[j] !== ']') j += stream[j] === '\\' ? 2 : 1
        i = j + 1
      }
    } else {
      i++
    }
  }
  pieces.push(reopen + stream.slice(start))
  return pieces
}

/**
 * The answers to splitStream's pieces as one answer. Apertium capitalises the first word of every
 * request, so a piece whose source starts in lower case gets its first word lowered again (not a
 * one-letter word nor an acronym, as tidy does for lines).
 */
export function joinAnswers (pieces: readonly string[], answers: readonly string[]): string {
  let out = answers[0] ?? ''
  for (let k = 1; k < answers.length; k++) {
    const answer = answers[k]!
    const source = firstLetter(pieces[k] ?? '')
    const at = firstLetter(answer)
    if (source !== -1 && at !== -1 && /\p{Ll}/u.test(pieces[k]![source]!) && /\p{Lu}/u.test(answer[at]!) && /\p{Ll}/u.test(answer[at + 1] ?? '')) {
      out += answer.slice(0, at) + answer[at]!.toLowerCase() + answer.slice(at + 1)
    } else {
      out += answer
    }
  }
  return out
}

/** Index of the first letter of a stream's text (outside blanks and escapes), -1 when a digit or nothing comes first. */
function firstLetter (stream: string): number {
  let i = 0
  while (i < stream.length) {
    const c = stream[i]!
    if (c === '\\') {
      i += 2
    } else if (c === '[') {
      if (stream[i + 1] === '[') {
        const end = stream.indexOf(']]', i + 2)
        if (end === -1) return -1
        i = end + 2
      } else {
        let j = i + 1
        while (j < stream.length && stream[j] !== ']') j += stream[j] === '\\' ? 2 : 1
        i = j + 1
      }
    } else if (/[\p{L}\p{N}]/u.test(c)) {
      return /\p{L}/u.test(c) ? i : -1
    } else {
      i++
    }
  }
  return -1
}

function isLowSurrogate (code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
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

/** An Apertium answer (stream format, request marker removed) as tagged parts with the source's tags, each once. */
export function decodeSegment (stream: string, source: readonly TaggedPart[]): TaggedPart[] {
  const ids = inventory(source)
  const word = tokenWord(source)
  // the word is made of letters only: nothing from the client goes into this expression
  const pattern = word === TOKEN_WORD ? TOKEN_WORD_PATTERN : new RegExp(word, 'gi')
  return toParts(settleTokens(readStream(stream, pattern), ids), ids)
}
