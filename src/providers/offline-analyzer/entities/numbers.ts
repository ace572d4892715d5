/** Numbers as written in the seven languages, currencies and scale words ("1,5 Mio. €"). */
import { own } from '../../../lib/own.js'

/**
 * The value of a number written with digits and separators. Where both "." and "," appear, the last
 * one marks decimals ("1.234,56", "1,234.56"); several of one kind group thousands ("1.000.000").
 * A lone separator before exactly three digits groups thousands when it is not the language's
 * decimal mark ("1.234" in German, "1,234" in English) and marks decimals otherwise.
 */
export function parseDigits (raw: string, decimalComma: boolean): number | undefined {
  const compact = raw.replace(/[\s\u00a0\u202f']/g, '')
  if (!/^[0-9]+(?:[.,][0-9]+)*$/.test(compact)) return undefined
  const points = compact.split('.').length - 1
  const commas = compact.split(',').length - 1
  const decimalMark = decimalComma ? ',' : '.'
  let decimal: string | undefined
  if (points > 0 && commas > 0) {
    decimal = compact.lastIndexOf('.') > compact.lastIndexOf(',') ? '.' : ','
  } else if (points + commas === 1) {
    const sep = points === 1 ? '.' : ','
    const after = compact.length - compact.indexOf(sep) - 1
    decimal = after !== 3 || compact.startsWith('0' + sep) || sep === decimalMark ? sep : undefined
  }
  const decimalAt = decimal === undefined ? -1 : compact.lastIndexOf(decimal)
  const whole = decimalAt === -1 ? compact : compact.slice(0, decimalAt)
  // thousands groups: one to three digits, then groups of exactly three, all with one separator
  const groups = whole.split(/[.,]/)
  if (groups.length > 1 && (groups[0]!.length > 3 || groups.slice(1).some(g => g.length !== 3) || new Set(whole.replace(/[0-9]/g, '')).size > 1)) return undefined
  const plain = groups.join('') + (decimalAt === -1 ? '' : '.' + compact.slice(decimalAt + 1))
  const value = Number(plain)
  return Number.isFinite(value) ? value : undefined
}

/** A number as a plain decimal string ("1200.5", "1000000000"). */
export const numberValue = (n: number): string => Number.isInteger(n) && Math.abs(n) >= 1e21 ? BigInt(n).toString() : String(Number(n.toPrecision(15)))

// currency signs (and signs with a country prefix: "US$", "R$")
export const CURRENCY_SIGNS: Readonly<Record<string, string>> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  '₩': 'KRW',
  '₽': 'RUB',
  '₺': 'TRY',
  '₪': 'ILS',
  '₫': 'VND',
  '₴': 'UAH',
  '₦': 'NGN',
  '₱': 'PHP',
  '฿': 'THB',
  '₿': 'BTC'
}
export const SIGN_PREFIXES: Readonly<Record<string, string>> = { us: 'USD', r: 'BRL', c: 'CAD', a: 'AUD', nz: 'NZD', hk: 'HKD', s: 'SGD', mx: 'MXN' }

/** ISO 4217 codes, upper case as written ("EUR", "CHF"). */
export const CURRENCY_CODES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'))

// currency words of the seven languages, folded; undefined: a currency, but which one is unclear ("francs", "pesos")
export const CURRENCY_WORDS: ReadonlyMap<string, string | undefined> = new Map<string, string | undefined>([
  ...['dollar', 'dollars', 'dolar', 'dolares', 'dollaro', 'dollari', 'dolares', 'dollaren', 'bucks'].map(w => [w, 'USD'] as const),
  ...['euro', 'euros', 'euri', 'eur'].map(w => [w, 'EUR'] as const),
  ...['pound', 'pounds', 'sterling', 'sterlina', 'sterline', 'esterlina', 'esterlinas'].map(w => [w, 'GBP'] as const),
  ...['yen', 'yens', 'ienes', 'iene'].map(w => [w, 'JPY'] as const),
  ...['yuan', 'yuans', 'renminbi'].map(w => [w, 'CNY'] as const),
  ...['franken', 'fr'].map(w => [w, 'CHF'] as const),
  ...['reais'].map(w => [w, 'BRL'] as const),
  ...['rupee', 'rupees', 'roupies', 'rupien', 'rupias', 'rupie'].map(w => [w, 'INR'] as const),
  ...['ruble', 'rubles', 'rouble', 'roubles', 'rubel', 'rublos', 'rubli', 'roebel'].map(w => [w, 'RUB'] as const),
  ...['franc', 'francs', 'franchi', 'franco', 'francos', 'frank', 'pesos', 'peso', 'kronen', 'kronor', 'kroner', 'couronnes', 'coronas'].map(w => [w, undefined] as const)
])

// scale words, folded; they multiply ("mil millones" = 1e3 × 1e6)
const SCALES: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  en: { thousand: 1e3, thousands: 1e3, k: 1e3, million: 1e6, millions: 1e6, mn: 1e6, m: 1e6, billion: 1e9, billions: 1e9, bn: 1e9, b: 1e9, trillion: 1e12, trillions: 1e12, tn: 1e12 },
  fr: { mille: 1e3, k: 1e3, million: 1e6, millions: 1e6, m: 1e6, milliard: 1e9, milliards: 1e9, md: 1e9, mds: 1e9, mrd: 1e9, mrds: 1e9 },
  de: { tausend: 1e3, tsd: 1e3, million: 1e6, millionen: 1e6, mio: 1e6, milliarde: 1e9, milliarden: 1e9, mrd: 1e9, billion: 1e12, billionen: 1e12, bio: 1e12 },
  es: { mil: 1e3, millon: 1e6, millones: 1e6, mm: 1e6, billon: 1e12, billones: 1e12 },
  it: { mila: 1e3, mille: 1e3, milione: 1e6, milioni: 1e6, mln: 1e6, miliardo: 1e9, miliardi: 1e9, mld: 1e9, mrd: 1e9 },
  pt: { mil: 1e3, milhao: 1e6, milhoes: 1e6, mi: 1e6, bilhao: 1e9, bilhoes: 1e9, bi: 1e9 },
  nl: { duizend: 1e3, miljoen: 1e6, miljoenen: 1e6, mln: 1e6, miljard: 1e9, miljarden: 1e9, mld: 1e9, mrd: 1e9 }
}

