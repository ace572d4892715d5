/**
 * Names read as places by what surrounds them. A name that is a person's and a place's is the place
 * after a preposition of place ("flying to Adelaide", "pour Santiago de Chile") and in a list that
 * goes on from one ("to Austin and Charlotte"), and so is a city named like a person with more of
 * its name after a particle ("a Santiago de Compostela"); capitalised words joined by a particle
 * right after one are a place no list holds ("en Las Palmas de Gran Canaria"). Places joined by "&"
 * are places, not one company ("Berlin & Paris", which compromise reads as one).
 */
import type { EntityType } from '../../../core/analysis/results.js'
import { CITIES_NAMED_LIKE_PERSONS } from './cities.js'
import { determiners, functionWords } from './function-words.js'
import type { PhraseIndex } from './phrases.js'
import { PRIORITY, span, type Span } from './spans.js'
import { fold } from './text.js'
import { spaced, type Token } from './tokens.js'
import { own } from '../../../lib/own.js'

/** What reading names as places by their context knows of one language. */
export interface PlaceLexicon {
  language: string
  /** Regions and cities. */
  places: PhraseIndex<EntityType>
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(w => w !== ''))

// prepositions that take a place and hardly ever a person (folded: French "à" is "a")
const PLACE_PREPOSITIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: words('in near via outside'),
  fr: words('a en pour vers depuis via'),
  es: words('a en para hacia desde hasta via'),
  it: words('a in per verso via'),
  pt: words('em para ate desde via'),
  de: words('nach in aus uber via'),
  nl: words('naar in uit via')
}
// English "to", "from" and "at" take persons too ("talked to Charlotte"): a place only after a word of travel
const TRAVEL_PREPOSITIONS = words('to from at')
const TRAVEL_WORDS = words(`go goes going gone went fly flies flying flew flown flight flights drive drives driving drove driven
  travel travels traveled travelled traveling travelling trip trips journey move moves moved moving relocate relocates relocated
  relocating return returns returned returning head heads headed heading sail sails sailed sailing ride rides riding rode walk
  walks walked walking commute commutes commuted commuting arrive arrives arrived arriving land lands landed landing emigrate
  emigrated immigrate immigrated train trains bus ferry ticket tickets road route way welcome`)
// "I'm from Adelaide": where a person is from (not "the letter is from Charlotte")
const PERSONAL_PRONOUNS = words('i you he she we they')
const BE = words('am is are was were m re s')
// words that go on with a list of places ("to Austin and Charlotte", "from Austin to Charlotte")
const LIST_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: words('and or to'),
  fr: words('et ou'),
  es: words('y e o u'),
  it: words('e ed o'),
  pt: words('e ou'),
  de: words('und oder'),
  nl: words('en of')
}
// the first words of cities named like persons, which more of a place's name may follow ("Santiago de Cuba", not "Marie de France")
const CITY_FIRST_WORDS: ReadonlySet<string> = new Set(CITIES_NAMED_LIKE_PERSONS.map(c => fold(c)))
// particles inside places' names, in the languages that write them ("Santiago de Compostela", "Reggio di Calabria", "Rio de Janeiro")
const PLACE_PARTICLES = words('de del della di do da dos das du des d')
// particles that join the capitalised words of a place no list holds, right after a preposition of place; not in
// English (compromise reads its names) nor Dutch, whose "de" is its article; German only the Romance "de" ("nach Rio de Janeiro")
const UNLISTED_PLACE_PARTICLES: Readonly<Record<string, ReadonlySet<string>>> = {
  fr: words('de du des d'),
  es: words('de del'),
  it: words('di del della de'),
  pt: words('de do da dos das'),
  de: words('de')
}
// an article after a particle ("Jerez de la Frontera", "Alcalá de los Gazules")
const PARTICLE_ARTICLES = words('la las los le les l el lo')
const AMPERSAND = /^[ \u00a0]?&[ \u00a0]?$/
const POSSESSIVE = /^['’]s?\b/

/**
 * The spans with persons that are places by their context made locations, and organisations that
 * are places joined by "&" split into them. Spans that do not start and end on a token stay as found.
 */
export function placesInContext (text: string, tokens: Token[], spans: Span[], lexicon: PlaceLexicon): Span[] {
  const { language, places } = lexicon
  const prepositions = own(PLACE_PREPOSITIONS, language)
  const listWords = own(LIST_WORDS, language)
  if (prepositions === undefined || listWords === undefined) return spans
  const firstAt = new Map<number, number>()
  const lastAt = new Map<number, number>()
  for (let i = 0; i < tokens.length; i++) {
    firstAt.set(tokens[i]!.start, i)
    lastAt.set(tokens[i]!.end, i)
  }
  const word = (i: number): string | undefined => tokens[i]?.kind === 'word' ? tokens[i]!.folded : undefined
  /** Whether tokens i and i + 1 are words of one sentence with spaces between. */
  const runsOn = (i: number): boolean => i >= 0 && !tokens[i + 1]!.sentenceStart && spaced(text, tokens[i]!, tokens[i + 1]!)
  /**
   * Whether the tokens first to last name a place the lexicon knows, or a city named like a person
   * with more of its name after a particle ("Santiago de Cuba", "Santiago de Compostela").
   */
  const isPlace = (first: number, last: number): boolean => {
    if (places.longestAt(text, tokens, first)?.last === last) return true
    const particle = tokens[first + 1]
    return last > first + 1 && CITY_FIRST_WORDS.has(tokens[first]!.folded) && particle !== undefined && !particle.cap && PLACE_PARTICLES.has(particle.folded)
  }
  /** Whether a preposition of place is right before token i. */
  const afterPreposition = (i: number): boolean => {
    const p = i - 1
    const preposition = word(p)
    if (preposition === undefined || !runsOn(p)) return false
    if (prepositions.has(preposition)) return true
    if (language !== 'en' || !TRAVEL_PREPOSITIONS.has(preposition)) return false
    if ((TRAVEL_WORDS.has(word(p - 1) ?? '') && runsOn(p - 1)) || (TRAVEL_WORDS.has(word(p - 2) ?? '') && runsOn(p - 2) && runsOn(p - 1))) return true
    return preposition === 'from' && BE.has(word(p - 1) ?? '') && PERSONAL_PRONOUNS.has(word(p - 2) ?? '') && !tokens[p - 1]!.sentenceStart
  }
  /** Whether token i goes on with a list whose last place ended on token `previous`. */
  const continuesList = (i: number, previous: number): boolean => {
    if (previous === i - 1) return !tokens[i]!.sentenceStart && AMPERSAND.test(text.slice(tokens[previous]!.end, tokens[i]!.start))
    return previous === i - 2 && listWords.has(word(i - 1) ?? '') && runsOn(i - 2) && runsOn(i - 1)
  }

  const changed = new Map<Span, Span[]>()
  // the last token of the latest place after a preposition of place, or in a list after one
  let listEnd = -2
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const first = firstAt.get(s.start)
    const last = lastAt.get(s.end)
    if (first === undefined || last === undefined) continue
    if (s.type === 'ORGANIZATION') {
      const parts = joinedPlaces(text, tokens, first, last, isPlace)
      if (parts !== undefined) changed.set(s, parts.map(([a, b]) => ({ ...s, type: 'LOCATION', start: tokens[a]!.start, end: tokens[b]!.end })))
      continue
    }
    if (s.type !== 'PERSON' && s.type !== 'LOCATION') continue
    if (!afterPreposition(first) && !continuesList(first, listEnd)) continue
    if (s.type === 'LOCATION') {
      listEnd = last
    } else if (!POSSESSIVE.test(text.slice(s.end)) && isPlace(first, last)) {
      listEnd = last
      changed.set(s, [{ ...s, type: 'LOCATION' }])
    }
  }
  const read = changed.size === 0 ? spans : spans.flatMap(s => changed.get(s) ?? [s])
  const unlisted = unlistedPlaces(text, tokens, language, afterPreposition, read)
  return unlisted.length === 0 ? read : [...read, ...unlisted]
}

