/**
 * A Hunspell spell checker that strips affixes at lookup time, as Hunspell itself does.
 *
 * nspell expands every affixed form into memory when it loads: dictionary-fr takes 4.8 s and
 * ~410 MB, dictionary-it and dictionary-pt run for minutes past 1 GB. Here a dictionary costs its
 * stems (in one string, see StemTable) and rules (in typed arrays, see AffixRules) only (all ten:
 * 27 MB of heap and typed arrays, en-GB, en-AU and en-CA sharing en's stems, see StemOverlay; 40 MB
 * with an object per affix rule, fr's and nl's stems two bytes a char and English's four times,
 * 97 MB with a Map of stems), and a word is checked by undoing at most two suffixes and one prefix.
 *
 * Supported: FLAG (char, long, num, UTF-8), PFX/SFX with cross products and continuation classes
 * (two suffixes, or prefix and suffix), CIRCUMFIX, NEEDAFFIX, FORBIDDENWORD, ONLYINCOMPOUND,
 * NOSUGGEST, ICONV (undone on suggestions), TRY, REP. Not compounding: callers treat unknown words
 * that split into known words as correct.
 */

import { createHash } from 'node:crypto'

/** A dictionary stem the checker reached, with its flags (internal chars inside this file, names outside). */
export interface Root {
  stem: string
  flags: string
  /** The suffix rule that produced the word from the stem, if any (outermost). */
  suffix?: { add: string, flag: string }
}

/** A root as callers see it: flags by their names in the .aff file. */
export interface NamedRoot {
  stem: string
  flags: string[]
  suffix?: { add: string, flag: string }
}

/** How a suggestion relates to the misspelling: `strong` ones are the usual slips (swap, doubling, accent, REP table). */
export interface Suggestion {
  word: string
  strong: boolean
}

export interface SpellChecker {
  /** Whether `word` is spelled right as written (case as given). */
  correct: (word: string) => boolean
  /** Dictionary stems `word` is built from (empty when misspelled). */
  roots: (word: string) => NamedRoot[]
  /** Raw flags (by their names in the .aff) of a stem, if the stem is in the dictionary. */
  stemFlags: (stem: string) => string[][] | undefined
  /** Words one edit away (plus REP-table rewrites) that are correct, strong first; at most `limit`. */
  suggest: (word: string, limit?: number) => Suggestion[]
}

type FlagMode = 'char' | 'long' | 'num' | 'utf8'

const YIELD_LINES = 20_000
// letters past the 30 most frequent of a TRY line (œ, ÿ, ñ in French) are rarely the fix; skipping them halves the work
const COMMON_LETTERS = 30

/** What a checker is made of, for a checker of a dictionary that differs from it in a few stems. */
const parts = new WeakMap<SpellChecker, { affHash: string, aff: ParsedAff, stems: Stems }>()

/**
 * Builds a checker from the .aff and .dic texts; parses in slices so a server's other requests keep
 * running. With `base`, a checker of a dictionary with the same .aff and most of the same stems
 * (en for en-GB: 2,627 of 49,601 lines differ), it shares base's rules and stems and keeps only the
 * stems that differ (1.4 MB a variant of English otherwise).
 */
export async function createSpellChecker (affText: string, dicText: string, base?: SpellChecker): Promise<SpellChecker> {
  // a digest, not the text: pt's .aff is 0.9 MB
  const affHash = createHash('sha256').update(affText).digest('hex')
  const shared = base === undefined ? undefined : parts.get(base)
  const same = shared?.affHash === affHash && shared.stems instanceof StemTable ? { aff: shared.aff, stems: shared.stems } : undefined
  const aff = same?.aff ?? parseAff(affText)
  const words: string[] = []
  const flagIds: number[] = []
  const flagSets: string[] = []
  const internedFlags = new Map<string, number>()
  // walk the text line by line without splitting it: a 300k-line array is garbage the heap keeps
  let at = dicText.indexOf('\n') + 1
  for (let count = 1; at > 0 && at < dicText.length; count++) {
    if (count % YIELD_LINES === 0) await new Promise<void>(resolve => setImmediate(resolve))
    let end = dicText.indexOf('\n', at)
    if (end === -1) end = dicText.length
    const line = dicText.slice(at, end)
    at = end + 1
    if (line === '' || line[0] === '\t' || line[0] === ' ' || line[0] === '#') continue
    const [word, rawFlags] = splitDicLine(line)
    if (word === '') continue
    // most stems share a handful of flag sets: convert each raw set once and keep its number
    let id = internedFlags.get(rawFlags)
    if (id === undefined) {
      id = flagSets.push(rawFlags === '' ? '' : aff.toInternal(rawFlags)) - 1
      internedFlags.set(rawFlags, id)
    }
    words.push(word)
    flagIds.push(id)
  }
  const stems = same === undefined ? new StemTable(words, flagIds, flagSets) : new StemOverlay(same.stems, words, flagIds, flagSets)
  const checker = new Checker(aff, stems)
  parts.set(checker, { affHash, aff, stems })
  return checker
}

