/** Splits text into lower-case words (runs of letters and combining marks) without regular expressions. */
import { scriptIndexOf } from './scripts.js'

/** Calls `visit` with each lower-cased word of `text`, in order. */
export function forEachWord (text: string, visit: (word: string) => void): void {
  let start = -1
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x20
    // letters of any script, combining marks, and the apostrophe-free inside of a word
    const inWord = scriptIndexOf(c) !== 0 || (c >= 0x300 && c < 0x370) || (c >= 0xd800 && c < 0xe000)
    if (inWord) {
      if (start === -1) start = i
    } else if (start !== -1) {
      visit(text.slice(start, i).toLowerCase())
      start = -1
    }
  }
}

/** Calls `visit` with each letter trigram of a word padded with spaces (" word " -> " wo", "wor", "ord", "rd "). */
export function forEachTrigram (word: string, visit: (trigram: string) => void): void {
  const padded = ` ${word} `
  for (let i = 0; i + 3 <= padded.length; i++) visit(padded.slice(i, i + 3))
}
