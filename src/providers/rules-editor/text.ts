/**
 * A tagged segment as rules see it: its text parts joined into one string, cut into tokens, and
 * changes written back into the parts they fall in. A change that would cross a tag is dropped,
 * so tags keep their places and ids.
 */
import { parseTagged, serializeTagged, type TaggedPart } from '../../core/tagged.js'
import type { EditNote } from '../../core/ports.js'
import { own } from '../../lib/own.js'

/** What a `<x id="N"/>` protected token reads as in the joined text: no rule touches it or a word glued to it. */
export const TOKEN_CHAR = '\uFFFC'

export interface SegmentText {
  parts: TaggedPart[]
  /** Text parts joined, each protected token as TOKEN_CHAR; offsets below are UTF-16 units into it. */
  text: string
  /** Start offset in `text` of each text part, and its index in `parts`. */
  spans: Array<{ start: number, end: number, part: number }>
}

export interface Token {
  kind: 'word' | 'space' | 'punct' | 'token'
  text: string
  start: number
  end: number
  /** Inside a URL, e-mail address, @handle, #tag, file name, code or a chunk glued to a placeholder. */
  guarded: boolean
  /** First word of a sentence: segment start or after . ! ? and a space. */
  sentenceStart: boolean
  /** First word after a line break. */
  lineStart: boolean
}

/** One replacement a rule proposes, in offsets of the text it read. */
export interface Change {
  start: number
  end: number
  replacement: string
  note: EditNote
}

/** A change kept, with where its replacement now sits in the edited text. */
export interface PlacedNote {
  at: number
  note: EditNote
}

/** Reads a tagged segment into joined text and spans. */
export function readSegment (tagged: string): SegmentText {
  return readParts(parseTagged(tagged))
}

/** The tagged form of the segment. */
export function writeSegment (segment: SegmentText): string {
  return serializeTagged(segment.parts)
}