/** A dictionary's stems: each one's flag sets (internal chars), one string or several in the file's order; undefined when it is not a stem. */
interface Stems {
  get: (stem: string) => string | string[] | undefined
}

/** The flag set of an entry that says its stem is not in the dictionary (flags are chars from U+0100). */
const NOT_A_STEM = '\0'

/** The stems of a dictionary as another's (`base`) but where they differ, kept here. */
class StemOverlay implements Stems {
  readonly #base: StemTable
  /** The entries of the stems whose flag sets differ from base's, and one NOT_A_STEM for each of base's stems not here. */
  readonly #differ: StemTable

  constructor (base: StemTable, words: string[], flagIds: number[], flagSets: string[]) {
    const own = new StemTable(words, flagIds, flagSets)
    const differ: string[] = []
    const differFlags: number[] = []
    for (let i = 0; i < words.length; i++) {
      if (sameFlags(own.get(words[i]!), base.get(words[i]!))) continue
      differ.push(words[i]!)
      differFlags.push(flagIds[i]!)
    }
    for (const stem of new Set(base.stems())) {
      if (own.get(stem) !== undefined) continue
      differ.push(stem)
      differFlags.push(flagSets.length)
    }
    this.#base = base
    // sparse: most stems looked up are not in it, and a miss stops at the first slot
    this.#differ = new StemTable(differ, differFlags, [...flagSets, NOT_A_STEM], 8)
  }

  get (stem: string): string | string[] | undefined {
    const hash = fnv1a(stem)
    const differ = this.#differ.get(stem, hash)
    if (differ === undefined) return this.#base.get(stem, hash)
    return differ === NOT_A_STEM ? undefined : differ
  }
}

function sameFlags (a: string | string[] | undefined, b: string | string[] | undefined): boolean {
  if (typeof a !== 'object' || typeof b !== 'object') return a === b
  return a.length === b.length && a.every((flags, i) => flags === b[i])
}

/**
 * A dictionary's stems and their flag sets, compact: every stem in one string, and numbers in
 * typed arrays (where they start, their flag set, a hash table), instead of a Map of a string
 * per stem (about 100 bytes a stem on the heap; here about 20). Lookups allocate nothing.
 */
class StemTable implements Stems {
  /** The stems of Latin-1 chars, each followed by a newline (no stem holds one): V8 keeps such a string in one byte a char. */
  readonly #text: string
  /** The other stems, after those: one of them (fr's 1ʳᵉ, nl's €) in #text would make it two bytes a char (nl: 3.7 MB, not 1.9). */
  readonly #wide: string
  /** Where entry i starts in #text, or at #text.length + where in #wide; one more entry marks the end. */
  readonly #starts: Uint32Array
  /** Entry i's flag set, by its number in #flagSets. */
  readonly #flags: Uint16Array | Uint32Array
  readonly #flagSets: string[]
  /** Open addressing, two thirds full at most: 1 + the first entry of a stem, 0 for empty. */
  readonly #slots: Uint32Array
  /** The next entry of the same stem (homonyms with other flags: few), by entry. */
  readonly #same = new Map<number, number>()

