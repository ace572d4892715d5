/**
 * Spelling: a misspelled word is replaced only when the dictionary offers one clear fix, and only
 * words that look like plain words are checked (no digits, acronyms, names it does not know,
 * URLs, e-mail addresses, handles, file names or code: those tokens are guarded).
 */
import type { SpellChecker, Suggestion } from '../../lib/hunspell/index.js'
import { capitalize, matchCase, type Change, type Token } from './text.js'

export interface Speller {
  /** The base language ("en"): its rules and its letter case. */
  language: string
  /** The dictionary ("en", "en-GB", "fr"). */
  dictionary: string
  checker: SpellChecker
  /**
   * Other dictionaries of the language whose words are valid too, never corrected (American
   * spellings in British text: "organize" is Oxford spelling, not a mistake).
   */
  also?: readonly SpellChecker[]
  /** Languages that glue words together (de, nl): an unknown word made of known words is fine. */
  compounds: boolean
  /** Swiss German (de-CH, de-LI): no ß, ss stands for it everywhere; a fix is written with ss. */
  noSharpS?: boolean
  /** Suggestions already worked out, by word (bounded). */
  cache: Map<string, Suggestion[]>
}

/** How many words one edit may look up fixes for (a search costs 1-20 ms), and until when; the rest stay as written. */
export interface SpellBudget {
  suggestions: number
  /** Search time left, in ms (time spent searching, not waiting). */
  ms: number
}

const CACHE_SIZE = 5_000
const MAX_WORD = 40

/** Changes fixing confident misspellings among `tokens`. */
export function spellingChanges (tokens: readonly Token[], speller: Speller, budget: SpellBudget, apostrophe: string): Change[] {
  const changes: Change[] = []
  const locale = speller.language
  for (const t of tokens) {
    if (t.kind !== 'word' || t.guarded) continue
    const target = fixableTail(t.text, speller)
    if (target === undefined) continue
    const { offset } = target
    // checked composed (the dictionaries are): a decomposed é is still é, and the change spans what was written
    const text = target.text.normalize('NFC')
    const chars = Array.from(text)
    if (chars.length < 3 || chars.length > MAX_WORD || /\p{N}/u.test(text) || !VOWEL.test(text)) continue
    const lower = text.toLocaleLowerCase(locale)
    if (text !== lower) {
      // only a first capital, and only where a sentence or line starts: elsewhere it is a name
      if (text.slice(chars[0]!.length) !== lower.slice(chars[0]!.length)) continue
      if (offset > 0 || !(t.sentenceStart || t.lineStart)) continue
    }
    const { checker } = speller
    const known = (c: SpellChecker): boolean => c.correct(text) || (text !== lower && c.correct(lower))
    if (known(checker) || speller.also?.some(known) === true) continue
    const german = speller.language === 'de' ? germanReading(lower, text !== lower, speller) : undefined
    if (german === 'leave') continue
    let fix = german?.fix
    if (fix === undefined) {
      if (speller.compounds && madeOfKnownWords(lower, speller)) continue
      if (speller.language === 'en' && ((speller.dictionary === 'en' && isBritish(lower, checker)) || isPlural(lower, checker))) continue
      fix = confidentFix(lower, speller, budget)
      if (fix === undefined) continue
      // a capitalised word at a sentence's start may be a name: "Salman" is no "Salmon", "Restify" no
      // "Rectify"; a letter left out ("Libary") or a strong fix (a swap, a doubling, an accent) is made
      if (text !== lower && !isStrong(lower, fix, speller) && !oneLetterLeftOut(lower, fix)) continue
      // an English word written with accents the dictionary lacks is a loanword spelt in full ("jalapeño", "fiancée")
      if (speller.language === 'en' && fix === bare(lower)) continue
    }
    const written = apostrophe === '’' ? fix.replaceAll("'", '’') : fix
    const replacement = matchCase(text, written, locale)
    const start = t.start + offset
    const end = start + target.text.length
    changes.push({ start, end, replacement, note: { original: text, replacement, type: 'grammar', reason: `Misspelling of "${replacement}"` } })
  }
  return changes
}

