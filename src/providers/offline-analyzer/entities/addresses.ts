import { PRIORITY, span, type Span } from './spans.js'
import { isAllCaps } from './text.js'
import type { Token } from './tokens.js'
import { own } from '../../../lib/own.js'

// street-type words, folded; an address needs one of them beside a house number
const STREET_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(['street', 'st', 'avenue', 'ave', 'road', 'rd', 'boulevard', 'blvd', 'lane', 'ln', 'drive', 'dr', 'court', 'ct', 'place', 'pl',
    'square', 'sq', 'way', 'terrace', 'parkway', 'pkwy', 'highway', 'hwy', 'circle', 'crescent', 'close', 'row', 'alley', 'plaza']),
  fr: new Set(['rue', 'avenue', 'av', 'boulevard', 'bd', 'bld', 'place', 'chemin', 'allee', 'impasse', 'quai', 'cours', 'route', 'square', 'passage', 'voie', 'faubourg', 'rte']),
  es: new Set(['calle', 'c', 'avenida', 'avda', 'av', 'paseo', 'plaza', 'pza', 'carrera', 'camino', 'ronda', 'travesia', 'glorieta', 'carretera', 'callejon', 'rambla']),
  it: new Set(['via', 'viale', 'piazza', 'p.za', 'corso', 'largo', 'vicolo', 'piazzale', 'lungomare', 'lungotevere', 'strada', 'contrada']),
  pt: new Set(['rua', 'r', 'avenida', 'av', 'praca', 'travessa', 'largo', 'alameda', 'estrada', 'rodovia', 'calcada', 'beco']),
  nl: new Set(['straat', 'laan', 'weg', 'plein', 'gracht', 'kade', 'dijk', 'singel', 'steeg']),
  de: new Set(['strasse', 'str', 'weg', 'platz', 'allee', 'gasse', 'ring', 'damm', 'ufer', 'chaussee', 'steig', 'pfad'])
}
const ABBREVIATED = new Set(['st', 'ave', 'rd', 'blvd', 'ln', 'dr', 'ct', 'pl', 'sq', 'pkwy', 'hwy'])
// German and Dutch write the street word into the name ("Hauptstraße 5", "Prinsengracht 263")
const SUFFIX_LANGUAGES = new Set(['de', 'nl'])
// small words inside street names ("rue de la Paix", "Avenida da Liberdade", "Via dei Mille")
const STREET_PARTICLES = new Set(['de', 'du', 'des', 'la', 'le', 'les', 'l', 'd', 'del', 'della', 'delle', 'dei', 'degli', 'di', 'da', 'do',
  'dos', 'das', 'los', 'las', 'y', 'e', 'of', 'the', 'san', 'sant', 'santa', 'saint', 'sainte', 'st'])
const DIRECTIONS = new Set(['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW'])

const isHouseNumber = (t: Token | undefined): t is Token => t !== undefined && t.kind === 'number' && /^[0-9]{1,5}$/.test(t.text)
const close = (text: string, left: Token, right: Token, allowed = /^[ \u00a0]{1,2}$/): boolean => allowed.test(text.slice(left.end, right.start))
const CLOSE_OR_COMMA = /^,?[ \u00a0]{1,2}$/

/** The end of a house number at token i ("221B", "12 bis", "5a"): its last token. */
function houseNumberEnd (tokens: Token[], i: number): number {
  const next = tokens[i + 1]
  if (next !== undefined && next.kind === 'word' && next.start === tokens[i]!.end && next.text.length === 1) return i + 1
  if (next !== undefined && (next.folded === 'bis' || next.folded === 'ter')) return i + 1
  return i
}

