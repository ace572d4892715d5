/**
 * Pieces of a text of at most `max` UTF-16 units, cut after a sentence where possible, else at a
 * space, else anywhere: compromise and wink-nlp slow down more than linearly on long sentences and
 * long tokens, so they only ever see pieces like these.
 */
export function chunks (text: string, max = 1000): Array<{ start: number, end: number }> {
  const pieces: Array<{ start: number, end: number }> = []
  let start = 0
  while (text.length - start > max) {
    const limit = start + max
    let cut = -1
    let space = -1
    for (let i = limit - 1; i > start; i--) {
      const c = text[i]!
      if (c === '\n' || ((c === ' ' || c === '\t') && /[.!?…:;]/.test(text[i - 1]!))) { cut = i + 1; break }
      if (space === -1 && (c === ' ' || c === '\t')) space = i + 1
    }
    let end = cut > start ? cut : space > start ? space : limit
    // never between the halves of a surrogate pair
    const last = text.charCodeAt(end - 1)
    if (last >= 0xd800 && last <= 0xdbff) end--
    pieces.push({ start, end })
    start = end
  }
  if (start < text.length) pieces.push({ start, end: text.length })
  return pieces
}
