/**
 * A look-up of words, word prefixes ("scheiß*") and phrases ("fils de pute") over folded tokens,
 * each entry carrying values. One look-up costs a few Map reads, whatever the size of the index.
 */
import { fold, tokenize } from './tokens.js'

interface Phrase<T> {
  rest: string[]
  values: T[]
}

export interface Found<T> {
  values: T[]
  /** Tokens covered (1 for a word or prefix). */
  length: number
}

/** The folded words of an entry written in a list ("va_te_faire_foutre", "l’avoir dans le cul"). */
export function entryWords (entry: string): string[] {
  return tokenize(entry.replaceAll('_', ' ')).tokens.map(t => t.word)
}

export class WordIndex<T> {
  private readonly exact = new Map<string, T[]>()
  private readonly prefixes = new Map<string, T[]>()
  private prefixLengths: number[] = []
  private readonly phrases = new Map<string, Array<Phrase<T>>>()

  /** Adds an entry: a word, a prefix ending in `*`, or a phrase of several words. */
  add (entry: string, value: T): void {
    const prefix = entry.endsWith('*')
    const words = entryWords(prefix ? entry.slice(0, -1) : entry)
    const [first, ...rest] = words
    if (first === undefined) return
    if (rest.length > 0) {
      const list = this.phrases.get(first) ?? []
      const same = list.find(p => p.rest.join(' ') === rest.join(' '))
      if (same) same.values.push(value)
      else list.push({ rest, values: [value] })
      this.phrases.set(first, list.sort((a, b) => b.rest.length - a.rest.length))
    } else if (prefix) {
      push(this.prefixes, first, value)
      if (!this.prefixLengths.includes(first.length)) this.prefixLengths = [...this.prefixLengths, first.length].sort((a, b) => b - a)
    } else {
      push(this.exact, first, value)
    }
  }

  /** Whether a single word (not a phrase) is in the index, as a word or by a prefix. */
  hasWord (word: string): boolean {
    return this.word(fold(word)) !== undefined
  }

  /** The values of one folded word: exact entry first, else its longest indexed prefix. */
  word (word: string): T[] | undefined {
    const exact = this.exact.get(word)
    if (exact) return exact
    for (const length of this.prefixLengths) {
      if (length > word.length) continue
      const found = this.prefixes.get(word.slice(0, length))
      if (found) return found
    }
    return undefined
  }

  /** What starts at `words[i]`: the longest phrase, else the word itself. */
  at (words: readonly string[], i: number): Found<T> | undefined {
    const head = words[i]
    if (head === undefined) return undefined
    const phrases = this.phrases.get(head)
    if (phrases) {
      for (const phrase of phrases) {
        if (phrase.rest.every((w, k) => words[i + 1 + k] === w)) return { values: phrase.values, length: phrase.rest.length + 1 }
      }
    }
    const values = this.word(head)
    return values ? { values, length: 1 } : undefined
  }
}

function push<T> (map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
