/**
 * Glossary substitutions (docs/api.md "Substitute"): literal phrases, matched as whole words after
 * NFC normalisation, case-insensitively unless asked otherwise, longest match first, never
 * overlapping, the replacement never scanned again.
 *
 * Word rule: an edge of the phrase that is a word character (letter, mark, digit, connector
 * punctuation such as `_`) must not touch another word character in the text, nor one joined
 * to it by `.` or `·` (so "Apple" does not match inside "Apple.com", nor "3" inside "3.5"; `,`
 * and `;` join digits only). An edge that is punctuation, a symbol or a space needs nothing, so
 * "C++" matches in "C++ code" and in "C++11", and "(c)" in "Foo(c)". Scripts written without
 * spaces (Han, Kana, Thai, Lao, Khmer, Myanmar) have no word edges: a phrase in them matches
 * anywhere. Apostrophes separate words ("Apple" matches in "Apple's"). Runs of white space
 * match any run of white space. Case-insensitive matching folds each character with
 * toUpperCase().toLowerCase() (so "ß" matches "SS" and "ς" matches "Σ"), and Turkish "İ" as "i".
 */
import { protect, type Mark, type ProtectedMarks } from './documents/protect.js'
import { canonicalTag, tryCanonicalTag } from './languages.js'
import type { AppliedSubstitution, Substitution } from './substitution/types.js'

export type { Substitution, AppliedSubstitution }

/**
 * How well a rule's tag fits a language: 3 same tag, 2 the rule's tag is a prefix of the language's
 * (an "en" rule fits "en-GB"), 1 rule has none, 0 no fit. Never the other way: an "en-GB" rule is
 * about British English and does not fit a text that is only said to be "en".
 */
function fit (ruleTag: string | undefined, language: string): number {
  if (ruleTag === undefined || ruleTag === '') return 1
  const rule = (tryCanonicalTag(ruleTag) ?? ruleTag).toLowerCase()
  const lang = (tryCanonicalTag(language) ?? language).toLowerCase()
  if (rule === lang) return 3
  return lang.startsWith(rule + '-') ? 2 : 0
}

/** Rules whose two tags both fit, the most specific first (stable), so it wins a shared phrase. */
function byFit (rules: readonly Substitution[], from: string, to: string): Substitution[] {
  return rules
    .map((rule, i) => ({ rule, i, a: fit(rule.source, from), b: fit(rule.target, to) }))
    .filter(r => r.a > 0 && r.b > 0)
    .sort((x, y) => (y.a + y.b) - (x.a + x.b) || x.i - y.i)
    .map(r => r.rule)
}

/** Rules that apply when translating `from` -> `to` (a rule's "en" matches "en-GB", not the other way; absent matches any). */
export function rulesForPair (rules: readonly Substitution[], from: string, to: string): Substitution[] {
  return byFit(rules, from, to)
}

/** Rules that apply inside one language (POST /language/substitute): source and target each absent or matching it. */
export function rulesForLanguage (rules: readonly Substitution[], language: string): Substitution[] {
  return byFit(rules, language, language)
}

interface TrieNode {
  next: Map<number, TrieNode>
  /** Index of the rule ending here, -1 if none. */
  rule: number
}

/** A rule set compiled once into a trie over normalised phrases. */
export interface Glossary {
  rules: readonly Substitution[]
  caseSensitive: boolean
  root: TrieNode
}

/** A text made searchable, with each unit's span in the original text. */
interface Searchable {
  s: string
  from: number[]
  to: number[]
}

const foldCache = new Map<string, string>()

function fold (ch: string): string {
  const code = ch.charCodeAt(0)
  if (code < 128) return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : ch
  let folded = foldCache.get(ch)
  if (folded === undefined) {
    // Turkish and Azeri's dotted capital İ is their i (lowered without a locale it is i + U+0307); their dotless ı folds to i through I
    folded = ch === '\u0130' ? 'i' : ch.toUpperCase().toLowerCase()
    if (foldCache.size < 10_000) foldCache.set(ch, folded)
  }
  return folded
}

const SPACE = /^\s$/u

/** The NFC, optionally case-folded, whitespace-collapsed form of a text, mapped back to it. */
function searchable (text: string, caseSensitive: boolean): Searchable {
  const units: string[] = []
  const from: number[] = []
  const to: number[] = []
  const add = (ch: string, start: number, end: number): void => {
    if (SPACE.test(ch)) {
      if (units.at(-1) === ' ') {
        to[to.length - 1] = end
        return
      }
      ch = ' '
    } else if (!caseSensitive) {
      ch = fold(ch)
    }
    for (let k = 0; k < ch.length; k++) {
      units.push(ch[k]!)
      from.push(start)
      to.push(end)
    }
  }
  if (text.normalize('NFC') === text) {
    let i = 0
    for (const ch of text) {
      add(ch, i, i + ch.length)
      i += ch.length
    }
  } else {
    // normalise cluster by cluster so every unit still knows where it came from
    for (const { segment, index } of new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)) {
      for (const ch of segment.normalize('NFC')) add(ch, index, index + segment.length)
    }
  }
  return { s: units.join(''), from, to }
}

const WORD = /[\p{L}\p{M}\p{N}\p{Pc}]/u
const NO_SPACES = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u
const DIGIT = /\p{Nd}/u

function isWord (ch: string | undefined): boolean {
  return ch !== undefined && WORD.test(ch) && !NO_SPACES.test(ch)
}

function isDigit (ch: string | undefined): boolean {
  return ch !== undefined && DIGIT.test(ch)
}