  /** `room`: slots per entry, at least. */
  constructor (stems: string[], stemFlags: number[], flagSets: string[], room = 1.5) {
    // entries in the file's order, but the Latin-1 stems first (a stem's homonyms keep their order);
    // most dictionaries have no other, and one test of all their stems spares a test a stem
    const all = lines(stems)
    let words = stems
    let flagIds = stemFlags
    let narrow = stems.length
    if (/[^\0-\xff]/.test(all)) {
      const latin: number[] = []
      const other: number[] = []
      for (let i = 0; i < stems.length; i++) (/[^\0-\xff]/.test(stems[i]!) ? other : latin).push(i)
      const order = latin.concat(other)
      narrow = latin.length
      words = order.map(i => stems[i]!)
      flagIds = order.map(i => stemFlags[i]!)
    }
    // else a copy: a slice of a two-byte .dic text is two bytes a char whatever its chars, JSON.parse's string one if it can
    this.#text = narrow === words.length ? all : fresh(lines(words.slice(0, narrow)))
    this.#wide = lines(words.slice(narrow))
    this.#starts = new Uint32Array(words.length + 1)
    let at = 0
    for (let i = 0; i < words.length; i++) {
      this.#starts[i] = at
      at += words[i]!.length + 1
    }
    this.#starts[words.length] = at
    this.#flags = flagSets.length <= 0x10000 ? Uint16Array.from(flagIds) : Uint32Array.from(flagIds)
    this.#flagSets = flagSets
    let size = 1
    while (size < words.length * room) size *= 2
    this.#slots = new Uint32Array(size)
    // the last entry of each stem seen so far, to keep homonyms in the order of the file
    const last = new Map<number, number>()
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!
      const found = this.#find(word)
      if (found === -1) {
        this.#slots[this.#slot(word)] = i + 1
      } else {
        this.#same.set(last.get(found) ?? found, i)
        last.set(found, i)
      }
    }
  }

  /** The stem's flag sets (internal chars): one string, several in the file's order, or undefined when it is not a stem. */
  get (stem: string, hash = fnv1a(stem)): string | string[] | undefined {
    const first = this.#find(stem, hash)
    if (first === -1) return undefined
    if (!this.#same.has(first)) return this.#flagSets[this.#flags[first]!]!
    const out: string[] = []
    for (let i: number | undefined = first; i !== undefined; i = this.#same.get(i)) out.push(this.#flagSets[this.#flags[i]!]!)
    return out
  }

  /** Every entry's stem (a homonym's as often as it is listed). */
  stems (): string[] {
    return [...this.#text.split('\n').slice(0, -1), ...this.#wide.split('\n').slice(0, -1)]
  }

  /** The first entry of `word`, or -1. */
  #find (word: string, hash = fnv1a(word)): number {
    const mask = this.#slots.length - 1
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot]! - 1
      if (entry === -1) return -1
      const start = this.#starts[entry]!
      if (this.#starts[entry + 1]! - start - 1 !== word.length) continue
      if (start < this.#text.length ? this.#text.startsWith(word, start) : this.#wide.startsWith(word, start - this.#text.length)) return entry
    }
  }

  /** The empty slot where `word` (not in the table) goes. */
  #slot (word: string): number {
    const mask = this.#slots.length - 1
    let slot = fnv1a(word) & mask
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask
    return slot
  }
}

/** Each followed by a newline. */
function lines (strings: string[]): string {
  return strings.length === 0 ? '' : strings.join('\n') + '\n'
}

/** FNV-1a over the UTF-16 units. */
function fnv1a (word: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** The word and its flags; `\/` escapes a slash inside the word; morphology after whitespace is dropped. */
function splitDicLine (line: string): [string, string] {
  let end = line.length
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (c === ' ' || c === '\t' || c === '\r') { end = i; break }
  }
  let slash = -1
  for (let i = 0; i < end; i++) {
    if (line[i] === '/' && i > 0 && line[i - 1] !== '\\') { slash = i; break }
  }
  const word = slash === -1 ? line.slice(0, end) : line.slice(0, slash)
  return [word.includes('\\/') ? word.replaceAll('\\/', '/') : word, slash === -1 ? '' : line.slice(slash + 1, end)]
}

interface ParsedAff {
  toInternal: (raw: string) => string
  fromInternal: (flags: string) => string[]
  rules: AffixRules
  prefixes: AffixIndex
  suffixes: AffixIndex
  /** For a suffix flag: the suffixes that list it in their continuation class (it may sit on top of them). */
  inner: Map<string, AffixIndex>
  forbidden: string
  needAffix: string
  onlyInCompound: string
  noSuggest: string
  try: string
  rep: Array<[RegExp | string, string, 'start' | 'end' | 'any']>
  iconv: Array<[string, string]>
  /** OCONV pairs reversed to undo ICONV on suggestions: only those that turn one char into letters ("ĳ" -> "ij"). */
  oconv: Array<[string, string]>
}

/**
 * A copy of `s` of its own: V8 keeps a piece of 13 characters or more of a string as a slice of it,
 * so one kept affix would keep the whole .aff text (0.9 MB for pt). The copy is one byte a char
 * when all its chars are Latin-1, even where `s` is two (a piece of a text with a "€").
 */
