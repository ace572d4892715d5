/** A table of one- to few-word phrases, matched longest first at a position in a word list. */
export class PhraseTable<T> {
  private readonly byFirst = new Map<string, Array<{ rest: string[], value: T }>>()
  private readonly single = new Map<string, T>()

  /** Adds a phrase (words separated by spaces); a later entry for the same phrase replaces the earlier. */
  set (phrase: string, value: T): void {
    const words = phrase.split(' ').filter(w => w !== '')
    const first = words[0]
    if (first === undefined) return
    if (words.length === 1) {
      this.single.set(first, value)
      return
    }
    const rest = words.slice(1)
    const entries = this.byFirst.get(first) ?? []
    const same = entries.findIndex(e => e.rest.join(' ') === rest.join(' '))
    if (same !== -1) entries.splice(same, 1)
    entries.push({ rest, value })
    entries.sort((a, b) => b.rest.length - a.rest.length)
    this.byFirst.set(first, entries)
  }

  /** The single word's value, if any. */
  get (word: string): T | undefined {
    return this.single.get(word)
  }

  get size (): number {
    return this.single.size + this.byFirst.size
  }

  /** The longest phrase starting at words[at]: its value and how many words it covers. */
  match (words: readonly string[], at: number): { value: T, length: number } | undefined {
    const first = words[at]
    if (first === undefined) return undefined
    const entries = this.byFirst.get(first)
    if (entries !== undefined) {
      for (const { rest, value } of entries) {
        let k = 0
        while (k < rest.length && words[at + 1 + k] === rest[k]) k += 1
        if (k === rest.length) return { value, length: rest.length + 1 }
      }
    }
    const value = this.single.get(first)
    return value === undefined ? undefined : { value, length: 1 }
  }
}
