/**
 * Language codes as LibreTranslate writes them, to and from this service's BCP 47 tags.
 * LibreTranslate (libretranslate/language.py) takes its models' own codes, `pb` (Brazilian
 * Portuguese) and `zt` (Traditional Chinese), and their tags in any case (`pt-br`, `zh-Hant`);
 * its `/languages` lists the tags, `zh` (its Simplified Chinese model) as `zh-Hans`.
 */

/** LibreTranslate's model codes that are not tags of the language they name. */
const MODEL_CODES: Readonly<Record<string, string>> = { pb: 'pt-BR', zt: 'zh-Hant' }
/** Tags LibreTranslate lists under another name. */
const LISTED_AS: Readonly<Record<string, string>> = { zh: 'zh-Hans' }

/** A code a LibreTranslate client sends, as a tag (`pb` -> `pt-BR`, `zh-hant` -> `zh-Hant`); one that is no tag is returned as given (core then answers a 400 naming the field). */
export function fromLibreTranslate (code: string): string {
  const lower = code.toLowerCase()
  // own keys only: a code such as "constructor" is no model code
  if (Object.hasOwn(MODEL_CODES, lower)) return MODEL_CODES[lower]!
  try {
    return Intl.getCanonicalLocales(code)[0] ?? code
  } catch {
    return code
  }
}

/** A tag as LibreTranslate's `/languages` and `detect` write it (`zh` -> `zh-Hans`; `pt-BR`, `zh-Hant` as they are). */
export function toLibreTranslate (tag: string): string {
  return Object.hasOwn(LISTED_AS, tag) ? LISTED_AS[tag]! : tag
}
