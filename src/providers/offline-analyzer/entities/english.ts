import type { WinkMethods } from 'wink-nlp'
import { englishWink } from '../wink.js'
import type { EntityType } from '../../../core/analysis/results.js'
import { englishMoneyValue } from './amounts.js'
import { chunks } from './chunks.js'
import { CITIES_NAMED_LIKE_PERSONS } from './cities.js'
import { dateValue } from './dates.js'
import { numberValue, parseEnglishNumber } from './numbers.js'
import { PRIORITY, span, type Span } from './spans.js'

/** A term of compromise's parse: the word as written and what surrounds it. */
interface Term {
  text: string
  pre: string
  post: string
  tags?: Set<string>
}

/** compromise's parser, as far as it is used here. */
export type Compromise = ((text: string) => { docs: Term[][] }) & { model: () => object }

/** The English models: compromise for names, wink-nlp for dates, numbers and amounts. */
export interface EnglishModels {
  compromise: Compromise
  wink: WinkMethods
}

/** Loads compromise (its tagger, without the phrase plugins) and wink-nlp with its English model (shared with sentiment: ../wink.ts). */
export async function loadEnglishModels (): Promise<EnglishModels> {
  const [compromise, wink] = await Promise.all([import('compromise/two'), englishWink()])
  // of wink's steps, the entities read its named-entity step: dates, numbers and money
  return { compromise: compromise.default as unknown as Compromise, wink }
}

/** compromise's lexicon: word → tag(s). */
export function compromiseLexicon (models: EnglishModels): Record<string, string | string[]> {
  // model() is typed as a plain object; its lexicon is a word → tags record
  return (models.compromise.model() as { one: { lexicon: Record<string, string | string[]> } }).one.lexicon
}

/** Words of compromise's lexicon with one of the tags. */
export function lexiconWords (models: EnglishModels, tags: readonly string[]): string[] {
  const words: string[] = []
  for (const [word, tag] of Object.entries(compromiseLexicon(models))) {
    const list = Array.isArray(tag) ? tag : [tag]
    if (list.some(t => tags.includes(t))) words.push(word)
  }
  return words
}

/**
 * Persons, places and organisations, dates, numbers and prices of English text from compromise and
 * wink-nlp. The spans in `blank` (addresses, URLs) and runs of over 64 characters without a space are
 * blanked out first: no name or number is inside them, and long tokens slow both libraries down.
 * `tag`'s region orders numeric dates ("03/04/2024" is 3 April in en-GB).
 */
export function englishSpans (text: string, models: EnglishModels, blank: readonly Span[], tag = 'en'): Span[] {
  const masked = maskText(text, blank)
  const found: Span[] = []
  for (const piece of chunks(masked)) {
    const part = masked.slice(piece.start, piece.end)
    for (const s of [...nameSpans(part, models.compromise), ...winkSpans(part, models.wink, tag)]) {
      found.push({ ...s, start: s.start + piece.start, end: s.end + piece.start })
    }
  }
  return found
}

const LONG_RUN = 64

/** The text with the spans and long runs without spaces replaced by spaces, offsets unchanged. */
function maskText (text: string, blank: readonly Span[]): string {
  const cuts: Array<[number, number]> = blank.map(s => [s.start, s.end])
  let runStart = -1
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || /\s/.test(text[i]!)
    if (!space && runStart === -1) runStart = i
    if (space && runStart !== -1) {
      if (i - runStart > LONG_RUN) cuts.push([runStart, i])
      runStart = -1
    }
  }
  if (cuts.length === 0) return text
  cuts.sort((a, b) => a[0] - b[0])
  const parts: string[] = []
  let at = 0
  for (const [start, end] of cuts) {
    if (end <= at) continue
    const from = Math.max(start, at)
    parts.push(text.slice(at, from), ' '.repeat(end - from))
    at = end
  }
  parts.push(text.slice(at))
  return parts.join('')
}

// a capital inside a sentence, or a first word that is not a small word: otherwise no name to find
const INNER_CAPITAL = /[^\s.!?]\s+\p{Lu}/u
const LEADING_SMALL = /^\s*(?:the|a|an|this|that|these|those|it|we|i|you|he|she|they|there|here|in|on|at|for|and|but|if|when|what|how|why|our|my|his|her|their|its|is|are|was|were|do|does|did|please|so|then|yes|no)\b/i

const KINDS: ReadonlyArray<[string, EntityType]> = [['Organization', 'ORGANIZATION'], ['Person', 'PERSON'], ['Place', 'LOCATION']]
const PRIORITIES: Readonly<Record<string, number>> = { ORGANIZATION: PRIORITY.ORGANIZATION, PERSON: PRIORITY.PERSON, LOCATION: PRIORITY.LOCATION }