/**
 * Places no list holds, right after a preposition of place: capitalised words joined by a particle,
 * maybe with a capitalised article first ("en Las Palmas de Gran Canaria", "à Saint-Jean-de-Luz" is
 * one word). A name without a particle ("en Real Madrid") is left to the other finders, and none
 * is where a person or organisation was found in its words ("à Marie de France", "a Pedro de la
 * Vega", "en Banco de España").
 */
function unlistedPlaces (text: string, tokens: Token[], language: string, afterPreposition: (i: number) => boolean, spans: readonly Span[]): Span[] {
  const particles = own(UNLISTED_PLACE_PARTICLES, language)
  if (particles === undefined) return []
  const small = functionWords(language)
  const articles = determiners(language)
  const capitalised = (k: number): boolean => tokens[k]?.kind === 'word' && tokens[k]!.cap && !tokens[k]!.sentenceStart && spaced(text, tokens[k - 1]!, tokens[k]!)
  const nameWord = (k: number): boolean => capitalised(k) && !small.has(tokens[k]!.folded)
  const found: Span[] = []
  for (let i = 1; i < tokens.length; i++) {
    if (!capitalised(i) || !afterPreposition(i)) continue
    let k = articles.has(tokens[i]!.folded) ? i + 1 : i
    if (!nameWord(k)) continue
    while (nameWord(k + 1)) k++
    let last = -1
    for (;;) {
      let j = k + 1
      const particle = tokens[j]
      if (particle === undefined || particle.cap || !particles.has(particle.folded) || !spaced(text, tokens[k]!, particle)) break
      if (PARTICLE_ARTICLES.has(tokens[j + 1]?.folded ?? '') && !tokens[j + 1]!.cap && spaced(text, particle, tokens[j + 1]!)) j++
      if (!nameWord(j + 1)) break
      k = j + 1
      while (nameWord(k + 1)) k++
      last = k
    }
    if (last === -1) continue
    const [start, end] = [tokens[i]!.start, tokens[last]!.end]
    if (!spans.some(s => (s.type === 'PERSON' || s.type === 'ORGANIZATION') && s.start < end && s.end > start)) found.push(span('LOCATION', start, end, PRIORITY.LOCATION))
    i = last
  }
  return found
}

/** The places (first and last token) of tokens first to last when they are two or more known places joined by "&", else undefined. */
function joinedPlaces (text: string, tokens: Token[], first: number, last: number, isPlace: (first: number, last: number) => boolean): Array<[number, number]> | undefined {
  const parts: Array<[number, number]> = []
  let start = first
  for (let k = first; k < last; k++) {
    if (!AMPERSAND.test(text.slice(tokens[k]!.end, tokens[k + 1]!.start))) continue
    parts.push([start, k])
    start = k + 1
  }
  parts.push([start, last])
  return parts.length > 1 && parts.every(([a, b]) => isPlace(a, b)) ? parts : undefined
}
