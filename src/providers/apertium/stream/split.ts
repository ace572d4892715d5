/**
 * Long segments as several requests (Apertium's time grows with the square of a sentence's
 * words), and their answers joined again; the work a stream costs a pipeline.
 */
import { SENTENCE_END } from './encode.js'

/**
 * Requests longer than this (in stream characters), or holding more than MAX_REQUEST_COST words
 * and marks, are cut: Apertium's time grows with the square of a sentence's words (docs/benchmarks.md,
 * Hardening), and another client's sentence may wait behind one request.
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
        pieces.push(`${reopen}${stream.slice(start, space)}${spaceOpen ? '[[/]]' : ''}${SENTENCE_END}[ ]`)
        cost = streamCost(stream.slice(space + 1, i))
        start = space + 1
        reopen = spaceOpen
        space = -1
      } else if (i > start && i !== openedAt && !stream.startsWith('[[/]]', i) && !isLowSurrogate(stream.charCodeAt(i)) && !TOKEN_HEADER.test(open) && stream[i - 1] !== '\\') {
        // inside a word longer than a piece; never leaving a word-bound blank empty
        pieces.push(`${reopen}${stream.slice(start, i)}${open ? '[[/]]' : ''}${SENTENCE_END}`)
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
