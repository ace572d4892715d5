import { determiners, functionWords } from './function-words.js'
import { PRIORITY, span, type Span } from './spans.js'
import { isAllCaps } from './text.js'
import type { Token } from './tokens.js'
import { own } from '../../../lib/own.js'

/** What the person finder of one language knows. */
export interface PersonLexicon {
  language: string
  /** Folded given names. */
  given: ReadonlySet<string>
  /** Given names that are no person alone. */
  loneExcluded: ReadonlySet<string>
  /** Words that are never a surname: months, weekdays. */
  notNames: ReadonlySet<string>
}

// forms of address, folded; "M" needs its point ("M. Dupont")
const TITLES: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'sir', 'dame', 'lord', 'lady']),
  fr: new Set(['m', 'mm', 'mme', 'mmes', 'mlle', 'monsieur', 'madame', 'mademoiselle', 'dr', 'docteur', 'pr', 'professeur', 'me', 'maitre']),
  de: new Set(['herr', 'herrn', 'frau', 'dr', 'prof', 'fraulein']),
  es: new Set(['sr', 'sra', 'srta', 'senor', 'senora', 'senorita', 'don', 'dona', 'dr', 'dra', 'doctor', 'doctora', 'profesor', 'profesora']),
  it: new Set(['sig', 'sigra', 'signor', 'signore', 'signora', 'signorina', 'dott', 'dottor', 'dottore', 'dottoressa', 'prof', 'professor', 'professore', 'professoressa', 'avv', 'ing', 'dr']),
  pt: new Set(['sr', 'sra', 'senhor', 'senhora', 'dom', 'dona', 'dr', 'dra', 'doutor', 'doutora', 'prof', 'professor', 'professora']),
  nl: new Set(['dhr', 'mevr', 'meneer', 'mevrouw', 'heer', 'dr', 'prof', 'ir', 'mr', 'drs'])
}
const NEEDS_POINT = new Set(['m', 'mm', 'sig', 'dott', 'avv', 'ing', 'dhr', 'mevr', 'ir', 'drs', 'sr', 'sra', 'srta', 'dra'])
// name particles ("Ludwig van Beethoven", "Leonardo da Vinci", "Valéry Giscard d'Estaing")
const PARTICLES = new Set(['de', 'du', 'des', 'la', 'le', 'von', 'vom', 'van', 'der', 'den', 'ter', 'ten', 'da', 'di', 'del', 'della', 'dos', 'das', 'do', 'y', 'zu', 'd', 'af', 'al', 'el', 'bin', 'ibn'])

/** Whether a folded word is a form of address in `language` ("herr", "sr"); `pointed`: a point follows it, which "M" needs. */
export function isFormOfAddress (language: string, folded: string, pointed: boolean): boolean {
  return own(TITLES, language)?.has(folded) === true && (pointed || !NEEDS_POINT.has(folded))
}