/** Words of a text `spellsAs` reads at most (it is asked of short texts; a long one is judged by its start). */
const SPELLS_AS_WORDS = 200

/**
 * Whether `tokens` spell as the speller's language: every plain word is in its dictionaries or a
 * misspelling with one clear fix ("teh"), and at least half of them are in as written.
 */
export function spellsAs (tokens: readonly Token[], speller: Speller, budget: SpellBudget): boolean {
  let words = 0
  let known = 0
  for (const t of tokens) {
    if (t.kind !== 'word' || t.guarded || /\p{N}/u.test(t.text)) continue
    if (++words > SPELLS_AS_WORDS) break
    const target = fixableTail(t.text, speller)
    if (target === undefined) {
      known++
      continue
    }
    const text = target.text.normalize('NFC')
    const lower = text.toLocaleLowerCase(speller.language)
    const inDictionary = (c: SpellChecker): boolean => c.correct(text) || c.correct(lower)
    const german = speller.language === 'de' ? germanReading(lower, text !== lower, speller) : undefined
    if (inDictionary(speller.checker) || speller.also?.some(inDictionary) === true || german === 'leave' ||
      (speller.language === 'en' && isPlural(lower, speller.checker))) known++
    else if (german === undefined && confidentFix(lower, speller, budget) === undefined) return false
  }
  return words > 0 && known * 2 >= Math.min(words, SPELLS_AS_WORDS)
}

/**
 * The part of a word to check: the whole word; an English possessive's stem ("centre's": "centre",
 * so a fix keeps the "'s"); in French and Italian the word after an elision ("l'arbre",
 * "dell'anno") when the whole is not in the dictionary as written.
 */
