/**
 * Cleans what Apertium leaves behind, judged against the source segment: spaces left by dropped
 * words (subject pronouns: "I have" -> " Tengo"; "Are you sure you want" -> "Eres seguro  quieres")
 * and the capital Apertium gives the first word of every sentence ("save changes" -> "Salva
 * cambios", "{name} has invited you" -> "{name} Te ha invitado"). Nothing is changed where the
 * source itself has the same shape (double spaces, leading spaces, a capital first word).
 *
 * It reads a segment's shape (its text, a token as one word-like character, tags left out) and
 * marks what to drop or lower-case by position, so a segment costs a few strings, not an object
 * per character (this runs for every segment Apertium answers).
 */
import type { TaggedPart } from '../../core/tagged.js'

const LINE_SPLIT = /[\n\v\f\r\x85\u2028\u2029]+/
// a protected token counts as a word-like character
const TOKEN = '\uFFFC'
const SPACE = 0x20

const isBreak = (code: number): boolean => (code >= 0x0a && code <= 0x0d) || code === 0x85 || code === 0x2028 || code === 0x2029

function shape (parts: readonly TaggedPart[]): string {
  let out = ''
  for (const p of parts) {
    if (p.type === 'text') out += p.text
    else if (p.type === 'token') out += TOKEN
  }
  return out
}

/** Marks the spaces at the start of every line (or at the end, walking backwards) of what is not dropped yet. */
function dropLineEdgeSpaces (shape: string, drop: Uint8Array, backwards: boolean): void {
  let atEdge = true
  for (let k = 0; k < shape.length; k++) {
    const i = backwards ? shape.length - 1 - k : k
    if (drop[i] === 1) continue
    const code = shape.charCodeAt(i)
    if (code === SPACE && atEdge) drop[i] = 1
    else atEdge = isBreak(code)
  }
}

/** Marks every space that follows a kept space. */
function collapseSpaces (shape: string, drop: Uint8Array): void {
  let previousSpace = false
  for (let i = 0; i < shape.length; i++) {
    if (drop[i] === 1) continue
    const space = shape.charCodeAt(i) === SPACE
    if (space && previousSpace) drop[i] = 1
    previousSpace = space
  }
}

const isLetter = (code: number): boolean => code < 0x80 ? ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) : /\p{L}/u.test(String.fromCodePoint(code))

/** Where the first word of each output line whose source line starts in lower case has a capital to lower-case. */
function capitalsToLower (shape: string, drop: Uint8Array, sourceLines: readonly string[]): number[] {
  // per output line (its kept characters, breaks apart): where its first letter is, and the character after that letter
  const firsts: number[] = []
  const afterFirst: string[] = []
  let inLine = false
  let wanted = false
  for (let i = 0; i < shape.length;) {
    const code = shape.codePointAt(i)!
    const at = i
    i += code > 0xffff ? 2 : 1
    if (drop[at] === 1) continue
    if (isBreak(code)) {
      inLine = wanted = false
      continue
    }
    if (!inLine) {
      inLine = true
      firsts.push(-1)
      afterFirst.push('')
    }
    const n = firsts.length - 1
    if (wanted) {
      afterFirst[n] = String.fromCodePoint(code)
      wanted = false
    } else if (firsts[n] === -1 && isLetter(code)) {
      firsts[n] = at
      wanted = true
    }
  }
  const lines = sourceLines.filter(l => l !== '')
  if (lines.length !== firsts.length) return []
  const lower: number[] = []
  firsts.forEach((first, n) => {
    const sourceFirst = /\p{L}/u.exec(lines[n]!)?.[0]
    if (first === -1 || sourceFirst === undefined || !/\p{Ll}/u.test(sourceFirst)) return
    // one-letter words ("I", "A") and acronyms stay as they are
    if (/\p{Lu}/u.test(String.fromCodePoint(shape.codePointAt(first)!)) && /\p{Ll}/u.test(afterFirst[n]!)) lower.push(first)
  })
  return lower
}

/** The translated parts with Apertium's spacing and capitalisation artifacts removed. */
export function tidy (output: readonly TaggedPart[], source: readonly TaggedPart[]): TaggedPart[] {
  const src = shape(source)
  const out = shape(output)
  const drop = new Uint8Array(out.length)
  const sourceLines = src.split(LINE_SPLIT)
  if (!sourceLines.some(line => line.startsWith(' '))) dropLineEdgeSpaces(out, drop, false)
  if (!sourceLines.some(line => line.endsWith(' '))) dropLineEdgeSpaces(out, drop, true)
  if (!src.includes('  ')) collapseSpaces(out, drop)
  const lower = capitalsToLower(out, drop, sourceLines)

  const parts: TaggedPart[] = []
  const pushText = (text: string): void => {
    if (text === '') return
    const last = parts.at(-1)
    if (last?.type === 'text') parts[parts.length - 1] = { type: 'text', text: last.text + text }
    else parts.push({ type: 'text', text })
  }
  let pos = 0
  for (const part of output) {
    if (part.type === 'token') pos += TOKEN.length
    if (part.type !== 'text') {
      parts.push(part)
      continue
    }
    const end = pos + part.text.length
    let text = ''
    let from = pos
    for (let i = pos; i < end; i++) {
      const capital = lower.length > 0 && lower.includes(i)
      if (drop[i] !== 1 && !capital) continue
      text += out.slice(from, i)
      if (capital) {
        const char = String.fromCodePoint(out.codePointAt(i)!)
        text += char.toLowerCase()
        i += char.length - 1
      }
      from = i + 1
    }
    pushText(text + out.slice(from, end))
    pos = end
  }
  return parts
}