const fresh = (s: string): string => s.length < 13 ? s : JSON.parse(JSON.stringify(s)) as string

function parseAff (text: string): ParsedAff {
  let mode: FlagMode = 'char'
  const names = new Map<string, string>()
  const reverse: string[] = []
  // every flag becomes one UTF-16 unit below the surrogates, so a stem's flags are a plain string
  const internal = (name: string): string => {
    let c = names.get(name)
    if (c === undefined) {
      c = String.fromCharCode(0x100 + reverse.length)
      names.set(name, c)
      reverse.push(name)
    }
    return c
  }
  const split = (raw: string): string[] => {
    if (mode === 'long') {
      const out: string[] = []
      for (let i = 0; i + 1 < raw.length; i += 2) out.push(raw.slice(i, i + 2))
      return out
    }
    if (mode === 'num') return raw.split(',').filter(Boolean)
    return Array.from(raw)
  }
  const toInternal = (raw: string): string => split(raw).map(internal).join('')

  const pending: Array<{ kind: 'PFX' | 'SFX', flag: string, strip: string, add: string, cont: string, cond: string, cross: boolean }> = []
  const headers = new Map<string, { cross: boolean, left: number }>()
  const special = { forbidden: '', needAffix: '', onlyInCompound: '', noSuggest: '', circumfix: '' }
  let tryChars = ''
  const rep: ParsedAff['rep'] = []
  const iconv: Array<[string, string]> = []

  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim()
    if (line === '' || line[0] === '#') continue
    const f = line.split(/\s+/)
    const key = f[0]!
    if (key === 'FLAG') {
      const m = f[1]
      mode = m === 'long' ? 'long' : m === 'num' ? 'num' : m === 'UTF-8' ? 'utf8' : 'char'
    } else if (key === 'TRY' && f[1] !== undefined) {
      tryChars = fresh(f[1])
    } else if (key === 'FORBIDDENWORD' && f[1] !== undefined) {
      special.forbidden = f[1]
    } else if (key === 'NEEDAFFIX' && f[1] !== undefined) {
      special.needAffix = f[1]
    } else if (key === 'ONLYINCOMPOUND' && f[1] !== undefined) {
      special.onlyInCompound = f[1]
    } else if (key === 'NOSUGGEST' && f[1] !== undefined) {
      special.noSuggest = f[1]
    } else if (key === 'CIRCUMFIX' && f[1] !== undefined) {
      special.circumfix = f[1]
    } else if (key === 'REP' && f.length >= 3) {
      const from = f[1]!
      const to = f[2]!.replaceAll('_', ' ')
      if (from.includes('_') || to.includes(' ')) continue
      const anchor = from.startsWith('^') ? 'start' : from.endsWith('$') ? 'end' : 'any'
      rep.push([fresh(from.replace(/^\^|\$$/g, '')), fresh(to), anchor])
    } else if (key === 'ICONV' && f.length >= 3) {
      iconv.push([fresh(f[1]!), fresh(f[2]!)])
    } else if ((key === 'PFX' || key === 'SFX') && f.length >= 4) {
      const flag = f[1]!
      const head = headers.get(key + flag)
      if (head === undefined || head.left === 0) {
        headers.set(key + flag, { cross: f[2] === 'Y', left: Number(f[3]) || 0 })
        continue
      }
      head.left--
      const [add, cont = ''] = f[3]!.split('/') as [string, string?]
      pending.push({ kind: key, flag, strip: f[2] === '0' ? '' : f[2]!, add: add === '0' ? '' : add, cont, cond: f[4] ?? '.', cross: head.cross })
    }
  }

  const circumfix = special.circumfix === '' ? '' : toInternal(special.circumfix)
  const needAffix = special.needAffix === '' ? '' : toInternal(special.needAffix)
  const rules = new AffixRules(pending.map(p => {
    const cont = p.cont === '' ? '' : toInternal(p.cont)
    return {
      flag: internal(p.flag),
      strip: p.strip,
      add: p.add,
      cont,
      condition: p.cond,
      atEnd: p.kind === 'SFX',
      cross: p.cross,
      circumfix: circumfix !== '' && cont.includes(circumfix),
      needAffix: needAffix !== '' && cont.includes(needAffix)
    }
  }))
  // plain loops: a closure here would keep `pending` alive with the returned functions
  const prefixNumbers: number[] = []
  const suffixNumbers: number[] = []
  for (let i = 0; i < pending.length; i++) (pending[i]!.kind === 'PFX' ? prefixNumbers : suffixNumbers).push(i)
  const inner: ParsedAff['inner'] = new Map()
  for (const c of new Set(suffixNumbers.flatMap(i => Array.from(rules.cont(i))))) {
    inner.set(c, new AffixIndex(rules, suffixNumbers.filter(i => rules.cont(i).includes(c))))
  }

  return {
    toInternal,
    fromInternal: flags => Array.from(flags, c => reverse[c.charCodeAt(0) - 0x100] ?? ''),
    rules,
    prefixes: new AffixIndex(rules, prefixNumbers),
    suffixes: new AffixIndex(rules, suffixNumbers),
    inner,
    forbidden: special.forbidden === '' ? '' : toInternal(special.forbidden),
    needAffix,
    onlyInCompound: special.onlyInCompound === '' ? '' : toInternal(special.onlyInCompound),
    noSuggest: special.noSuggest === '' ? '' : toInternal(special.noSuggest),
    try: tryChars,
    rep,
    iconv,
    // OCONV turns ' into ’ (fr) or ij into ĳ (nl); the caller keeps the writer's apostrophes, so
    // only undo ICONV's letter rewrites (not its Unicode composition): suggestions come back as the text was written
    oconv: iconv.filter(([from, to]) => Array.from(to).length === 1 && Array.from(from).length > 1 && from.normalize('NFC') !== to).map(([from, to]) => [to, from])
  }
}