// words keep inner apostrophes ("don't", "l'avion"); everything else is one char a token
const TOKENS = /(\s+)|([\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*)|(\uFFFC)|([^])/gu

const LEADING = /^[(["'“‘«¿¡]+/u
const TRAILING = /[.,;:!?)\]"'”’»…]+$/u
// URLs, e-mail and @handles, #tags, paths and code, file names and dotted names, camelCase, command-line flags
const CODE = /:\/\/|^www\.|@|^[#$%]|[_\\/=<>{}[\]|~^*+`]|[.:][\p{L}\p{N}]|\p{Ll}\p{Lu}|^-+\p{L}/u

/** Whether a whitespace-free chunk of text is something rules must not rewrite. */
export function isGuardedChunk (chunk: string): boolean {
  if (chunk.includes(TOKEN_CHAR)) return true
  const core = chunk.replace(LEADING, '').replace(TRAILING, '')
  return core !== '' && CODE.test(core)
}

// a full stop after these (or after one letter, or a number) does not end a sentence, in any language
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'vs', 'etc', 'cf', 'al', 'approx', 'fig', 'figs',
  'dept', 'inc', 'ltd', 'co', 'corp', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct',
  'nov', 'dec', 'ca', 'resp', 'vol', 'ed', 'eds', 'pp', 'bzw', 'usw', 'nr', 'str', 'sra', 'srta', 'mme', 'mlle'
])
/**
 * A language's own abbreviations (lower case, without the full stop): common ones of the Hunspell
 * dictionaries' dotted entries (dictionary-de, -nl, -pt list "inkl.", "bijv.", "aprox.") and of
 * usage in es, fr, it, whose dictionaries list none (Intl.Segmenter applies no CLDR suppressions).
 * Words a sentence often ends with ("mer", "dez": sea, ten) are left out.
 */
const ABBREVIATIONS_IN: Record<string, ReadonlySet<string>> = {
  de: new Set(['abb', 'abk', 'abs', 'abzgl', 'allg', 'anm', 'aufl', 'bes', 'betr', 'bsp', 'bspw', 'bzgl', 'dipl', 'dt', 'ebd', 'ehem', 'engl',
    'evtl', 'geb', 'gegr', 'gem', 'ggf', 'hrsg', 'inkl', 'insb', 'insbes', 'jh', 'kap', 'lt', 'mio', 'mrd', 'mwst', 'rd', 'sog', 'tel',
    'urspr', 'vgl', 'zit', 'zzgl', 'zzt']),
  es: new Set(['admón', 'aprox', 'atte', 'av', 'avda', 'cap', 'cía', 'cta', 'dcha', 'dpto', 'dra', 'ej', 'gral', 'izq', 'izqda', 'lic', 'nº',
    'núm', 'pág', 'págs', 'prov', 'pza', 'sig', 'sigs', 'tel', 'ud', 'uds', 'vd', 'vds', 'lun', 'miér', 'jue', 'vie', 'sáb', 'ene', 'abr',
    'ago', 'dic']),
  fr: new Set(['apr', 'av', 'bd', 'chap', 'cie', 'déc', 'éd', 'env', 'ex', 'févr', 'janv', 'juil', 'mgr', 'mm', 'nb', 'n°', 'qqch', 'qqn',
    'ste', 'suiv', 'tél']),
  it: new Set(['arch', 'avv', 'cfr', 'dott', 'ecc', 'egr', 'es', 'gent', 'geom', 'ing', 'pag', 'pagg', 'rag', 'sig', 'sigg', 'sigra', 'spett',
    'tel']),
  nl: new Set(['afb', 'afd', 'bijv', 'blz', 'bv', 'dhr', 'drs', 'enz', 'evt', 'excl', 'incl', 'ing', 'ir', 'jl', 'mevr', 'mln', 'mld',
    'mrd', 'mrt', 'ong', 'plm', 'vgl', 'zgn']),
  pt: new Set(['adm', 'apto', 'aprox', 'av', 'cap', 'cia', 'cit', 'dra', 'exa', 'exma', 'exmo', 'ilma', 'ilmo', 'lda', 'ltda', 'nº', 'núm',
    'obs', 'pág', 'págs', 'profa', 'tel'])
}
const NONE: ReadonlySet<string> = new Set()

/** Tokens of `text` with guard and sentence-start marks; `language` (a BCP 47 tag) adds its own abbreviations. */
export function tokenize (text: string, language = ''): Token[] {
  const abbreviations = own(ABBREVIATIONS_IN, language.split('-')[0]!.toLowerCase()) ?? NONE
  const tokens: Token[] = []
  for (const m of text.matchAll(TOKENS)) {
    const kind = m[1] !== undefined ? 'space' : m[2] !== undefined ? 'word' : m[3] !== undefined ? 'token' : 'punct'
    tokens.push({ kind, text: m[0], start: m.index, end: m.index + m[0].length, guarded: false, sentenceStart: false, lineStart: false })
  }
  // guard whole chunks between spaces
  let from = 0
  for (let i = 0; i <= tokens.length; i++) {
    if (i < tokens.length && tokens[i]!.kind !== 'space') continue
    if (i > from && isGuardedChunk(text.slice(tokens[from]!.start, tokens[i - 1]!.end))) {
      for (let j = from; j < i; j++) tokens[j]!.guarded = true
    }
    from = i + 1
  }
  let atStart = true
  let afterBreak = false
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.kind === 'word') {
      t.sentenceStart = atStart
      t.lineStart = afterBreak
      atStart = false
      afterBreak = false
    } else if (t.kind === 'space') {
      if (t.text.includes('\n')) afterBreak = true
    } else if (t.kind === 'token') {
      atStart = false
    } else if (endsSentence(tokens, i, abbreviations)) {
      atStart = true
    }
  }
  return tokens
}

/** Whether the punctuation token at `i` ends a sentence (. ! ? followed by a space or the end, not an ellipsis or abbreviation). */
function endsSentence (tokens: Token[], i: number, abbreviations: ReadonlySet<string>): boolean {
  const t = tokens[i]!
  if (t.text !== '.' && t.text !== '!' && t.text !== '?') return false
  const next = tokens[i + 1]
  if (next !== undefined && next.kind !== 'space') return false
  if (t.text !== '.') return true
  const prev = tokens[i - 1]
  if (prev?.text === '.' || prev?.text === '…') return false
  if (prev?.kind === 'word') {
    const w = prev.text.toLowerCase()
    if (ABBREVIATIONS.has(w) || abbreviations.has(w) || Array.from(w).length === 1 || /^\p{N}+$/u.test(w)) return false
  }
  return true
}

/** Index of the word after token `i` when only one run of spaces (no line break) separates them. */
export function nextWord (tokens: Token[], i: number): number | undefined {
  const space = tokens[i + 1]
  const word = tokens[i + 2]
  if (space?.kind !== 'space' || space.text.includes('\n') || word?.kind !== 'word') return undefined
  return i + 2
}