/** Street addresses where the pattern is clear: a house number and a street-type word. */
export function findAddresses (text: string, tokens: Token[], language: string): Span[] {
  const words = own(STREET_WORDS, language)
  if (words === undefined) return []
  const found: Span[] = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (SUFFIX_LANGUAGES.has(language)) {
      // "Hauptstraße 5", "Karl-Marx-Allee 12", "Prinsengracht 263"
      if (t.kind !== 'word' || !t.cap || !endsWithStreetWord(t.folded, words)) continue
      const number = tokens[i + 1]
      const joined = number !== undefined && (close(text, t, number) || (t.folded.endsWith('str') && close(text, t, number, /^\.[ \u00a0]{1,2}$/)))
      if (!joined || !isHouseNumber(number)) continue
      const last = houseNumberEnd(tokens, i + 1)
      found.push(span('ADDRESS', t.start, tokens[last]!.end, PRIORITY.ADDRESS))
      i = last
    } else if (language === 'en' || language === 'fr') {
      // "1600 Pennsylvania Avenue NW", "221B Baker Street"; "10 rue de Rivoli", "55, rue du Faubourg Saint-Honoré"
      if (!isHouseNumber(t)) continue
      const numberEnd = houseNumberEnd(tokens, i)
      const end = language === 'en' ? englishStreet(text, tokens, numberEnd + 1, words) : frenchStreet(text, tokens, numberEnd, words)
      if (end === undefined) continue
      // "Main St." keeps the point of its abbreviation
      const point = language === 'en' && text[tokens[end]!.end] === '.' && ABBREVIATED.has(tokens[end]!.folded) ? 1 : 0
      found.push(span('ADDRESS', t.start, tokens[end]!.end + point, PRIORITY.ADDRESS))
      i = end
    } else {
      // "Calle de Alcalá 45", "Via Roma 10", "Rua Augusta, 24", "Avenida da Liberdade 110"
      if (t.kind !== 'word' || !words.has(t.folded) || (!t.cap && t.folded.length <= 2)) continue
      const nameEnd = streetName(text, tokens, i + 1, i)
      if (nameEnd === undefined) continue
      const number = tokens[nameEnd + 1]
      if (number === undefined || !isHouseNumber(number) || !close(text, tokens[nameEnd]!, number, CLOSE_OR_COMMA)) continue
      const last = houseNumberEnd(tokens, nameEnd + 1)
      found.push(span('ADDRESS', t.start, tokens[last]!.end, PRIORITY.ADDRESS))
      i = last
    }
  }
  return found
}

const endsWithStreetWord = (folded: string, words: ReadonlySet<string>): boolean => {
  for (const word of words) if (folded.endsWith(word) && (folded.length > word.length || word.length > 3)) return true
  return false
}

/** English: capitalised words then a street word, maybe a direction ("Pennsylvania Avenue NW"); the last token. */
function englishStreet (text: string, tokens: Token[], from: number, words: ReadonlySet<string>): number | undefined {
  let j = from
  let names = 0
  while (j < tokens.length && names < 5) {
    const t = tokens[j]!
    if (!close(text, tokens[j - 1]!, t) || t.kind !== 'word' || !t.cap) return undefined
    if (words.has(t.folded) && names > 0) {
      const direction = tokens[j + 1]
      if (direction !== undefined && DIRECTIONS.has(direction.text) && close(text, t, direction)) return j + 1
      return j
    }
    names++
    j++
  }
  return undefined
}

/** French: maybe a comma, a street word, then its name ("rue du Faubourg Saint-Honoré"); the last token. */
function frenchStreet (text: string, tokens: Token[], numberEnd: number, words: ReadonlySet<string>): number | undefined {
  const word = tokens[numberEnd + 1]
  if (word === undefined || !words.has(word.folded) || !close(text, tokens[numberEnd]!, word, CLOSE_OR_COMMA)) return undefined
  return streetName(text, tokens, numberEnd + 2, numberEnd + 1)
}

/** A street's name from token `from` (capitalised words and particles, ending on a capitalised word or number); its last token. */
function streetName (text: string, tokens: Token[], from: number, previous: number): number | undefined {
  let last: number | undefined
  let j = from
  let prev = previous
  while (j < tokens.length && j - from < 6) {
    const t = tokens[j]!
    if (!close(text, tokens[prev]!, t, /^[ \u00a0'’]{1,2}$/)) break
    if (t.kind === 'word' && (t.cap || isAllCaps(t.text))) last = j
    else if (t.kind === 'word' && STREET_PARTICLES.has(t.folded)) { /* keep going */ } else break
    prev = j
    j++
  }
  return last
}
