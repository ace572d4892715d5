/**
 * Tagged segments into Apertium's stream format, in TypeScript (what apertium-destxt and
 * apertium-retxt do for plain text, plus inline markup):
 * - text is escaped (`\ [ ] ^ $ / < > @ { }` get a backslash);
 * - line breaks, tabs, control characters and `~` (the post-generator's marker, which no
 *   escape protects) travel in superblanks `[...]`, and so does an opening quote English would read as a contraction; a line break
 *   or tab also ends the sentence with SENTENCE_END, so no word moves across it;
 * - `<g id="N">…</g>` becomes word-bound blanks `[[t:g:N]]word[[/]]` on its words, which
 *   Apertium carries through reordering (`The <g>red</g> car` -> `El coche <g>rojo</g>`);
 * - `<x id="N"/>` (and an empty `<g>`) becomes an unknown word in a word-bound blank,
 *   `[[t:x:N]]Zxqv[[/]]`: unknown words pass untranslated and keep their place in the sentence
 *   better than superblanks, which stay put while the words around them move; a segment whose
 *   text contains `zxqv` uses `Zxqvx`, `Zxqvxx`... instead, so the text is never taken for a token;
 * - every segment ends with SENTENCE_END.
 */
import { partsText, type TaggedPart } from '../../../core/tagged.js'

/**
 * What ends a sentence, twice: a full stop, an empty blank, a full stop, an empty blank. One full
 * stop (`.[]`, as apertium-destxt writes it) is read as part of an abbreviation when the word
 * before it is one ("Sep", "Jan", "No", "U.S"): then no sentence ended there, and the words of
 * the next segment (another client's, in the same write) moved across it ("Sep\nRow" came back
 * "Fila\nde sep."). The blank between the two keeps the second its own token, always a sentence
 * end; each empty blank takes the full stop before it out of the answer (decode.ts).
 */
export const SENTENCE_END = '.[].[]'

/** The word a protected token travels as: unknown to every pair, so it passes through untranslated. */
export const TOKEN_WORD = 'Zxqv'
const TOKEN_WORD_IN_TEXT = /zxqv(x*)/gi
const HAS_TOKEN_WORD = /zxqv/i

/**
 * One piece of a source segment and the innermost group around it: `node` is the index of that
 * group's open part (-1 outside every group). Only the innermost id travels in a word-bound
 * blank, the ones around it follow from the source's nesting: every enclosing id on every word
 * grew the stream with the square of the depth (docs/benchmarks.md, Hardening).
 */
export type Piece =
  | { kind: 'text', text: string, node: number }
  | { kind: 'token' | 'empty', id: number, node: number }

// characters that travel in superblanks, and the ones among them that end a sentence; the
// lookbehinds here and in WORD_END let a match start only where a run starts (otherwise every
// position of a long run of spaces or letters is tried again to its end: quadratic in its length).
// An opening quote (`'` or `‘`) before a word starting with s, m or re travels in a superblank
// too: English's analyser reads `'S`, `'m`, `'re` there as contractions ("'Save page'" came back
// "esave página'", "'max length'" "soyperiodo de hacha'"). Only there: a superblank stays where it
// is while the words move ("I will 'close' them" lost its word from the quotes, "Cerraré '' les").
// eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach the analyser
const SPECIAL_RUN = /(?<! ) *[\x01-\x1f\x7f\x85\u2028\u2029~][ \x01-\x1f\x7f\x85\u2028\u2029~]*|(?<![\p{L}\p{N}\p{M}'‘])['‘](?=(?:[sSmM]|[rR][eE])\p{L})/gu
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
export function tokenWord (parts: readonly TaggedPart[]): string {
  // joined: text on both sides of a tag touches once the tag is gone, and forms words there too
  const text = partsText(parts)
  if (!HAS_TOKEN_WORD.test(text)) return TOKEN_WORD
  let longest = -1
  for (const m of text.matchAll(TOKEN_WORD_IN_TEXT)) longest = Math.max(longest, m[1]!.length)
  return TOKEN_WORD + 'x'.repeat(longest + 1)
}

/** For each open part, the index of its close (parts.length when it is never closed). */
export function closeIndexes (parts: readonly TaggedPart[]): Int32Array {
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
export function toPieces (parts: readonly TaggedPart[], closes: Int32Array): Piece[] {
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
    out += (BREAK.test(m[0]) ? SENTENCE_END : '') + `[${m[0]}]`
    last = m.index + m[0].length
  }
  return out + words(text.slice(last))
}

/** A tagged segment (parsed) in Apertium's stream format, ending with SENTENCE_END. */
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
  return out + SENTENCE_END
}