/** Index of the word before token `i` when only one run of spaces (no line break) separates them. */
export function previousWord (tokens: Token[], i: number): number | undefined {
  const space = tokens[i - 1]
  const word = tokens[i - 2]
  if (space?.kind !== 'space' || space.text.includes('\n') || word?.kind !== 'word') return undefined
  return i - 2
}

/** The text part holding [start, end), or undefined when the range crosses a tag or a protected token. */
function spanOf (segment: SegmentText, start: number, end: number): SegmentText['spans'][number] | undefined {
  const { spans } = segment
  let lo = 0
  let hi = spans.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const s = spans[mid]!
    if (start < s.start) hi = mid - 1
    else if (start >= s.end) lo = mid + 1
    else return end <= s.end ? s : undefined
  }
  return undefined
}

/**
 * Applies changes (sorted or not) to the segment: overlapping ones after the first and ones that
 * cross a tag are dropped. Returns the new segment, the kept changes placed in its text, and the
 * earlier notes moved to their new places.
 */
export function applyChanges (segment: SegmentText, changes: readonly Change[], earlier: readonly PlacedNote[]): { segment: SegmentText, notes: PlacedNote[] } {
  const sorted = [...changes].sort((a, b) => a.start - b.start || a.end - b.end)
  const kept: Change[] = []
  let lastEnd = -1
  for (const c of sorted) {
    if (c.start < lastEnd || c.end <= c.start) continue
    if (spanOf(segment, c.start, c.end) === undefined) continue
    kept.push(c)
    lastEnd = c.end
  }
  if (kept.length === 0) return { segment, notes: [...earlier] }

  const parts = segment.parts.map(p => ({ ...p }))
  // rewrite each text part from its own changes, last first so offsets hold
  for (let k = kept.length - 1; k >= 0; k--) {
    const c = kept[k]!
    const span = spanOf(segment, c.start, c.end)!
    const part = parts[span.part] as { type: 'text', text: string }
    part.text = part.text.slice(0, c.start - span.start) + c.replacement + part.text.slice(c.end - span.start)
  }
  const moved = earlier.map(n => ({ at: mapOffset(n.at, kept), note: n.note }))
  const placed: PlacedNote[] = []
  let shift = 0
  for (const c of kept) {
    placed.push({ at: c.start + shift, note: c.note })
    shift += c.replacement.length - (c.end - c.start)
  }
  const next = readParts(parts.filter(p => p.type !== 'text' || p.text !== ''))
  return { segment: next, notes: [...moved, ...placed] }
}

/** Parts as joined text (a token as TOKEN_CHAR) and the span of each text part in it. */
function readParts (parts: TaggedPart[]): SegmentText {
  let text = ''
  const spans: SegmentText['spans'] = []
  parts.forEach((p, i) => {
    if (p.type === 'text') {
      spans.push({ start: text.length, end: text.length + p.text.length, part: i })
      text += p.text
    } else if (p.type === 'token') {
      text += TOKEN_CHAR
    }
  })
  return { parts, text, spans }
}

/** Where offset `at` of the old text lands after `changes` (sorted, disjoint). */
function mapOffset (at: number, changes: readonly Change[]): number {
  let shift = 0
  for (const c of changes) {
    if (c.end <= at) shift += c.replacement.length - (c.end - c.start)
    else if (c.start <= at) return c.start + shift
    else break
  }
  return at + shift
}

/** `replacement` written in the case pattern of `original` (Libary -> Library, LIBARY -> LIBRARY). */
export function matchCase (original: string, replacement: string, locale?: string): string {
  const letters = original.replace(/[^\p{L}]/gu, '')
  if (letters.length > 1 && letters === letters.toLocaleUpperCase(locale) && letters !== letters.toLocaleLowerCase(locale)) {
    return replacement.toLocaleUpperCase(locale)
  }
  const first = String.fromCodePoint(original.codePointAt(0) ?? 32)
  if (first !== first.toLocaleLowerCase(locale)) return capitalize(replacement, locale)
  return replacement
}

/** The string with its first letter in upper case. */
export function capitalize (word: string, locale?: string): string {
  const first = String.fromCodePoint(word.codePointAt(0) ?? 32)
  return word === '' ? word : first.toLocaleUpperCase(locale) + word.slice(first.length)
}
