import type { EntityType } from '../../../core/analysis/results.js'
import { findAddresses } from './addresses.js'
import { findAmounts } from './amounts.js'
import { findEmails, findUrls } from './contacts.js'
import { findDates, monthNames, weekdayNames } from './dates.js'
import { givenNames, loneNameExclusions } from './given-names.js'
import { findOrganizations } from './organizations.js'
import { findOthers } from './others.js'
import { findPersons, type PersonLexicon } from './persons.js'
import type { PhraseIndex } from './phrases.js'
import { findPhones, PHONE_REGIONS } from './phones.js'
import { findPlaces, placeIndex } from './places.js'
import type { Span } from './spans.js'
import type { Token } from './tokens.js'
import { own } from '../../../lib/own.js'

/** What the finders of one language other than English know. */
export interface NativeLexicon {
  language: string
  places: PhraseIndex<EntityType>
  persons: PersonLexicon
}

/** The lexicon of `language`, built from the platform's locale data and compromise's name lists. */
export function nativeLexicon (language: string, firstNames: readonly string[], cities: readonly string[]): NativeLexicon {
  const months = monthNames(language)
  return {
    language,
    places: placeIndex(language, cities),
    persons: {
      language,
      given: givenNames(language, firstNames),
      loneExcluded: loneNameExclusions(language),
      notNames: new Set([...months.long.keys(), ...weekdayNames(language)])
    }
  }
}

/**
 * The spans found by the language's own heuristics: e-mail addresses, URLs, phone numbers, dates,
 * numbers and prices, addresses, places, organisations, persons and other proper names.
 */
export function nativeSpans (text: string, tokens: Token[], lexicon: NativeLexicon): Span[] {
  const { language } = lexicon
  return [
    ...findEmails(text),
    ...findUrls(text),
    ...findPhones(text, own(PHONE_REGIONS, language)),
    ...findDates(text, tokens, language),
    ...findAmounts(text, tokens, language),
    ...findAddresses(text, tokens, language),
    ...findPlaces(text, tokens, lexicon.places),
    ...findOrganizations(text, tokens, language),
    ...findPersons(text, tokens, lexicon.persons),
    ...findOthers(text, tokens, language)
  ]
}