/** A PFX or SFX line: its flag and continuation flags as internal chars. */
interface AffixRule {
  flag: string
  strip: string
  add: string
  cont: string
  condition: string
  /** A suffix's condition tests the end of the stem, a prefix's its start. */
  atEnd: boolean
  /** Whether it combines with an affix of the other kind on the same stem. */
  cross: boolean
  circumfix: boolean
  needAffix: boolean
}

const CROSS = 1
const CIRCUMFIX = 2
const NEED_AFFIX = 4

/**
 * Every PFX and SFX rule by its number, in typed arrays: its strings and condition by their number
 * in a list where each is once. About 12 bytes a rule, where an object with strings of its own took
 * about 150 (pt has 25,770 suffix rules, fr 5,343).
 */
class AffixRules {
  /** Flags, strips, adds and continuation classes, each once. */
  readonly #strings: string[] = []
  /** Four numbers a rule in #strings: its flag, strip, add and continuation flags. */
  readonly #fields: Uint16Array | Uint32Array
  /** CROSS, CIRCUMFIX and NEED_AFFIX bits. */
  readonly #bits: Uint8Array
  readonly #condition: Uint16Array | Uint32Array
  /** Rules share conditions ("[^aeiou]y" hundreds of times in pt): one test each. */
  readonly #conditions: Array<(stem: string) => boolean> = []

