import { findNumbers, type CountryCode } from 'libphonenumber-js/max'
import { PRIORITY, span, type Span } from './spans.js'

/** The country whose national numbers ("01 23 45 67 89") a text in this language most likely holds. */
export const PHONE_REGIONS: Readonly<Record<string, CountryCode>> = { en: 'US', fr: 'FR', de: 'DE', es: 'ES', it: 'IT', pt: 'PT', nl: 'NL' }

// a text of nothing but digit groups makes the matcher try every group; past this many misses it stops
const MAX_TRIES = 5000
const EXTENSION_WORD = /ext|x|#|poste|durchwahl|anexo|interno|toestel|ramal/i

/** Valid phone numbers (international, or national to the region), with their E.164 form as value. */
export function findPhones (text: string, region: CountryCode | undefined): Span[] {
  if (!/[0-9][^0-9]{0,3}[0-9][^0-9]{0,3}[0-9][^0-9]{0,3}[0-9]/.test(text)) return []
  // maxTries is an option of the matcher that the published types leave out
  const options = { v2: true, maxTries: MAX_TRIES, ...(region === undefined ? {} : { defaultCountry: region }) } as { v2: true, defaultCountry?: CountryCode }
  const found: Span[] = []
  for (const hit of findNumbers(text, options)) {
    let end = hit.endsAt
    if (hit.number.ext !== undefined) {
      // "…0958; 12": the matcher read a following number as an extension; keep the number only
      const written = text.slice(hit.startsAt, end)
      const digitsEnd = written.lastIndexOf(hit.number.ext)
      if (!EXTENSION_WORD.test(written)) end = hit.startsAt + trimEnd(written.slice(0, digitsEnd).replace(/[\s;,]*$/, '')).length
    }
    found.push(span('PHONE_NUMBER', hit.startsAt, end, PRIORITY.PHONE_NUMBER, hit.number.number))
  }
  return found
}

const trimEnd = (s: string): string => s.replace(/[^0-9)]+$/, '')
