import { functionWords } from './function-words.js'
import { PRIORITY, span, type Span } from './spans.js'
import type { Token } from './tokens.js'

const SPACES = /^[ \u00a0]{1,2}$/

/**
 * Proper names of no known kind: two or more capitalised words inside a sentence ("la Tour
 * Eiffel", "el Real Madrid"), in languages that write common nouns in lower case. Any better
 * finder's span over the same words wins. Not for German, which capitalises every noun. They are
 * not reported, no type of ours being theirs: they only keep a person's surname out of them ("la
 * Plaza Chávez" is no mention of Hugo Chávez).
 */
export function findOthers (text: string, tokens: Token[], language: string): Span[] {
  if (language === 'de' || language === 'en') return []
  const small = functionWords(language)
  const proper = (t: Token): boolean => t.kind === 'word' && t.cap && /\p{Ll}/u.test(t.text) && !small.has(t.folded) && t.text.length > 1
  const found: Span[] = []
  let i = 0
  while (i < tokens.length) {
    if (!proper(tokens[i]!) || tokens[i]!.sentenceStart) { i++; continue }
    let last = i
    while (last + 1 < tokens.length && proper(tokens[last + 1]!) && SPACES.test(text.slice(tokens[last]!.end, tokens[last + 1]!.start))) last++
    if (last > i) found.push(span('OTHER', tokens[i]!.start, tokens[last]!.end, PRIORITY.OTHER))
    i = last + 1
  }
  return found
}
