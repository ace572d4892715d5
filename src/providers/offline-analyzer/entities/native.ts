import { findAddresses } from './addresses.js'
import { findAmounts } from './amounts.js'
import { findEmails, findUrls } from './contacts.js'
import { findDates, monthNames, weekdayNames } from './dates.js'
import { givenNames, loneNameExclusions } from './given-names.js'
import { findOrganizations } from './organizations.js'
import { findOthers } from './others.js'
import { findPersons, personsBeforeOrganizations, type PersonLexicon } from './persons.js'
import { findPhones, PHONE_REGIONS } from './phones.js'
import { placesInContext, type PlaceLexicon } from './place-context.js'
import { findPlaces, placeIndex } from './places.js'
import type { Span } from './spans.js'
import type { Token } from './tokens.js'
import { own } from '../../../lib/own.js'

/** What the finders of one language other than English know. */
export interface NativeLexicon extends PlaceLexicon {
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
 * numbers and prices, addresses, places, organisations, persons and other proper names; a person
 * ends where an organisation begins ("Ana Botín del Banco Santander"), and a person that a
 * preposition of place makes a place is one ("pour Santiago de Chile"). `tag`'s region
 * orders numeric dates (fr-CA).
 */
export function nativeSpans (text: string, tokens: Token[], lexicon: NativeLexicon, tag = lexicon.language): Span[] {
  const { language } = lexicon
  return placesInContext(text, tokens, personsBeforeOrganizations(tokens, [
    ...findEmails(text),
    ...findUrls(text),
    ...findPhones(text, own(PHONE_REGIONS, language)),
    ...findDates(text, tokens, language, tag),
    ...findAmounts(text, tokens, language),
    ...findAddresses(text, tokens, language),
    ...findPlaces(text, tokens, lexicon.places, language),
    ...findOrganizations(text, tokens, language),
    ...findPersons(text, tokens, lexicon.persons),
    ...findOthers(text, tokens, language)
  ]), lexicon)
}
