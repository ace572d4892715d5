/**
 * Apertium names languages in its mode names with ISO 639-1 or 639-3 codes plus an optional
 * `_variant` ("eng", "es", "cat_valencia", "por_BR", "oc_aran", "hbs_HR"). These helpers turn
 * them into canonical BCP 47 tags. The ISO 639-3 -> 639-1 step is Intl's (CLDR language
 * aliases: "eng" -> "en", "glg" -> "gl", "hbs" -> "sr-Latn"); only the variant suffixes,
 * which no registry maps, need the small tables below.
 */
import { own } from '../../lib/own.js'

/** Variant suffixes that are registered BCP 47 variant subtags under another spelling (or the same). */
const VARIANT_SUBTAGS: Record<string, string> = {
  valencia: 'valencia', // eng-cat_valencia, spa-cat_valencia: the AVL/GVA norm
  aran: 'aranes', // es-oc_aran, oc_aran-ca: Aranese Occitan
  gascon: 'gascon' // fra-oci_gascon
}

/**
 * Macrolanguages whose "variants" are standard languages of their own: Serbo-Croatian
 * `hbs_BS|HR|SR` are Bosnian, Croatian and (Latin) Serbian.
 */
const STANDARDS: Record<string, Record<string, string>> = {
  hbs: { BS: 'bs', HR: 'hr', SR: 'sr-Latn' }
}

/** The canonical form of a BCP 47 tag ("PT-br" -> "pt-BR"), or undefined when it is not one. */
export function canonicalTag (tag: string): string | undefined {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(tag)) return undefined
  try {
    return Intl.getCanonicalLocales(tag)[0]
  } catch {
    return undefined
  }
}

/** The language subtag of a canonical tag ("pt-BR" -> "pt"). */
export function baseLanguage (tag: string): string {
  const dash = tag.indexOf('-')
  return dash === -1 ? tag : tag.slice(0, dash)
}

/** Tags to try for a requested tag, most specific first ("sr-Latn-RS" -> ["sr-Latn-RS", "sr-Latn", "sr"]). */
export function fallbackTags (tag: string): string[] {
  const parts = tag.split('-')
  const chain: string[] = []
  for (let n = parts.length; n >= 1; n--) chain.push(parts.slice(0, n).join('-'))
  return chain
}

/** The BCP 47 tag of an Apertium language code with optional variant, or undefined when BCP 47 cannot name it. */
export function tagForCode (code: string, variant?: string): string | undefined {
  if (!/^[a-z]{2,3}$/.test(code)) return undefined
  const language = canonicalTag(code)
  if (language === undefined) return undefined
  if (variant === undefined) return language
  const standards = own(STANDARDS, code)
  const standard = standards === undefined ? undefined : own(standards, variant)
  if (standard !== undefined) return standard
  // a two-letter upper-case variant is a region: por_BR, eng_US
  if (/^[A-Z]{2}$/.test(variant)) return canonicalTag(`${language}-${variant}`)
  const subtag = own(VARIANT_SUBTAGS, variant)
  return subtag === undefined ? undefined : canonicalTag(`${language}-${subtag}`)
}

/**
 * The tags a mode's source side can be asked for: a plain macrolanguage analyser reads all of
 * its standards ("hbs" reads Serbian, Croatian and Bosnian), anything else reads its own tag.
 */
export function sourceTagsForCode (code: string, variant?: string): string[] {
  const tag = tagForCode(code, variant)
  if (tag === undefined) return []
  const standards = variant === undefined ? Object.values(own(STANDARDS, code) ?? {}) : []
  return [...new Set([tag, ...standards])]
}
