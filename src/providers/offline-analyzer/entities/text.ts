/** Lower case without accents ("Élysée" → "elysee", "Straße" → "strasse"), for accent-insensitive lookups. */
export function fold (word: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(word)) return word.toLowerCase()
  return word.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase()
    .replace(/ß/g, 'ss').replace(/œ/g, 'oe').replace(/æ/g, 'ae').replace(/[’ʼ]/g, "'")
}

/** The base subtag of a language tag, lower case ("pt-BR" → "pt"). */
export function baseLanguage (language: string): string {
  const dash = language.search(/[-_]/)
  return (dash === -1 ? language : language.slice(0, dash)).toLowerCase()
}

const UPPER = /^\p{Lu}/u
const LOWER = /\p{Ll}/u

/** Whether a word starts with a capital letter. */
export const isCapitalised = (word: string): boolean => UPPER.test(word)

/** Whether a word of letters has no lower-case letter ("NATO", "NW"). */
export const isAllCaps = (word: string): boolean => UPPER.test(word) && !LOWER.test(word)
