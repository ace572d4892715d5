/**
 * Language codes as DeepL writes them, to and from this service's BCP 47 tags. DeepL's codes are
 * tags in upper case (`EN`, `EN-US`, `PT-BR`, `ZH-HANT`); any case is read. The bare targets `EN`
 * and `PT`, which DeepL keeps only "for backward compatibility" (its docs ask for a region), are
 * read as `en-US` and `pt-PT`, as this service's DeepL engine sends them (providers/deepl/codes.ts);
 * a service knowing only the base language serves the regional tag through core's fallback.
 */
import { own } from '../../lib/own.js'

/** The variant a bare DeepL target stands for. */
export const BARE_TARGET: Readonly<Record<string, string>> = { en: 'en-US', pt: 'pt-PT' }
/** The regional targets DeepL lists for a language in place of its bare code. */
export const REGIONAL_TARGETS: Readonly<Record<string, readonly string[]>> = { en: ['en-GB', 'en-US'], pt: ['pt-BR', 'pt-PT'] }

/** The canonical tag of a code, or the code as given (core then answers a 400 naming the field). */
function canonical (code: string): string {
  try {
    return Intl.getCanonicalLocales(code)[0] ?? code
  } catch {
    return code
  }
}

/** A DeepL source code as a tag (`EN` -> `en`, `en-gb` -> `en-GB`). */
export function sourceFromDeepL (code: string): string {
  return canonical(code)
}

/** A DeepL target code as a tag: `EN-US` -> `en-US`, bare `EN` -> `en-US`, `PT` -> `pt-PT`, `ZH-HANS` -> `zh-Hans`. */
export function targetFromDeepL (code: string): string {
  const tag = canonical(code)
  return own(BARE_TARGET, tag) ?? tag
}

/** DeepL's code for a base language where it differs: Norwegian is Bokmål, `NB` (an engine's `no`). */
const DEEPL_BASE: Readonly<Record<string, string>> = { no: 'nb' }
const deeplBase = (tag: string): string => {
  const [base, ...rest] = tag.split('-')
  const named = own(DEEPL_BASE, base!.toLowerCase())
  return named === undefined ? tag : [named, ...rest].join('-')
}

/** A tag as DeepL writes a target (`pt-BR` -> `PT-BR`, `zh-Hant` -> `ZH-HANT`, `no` -> `NB`). */
export function toDeepL (tag: string): string {
  return deeplBase(tag).toUpperCase()
}

/**
 * A tag as DeepL writes a source language: its base language (`en-GB` -> `EN`). DeepL always
 * names one: text with nothing to detect (`und`, copied unchanged) is answered `EN`, as LibreTranslate does.
 */
export function sourceToDeepL (tag: string): string {
  return tag === 'und' ? 'EN' : deeplBase(tag.split('-')[0]!).toUpperCase()
}
