import type { EntityType } from '../../../core/analysis/results.js'
import { CITY_EXCLUSIONS, CITY_NAMES } from './cities.js'
import { PhraseIndex } from './phrases.js'
import { PRIORITY, span, type Span } from './spans.js'
import { fold } from './text.js'
import type { Token } from './tokens.js'
import { own } from '../../../lib/own.js'

// region codes that are not places, or are organisations
const NOT_PLACES = new Set(['ZZ', 'QO', 'XA', 'XB', 'EZ', 'AC', 'CP', 'DG', 'EA', 'IC', 'TA'])
const ORGANIZATIONS = new Set(['UN', 'EU'])
// continents and large regions (UN M.49 codes)
const AREAS = ['002', '005', '009', '013', '015', '019', '021', '029', '030', '034', '035', '039', '053', '142', '145', '150', '151', '154', '155', '419']

/** The regions (and UN, EU) a text in `language` may name: every region of the platform's locale data. */
export function regionIndex (language: string): PhraseIndex<EntityType> {
  const index = new PhraseIndex<EntityType>()
  const codes: string[] = [...AREAS]
  for (let a = 65; a <= 90; a++) for (let b = 65; b <= 90; b++) codes.push(String.fromCharCode(a, b))
  for (const style of ['long', 'short'] as const) {
    const names = new Intl.DisplayNames(language, { type: 'region', style, fallback: 'none' })
    for (const code of codes) {
      if (NOT_PLACES.has(code)) continue
      const name = cleanRegionName(names.of(code))
      if (name !== undefined) index.add(name, ORGANIZATIONS.has(code) ? 'ORGANIZATION' : 'LOCATION')
    }
  }
  return index
}

/** The places (and UN, EU) a text in `language` may name: its regions, plus cities. */
export function placeIndex (language: string, englishCities: readonly string[]): PhraseIndex<EntityType> {
  const index = regionIndex(language)
  const excluded = new Set(CITY_EXCLUSIONS[language] ?? [])
  for (const city of [...CITY_NAMES, ...englishCities]) if (!excluded.has(fold(city))) index.add(city, 'LOCATION')
  return index
}

/** A region's name as written in running text, or undefined for names that are codes or descriptions. */
function cleanRegionName (name: string | undefined): string | undefined {
  if (name === undefined) return undefined
  // "Hong Kong, RAE da China", "RAE de Macao (China)", "Sonderverwaltungsregion Hongkong"
  const plain = name.replace(/\s*\(.*\)$/, '').split(', ')[0]!.replace(/^Sonderverwaltungsregion /, '').trim()
  if (plain.length < 4 || /[0-9.]/.test(plain) || /^[A-Z]{2,}\b/.test(plain) || !/^\p{Lu}/u.test(plain)) return undefined
  return plain
}

// French writes the article of a place's name in lower case inside a sentence ("à la Réunion", "l'île de la Réunion")
const LOWER_CASE_ARTICLES: Readonly<Record<string, ReadonlySet<string>>> = { fr: new Set(['le', 'la', 'les', 'l']) }

/** Places named in the text: a capitalised first word starting a known name, or an article in lower case where the language writes it so. */
export function findPlaces (text: string, tokens: Token[], index: PhraseIndex<EntityType>, language: string): Span[] {
  const articles = own(LOWER_CASE_ARTICLES, language)
  const found: Span[] = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.kind !== 'word') continue
    const article = !t.cap && articles?.has(t.folded) === true && !t.sentenceStart && tokens[i + 1]?.cap === true
    if (!t.cap && !article) continue
    const hit = index.longestAt(text, tokens, i)
    if (hit === undefined || (article && hit.last === i)) continue
    const priority = hit.item === 'ORGANIZATION' ? PRIORITY.ORGANIZATION : PRIORITY.LOCATION
    found.push(span(hit.item, t.start, tokens[hit.last]!.end, priority))
    i = hit.last
  }
  return found
}
