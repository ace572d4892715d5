import { fold, isCapitalised } from './text.js'

/** A word, a number or a currency sign of a text, with UTF-16 offsets. */
export interface Token {
  start: number
  end: number
  text: string
  /** Lower case without accents. */
  folded: string
  kind: 'word' | 'number' | 'currency'
  /** Starts with a capital letter. */
  cap: boolean
  /** Opens a sentence: the first token, or one after . ! ? … or a line break. */
  sentenceStart: boolean
}

// numbers keep their separators ("1.234,56", "12.05.2024"); words keep inner hyphens ("Jean-Pierre")
// each alternative is a run of one class, so matching is linear in the text
const TOKEN = /([0-9]+(?:[.,'\u00a0\u202f][0-9]+)*)|([\p{L}\p{M}][\p{L}\p{M}\p{N}]*(?:-[\p{L}\p{M}\p{N}]+)*)|(\p{Sc})/gu
const SENTENCE_END = /[.!?…\n]/

/** The words, numbers and currency signs of a text, in order. */
export function tokenize (text: string): Token[] {
  const tokens: Token[] = []
  let previousEnd = 0
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index
    const word = match[0]
    const kind = match[1] !== undefined ? 'number' : match[2] !== undefined ? 'word' : 'currency'
    const sentenceStart = tokens.length === 0 || SENTENCE_END.test(text.slice(previousEnd, start))
    tokens.push({ start, end: start + word.length, text: word, folded: kind === 'word' ? fold(word) : word, kind, cap: kind === 'word' && isCapitalised(word), sentenceStart })
    previousEnd = start + word.length
  }
  return tokens
}

/** The text between two tokens. */
export const gap = (text: string, left: Token, right: Token): string => text.slice(left.end, right.start)

/** Whether two tokens are separated by plain spaces only (one to three), as words of one name are. */
export const spaced = (text: string, left: Token, right: Token): boolean => {
  const between = gap(text, left, right)
  return between.length > 0 && between.length <= 3 && /^[ \u00a0\u202f\t]+$/.test(between)
}
