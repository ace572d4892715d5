/** Where each character of a decoded text (an HTML or Markdown text node) lies in its raw source. */
import { decodeHTML } from 'entities'

/** Absolute raw offsets of each UTF-16 unit of a decoded text: it came from source[starts[j], ends[j]). */
export interface Offsets {
  starts: Int32Array
  ends: Int32Array
}

const REFERENCE = /&(?:#[xX][0-9a-fA-F]{1,6};?|#[0-9]{1,7};?|[A-Za-z][A-Za-z0-9]{1,31};?)/y

/**
 * Aligns `text` with source[start, end): equal characters match, a character reference matches
 * what it decodes to, a backslash escape (Markdown) matches its character, and raw characters
 * the parser dropped (line prefixes such as "> ", CR of CRLF, trailing spaces) are skipped.
 * With `tags` (an HTML text node), a tag the parser ignored inside the text (a stray `</span>`)
 * is skipped whole, so no character of the text is matched inside it.
 * Null when the text cannot be aligned (the caller then keeps the text whole).
 */
export function alignText (text: string, source: string, start: number, end: number, options: { escapes: boolean, tags?: boolean }): Offsets | null {
  const starts = new Int32Array(text.length)
  const ends = new Int32Array(text.length)
  if (source.slice(start, end) === text) {
    for (let j = 0; j < text.length; j++) {
      starts[j] = start + j
      ends[j] = start + j + 1
    }
    return { starts, ends }
  }
  let i = start
  let j = 0
  // cleared once a tag is not closed before `end`, so no later one scans as far again
  let tags = options.tags === true
  const map = (count: number, from: number, to: number): void => {
    for (let k = 0; k < count; k++, j++) {
      starts[j] = from
      ends[j] = to
    }
  }
  while (j < text.length && i < end) {
    const c = source[i]
    if (c === '&') {
      REFERENCE.lastIndex = i
      const m = REFERENCE.exec(source)
      if (m && i + m[0].length <= end) {
        const decoded = decodeHTML(m[0])
        if (decoded !== m[0] && text.startsWith(decoded, j)) {
          map(decoded.length, i, i + m[0].length)
          i += m[0].length
          continue
        }
      }
    }
    if (tags && c === '<' && text[j] !== '<') {
      const after = tagEnd(source, i, end)
      if (after !== -1) {
        i = after
        continue
      }
      tags = false
    }
    if (c === text[j]) {
      map(1, i, i + 1)
      i += 1
    } else if (options.escapes && c === '\\' && source[i + 1] === text[j] && i + 1 < end) {
      map(1, i, i + 2)
      i += 2
    } else {
      i += 1
    }
  }
  return j === text.length ? { starts, ends } : null
}

/**
 * The end of the tag opening at source[i] (`<` or `</` then a letter, as the tokenizer reads one
 * in text: its `>` outside an attribute's quoted value), or -1 when there is none before `end`.
 */
function tagEnd (source: string, i: number, end: number): number {
  const name = source[i + 1] === '/' ? i + 2 : i + 1
  if (name >= end || !/[A-Za-z]/.test(source[name]!)) return -1
  let quote = ''
  let previous = ''
  for (let k = name + 1; k < end; k++) {
    const c = source[k]!
    if (quote !== '') {
      if (c === quote) quote = ''
    } else if (c === '>') {
      return k + 1
    } else if ((c === '"' || c === "'") && previous === '=') {
      quote = c
    }
    if (!/\s/.test(c)) previous = c
  }
  return -1
}
