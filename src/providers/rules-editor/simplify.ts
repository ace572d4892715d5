/** Simplify: wordy English phrases become plain ones ("in order to" -> "to", "utilize" -> "use"). */
import { articleFor } from './articles.js'
import { SIMPLER_PHRASES } from './simplify-phrases.js'
import { matchCase, nextWord, previousWord, type Change, type Token } from './text.js'

interface Phrase {
  words: string[]
  plain: string
}

/** Phrases by their first word, longest first. */
const BY_FIRST_WORD: ReadonlyMap<string, Phrase[]> = (() => {
  const index = new Map<string, Phrase[]>()
  for (const [wordy, plain] of SIMPLER_PHRASES) {
    const forms = wordy.split('|')
    const plains = plain.split('|')
    forms.forEach((form, k) => {
      const words = form.split(' ')
      const list = index.get(words[0]!) ?? []
      list.push({ words, plain: plains[k] ?? plains[0]! })
      index.set(words[0]!, list)
    })
  }
  for (const list of index.values()) list.sort((a, b) => b.words.length - a.words.length)
  return index
})()

/** Changes replacing wordy phrases in `tokens` (words one space apart, none guarded). */
export function simplifyChanges (tokens: readonly Token[]): Change[] {
  const list = tokens as Token[]
  const changes: Change[] = []
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!
    if (t.kind !== 'word' || t.guarded) continue
    const candidates = BY_FIRST_WORD.get(t.text.toLowerCase())
    if (candidates === undefined) continue
    for (const phrase of candidates) {
      const last = matchFrom(list, i, phrase.words)
      if (last === undefined) continue
      const end = list[last]!.end
      const original = list.slice(i, last + 1).map(x => x.text).join('')
      let start = t.start
      let replacement = matchCase(original, phrase.plain)
      let wordy = original
      // "an adjustment" -> "a change": the article goes with its noun
      const a = previousWord(list, i)
      const article = a === undefined ? undefined : list[a]!.text
      if (a !== undefined && article !== undefined && /^an?$/i.test(article)) {
        const wanted = articleFor(phrase.plain.split(' ')[0]!)
        if (wanted !== undefined && wanted !== article.toLowerCase()) {
          start = list[a]!.start
          wordy = list.slice(a, last + 1).map(x => x.text).join('')
          replacement = `${matchCase(article, wanted)} ${replacement}`
        }
      }
      changes.push({ start, end, replacement, note: { original: wordy, replacement, type: 'simplify', reason: `Wordy: use "${phrase.plain}"` } })
      i = last
      break
    }
  }
  return changes
}

/** Index of the phrase's last word when `words` follow one another from token `i`, else undefined. */
function matchFrom (tokens: Token[], i: number, words: readonly string[]): number | undefined {
  let at = i
  for (let k = 1; k < words.length; k++) {
    const n = nextWord(tokens, at)
    if (n === undefined || tokens[n]!.guarded || tokens[n]!.text.toLowerCase() !== words[k]) return undefined
    at = n
  }
  return at
}
