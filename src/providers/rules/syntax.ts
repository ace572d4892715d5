/**
 * Syntax rules for any Latin-script language: one space between words, a capital at the start of
 * a sentence, no doubled punctuation, no repeated word.
 */
import type { EditType } from '../types.js'
import { capitalize, nextWord, type Change, type Token } from './text.js'

/** Changes for spacing, sentence capitals and doubled punctuation. */
export function syntaxChanges (tokens: readonly Token[], locale: string): Change[] {
  const list = tokens as Token[]
  const changes: Change[] = []
  const sentenceLike = endsLikeSentence(list)
  let afterStop = false
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!
    if (t.kind === 'punct' && /[.!?]/.test(t.text)) afterStop = true
    if (t.kind === 'space') {
      // a run of plain spaces between two things; leading and trailing whitespace and line layout stay
      if (i > 0 && i < list.length - 1 && t.text.length > 1 && /^ +$/.test(t.text)) {
        const reason = list[i - 1]!.kind === 'punct' && /[.!?]/.test(list[i - 1]!.text) ? 'Extra space between sentences' : 'Extra space between words'
        changes.push({ start: t.start, end: t.end, replacement: ' ', note: { original: t.text, replacement: ' ', type: 'syntax', reason } })
      }
    } else if (t.kind === 'word') {
      if (!t.sentenceStart || t.guarded || !/^\p{Ll}/u.test(t.text)) continue
      // the first word of a segment only when the segment reads as a sentence (not a list item or label)
      if (!afterStop && !sentenceLike) continue
      // Dutch "'s avonds": a letter after an apostrophe is an elision, not a word
      if (Array.from(t.text).length === 1 && /['’]/.test(list[i - 1]?.text ?? '')) continue
      const replacement = capitalize(t.text, locale)
      changes.push({ start: t.start, end: t.end, replacement, note: { original: t.text, replacement, type: 'syntax', reason: 'A sentence starts with a capital letter' } })
    } else if (t.kind === 'punct' && !t.guarded && /^[,;:?.]$/.test(t.text)) {
      let j = i
      while (list[j + 1]?.kind === 'punct' && list[j + 1]!.text === t.text && !list[j + 1]!.guarded) j++
      const run = j - i + 1
      // ".." is a slip, "..." an ellipsis; "!!" is emphasis and stays
      if (run > 1 && (t.text !== '.' || run === 2)) {
        const original = t.text.repeat(run)
        changes.push({ start: t.start, end: list[j]!.end, replacement: t.text, note: { original, replacement: t.text, type: 'syntax', reason: `Doubled "${t.text}"` } })
      }
      i = j
    }
  }
  return changes
}

/** Whether the text ends with . ! or ? (before closing quotes or brackets): then its first word starts a sentence. */
function endsLikeSentence (tokens: readonly Token[]): boolean {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!
    if (t.kind === 'space' || (t.kind === 'punct' && /["'”’)\]»]/.test(t.text))) continue
    return t.kind === 'punct' && /[.!?…]/.test(t.text)
  }
  return false
}

// words that may stand twice ("they had had", "that that", "bye bye"); per language, pronouns and
// articles that legitimately repeat ("nous nous levons", "das das Kind")
const MAY_REPEAT = new Set(['had', 'that', 'can', 'blah', 'beep', 'yadda', 'sapiens', 'tse', 'mau', 'bye', 'ha', 'haha', 'la', 'knock', 'tsk', 'tut', 'chop', 'hip', 'boo', 'bang', 'ding', 'dong', 'choo', 'no'])
const MAY_REPEAT_IN: Record<string, ReadonlySet<string>> = {
  fr: new Set(['nous', 'vous', 'si']),
  de: new Set(['das', 'die', 'der', 'sie', 'dem', 'den']),
  nl: new Set(['die', 'dat']),
  es: new Set(['que']),
  it: new Set(['che']),
  pt: new Set(['que'])
}

/** Changes removing a word written twice in a row ("the the" -> "the"). */
export function repeatedWordChanges (tokens: readonly Token[], language: string, type: EditType): Change[] {
  const list = tokens as Token[]
  const changes: Change[] = []
  const allowed = MAY_REPEAT_IN[language]
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!
    if (t.kind !== 'word' || t.guarded || /\p{N}/u.test(t.text)) continue
    const n = nextWord(list, i)
    if (n === undefined || list[n]!.guarded) continue
    const word = t.text.toLocaleLowerCase(language)
    if (list[n]!.text.toLocaleLowerCase(language) !== word || MAY_REPEAT.has(word) || allowed?.has(word) === true) continue
    // "D. D." initials and single capitals are not repeats
    if (Array.from(word).length === 1 && t.text !== word) continue
    const original = list.slice(i, n + 1).map(x => x.text).join('')
    changes.push({ start: t.start, end: list[n]!.end, replacement: t.text, note: { original, replacement: t.text, type, reason: `Repeated word "${t.text}"` } })
    i = n
  }
  return changes
}
