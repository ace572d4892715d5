/**
 * Offline entity extraction. English reads names with compromise and dates, numbers and amounts
 * with wink-nlp; French, German, Spanish, Italian, Portuguese and Dutch use heuristics built on the
 * platform's locale data (month and country names) and compromise's given names. Every language
 * finds e-mail addresses, URLs, phone numbers (libphonenumber-js) and street addresses.
 */
import { OFFLINE_LANGUAGES } from '../languages.js'
import type { FoundEntity } from '../../../core/analysis/results.js'
import { findAddresses } from './addresses.js'
import { findAmounts } from './amounts.js'
import { CITIES_NAMED_LIKE_PERSONS } from './cities.js'
import { findEmails, findUrls } from './contacts.js'
import { englishSpans, lexiconWords, loadEnglishModels, type EnglishModels } from './english.js'
import { entitiesOf } from './mentions.js'
import { nativeLexicon, nativeSpans, type NativeLexicon } from './native.js'
import { findOrganizations } from './organizations.js'
import { findPhones, PHONE_REGIONS } from './phones.js'
import { placesInContext, type PlaceLexicon } from './place-context.js'
import { placeIndex } from './places.js'
import { baseLanguage } from './text.js'
import { tokenize } from './tokens.js'

export const ENTITY_LANGUAGES: readonly string[] = OFFLINE_LANGUAGES.entities

/** findEntities was called before loadEntities() finished. */
export class EntityModelsNotLoadedError extends Error {
  constructor () {
    super('The entity models are not loaded: await loadEntities() first.')
    this.name = 'EntityModelsNotLoadedError'
  }
}

interface Models {
  english: EnglishModels
  /** Where a person of compromise's is a place by its context ("flying to Adelaide"). */
  englishPlaces: PlaceLexicon
  firstNames: string[]
  cities: string[]
  /** Built on first use per language. */
  native: Map<string, NativeLexicon>
}

let models: Models | undefined
let loading: Promise<void> | undefined

/** Loads compromise and wink-nlp once (later calls share the first); findEntities needs it done. */
export function loadEntities (): Promise<void> {
  loading ??= (async () => {
    const english = await loadEnglishModels()
    const cities = lexiconWords(english, ['City'])
    models = {
      english,
      englishPlaces: { language: 'en', places: placeIndex('en', [...cities, ...CITIES_NAMED_LIKE_PERSONS]) },
      firstNames: lexiconWords(english, ['FirstName', 'MaleName', 'FemaleName']),
      cities,
      native: new Map()
    }
    // build the other languages' lexicons now rather than on a request
    for (const language of ENTITY_LANGUAGES) if (language !== 'en') lexiconOf(models, language)
  })().catch(err => {
    loading = undefined
    throw err
  })
  return loading
}

function lexiconOf (loaded: Models, language: string): NativeLexicon {
  let lexicon = loaded.native.get(language)
  if (lexicon === undefined) loaded.native.set(language, lexicon = nativeLexicon(language, loaded.firstNames, loaded.cities))
  return lexicon
}

/**
 * The entities of `text` in `language` (a tag such as "fr" or "en-GB", whose region orders numeric
 * dates), in order of first mention, with short forms merged into full names and offsets in code
 * points. A language outside
 * ENTITY_LANGUAGES gets the language-neutral finds only (e-mail, URL, phone number, number).
 */
export function findEntities (text: string, language: string): FoundEntity[] {
  if (models === undefined) throw new EntityModelsNotLoadedError()
  const base = baseLanguage(language)
  const tokens = tokenize(text)
  if (base === 'en') {
    const contacts = [...findEmails(text), ...findUrls(text)]
    const spans = [
      ...contacts, ...findPhones(text, PHONE_REGIONS.en),
      ...findAddresses(text, tokens, 'en'), ...findOrganizations(text, tokens, 'en'), ...englishSpans(text, models.english, contacts, language),
      // amounts wink does not read as money ("EUR 12 million")
      ...findAmounts(text, tokens, 'en').filter(s => s.type === 'PRICE')
    ]
    return entitiesOf(text, tokens, placesInContext(text, tokens, spans, models.englishPlaces), 'en')
  }
  if (ENTITY_LANGUAGES.includes(base)) return entitiesOf(text, tokens, nativeSpans(text, tokens, lexiconOf(models, base), language), base)
  const spans = [...findEmails(text), ...findUrls(text), ...findPhones(text, undefined), ...findAmounts(text, tokens, base)]
  return entitiesOf(text, tokens, spans, base)
}
