import { tokenize, type Token } from './tokens.js'

interface Entry<T> {
  words: string[]
  /** Which words the name writes with a capital. */
  capitals: boolean[]
  item: T
}

// what may stand between the words of one name ("Costa do Marfim", "Côte d'Ivoire")
const JOIN = /^(?:[ \u00a0]{1,2}|['’])$/

/** Names of several words looked up by their folded words, longest first. */
export class PhraseIndex<T> {
  private readonly byFirst = new Map<string, Array<Entry<T>>>()

  /** Adds a name; the first one added for a spelling wins. */
  add (phrase: string, item: T): void {
    const tokens = tokenize(phrase)
    const words = tokens.map(t => t.folded)
    if (words.length === 0) return
    const list = this.byFirst.get(words[0]!) ?? []
    if (list.some(e => e.words.join(' ') === words.join(' '))) return
    list.push({ words, capitals: tokens.map(t => t.cap), item })
    list.sort((a, b) => b.words.length - a.words.length)
    this.byFirst.set(words[0]!, list)
  }

  /**
   * The longest name starting at token `i`: its last token and item. A word after the first that
   * the name capitalises is capitalised in the text too: "La réunion" opening a sentence is no "La Réunion".
   */
  longestAt (text: string, tokens: readonly Token[], i: number): { last: number, item: T } | undefined {
    const list = this.byFirst.get(tokens[i]!.folded)
    if (list === undefined) return undefined
    for (const entry of list) {
      let ok = true
      for (let k = 1; k < entry.words.length && ok; k++) {
        const t = tokens[i + k]
        ok = t !== undefined && t.folded === entry.words[k] && (t.cap || !entry.capitals[k]) && JOIN.test(text.slice(tokens[i + k - 1]!.end, t.start))
      }
      if (ok) return { last: i + entry.words.length - 1, item: entry.item }
    }
    return undefined
  }

  has (phrase: string): boolean {
    const words = tokenize(phrase).map(t => t.folded)
    return this.byFirst.get(words[0] ?? '')?.some(e => e.words.join(' ') === words.join(' ')) ?? false
  }
}