const SPACES = /^[ \u00a0]{1,3}$/
const AFTER_PARTICLE = /^(?:[ \u00a0]{1,3}|['’])$/
const AFTER_TITLE = /^\.?[ \u00a0]{1,3}$/
const between = (text: string, left: Token, right: Token, pattern: RegExp): boolean => pattern.test(text.slice(left.end, right.start))

/** Whether a word is a given name: known, or hyphenated known ones ("Jean-Pierre"). */
function isGiven (t: Token | undefined, lexicon: PersonLexicon): t is Token {
  if (t === undefined || t.kind !== 'word' || !t.cap || isAllCaps(t.text)) return false
  if (lexicon.given.has(t.folded)) return true
  const parts = t.folded.split('-')
  return parts.length > 1 && parts.every(p => lexicon.given.has(p))
}

/** Persons: a given name with a surname ("Marie Curie", "Ludwig van Beethoven"), a form of address with a name ("Frau Merkel"), or a lone given name inside a sentence. */
export function findPersons (text: string, tokens: Token[], lexicon: PersonLexicon): Span[] {
  const { language } = lexicon
  const titles = own(TITLES, language) ?? new Set<string>()
  const small = functionWords(language)
  const articles = determiners(language)
  const found: Span[] = []

  /** Whether a capitalised word could be (part of) a surname. */
  const surnameWord = (t: Token): boolean => t.kind === 'word' && (t.cap || isAllCaps(t.text)) && !small.has(t.folded) &&
    !lexicon.notNames.has(t.folded) && !titles.has(t.folded)
  /** The last token of a surname of up to three words from token k, maybe with particles; undefined when none follows. */
  const surnameEnd = (k: number): number | undefined => {
    let last: number | undefined
    let j = k
    let words = 0
    while (j < tokens.length && words < 3) {
      const t = tokens[j]!
      if (!between(text, tokens[j - 1]!, t, SPACES)) break
      const next = tokens[j + 1]
      if (PARTICLES.has(t.folded) && next !== undefined && surnameWord(next) && between(text, t, next, AFTER_PARTICLE)) {
        last = j + 1
        words++
        j += 2
        continue
      }
      if (!surnameWord(t) || (t.sentenceStart && j > k)) break
      last = j
      words++
      j++
    }
    return last
  }
  const afterArticle = (i: number): boolean => {
    const previous = tokens[i - 1]
    return previous !== undefined && articles.has(previous.folded) && between(text, previous, tokens[i]!, SPACES)
  }

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.kind !== 'word') continue
    // forms of address: "Frau Merkel", "M. Dupont", "Prof. Dr. Hans Müller"
    if (titles.has(t.folded) && !(language === 'de' && afterArticle(i))) {
      let j = i
      while (tokens[j + 1] !== undefined && titles.has(tokens[j + 1]!.folded) && between(text, tokens[j]!, tokens[j + 1]!, AFTER_TITLE)) j++
      const title = tokens[j]!
      const pointed = text[title.end] === '.'
      const first = tokens[j + 1]
      if ((!NEEDS_POINT.has(title.folded) || pointed) && first !== undefined && between(text, title, first, AFTER_TITLE) && surnameWord(first)) {
        let k = j + 1
        while (isGiven(tokens[k + 1], lexicon) && between(text, tokens[k]!, tokens[k + 1]!, SPACES)) k++
        const last = surnameEnd(k + 1) ?? k
        found.push(span('PERSON', first.start, tokens[last]!.end, PRIORITY.PERSON))
        i = last
        continue
      }
    }
    if (!isGiven(t, lexicon) || afterArticle(i)) continue
    // more given names ("José Luis", "Anna Maria")
    let k = i
    while (k - i < 2 && isGiven(tokens[k + 1], lexicon) && between(text, tokens[k]!, tokens[k + 1]!, SPACES) && !tokens[k + 1]!.sentenceStart) k++
    // with no surname after them, the last of several given names is one ("Anna Thomas")
    const last = surnameEnd(k + 1) ?? (k > i ? k : undefined)
    if (last !== undefined) {
      found.push(span('PERSON', t.start, tokens[last]!.end, PRIORITY.PERSON))
      i = last
    } else if (!t.sentenceStart && !lexicon.loneExcluded.has(t.folded)) {
      found.push(span('PERSON', t.start, tokens[k]!.end, PRIORITY.LONE_NAME))
      i = k
    }
  }
  return found
}

/**
 * The spans with each person whose surname ran on into an organisation found there ended before it
 * and the particle that joins them: "Pierre Martin du Crédit Agricole" is Pierre Martin of the
 * Crédit Agricole, not a surname "Martin du Crédit Agricole".
 */
export function personsBeforeOrganizations (tokens: Token[], spans: Span[]): Span[] {
  const organizations = spans.filter(s => s.type === 'ORGANIZATION')
  if (organizations.length === 0) return spans
  return spans.map(s => {
    if (s.type !== 'PERSON') return s
    const organization = organizations.find(o => o.start > s.start && o.start < s.end)
    if (organization === undefined) return s
    const last = tokens.findLast(t => t.start >= s.start && t.end <= organization.start && t.cap)
    return last === undefined ? s : { ...s, end: last.end }
  })
}