/** Where each term of a parsed text is: UTF-16 start, or -1 when it cannot be found. */
function locate<T> (text: string, items: readonly T[], written: (item: T) => string, before: (item: T) => string): Int32Array {
  const starts = new Int32Array(items.length)
  let cursor = 0
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!
    const value = written(item)
    cursor += before(item).length
    let at = text.startsWith(value, cursor) ? cursor : -1
    if (at === -1) {
      // a few characters off (a space the tokenizer normalised): look a short way ahead only
      const near = text.slice(Math.max(0, cursor - 4), cursor + value.length + 32).indexOf(value)
      if (near !== -1) at = Math.max(0, cursor - 4) + near
    }
    starts[i] = at
    if (at !== -1) cursor = at + value.length
  }
  return starts
}

/** compromise's persons, places and organisations in a piece of text. */
function nameSpans (text: string, nlp: Compromise): Span[] {
  if (!/\p{Lu}/u.test(text) || (!INNER_CAPITAL.test(text) && LEADING_SMALL.test(text))) return []
  const terms = nlp(text).docs.flat()
  const starts = locate(text, terms, t => t.text, t => t.pre)
  const kinds = kindsOf(terms)
  const found: Span[] = []
  let i = 0
  while (i < terms.length) {
    const type = kinds[i]
    if (type === undefined || starts[i] === -1) { i++; continue }
    // a run of terms of one kind, not across a comma or a sentence end ("Ohio, Texas")
    let last = i
    while (last + 1 < terms.length && kinds[last + 1] === type && starts[last + 1] !== -1 && joined(terms[last]!)) last++
    let first = i
    while (first <= last && (terms[first]!.tags?.has('Honorific') === true || terms[first]!.tags?.has('Determiner') === true)) first++
    if (first <= last && terms.slice(first, last + 1).some(t => /^\p{Lu}/u.test(t.text))) {
      const lastTerm = terms[last]!
      let end = starts[last]! + lastTerm.text.length
      // "Obama's" is Obama; "Inc." keeps its point
      const possessive = /['’]s?$/.exec(lastTerm.text)
      if (possessive !== null && lastTerm.tags?.has('Possessive') === true) end -= possessive[0].length
      else if (lastTerm.tags?.has('Abbreviation') === true && lastTerm.post.startsWith('.') && !lastTerm.text.endsWith('.')) end++
      const start = starts[first]!
      if (end - start > 1) found.push(span(type, start, end, PRIORITIES[type]!))
    }
    i = last + 1
  }
  return found
}

const kindOf = (term: Term): EntityType | undefined => {
  for (const [tag, type] of KINDS) if (term.tags?.has(tag) === true) return type
  return undefined
}

// cities named like persons; compromise tags some of them a bare proper noun, neither person nor place ("Florence")
const NAMED_LIKE_PERSONS: ReadonlySet<string> = new Set(CITIES_NAMED_LIKE_PERSONS.map(c => c.toLowerCase()))
const bare = (term: Term): boolean => term.tags?.has('ProperNoun') === true && kindOf(term) === undefined

/**
 * The kind of each term. A city named like a person that compromise leaves a bare proper noun is a
 * person, with the bare proper nouns after it as the surname ("Florence Pugh"), as compromise reads
 * "Adelaide": a preposition of place makes either a place ("in Florence", place-context.ts). A
 * person's possessive keeps the whole name, and a name with an organisation's word is the organisation.
 */
function kindsOf (terms: readonly Term[]): Array<EntityType | undefined> {
  const kinds = terms.map(kindOf)
  for (let i = 0; i < terms.length; i++) {
    if (!bare(terms[i]!) || !NAMED_LIKE_PERSONS.has(terms[i]!.text.toLowerCase())) continue
    kinds[i] = 'PERSON'
    while (i + 1 < terms.length && bare(terms[i + 1]!) && joined(terms[i]!)) kinds[++i] = 'PERSON'
  }
  possessivePersons(terms, kinds)
  organizationNames(terms, kinds)
  return kinds
}

const capitalised = (term: Term): boolean => /^\p{Lu}/u.test(term.text)
const possessive = (term: Term): boolean => term.tags?.has('Possessive') === true && /['’]s?$/.test(term.text)
// a word compromise knows nothing of but that it is a noun: no part of speech, date or name of its own
const PLAIN_NOUN_TAGS: ReadonlySet<string> = new Set(['Noun', 'Singular', 'ProperNoun'])
const plainNoun = (term: Term): boolean => capitalised(term) && term.tags !== undefined && [...term.tags].every(tag => PLAIN_NOUN_TAGS.has(tag))

/**
 * compromise reads a person's name apart before a possessive: "Saddam" of "Saddam Hussein's" is a
 * common noun, "Erdogan's" of "Recep Tayyip Erdogan's" no name. A capitalised plain noun right before
 * a person's possessive, and a proper noun's possessive right after a person, are of the person.
 */
function possessivePersons (terms: readonly Term[], kinds: Array<EntityType | undefined>): void {
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i]!
    if (!possessive(term)) continue
    if (kinds[i] === undefined && bare(term) && capitalised(term) && kinds[i - 1] === 'PERSON' && joined(terms[i - 1]!)) kinds[i] = 'PERSON'
    if (kinds[i] !== 'PERSON') continue
    for (let j = i - 1; j >= 0 && kinds[j] === undefined && plainNoun(terms[j]!) && joined(terms[j]!); j--) kinds[j] = 'PERSON'
  }
}