/** The factor a scale word stands for in `language` ("Mio" → 1e6), if it is one. */
export const scaleOf = (language: string, folded: string): number | undefined => {
  const scales = own(SCALES, language)
  return scales === undefined ? undefined : own(scales, folded)
}

/** The currency a written sign, code or word names: its ISO code, null when it is a currency of unclear code, undefined when it is none. */
export function currencyOf (written: string, folded: string): string | null | undefined {
  const sign = own(CURRENCY_SIGNS, written)
  if (sign !== undefined) return sign
  if (written.length === 3 && CURRENCY_CODES.has(written)) return written
  if (CURRENCY_WORDS.has(folded)) return CURRENCY_WORDS.get(folded) ?? null
  return undefined
}

const UNITS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  a: 1,
  an: 1,
  dozen: 12
}
const ENGLISH_SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 }

/**
 * The value of an English number in digits, words or both ("1,200.5", "three hundred twenty",
 * "2.5 million", "1 billion"); undefined when it is not one.
 */
export function parseEnglishNumber (written: string): number | undefined {
  const words = written.toLowerCase().replace(/-/g, ' ').split(/\s+/).filter(w => w !== '' && w !== 'and')
  if (words.length === 0) return undefined
  let total = 0
  let current = 0
  let seen = false
  for (const word of words) {
    const digits = /^[0-9][0-9,.]*$/.test(word) ? parseDigits(word, false) : undefined
    const scale = own(ENGLISH_SCALES, word) ?? own(SCALES.en!, word)
    if (digits !== undefined) { current += digits; seen = true } else if (own(UNITS, word) !== undefined) { current += UNITS[word]!; seen = true } else if (scale !== undefined && seen) {
      if (scale === 100) current *= 100
      else { total += current * scale; current = 0 }
    } else return undefined
  }
  return seen ? total + current : undefined
}
