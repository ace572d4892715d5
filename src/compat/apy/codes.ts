/**
 * Language codes as apertium-apy writes them: ISO 639-3 with the rest of the tag after `_`
 * (`eng`, `por_BR`, `cat_valencia`), to and from this service's BCP 47 tags. ISO 639-1 -> 639-3
 * comes from the `iso-639-3` package's table; the way back is Intl's (CLDR's aliases: `eng` ->
 * `en`), as core reads any tag.
 */
// the mapping's own module: the package's index also loads its table of every language (~3 MB of heap)
import { iso6393To1 } from 'iso-639-3/iso6393-to-1.js'

/** ISO 639-1 -> 639-3: the first 639-3 code naming it (the macrolanguage where there is one: `ar` -> `ara`). */
const ONE_TO_THREE = new Map<string, string>()
for (const [three, one] of Object.entries(iso6393To1)) if (!ONE_TO_THREE.has(one)) ONE_TO_THREE.set(one, three)

/** A BCP 47 tag as apy writes it: `pt-BR` -> `por_BR`. */
export function toApy (tag: string): string {
  const [base = '', ...rest] = tag.split('-')
  return [ONE_TO_THREE.get(base) ?? base, ...rest].join('_')
}

/** An apy code as a tag core reads (`por_BR` -> `por-BR`, which core takes as `pt-BR`). */
export function fromApy (code: string): string {
  return code.replace(/_/g, '-')
}
