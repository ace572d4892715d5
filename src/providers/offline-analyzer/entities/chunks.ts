// a line break of any convention: "\r\n" is one
const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/g

/**
 * Pieces of a text of at most `max` UTF-16 units, one line at most: a line is a piece of its own
 * (a document's pieces are analysed one a line, so nothing read may run from one into the next),
 * and a long one is cut after a sentence where possible, else at a space, else anywhere:
 * compromise and wink-nlp slow down more than linearly on long sentences and long tokens, so they
 * only ever see pieces like these. Blank lines make no piece.
 */
export function chunks (text: string, max = 1000): Array<{ start: number, end: number }> {
  const pieces: Array<{ start: number, end: number }> = []
  let start = 0
  for (const lineBreak of text.matchAll(LINE_BREAK)) {
    cutLine(text, start, lineBreak.index, max, pieces)
    start = lineBreak.index + lineBreak[0].length
  }
  cutLine(text, start, text.length, max, pieces)
  return pieces
}

/** The line from `start` to `end` as pieces of at most `max` units, without the spaces around it. */
function cutLine (text: string, start: number, end: number, max: number, pieces: Array<{ start: number, end: number }>): void {
  while (start < end && /\s/.test(text[start]!)) start++
  while (end > start && /\s/.test(text[end - 1]!)) end--
  while (end - start > max) {
    const limit = start + max
    let cut = -1
    let space = -1
    for (let i = limit - 1; i > start; i--) {
      const c = text[i]!
      if ((c === ' ' || c === '\t') && /[.!?…:;]/.test(text[i - 1]!)) { cut = i + 1; break }
      if (space === -1 && (c === ' ' || c === '\t')) space = i + 1
    }
    let pieceEnd = cut > start ? cut : space > start ? space : limit
    // never between the halves of a surrogate pair
    const last = text.charCodeAt(pieceEnd - 1)
    if (last >= 0xd800 && last <= 0xdbff) pieceEnd--
    pieces.push({ start, end: pieceEnd })
    start = pieceEnd
  }
  if (start < end) pieces.push({ start, end })
}
