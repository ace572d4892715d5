/**
 * Words of a text for moderation: folded (lower case, accents dropped, ß as ss), with a flag for the
 * start of a sentence, and the runs of single letters that spell a word ("f u c k", "s.h.i.t").
 */

export interface Token {
  /** Folded form used for every look-up. */
  word: string
  /** UTF-16 offsets into the text (internal: answers carry no offsets). */
  start: number
  end: number
  /** Written with a capital first letter. */
  capital: boolean
  /** Written in capitals throughout, two letters or more ("FICK"). */
  shouted: boolean
  /** A sentence ends between the previous token and this one. */
  sentenceStart: boolean
}

export interface Tokens {
  tokens: Token[]
  /** Runs of single letters joined into one folded word, as "fuck" from "f u c k". */
  spelled: string[]
}

// Letters and digits, with symbol runs inside a word kept (sh!t, a$$hole, f**k); the two parts
// cannot overlap, so the match stays linear.
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:[*@$!]+[\p{L}\p{M}\p{N}]+)*/gu
const NON_ASCII = /[^\u0000-\u007f]/ // eslint-disable-line no-control-regex
const MARKS = /\p{M}/gu
const LEET_CHARS = /[0-9@$!]/
const LETTER = /\p{L}/u
const LEET: Record<string, string> = { 0: 'o', 1: 'i', 3: 'e', 4: 'a', 5: 's', 7: 't', 8: 'b', '@': 'a', $: 's', '!': 'i' }

/** The look-up form of a word: lower case, combining accents dropped (ñ kept), ß, œ and æ spelled out. */
export function fold (word: string): string {
  const lower = word.toLowerCase()
  if (!NON_ASCII.test(lower)) return lower
  return lower
    .replaceAll('ñ', '\u0001').replaceAll('ß', 'ss').replaceAll('œ', 'oe').replaceAll('æ', 'ae').replaceAll('’', '\'')
    .normalize('NFD').replace(MARKS, '').replaceAll('\u0001', 'ñ')
}

/** The word with leetspeak digits and symbols read as letters ("m3rde" -> "merde"), or undefined when there are none. */
export function unleet (word: string): string | undefined {
  if (!LEET_CHARS.test(word) || !LETTER.test(word)) return undefined
  let out = ''
  for (const ch of word) out += LEET[ch] ?? ch
  return out
}

const SENTENCE_END = new Set(['.', '!', '?', ';', '\n'])

/** The tokens of `text`, in order, in one linear pass. */
export function tokenize (text: string): Tokens {
  const tokens: Token[] = []
  const spelled: string[] = []
  let previousEnd = 0
  let run = ''
  let runLength = 0
  const closeRun = (): void => {
    if (runLength >= 3) spelled.push(run)
    run = ''
    runLength = 0
  }
  for (const match of text.matchAll(WORD)) {
    const raw = match[0]
    const start = match.index
    let sentenceStart = tokens.length === 0
    let newline = false
    for (let i = previousEnd; i < start; i++) {
      const ch = text[i] as string
      if (SENTENCE_END.has(ch)) sentenceStart = true
      if (ch === '\n') newline = true
    }
    const word = fold(raw)
    const first = raw[0] as string
    const capital = first !== first.toLowerCase()
    const shouted = capital && raw.length > 1 && raw === raw.toUpperCase() && raw !== raw.toLowerCase()
    tokens.push({ word, start, end: start + raw.length, capital, shouted, sentenceStart })
    // A single letter continues a spelled run when at most three separators stand before it on the same line.
    const single = [...raw].length === 1 && LETTER.test(raw)
    if (single && runLength > 0 && start - previousEnd <= 3 && !newline) {
      run += word
      runLength++
    } else {
      closeRun()
      if (single) {
        run = word
        runLength = 1
      }
    }
    previousEnd = start + raw.length
  }
  closeRun()
  return { tokens, spelled }
}