function fixableTail (word: string, speller: Speller): { text: string, offset: number } | undefined {
  const cut = Math.max(word.lastIndexOf("'"), word.lastIndexOf('’'))
  if (cut === -1) return { text: word, offset: 0 }
  if (speller.checker.correct(word)) return undefined
  if (speller.language === 'en' && /^['’][sS]$/.test(word.slice(cut))) return { text: word.slice(0, cut), offset: 0 }
  if (speller.language !== 'fr' && speller.language !== 'it') return { text: word, offset: 0 }
  const head = word.slice(0, cut)
  if (Array.from(head).length > 6) return undefined
  return { text: word.slice(cut + 1), offset: cut + 1 }
}

/**
 * The one clear suggestion: in English the only strong one (swap, doubling, accent, REP table),
 * else the only one; elsewhere a usual slip's (typicalSlip). Words under 5 letters are fixed only into the commonest English words ("teh" -> "the"):
 * short unknown words are mostly abbreviations ("prev", "eval"). A fix keeps the first letter (the
 * one writers get right; "async" is not "sync"), does not drop a plural -s ("encodings") and adds
 * no possessive ("syntaxes" is not "syntax's").
 */
function confidentFix (word: string, speller: Speller, budget: SpellBudget): string | undefined {
  let suggestions = speller.cache.get(word)
  if (suggestions === undefined) {
    if (budget.suggestions <= 0 || budget.ms <= 0) return undefined
    budget.suggestions--
    const started = performance.now()
    suggestions = speller.checker.suggest(word, 16)
    budget.ms -= performance.now() - started
    if (speller.cache.size >= CACHE_SIZE) speller.cache.delete(speller.cache.keys().next().value!)
    speller.cache.set(word, suggestions)
  }
  const candidates = spelt(word, suggestions, speller)
  const short = Array.from(word).length < 5
  // outside English a short unknown word is fixed only when it lacks an accent and nothing else ("tres" -> "très")
  if (short && speller.language !== 'en') return accentOnly(word, candidates)
  const plausible = candidates.filter(s =>
    // names and acronyms in the dictionary ("Libra", "NASA") are not fixes for a lowercase word
    s.word === s.word.toLocaleLowerCase(speller.language) &&
    keepsFirstLetter(word, s.word) &&
    s.word !== word.replace(/s$/, '') &&
    !(s.word.endsWith("'s") && !word.includes("'")) &&
    (!short || COMMON_SHORT_WORDS.has(s.word)))
  if (speller.language !== 'en') return typicalSlip(word, plausible)
  const strong = plausible.filter(s => s.strong)
  if (strong.length === 1) return strong[0]!.word
  if (strong.length === 0 && plausible.length === 1 && !short) return plausible[0]!.word
  return undefined
}

/**
 * Outside English a dictionary lacks many everyday words (loans, slang, names: "golazo", "liken",
 * "taggare", "mbappé") that sit one letter from one of its own, so a fix is made only for a
 * writer's usual slip: the one suggestion that adds no more than accents ("informacao"), else the
 * only suggestion at all when it is a swap, a doubling, a REP-table rewrite, a vowel left out or
 * added ("bibloteca", "pleuvoire") or a digraph's letter left out ("glücklih"); never a consonant added, dropped or changed ("golpazo",
 * "linken", "targare", "mappé"), nor one of several ("porfa": "profa", "porra", "porta").
 */
function typicalSlip (word: string, candidates: readonly Suggestion[]): string | undefined {
  const accented = candidates.filter(s => bare(s.word) === bare(word))
  if (accented.length === 1) return accented[0]!.word
  if (candidates.length !== 1) return undefined
  const [only] = candidates
  return only!.strong || vowelOrDoubling(word, only!.word) ? only!.word : undefined
}

/** Letter pairs written for one sound, whose second letter a writer leaves out ("glücklih", "zurük"): c, h or k added there is a slip. */
const DIGRAPHS = new Set(['ch', 'ck', 'sh', 'th', 'ph', 'gh'])

/**
 * Whether `a` and `b` differ by one vowel, one doubled letter (ß read as ss: "schlieslich",
 * "schließlich") or the letter that completes a digraph ("glücklih", "glücklich").
 */
function vowelOrDoubling (a: string, b: string): boolean {
  const [short, long] = [a, b].map(w => Array.from(bare(w).replaceAll('ß', 'ss'))).sort((x, y) => x.length - y.length) as [string[], string[]]
  if (long.length !== short.length + 1) return false
  let i = 0
  while (i < short.length && short[i] === long[i]) i++
  if (short.slice(i).join('') !== long.slice(i + 1).join('')) return false
  const added = long[i]!
  return VOWEL.test(added) || long[i - 1] === added || long[i + 1] === added ||
    DIGRAPHS.has(`${long[i - 1] ?? ''}${added}`.toLowerCase()) || DIGRAPHS.has(`${added}${long[i + 1] ?? ''}`.toLowerCase())
}

/** Whether `fix` is among the dictionary's strong suggestions for `word` (as worked out by confidentFix). */
function isStrong (word: string, fix: string, speller: Speller): boolean {
  return spelt(word, speller.cache.get(word) ?? [], speller).some(s => s.word === fix && s.strong)
}

/** Suggestions as the speller writes them: with ss for ß in Swiss German ("schlieslich": "schliesslich"), once each. */
function spelt (word: string, suggestions: readonly Suggestion[], speller: Speller): readonly Suggestion[] {
  if (speller.noSharpS !== true) return suggestions
  const out = new Map<string, boolean>()
  for (const s of suggestions) {
    const swiss = s.word.replaceAll('ß', 'ss')
    if (swiss !== word) out.set(swiss, s.strong || (out.get(swiss) ?? false))
  }
  return Array.from(out, ([w, strong]) => ({ word: w, strong }))
}

// German spellings of a letter a writer may use: ss for ß (Swiss spelling, a keyboard without ß), ß
// for ss (the spelling before 1996: "daß"), ae, oe, ue for ä, ö, ü (a keyboard without them)
const GERMAN_VARIANTS: Record<string, string> = { ss: 'ß', ß: 'ss', ae: 'ä', oe: 'ö', ue: 'ü' }
const GERMAN_SITES = /ss|ß|ae|oe|ue/g
// a word with more such places is read as written
const MAX_SITES = 4

/**
 * The spellings of `word` with one of its places rewritten, or all of them ("gruesse": "grüsse",
 * "grueße", "grüße"; not every subset, as a German lookup may try compounds): `checked` for the
 * dictionary, `written` as the speller writes it (Swiss German keeps ss where the dictionary has ß).
 */
function germanVariants (word: string, noSharpS: boolean): Array<{ checked: string, written: string }> {
  const found = Array.from(word.matchAll(GERMAN_SITES))
  if (found.length === 0 || found.length > MAX_SITES) return []
  const masks = found.map((_, i) => 1 << i)
  if (found.length > 1) masks.push((1 << found.length) - 1)
  return masks.map(mask => {
    let checked = ''
    let written = ''
    let at = 0
    found.forEach((m, i) => {
      const from = m[0]
      const to = ((mask >> i) & 1) === 1 ? GERMAN_VARIANTS[from]! : from
      checked += word.slice(at, m.index) + to
      written += word.slice(at, m.index) + (noSharpS && from === 'ss' ? from : to)
      at = m.index + from.length
    })
    return { checked: checked + word.slice(at), written: written + word.slice(at) }
  })
}

/**
 * A German word the dictionary lacks as written, read before any suggestion is sought: 'leave' for
 * a noun written in lower case ("farbe", "strasse": words, not misspellings of "färbe", "stresse"),
 * a Swiss spelling of a known word ("gross"), or one with several readings; the fix when exactly
 * one systematic variant is a word ("gross" -> "groß", "daß" -> "dass", "schoen" -> "schön"; a
 * word capitalised at a sentence's start may become a noun: "Strasse" -> "Straße"); undefined when
 * none is.
 */
function germanReading (lower: string, capitalised: boolean, speller: Speller): 'leave' | { fix: string } | undefined {
  const { checker, language } = speller
  const isNoun = (w: string): boolean => checker.correct(capitalize(w, language))
  if (!capitalised && isNoun(lower)) return 'leave'
  const words = new Set<string>()
  let noun = false
  for (const { checked, written } of germanVariants(lower, speller.noSharpS === true)) {
    if (checker.correct(checked)) words.add(written)
    else if (isNoun(checked)) {
      if (capitalised) words.add(written)
      noun = true
    }
  }
  if (words.has(lower) || (words.size === 0 && noun) || words.size > 1) return 'leave'
  const [fix] = words
  return fix === undefined ? undefined : { fix }
}

/** Whether `fix` is `word` with one letter more. */
function oneLetterLeftOut (word: string, fix: string): boolean {
  if (fix.length !== word.length + 1) return false
  let i = 0
  while (i < word.length && word[i] === fix[i]) i++
  return word.slice(i) === fix.slice(i + 1)
}

/** The one lowercase suggestion that is `word` with accents added, if there is exactly one. */
function accentOnly (word: string, suggestions: readonly Suggestion[]): string | undefined {
  const fixes = suggestions.filter(s => s.word !== word && s.word === s.word.toLowerCase() && bare(s.word) === word)
  return fixes.length === 1 ? fixes[0]!.word : undefined
}

/** The word without its accents. */
function bare (word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '')
}

/** Whether `fix` starts like `word` (same letter, an accent apart, or its first two letters swapped). */
function keepsFirstLetter (word: string, fix: string): boolean {
  const a = Array.from(word)
  const b = Array.from(fix)
  if (baseLetter(a[0]!) === baseLetter(b[0]!)) return true
  return a[0] === b[1] && a[1] === b[0]
}

function baseLetter (c: string): string {
  return c.normalize('NFD')[0] ?? c
}

const VOWEL = /[aeiouyàáâãäåæèéêëìíîïòóôõöøœùúûüýÿ]/iu

// the commonest short English words: an unknown word of under 5 letters is fixed only into one of these
const COMMON_SHORT_WORDS = new Set([
  'the', 'and', 'that', 'have', 'for', 'not', 'with', 'you', 'this', 'but', 'his', 'from', 'they', 'say', 'her',
  'she', 'will', 'one', 'all', 'would', 'there', 'their', 'what', 'out', 'about', 'who', 'get', 'which', 'when',
  'make', 'can', 'like', 'time', 'just', 'him', 'know', 'take', 'into', 'year', 'your', 'good', 'some', 'could',
  'them', 'see', 'other', 'than', 'then', 'now', 'look', 'only', 'come', 'its', 'over', 'also', 'back', 'after',
  'use', 'two', 'how', 'our', 'work', 'well', 'way', 'even', 'new', 'want', 'any', 'these', 'give', 'day', 'most',
  'are', 'was', 'were', 'been', 'has', 'had', 'does', 'did', 'said', 'each', 'very', 'much', 'many', 'such',
  'here', 'where', 'why', 'off', 'down', 'more', 'must', 'should', 'same', 'own', 'too', 'both', 'few', 'while'
])

// British spellings the American dictionary does not list: behaviour, organise, organisation, analyse, centre, cancelled, targetting, catalogue, licence, programme
const BRITISH: Array<[RegExp, string]> = [
  [/our/g, 'or'], [/is(e|ed|es|ing|ation|ations)$/, 'iz$1'], [/ys(e|ed|es|ing)$/, 'yz$1'], [/tre(s?)$/, 'ter$1'],
  [/([bcdfgklmnprstvz])\1(ed|ing|er|ers)$/, '$1$2'], [/ogue(s?)$/, 'og$1'], [/ence$/, 'ense'], [/mme(s?)$/, 'm$1'], [/ae/g, 'e'], [/oe/g, 'e']
]

/** Whether `word` is the plural of a known word the dictionary does not flag for it ("schemas", "encodings"). */
function isPlural (word: string, checker: SpellChecker): boolean {
  if (!word.endsWith('s') || word.endsWith('ss')) return false
  return checker.correct(word.slice(0, -1)) || (word.endsWith('es') && checker.correct(word.slice(0, -2)))
}

/** Whether `word` is a British spelling of a word the (American) dictionary knows. */
function isBritish (word: string, checker: SpellChecker): boolean {
  for (const [pattern, us] of BRITISH) {
    pattern.lastIndex = 0
    if (!pattern.test(word)) continue
    const american = word.replace(pattern, us)
    if (american !== word && checker.correct(american)) return true
  }
  return false
}

/**
 * Whether `word` splits into known words (German and Dutch compounds), allowing linking -s-, -n-,
 * -e-, -en-, -es-, -er-; in Swiss German a part may have ss for ß ("fussballstadion").
 */
function madeOfKnownWords (word: string, speller: Speller): boolean {
  const { checker, language } = speller
  const isWord = (p: string): boolean => checker.correct(p) || checker.correct(capitalize(p, language))
  const known = (part: string): boolean => {
    for (const cut of ['', 's', 'es', 'n', 'en', 'e', 'er']) {
      if (cut !== '' && !part.endsWith(cut)) continue
      const p = part.slice(0, part.length - cut.length)
      if (p.length < 3) continue
      if (isWord(p) || (speller.noSharpS === true && p.includes('ss') && isWord(p.replaceAll('ss', 'ß')))) return true
    }
    return false
  }
  // reach[i]: word[0..i) is a chain of known parts
  const n = word.length
  const reach = new Array<boolean>(n + 1).fill(false)
  reach[0] = true
  for (let i = 0; i < n; i++) {
    if (!reach[i]) continue
    for (let j = i + 3; j <= n; j++) {
      if (reach[j] || (i === 0 && j === n)) continue
      if (known(word.slice(i, j))) reach[j] = true
    }
  }
  return reach[n]!
}
