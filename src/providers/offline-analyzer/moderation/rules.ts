/**
 * Phrase rules over tokens ("i @modal*4 @harm @you"), compiled once. Elements, separated by spaces:
 * - `kill|murder|stab*`: one of these words (a final `*` makes a prefix);
 * - `@set`: one word of a named set; `$flagged`: a word the profanity lists flagged (an insult, a
 *   slur, a swear word); alternatives mix: `$flagged|@bad|trash`;
 * - a final `?` makes an element optional; `*3` after it allows zero to three (`@modal*3`);
 * - `*2` alone: zero to two words of any kind;
 * - a leading `^` makes the rule match only at the start of a sentence.
 * A match never crosses a sentence end. Matching is bounded by the rule's length, so a text costs
 * tokens x rules-starting-with-that-word.
 */
import { fold } from './tokens.js'

interface Element {
  words: Set<string>
  prefixes: string[]
  any: boolean
  flagged: boolean
  min: number
  max: number
}

interface Rule<T> {
  elements: Element[]
  value: T
  /** Only at the start of a sentence. */
  anchored: boolean
}

export interface RuleText {
  /** Folded words. */
  words: readonly string[]
  /** Whether a sentence ends before each word. */
  sentenceStart: readonly boolean[]
  /** Whether the profanity lists flagged each word. */
  flagged: readonly boolean[]
}

export interface RuleHit<T> {
  value: T
  start: number
  /** Exclusive. */
  end: number
}

export interface WordSet {
  words: Set<string>
  prefixes: string[]
}

/** Words and prefixes of a set written as space-separated entries ("kill murder stab*"). */
export function parseSet (text: string): WordSet {
  const words = new Set<string>()
  const prefixes: string[] = []
  for (const entry of text.split(/\s+/)) {
    if (entry === '') continue
    if (entry.endsWith('*')) prefixes.push(fold(entry.slice(0, -1)))
    else words.add(fold(entry))
  }
  return { words, prefixes }
}

/** Whether a folded word is one of the set's words or starts with one of its prefixes. */
export function inSet (set: WordSet, word: string): boolean {
  return set.words.has(word) || set.prefixes.some(p => word.startsWith(p))
}

function element (source: string, sets: ReadonlyMap<string, WordSet>): Element {
  const repeat = /^(.*)\*(\d+)$/.exec(source)
  if (repeat && repeat[1] === '') return { words: new Set(), prefixes: [], any: true, flagged: false, min: 0, max: Number(repeat[2]) }
  const optional = !repeat && source.endsWith('?')
  const body = repeat ? repeat[1] as string : optional ? source.slice(0, -1) : source
  const el: Element = { words: new Set(), prefixes: [], any: false, flagged: false, min: repeat ? 0 : optional ? 0 : 1, max: repeat ? Number(repeat[2]) : 1 }
  for (const alternative of body.split('|')) {
    if (alternative === '$flagged') {
      el.flagged = true
      continue
    }
    const set = alternative.startsWith('@') ? sets.get(alternative.slice(1)) : parseSet(alternative)
    if (!set) throw new Error(`moderation rule uses an unknown set ${alternative}`)
    for (const word of set.words) el.words.add(word)
    el.prefixes.push(...set.prefixes)
  }
  return el
}

function accepts (el: Element, text: RuleText, i: number): boolean {
  if (el.any || (el.flagged && text.flagged[i] === true)) return true
  return inSet(el, text.words[i] as string)
}

export class Rules<T> {
  private readonly byFirst = new Map<string, Array<Rule<T>>>()
  private readonly byPrefix: Array<{ prefix: string, rule: Rule<T> }> = []

  /** Compiles `patterns`, each giving `value` when it matches; sets are named space-separated word lists. */
  constructor (patterns: ReadonlyArray<{ pattern: string, value: T }>, sets: Readonly<Record<string, string>>) {
    const parsed = new Map(Object.entries(sets).map(([name, text]) => [name, parseSet(text)]))
    for (const { pattern, value } of patterns) {
      const sources = pattern.trim().split(/\s+/)
      const anchored = sources[0] === '^'
      const elements = (anchored ? sources.slice(1) : sources).map(s => element(s, parsed))
      const first = elements[0]
      if (!first || first.any || first.flagged || first.min < 1) throw new Error(`moderation rule must start with a word: ${pattern}`)
      const rule = { elements, value, anchored }
      for (const word of first.words) {
        const list = this.byFirst.get(word)
        if (list) list.push(rule)
        else this.byFirst.set(word, [rule])
      }
      for (const prefix of first.prefixes) this.byPrefix.push({ prefix, rule })
    }
  }

  /** Every match in `text`, in order of start; a rule matches at most once per start. */
  matches (text: RuleText): Array<RuleHit<T>> {
    const hits: Array<RuleHit<T>> = []
    const n = text.words.length
    for (let i = 0; i < n; i++) {
      const word = text.words[i] as string
      const candidates = this.byFirst.get(word)
      if (candidates) for (const rule of candidates) this.tryRule(rule, text, i, hits)
      for (const { prefix, rule } of this.byPrefix) if (word.startsWith(prefix)) this.tryRule(rule, text, i, hits)
    }
    return hits
  }

  private tryRule (rule: Rule<T>, text: RuleText, start: number, hits: Array<RuleHit<T>>): void {
    if (rule.anchored && text.sentenceStart[start] !== true) return
    const end = matchFrom(rule.elements, 0, text, start, start)
    if (end >= 0) hits.push({ value: rule.value, start, end })
  }
}

/** The end of a match of elements[e..] from token i, or -1; shortest repetitions first. */
function matchFrom (elements: readonly Element[], e: number, text: RuleText, start: number, i: number): number {
  const el = elements[e]
  if (!el) return i
  let j = i
  for (let count = 0; ; count++) {
    if (count >= el.min) {
      const end = matchFrom(elements, e + 1, text, start, j)
      if (end >= 0) return end
    }
    if (count === el.max || j >= text.words.length || (j > start && text.sentenceStart[j] === true) || !accepts(el, text, j)) return -1
    j++
  }
}