function charAt (s: string, i: number): string | undefined {
  if (i < 0 || i >= s.length) return undefined
  return String.fromCodePoint(s.codePointAt(i)!)
}

function charBefore (s: string, i: number): string | undefined {
  if (i <= 0) return undefined
  const low = s.charCodeAt(i - 1)
  return charAt(s, low >= 0xdc00 && low <= 0xdfff && i >= 2 ? i - 2 : i - 1)
}

/** Whether `mid` glues the characters on each side into one word. */
function joins (left: string | undefined, mid: string | undefined, right: string | undefined): boolean {
  if (mid === '.' || mid === '·') return isWord(left) && isWord(right)
  if (mid === ',' || mid === ';') return isDigit(left) && isDigit(right)
  return false
}

/** Whether a phrase occupying [start, end) of `s` stands as whole words. */
function wholeWords (s: string, start: number, end: number): boolean {
  const first = charAt(s, start)
  if (isWord(first)) {
    const before = charBefore(s, start)
    if (isWord(before)) return false
    if (before !== undefined && joins(charBefore(s, start - before.length), before, first)) return false
  }
  const last = charBefore(s, end)
  if (isWord(last)) {
    const after = charAt(s, end)
    if (isWord(after)) return false
    if (after !== undefined && joins(last, after, charAt(s, end + after.length))) return false
  }
  return true
}

/** Compiles rules (in priority order: the first rule of a phrase wins) into one matcher. */
export function compileGlossary (rules: readonly Substitution[], options: { caseSensitive: boolean }): Glossary {
  const root: TrieNode = { next: new Map(), rule: -1 }
  rules.forEach((rule, index) => {
    const phrase = searchable(rule.text, options.caseSensitive).s.trim()
    if (phrase === '' || rule.substitution === '') return
    let node = root
    for (let i = 0; i < phrase.length; i++) {
      const code = phrase.charCodeAt(i)
      let child = node.next.get(code)
      if (child === undefined) {
        child = { next: new Map(), rule: -1 }
        node.next.set(code, child)
      }
      node = child
    }
    if (node.rule === -1) node.rule = index
  })
  return { rules, caseSensitive: options.caseSensitive, root }
}

export interface PhraseMatch {
  start: number
  end: number
  rule: number
}

/**
 * Leftmost-longest whole-word matches of the glossary's phrases in `text`, never overlapping,
 * never crossing one of `barriers` (offsets where a tag sits). One trie walk per start position.
 */
export function findPhrases (glossary: Glossary, text: string, barriers: readonly number[] = []): PhraseMatch[] {
  const { root } = glossary
  if (root.next.size === 0) return []
  const { s, from, to } = searchable(text, glossary.caseSensitive)
  const matches: PhraseMatch[] = []
  const crosses = (start: number, end: number): boolean => barriers.some(b => b > start && b < end)
  let i = 0
  while (i < s.length) {
    let node = root.next.get(s.charCodeAt(i))
    let best: PhraseMatch | undefined
    for (let j = i + 1; node !== undefined; j++) {
      if (node.rule !== -1 && wholeWords(s, i, j)) {
        const start = from[i]!
        const end = to[j - 1]!
        if (crosses(start, end)) break
        best = { start, end, rule: node.rule }
      }
      node = j < s.length ? node.next.get(s.charCodeAt(j)) : undefined
    }
    if (best === undefined) {
      i++
      continue
    }
    matches.push(best)
    while (i < s.length && from[i]! < best.end) i++
  }
  return matches
}

/** A tagged segment with glossary phrases protected as tokens whose restore writes the substitution. */
export function protectPhrases (segment: string, glossary: Glossary): ProtectedMarks {
  return protect(segment, flat => ({
    tokens: findPhrases(glossary, flat.text, [...flat.barriers]).map(m => ({
      start: m.start, end: m.end, text: glossary.rules[m.rule]!.substitution, rule: m.rule
    }))
  }))
}

/** The applied list (`extra.substitutions`, `meta.substitutions`) for the marks protected, in rule order. */
export function appliedSubstitutions (glossary: Glossary, marks: Iterable<Mark>): AppliedSubstitution[] {
  const counts = new Map<number, number>()
  for (const m of marks) if (m.rule !== undefined) counts.set(m.rule, (counts.get(m.rule) ?? 0) + 1)
  return [...counts.keys()].sort((a, b) => a - b).map(rule => ({
    text: glossary.rules[rule]!.text,
    substitution: glossary.rules[rule]!.substitution,
    count: counts.get(rule)!
  }))
}

/** Sums applied lists (bulk, several targets) by (text, substitution), first-seen order. */
export function mergeApplied (lists: Iterable<readonly AppliedSubstitution[]>): AppliedSubstitution[] {
  const merged = new Map<string, AppliedSubstitution>()
  for (const list of lists) {
    for (const a of list) {
      const key = JSON.stringify([a.text, a.substitution])
      const seen = merged.get(key)
      if (seen) seen.count += a.count
      else merged.set(key, { ...a })
    }
  }
  return [...merged.values()]
}

/** Refuses a rule whose `source` or `target` is not a well-formed BCP 47 tag (400 at substitutions[i].source or .target). */
export function checkRuleTags (rules: readonly Substitution[]): void {
  rules.forEach((rule, i) => {
    for (const field of ['source', 'target'] as const) {
      const tag = rule[field]
      if (tag !== undefined && tag !== '') canonicalTag(tag, ['substitutions', i, field])
    }
  })
}
