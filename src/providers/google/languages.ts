/** The languages the free Google Translate endpoint takes: a static list, since that endpoint publishes none. */
import type { LanguagePair } from '../../core/ports.js'
import { own } from '../../lib/own.js'

/**
 * Google Translate's languages as BCP 47 canonical tags, taken from the language table of
 * Google's documentation (cloud.google.com/translate/docs/languages, the 133 languages offered
 * before the 2024 expansion, which the free endpoint serves too). STATIC: the free endpoint
 * (translate_a/single) has no language list, so this changes only when this file does.
 */
const LANGUAGES: readonly string[] = [
  'af', 'ak', 'am', 'ar', 'as', 'ay', 'az', 'be', 'bg', 'bho', 'bm', 'bn', 'bs', 'ca', 'ceb', 'ckb',
  'co', 'cs', 'cy', 'da', 'de', 'doi', 'dv', 'ee', 'el', 'en', 'eo', 'es', 'et', 'eu', 'fa', 'fi',
  'fil', 'fr', 'fy', 'ga', 'gd', 'gl', 'gn', 'gu', 'ha', 'haw', 'he', 'hi', 'hmn', 'hr', 'ht',
  'hu', 'hy', 'id', 'ig', 'ilo', 'is', 'it', 'ja', 'jv', 'ka', 'kk', 'km', 'kn', 'ko', 'kok', 'kri', 'ku',
  'ky', 'la', 'lb', 'lg', 'ln', 'lo', 'lt', 'lus', 'lv', 'mai', 'mg', 'mi', 'mk', 'ml', 'mn',
  'mni-Mtei', 'mr', 'ms', 'mt', 'my', 'ne', 'nl', 'no', 'nso', 'ny', 'om', 'or', 'pa', 'pl', 'ps',
  'pt', 'qu', 'ro', 'ru', 'rw', 'sa', 'sd', 'si', 'sk', 'sl', 'sm', 'sn', 'so', 'sq', 'sr', 'st',
  'su', 'sv', 'sw', 'ta', 'te', 'tg', 'th', 'ti', 'tk', 'tr', 'ts', 'tt', 'ug', 'uk', 'ur', 'uz',
  'vi', 'xh', 'yi', 'yo', 'zh-CN', 'zh-TW', 'zu'
]

/**
 * Where Google's own code differs from the canonical tag (it keeps the deprecated iw and jw, calls
 * Filipino tl, and Konkani gom where BCP 47 has kok), plus aliases listed so that requests for zh,
 * zh-Hans(-*) and zh-Hant(-*) reach it: core looks a requested tag up by its fallback chain, which
 * never leads to zh-CN.
 */
const GOOGLE_CODE: Readonly<Record<string, string>> = {
  he: 'iw',
  jv: 'jw',
  fil: 'tl',
  kok: 'gom',
  zh: 'zh-CN',
  'zh-Hans': 'zh-CN',
  'zh-Hant': 'zh-TW'
}

/** Every tag this adapter answers: the languages and the aliases. */
export const GOOGLE_TAGS: readonly string[] = [...LANGUAGES, ...Object.keys(GOOGLE_CODE).filter(tag => !LANGUAGES.includes(tag))]

/** The code to send Google for a canonical tag; tags it does not know go as they are. */
export function googleCode (tag: string): string {
  return own(GOOGLE_CODE, tag) ?? tag
}

/** Every ordered pair of different tags. */
export function googlePairs (): LanguagePair[] {
  const pairs: LanguagePair[] = []
  for (const from of GOOGLE_TAGS) {
    for (const to of GOOGLE_TAGS) if (from !== to) pairs.push({ from, to })
  }
  return pairs
}