  constructor (rules: AffixRule[]) {
    const strings = new Map<string, number>()
    const conditions = new Map<string, number>()
    const string = (s: string): number => {
      let n = strings.get(s)
      if (n === undefined) {
        // fresh: a kept slice of the .aff text would keep all of it
        n = this.#strings.push(fresh(s)) - 1
        strings.set(s, n)
      }
      return n
    }
    const fields = rules.flatMap(r => [string(r.flag), string(r.strip), string(r.add), string(r.cont)])
    const condition = rules.map(r => {
      const key = (r.atEnd ? '$' : '^') + r.condition
      let n = conditions.get(key)
      if (n === undefined) conditions.set(key, n = this.#conditions.push(compileCondition(fresh(r.condition), r.atEnd)) - 1)
      return n
    })
    this.#fields = this.#strings.length <= 0x10000 ? Uint16Array.from(fields) : Uint32Array.from(fields)
    this.#condition = this.#conditions.length <= 0x10000 ? Uint16Array.from(condition) : Uint32Array.from(condition)
    this.#bits = Uint8Array.from(rules, r => (r.cross ? CROSS : 0) | (r.circumfix ? CIRCUMFIX : 0) | (r.needAffix ? NEED_AFFIX : 0))
  }

  flag (rule: number): string { return this.#strings[this.#fields[rule * 4]!]! }
  strip (rule: number): string { return this.#strings[this.#fields[rule * 4 + 1]!]! }
  add (rule: number): string { return this.#strings[this.#fields[rule * 4 + 2]!]! }
  /** Continuation flags: affixes allowed on top of this one. */
  cont (rule: number): string { return this.#strings[this.#fields[rule * 4 + 3]!]! }
  cross (rule: number): boolean { return (this.#bits[rule]! & CROSS) !== 0 }
  circumfix (rule: number): boolean { return (this.#bits[rule]! & CIRCUMFIX) !== 0 }
  needAffix (rule: number): boolean { return (this.#bits[rule]! & NEED_AFFIX) !== 0 }
  /** Whether the rule's condition holds for `stem`. */
  fits (rule: number, stem: string): boolean { return this.#conditions[this.#condition[rule]!]!(stem) }
}

/**
 * Some rules by what they add: the rules of one group (same add, in the file's order) are
 * `rules[starts[g]]` up to `rules[starts[g + 1]]`, no array per group.
 */
class AffixIndex {
  /** Rule numbers, grouped by add. */
  readonly rules: Uint16Array | Uint32Array
  readonly starts: Uint32Array
  /** The longest add. */
  readonly maxAdd: number
  readonly #groups = new Map<string, number>()

  constructor (all: AffixRules, numbers: number[]) {
    const byAdd = new Map<string, number[]>()
    for (const n of numbers) {
      const add = all.add(n)
      const same = byAdd.get(add)
      if (same === undefined) byAdd.set(add, [n])
      else same.push(n)
    }
    const grouped = [...byAdd.values()].flat()
    this.rules = grouped.every(n => n < 0x10000) ? Uint16Array.from(grouped) : Uint32Array.from(grouped)
    this.starts = new Uint32Array(byAdd.size + 1)
    let at = 0
    let maxAdd = 0
    for (const [add, same] of byAdd) {
      this.starts[this.#groups.size] = at
      this.#groups.set(add, this.#groups.size)
      at += same.length
      maxAdd = Math.max(maxAdd, add.length)
    }
    this.starts[byAdd.size] = at
    this.maxAdd = maxAdd
  }

  /** The group of rules that add `add`, or -1. */
  group (add: string): number {
    return this.#groups.get(add) ?? -1
  }
}

/**
 * A Hunspell condition ("[^aeiou]y", ".", "ing") as a test on the end (suffix) or start (prefix)
 * of a stem. Conditions come from the dictionary files, never from clients.
 */
function compileCondition (cond: string, atEnd: boolean): (stem: string) => boolean {
  if (cond === '.') return () => true
  if (!/[[\].]/.test(cond)) return atEnd ? stem => stem.endsWith(cond) : stem => stem.startsWith(cond)
  let re: RegExp
  try {
    re = new RegExp(atEnd ? `(?:${cond})$` : `^(?:${cond})`, 'u')
  } catch {
    return () => false
  }
  return stem => re.test(stem)
}

class Checker implements SpellChecker {
  readonly #aff: ParsedAff
  readonly #entries: Stems
  /** What an edit may insert or substitute: TRY's most frequent lowercase letters (and the apostrophe). */
  readonly #alphabet: string[]
  /** Every lowercase letter of TRY by its base letter ("e" -> é, è, ê, ë): accent slips. */
  readonly #variants: Map<string, string[]>

  constructor (aff: ParsedAff, entries: Stems) {
    this.#aff = aff
    this.#entries = entries
    // letters and the apostrophe from TRY: what an edit may insert or substitute
    const lower = Array.from(new Set(Array.from(aff.try).filter(c => /\p{L}/u.test(c) && c === c.toLowerCase())))
    this.#alphabet = lower.slice(0, COMMON_LETTERS)
    if (aff.try.includes("'")) this.#alphabet.push("'")
    this.#variants = new Map()
    for (const c of lower) {
      const base = baseLetter(c)
      const list = this.#variants.get(base)
      if (list === undefined) this.#variants.set(base, [c])
      else list.push(c)
    }
  }

  correct (word: string): boolean {
    return this.#check(this.#convert(word), true) !== undefined
  }

  roots (word: string): NamedRoot[] {
    const out: Root[] = []
    this.#check(this.#convert(word), false, out)
    const name = (flag: string): string => this.#aff.fromInternal(flag)[0] ?? ''
    return out.map(r => ({
      stem: r.stem,
      flags: this.#aff.fromInternal(r.flags),
      ...(r.suffix === undefined ? {} : { suffix: { add: r.suffix.add, flag: name(r.suffix.flag) } })
    }))
  }

  stemFlags (stem: string): string[][] | undefined {
    const e = this.#entries.get(stem)
    if (e === undefined) return undefined
    return (typeof e === 'string' ? [e] : e).map(f => this.#aff.fromInternal(f))
  }

  suggest (word: string, limit = 8): Suggestion[] {
    const w = this.#convert(word)
    const found = new Map<string, boolean>()
    const valid = new Map<string, boolean>()
    const consider = (candidate: string, strong: boolean): void => {
      if (candidate === w || candidate === '' || found.get(candidate) === true) return
      let ok = valid.get(candidate)
      if (ok === undefined) {
        const root = this.#check(candidate, true)
        ok = root !== undefined && !(this.#aff.noSuggest !== '' && root.flags.includes(this.#aff.noSuggest))
        valid.set(candidate, ok)
      }
      if (ok) found.set(candidate, strong || (found.get(candidate) ?? false))
    }
    const chars = Array.from(w)
    const n = chars.length
    const join = (a: number, mid: string, b: number): string => chars.slice(0, a).join('') + mid + chars.slice(b).join('')
    for (const [from, to, anchor] of this.#aff.rep) {
      const f = from as string
      if (anchor === 'start') { if (w.startsWith(f)) consider(to + w.slice(f.length), true); continue }
      if (anchor === 'end') { if (w.endsWith(f)) consider(w.slice(0, w.length - f.length) + to, true); continue }
      for (let at = w.indexOf(f); at !== -1; at = w.indexOf(f, at + 1)) consider(w.slice(0, at) + to + w.slice(at + f.length), true)
    }
    for (let i = 0; i + 1 < n; i++) {
      if (chars[i] !== chars[i + 1]) consider(join(i, chars[i + 1]! + chars[i]!, i + 2), true)
    }
    for (let i = 0; i < n; i++) {
      const doubled = (i > 0 && chars[i - 1] === chars[i]) || (i + 1 < n && chars[i + 1] === chars[i])
      consider(join(i, '', i + 1), doubled)
    }
    for (let i = 0; i <= n; i++) {
      for (const c of this.#alphabet) {
        const doubling = chars[i - 1] === c || chars[i] === c
        consider(join(i, c, i), doubling)
      }
    }
    for (let i = 0; i < n; i++) {
      const base = baseLetter(chars[i]!)
      for (const c of this.#variants.get(base) ?? []) if (c !== chars[i]) consider(join(i, c, i + 1), true)
      for (const c of this.#alphabet) if (c !== chars[i] && baseLetter(c) !== base) consider(join(i, c, i + 1), false)
    }
    const out: Suggestion[] = []
    for (const [candidate, strong] of found) out.push({ word: this.#output(candidate), strong })
    out.sort((a, b) => Number(b.strong) - Number(a.strong))
    return out.slice(0, limit)
  }

  #output (word: string): string {
    let w = word
    for (const [from, to] of this.#aff.oconv) if (w.includes(from)) w = w.replaceAll(from, to)
    return w
  }

  #convert (word: string): string {
    let w = word.normalize('NFC')
    for (const [from, to] of this.#aff.iconv) if (w.includes(from)) w = w.replaceAll(from, to)
    return w
  }

  /** The first of `stem`'s entries usable as a word base (not forbidden, not compound-only) whose flags pass `test`. */
  #flagsOf (stem: string, test: (flags: string) => boolean): string | undefined {
    return this.#usable(this.#entries.get(stem), test)
  }

  /** The first of a stem's flag sets `e` usable as a word base (as #flagsOf). */
  #usable (e: string | string[] | undefined, test: (flags: string) => boolean): string | undefined {
    if (e === undefined) return undefined
    const { forbidden, onlyInCompound } = this.#aff
    const usable = (f: string): boolean => !(forbidden !== '' && f.includes(forbidden)) && !(onlyInCompound !== '' && f.includes(onlyInCompound)) && test(f)
    if (typeof e === 'string') return usable(e) ? e : undefined
    return e.find(usable)
  }

  /** Whether a stem's flag sets `e` forbid it. */
  #forbidden (e: string | string[] | undefined): boolean {
    const { forbidden } = this.#aff
    if (e === undefined || forbidden === '') return false
    return typeof e === 'string' ? e.includes(forbidden) : e.some(f => f.includes(forbidden))
  }

  /** The first root (or every root into `all`) that makes `word` a valid form. */
  #check (word: string, first: boolean, all?: Root[]): Root | undefined {
    if (word === '') return undefined
    // the word's own entries, looked up once for both questions
    const own = this.#entries.get(word)
    if (this.#forbidden(own)) return undefined
    const { needAffix, rules, suffixes, prefixes, inner } = this.#aff
    let result: Root | undefined
    const hit = (root: Root): boolean => {
      all?.push(root)
      result ??= root
      return first
    }
    const direct = this.#usable(own, f => !(needAffix !== '' && f.includes(needAffix)))
    if (direct !== undefined && hit({ stem: word, flags: direct })) return result

    // one suffix, or two when the inner one lists the outer one in its continuation class
    const top = Math.min(suffixes.maxAdd, word.length)
    for (let len = 0; len <= top; len++) {
      const group = suffixes.group(word.slice(word.length - len))
      if (group === -1) continue
      const base = word.slice(0, word.length - len)
      for (let k = suffixes.starts[group]!; k < suffixes.starts[group + 1]!; k++) {
        const s = suffixes.rules[k]!
        const stem = base + rules.strip(s)
        if (stem === '' || !rules.fits(s, stem)) continue
        const flag = rules.flag(s)
        if (!rules.circumfix(s) && !rules.needAffix(s)) {
          const flags = this.#flagsOf(stem, f => f.includes(flag))
          if (flags !== undefined && hit({ stem, flags, suffix: { add: rules.add(s), flag } })) return result
        }
        const under = inner.get(flag)
        if (under === undefined || rules.needAffix(s)) continue
        const top2 = Math.min(under.maxAdd, stem.length)
        for (let len2 = 0; len2 <= top2; len2++) {
          const group2 = under.group(stem.slice(stem.length - len2))
          if (group2 === -1) continue
          const base2 = stem.slice(0, stem.length - len2)
          for (let k2 = under.starts[group2]!; k2 < under.starts[group2 + 1]!; k2++) {
            const s1 = under.rules[k2]!
            const root = base2 + rules.strip(s1)
            if (root === '' || rules.circumfix(s1) || !rules.fits(s1, root)) continue
            const flag1 = rules.flag(s1)
            const flags = this.#flagsOf(root, f => f.includes(flag1))
            if (flags !== undefined && hit({ stem: root, flags, suffix: { add: rules.add(s), flag } })) return result
          }
        }
      }
    }

    // a prefix, alone or with a suffix (cross product, or one allowed by the other's continuation class)
    const ptop = Math.min(prefixes.maxAdd, word.length)
    for (let plen = 1; plen <= ptop; plen++) {
      const pgroup = prefixes.group(word.slice(0, plen))
      if (pgroup === -1) continue
      const after = word.slice(plen)
      for (let pk = prefixes.starts[pgroup]!; pk < prefixes.starts[pgroup + 1]!; pk++) {
        const p = prefixes.rules[pk]!
        const rest = rules.strip(p) + after
        if (rest === '' || !rules.fits(p, rest)) continue
        const pflag = rules.flag(p)
        const pcircumfix = rules.circumfix(p)
        if (!pcircumfix && !rules.needAffix(p)) {
          const flags = this.#flagsOf(rest, f => f.includes(pflag))
          if (flags !== undefined && hit({ stem: rest, flags })) return result
        }
        const stop = Math.min(suffixes.maxAdd, rest.length)
        for (let len = 0; len <= stop; len++) {
          const group = suffixes.group(rest.slice(rest.length - len))
          if (group === -1) continue
          const base = rest.slice(0, rest.length - len)
          for (let k = suffixes.starts[group]!; k < suffixes.starts[group + 1]!; k++) {
            const s = suffixes.rules[k]!
            if (rules.circumfix(s) !== pcircumfix) continue
            const stem = base + rules.strip(s)
            if (stem === '' || !rules.fits(s, stem)) continue
            const flag = rules.flag(s)
            const byCross = rules.cross(p) && rules.cross(s)
            const sAllowsP = rules.cont(s).includes(pflag)
            const pAllowsS = rules.cont(p).includes(flag)
            const flags = this.#flagsOf(stem, f => f.includes(flag) && (sAllowsP || ((byCross || pAllowsS) && f.includes(pflag))))
            if (flags !== undefined && hit({ stem, flags, suffix: { add: rules.add(s), flag } })) return result
          }
        }
      }
    }
    return result
  }
}

/** The letter without its accents ("é" -> "e"). */
function baseLetter (c: string): string {
  return c.normalize('NFD')[0] ?? c
}
