/** BCP 47 language tags as the API takes them: matched case-insensitively, answered canonical. */
import { invalidField, type FieldPath } from '../errors.js'

/** The tag of a text whose language nobody could tell (BCP 47's "undetermined"); a text with nothing to detect (numbers, emoji, a URL alone) is copied unchanged by translation. */
export const UNDETERMINED = 'und'

/** The canonical form of a BCP 47 tag ("EN-us" -> "en-US"), or undefined when it is malformed. */
export function tryCanonicalTag (tag: string): string | undefined {
  if (typeof tag !== 'string' || tag.length === 0 || tag.length > 64) return undefined
  // Intl accepts "_" in some engines; BCP 47 does not
  if (!/^[A-Za-z0-9-]+$/.test(tag)) return undefined
  try {
    return Intl.getCanonicalLocales(tag)[0]
  } catch {
    return undefined
  }
}

/** The canonical form of a tag; a malformed one is a 400 at `path`. */
export function canonicalTag (tag: string, path: FieldPath): string {
  const canonical = tryCanonicalTag(tag)
  if (canonical === undefined) throw invalidField(path, `"${tag}" is not a well-formed BCP 47 language tag`)
  return canonical
}

/** The language subtag of a canonical tag ("pt-BR" -> "pt", "zh-Hant-TW" -> "zh"). */
export function baseLanguage (tag: string): string {
  const dash = tag.indexOf('-')
  return (dash === -1 ? tag : tag.slice(0, dash)).toLowerCase()
}

/** Whether two tags share their language subtag ("en" matches "en-GB"). */
export function sameBase (a: string, b: string): boolean {
  return baseLanguage(a) === baseLanguage(b)
}

/**
 * Candidate tags to try for a requested tag, most specific first:
 * "zh-Hant-TW" -> ["zh-Hant-TW", "zh-Hant", "zh"]. Services that only know the
 * base language are reached through the last one.
 */
export function fallbackChain (tag: string): string[] {
  const parts = tag.split('-')
  const chain: string[] = []
  for (let n = parts.length; n >= 1; n--) chain.push(parts.slice(0, n).join('-'))
  // Norwegian: the detector answers Bokmål ("nb"), engines list "no" (OpenAI's, Google's) or "nb" (Apertium's, DeepL's): one serves the other
  const other = NORWEGIAN[parts[0]!]
  if (other !== undefined) chain.push(other)
  return chain
}

const NORWEGIAN: Readonly<Record<string, string>> = { nb: 'no', no: 'nb' }