// words naming what an organisation is, as the last word of its name ("New York Stock Exchange", "The Washington Post")
// or the first before "of" ("Bank of America", "Museum of Fine Arts")
const ORGANIZATION_WORDS: ReadonlySet<string> = new Set(`bank exchange museum gallery library university college institute
  institution academy foundation association society federation union league commission committee council agency authority
  bureau ministry department party corporation company group club airlines airways times post tribune journal herald gazette
  chronicle press`.split(/\s+/))

/** A capitalised word of a name: a proper noun or a name to compromise (not "Yesterday" opening a sentence). */
const nameWord = (term: Term | undefined): term is Term =>
  term !== undefined && capitalised(term) && (term.tags?.has('ProperNoun') === true || kindOf(term) !== undefined) && term.tags?.has('Honorific') !== true
// capitalised is enough: compromise reads no proper noun in "Bank" opening "Bank of America reported..."
const organizationWord = (term: Term): boolean => capitalised(term) && ORGANIZATION_WORDS.has(term.text.replace(/['’]s?$/, '').toLowerCase())

/**
 * Names with an organisation's word are the organisation's, whatever compromise reads in them:
 * proper nouns before the word ("New York Savings Bank", not the place "New York"), or "of" and
 * proper nouns after it ("Bank of America", "Museum of Fine Arts").
 */
function organizationNames (terms: readonly Term[], kinds: Array<EntityType | undefined>): void {
  for (let i = 0; i < terms.length; i++) {
    if (!organizationWord(terms[i]!)) continue
    let first = i
    while (first > 0 && nameWord(terms[first - 1]) && joined(terms[first - 1]!) && !possessive(terms[first - 1]!)) first--
    let last = i
    let k = i + 1
    if (terms[k]?.text === 'of' && joined(terms[i]!) && !possessive(terms[i]!)) {
      k++
      if (terms[k]?.text === 'the' && joined(terms[k - 1]!)) k++
      if (nameWord(terms[k]) && joined(terms[k - 1]!)) {
        last = k
        while (nameWord(terms[last + 1]) && joined(terms[last]!) && !possessive(terms[last]!)) last++
      }
    }
    if (first === i && last === i) continue
    kinds.fill('ORGANIZATION', first, last + 1)
    i = last
  }
}

/** Whether a term runs on into the next one of the same name: nothing but spaces or a hyphen between, or the point of an abbreviation or initial ("John F. Kennedy"). */
const joined = (term: Term): boolean => {
  const post = term.post.trim()
  return post === '' || post === '-' ||
    (post === '.' && (term.tags?.has('Abbreviation') === true || term.tags?.has('Honorific') === true || /^\p{Lu}$/u.test(term.text)))
}

// words wink counts into a date that are not part of it ("by March 2025")
const DATE_LEAD = new Set(['by', 'on', 'in', 'at', 'since', 'until', 'till', 'from', 'during', 'before', 'after', 'of', 'for', 'the', 'around', 'about', 'between', 'through', 'to'])

interface WinkEntity { value: string, type: string }

/** wink-nlp's dates, numbers, percentages and amounts of money in a piece of text. */
function winkSpans (text: string, wink: WinkMethods, tag: string): Span[] {
  const doc = wink.readDoc(text)
  const values = doc.tokens().out() as string[]
  const spaces = doc.tokens().out(wink.its.precedingSpaces) as string[]
  const starts = locate(text, values.map((value, i) => ({ value, space: spaces[i] ?? '' })), t => t.value, t => t.space)
  const details = doc.entities().out(wink.its.detail) as unknown as WinkEntity[]
  const ranges = doc.entities().out(wink.its.span) as unknown as Array<[number, number]>
  const found: Span[] = []
  for (let e = 0; e < details.length; e++) {
    const kind = details[e]!.type
    const range = ranges[e]
    if (range === undefined) continue
    let [first, last] = range
    if (kind === 'DATE') while (first < last && DATE_LEAD.has(values[first]!.toLowerCase())) first++
    if (starts[first] === -1 || starts[last] === -1) continue
    const start = starts[first]!
    const end = starts[last]! + values[last]!.length
    const written = text.slice(start, end)
    if (kind === 'DATE') {
      found.push(span('DATE', start, end, PRIORITY.DATE, dateValue(written, tag)))
    } else if (kind === 'MONEY') {
      found.push(span('PRICE', start, end, PRIORITY.PRICE, englishMoneyValue(written)))
    } else if (kind === 'CARDINAL' || kind === 'PERCENT') {
      const value = parseEnglishNumber(written.replace(/\s*(?:%|percent|per cent)$/i, ''))
      found.push(span('NUMBER', start, end, PRIORITY.NUMBER, value === undefined ? undefined : numberValue(value)))
    }
  }
  return found
}
