/** The languages the "openai" translator offers when OPENAI_LANGUAGES is not set. */

/**
 * 100 languages, canonical BCP 47 tags, most spoken first. Source: Ethnologue's ranking of
 * languages by total (first + second language) speakers, 2023 edition, read from memory and
 * approximate in its lower half. Languages without a settled written standard that general
 * chat models write reliably (Nigerian Pidgin, Magahi, Chhattisgarhi, Saraiki...) are skipped
 * and the next ones taken, so the list is "most used written languages". ISO 639-1 codes where
 * one exists (CLDR's choice: `fil`, `no`); Kurdish is both `ku` (Kurmanji) and `ckb` (Sorani)
 * because they are written in different scripts.
 */
export const TOP_LANGUAGES: readonly string[] = Object.freeze([
  'en', 'zh', 'hi', 'es', 'fr', 'ar', 'bn', 'pt', 'ru', 'ur',
  'id', 'de', 'ja', 'mr', 'te', 'tr', 'ta', 'yue', 'vi', 'fil',
  'ko', 'fa', 'ha', 'sw', 'jv', 'it', 'pa', 'gu', 'th', 'kn',
  'am', 'bho', 'pl', 'yo', 'my', 'or', 'uk', 'ml', 'ro', 'nl',
  'ig', 'uz', 'sd', 'az', 'ps', 'ne', 'si', 'ceb', 'ms', 'kk',
  'hu', 'el', 'cs', 'sv', 'he', 'zu', 'xh', 'af', 'so', 'rw',
  'mg', 'ht', 'ku', 'ckb', 'sr', 'hr', 'bs', 'bg', 'da', 'fi',
  'no', 'sk', 'lt', 'lv', 'sl', 'et', 'be', 'ka', 'hy', 'tg',
  'tk', 'ky', 'mn', 'km', 'lo', 'ug', 'as', 'mai', 'sn', 'ny',
  'om', 'ti', 'qu', 'ca', 'gl', 'eu', 'sq', 'mk', 'su', 'ak'
])

/**
 * Written varieties a model tells apart and clients ask for by name. Listed so a request for
 * pt-BR or zh-Hant reaches the model as that tag (the catalog picks the most specific tag a
 * translator lists) instead of being reduced to the bare language.
 */
export const VARIANTS: readonly string[] = Object.freeze([
  'en-GB', 'en-US', 'es-419', 'fr-CA', 'pt-BR', 'pt-PT', 'zh-Hans', 'zh-Hant', 'sr-Latn'
])

/** The default list: the 100 languages, then the variants. */
export const DEFAULT_LANGUAGES: readonly string[] = Object.freeze([...TOP_LANGUAGES, ...VARIANTS])
