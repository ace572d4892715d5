/** Tokens and sentences for sentiment scoring, with code-point offsets into the text. */

export type TokenKind = 'word' | 'emoji' | 'emoticon' | 'end' | 'pause'

export interface Token {
  kind: TokenKind
  /** The token as written. */
  text: string
  /** Lower case, for lexicon look-ups. */
  lower: string
  /** Code-point offset and end into the text. */
  start: number
  end: number
  /** UTF-16 offset and end, to slice the string. */
  from: number
  to: number
}

export interface Sentence {
  /** Code-point offset and end of the sentence (first token to last, terminal punctuation included). */
  start: number
  end: number
  /** UTF-16 offset and end. */
  from: number
  to: number
  tokens: Token[]
}

/** Emoticons as written in reviews and chat; looked up whole, never built from the text. */
const EMOTICONS = [
  ':)', ':-)', ':]', ':-]', '=)', ':}', ':o)', ':^)', '(:', ';)', ';-)', ':d', ':-d', 'xd', '=d', '8)', '8-)', ':p', ':-p',
  ';p', ':*', ':-*', '<3', '^^', '^_^', ':))', ':)))', ':(', ':-(', ':[', ':-[', '=(', ':((', ":'(", ":'-(", ':/', ':-/',
  ':\\', ':|', ':-|', '>:(', '>:-(', ':@', '</3', '-_-', ':s', ':-s', ':c'
].map(e => e.toLowerCase())

// One pass over the text: each alternative is a plain class run or a short fixed shape, so matching stays linear.
// 1 emoji (with variation selectors, skin tones and ZWJ sequences), 2 word (letters, marks, digits, inner
// apostrophes and hyphens, decimals), 3 sentence end, 4 pause, 5 start of an emoticon that is no pause ("<3", "^^").
const TOKEN = /(\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier}|\u200D\p{Extended_Pictographic})*)|([\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+|\.\p{N}+)*)|([.!?…。！？]+)|([,;:()"“”«»—–/-]|\n)|([=>^<*])/gu

const EMOTICON_SET = new Set(EMOTICONS)
const LONGEST_EMOTICON = Math.max(...EMOTICONS.map(e => e.length))

/** Common abbreviations whose period does not end a sentence (lower case, without the period). */
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'vs', 'etc', 'bzw', 'ca', 'sr', 'sra', 'dott', 'sig', 'jr', 'nr', 'approx', 'inc', 'ltd'])

/** Counts code points of text between two UTF-16 positions. */
function codePoints (text: string, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i)
    // a low surrogate after a high one belongs to the same code point
    if (c < 0xDC00 || c > 0xDFFF || i === from || (text.charCodeAt(i - 1) & 0xFC00) !== 0xD800) n += 1
  }
  return n
}

/** The tokens of a text, in order, with code-point offsets. */
export function tokenize (text: string): Token[] {
  const tokens: Token[] = []
  let unit = 0
  let point = 0
  TOKEN.lastIndex = 0
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    let raw = m[0]
    let kind: TokenKind
    if (m[1] !== undefined) kind = 'emoji'
    else if (m[2] !== undefined) kind = EMOTICON_SET.has(raw.toLowerCase()) ? 'emoticon' : 'word'
    else if (m[3] !== undefined) kind = 'end'
    else if (m[4] !== undefined) {
      // a pause may start an emoticon (":)" or "-_-"): take the longest known one
      const emoticon = emoticonAt(text, m.index)
      if (emoticon !== undefined) {
        raw = emoticon
        kind = 'emoticon'
        TOKEN.lastIndex = m.index + raw.length
      } else kind = 'pause'
    } else {
      const emoticon = emoticonAt(text, m.index)
      if (emoticon === undefined) {
        // not an emoticon: go on from the next character so nothing is skipped
        TOKEN.lastIndex = m.index + 1
        continue
      }
      raw = emoticon
      kind = 'emoticon'
      TOKEN.lastIndex = m.index + raw.length
    }
    point += codePoints(text, unit, m.index)
    const length = kind === 'word' || kind === 'emoji' ? codePoints(text, m.index, m.index + raw.length) : raw.length
    tokens.push({ kind, text: raw, lower: raw.toLowerCase(), start: point, end: point + length, from: m.index, to: m.index + raw.length })
    point += length
    unit = m.index + raw.length
  }
  return tokens
}

/** The longest known emoticon starting at a UTF-16 position, not glued to a word on either side. */
function emoticonAt (text: string, at: number): string | undefined {
  if (at > 0 && /[\p{L}\p{N}]/u.test(text[at - 1] ?? '')) return undefined
  for (let length = LONGEST_EMOTICON; length >= 2; length -= 1) {
    const candidate = text.slice(at, at + length)
    if (candidate.length === length && EMOTICON_SET.has(candidate.toLowerCase())) {
      const next = text[at + length]
      if (next === undefined || !/[\p{L}\p{N}]/u.test(next)) return candidate
    }
  }
  return undefined
}

/** The tokens grouped into sentences: a sentence ends at terminal punctuation or a blank line. */
export function sentencesOf (tokens: Token[]): Sentence[] {
  const sentences: Sentence[] = []
  let current: Token[] = []
  const close = (): void => {
    const first = current[0]
    const last = current[current.length - 1]
    if (first !== undefined && last !== undefined && current.some(t => t.kind !== 'end' && t.kind !== 'pause')) {
      sentences.push({ start: first.start, end: last.end, from: first.from, to: last.to, tokens: current })
    } else if (first !== undefined && last !== undefined && sentences.length > 0) {
      // stray punctuation joins the sentence before
      const previous = sentences[sentences.length - 1]!
      for (const token of current) previous.tokens.push(token)
      previous.end = last.end
      previous.to = last.to
    }
    current = []
  }
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!
    const before = current[current.length - 1]
    if (token.kind === 'pause' && token.text === '\n' && before !== undefined && before.kind === 'pause' && before.text === '\n') {
      current.pop()
      close()
      continue
    }
    current.push(token)
    if (token.kind !== 'end') continue
    const next = tokens[i + 1]
    // "4.5", "e.g." and "Mr." do not end a sentence; a word right after in lower case continues it
    if (token.text === '.' && before !== undefined && before.kind === 'word' && before.end === token.start &&
      (ABBREVIATIONS.has(before.lower) || before.text.length === 1)) continue
    if (next !== undefined && next.kind === 'word' && next.start === token.end && /^\p{N}/u.test(next.text)) continue
    if (next !== undefined && next.kind === 'end') continue
    close()
  }
  close()
  return sentences
}
