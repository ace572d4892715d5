/**
 * Which indefinite article a word takes by its sound ("an hour", "a user", "an 8-hour day").
 * The exception lists are retext-indefinite-article's (MIT, Titus Wormer): its package exports the
 * plugin only, so they are copied here; a trailing `*` is a prefix, an entry with capitals matches
 * that case only.
 */

const NEEDS_A = [
  'U', 'UN', 'eucalypt*', 'eucha*', 'euchr*', 'euclid*', 'eucrite', 'eucryphia', 'eugen*', 'eukar*', 'eulog*',
  'eunice', 'eunuch', 'euph*', 'eura*', 'eure*', 'euro*', 'eury*', 'eutha*', 'ewe', 'ewer', 'habitual',
  'hallucin*', 'herb*', 'heredit*', 'hilarious*', 'histor*', 'horrend*', 'horrif*', 'hotel*', 'ms', 'once',
  'one', 'one-*', 'one/', 'oneanother', 'oneberry', 'onefold*', 'oneheart*', 'oneness*', 'oneself*',
  'onetime*', 'oneway', 'onewhere*', 'oneyear', 'ubiq*', 'uefa', 'ugandan', 'uk', 'ukase', 'ukrain*',
  'ukulele', 'ululated', 'ululation', 'unanim*', 'unary', 'unesco', 'unhcr', 'uniam*', 'uniart*', 'uniat*',
  'uniaur*', 'uniax*', 'unibas*', 'unible', 'unicycl*', 'unidirect*', 'unif*', 'union*', 'uniq*', 'unist',
  'unit*', 'univ*', 'uran*', 'urate', 'uri*', 'url', 'urologist', 'uruguay', 'uruguayan', 'uruguayans', 'us',
  'usab*', 'usage', 'usb', 'use*', 'using', 'usu*', 'utah', 'uten*', 'uter*', 'util*', 'utop*', 'utrecht',
  'uttoxeter', 'uvula', 'uvular', 'uyghur'
]

const NEEDS_AN = [
  'IOU', 'MA', 'MS', 'f', 'fbi', 'fda', 'fm', 'h', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'habitual', 'hallucin*',
  'hauteur', 'hb', 'heir*', 'herb*', 'heredit*', 'hilarious*', 'histor*', 'hiv', 'homage', 'honest*', 'honor*',
  'honour*', 'horrend*', 'horrif*', 'hotel*', 'hour*', 'html', 'l', 'lbw', 'lcd', 'm', 'mba', 'mdast', 'mpg',
  'mph', 'mri', 'msc', 'mtv', 'n', 'nba', 'nbc', 'nfl', 'ngo', 'nhl', 'nlcst', 'npm', 'nvidia', 'r&d', 'r',
  'raf', 's', 'sgml', 'sms', 'sos', 'spf', 'std', 'suv', 'x', 'x-ray', 'x-rays', 'xbox', 'xmas', 'xml', 'α'
]

interface WordList {
  sensitive: Set<string>
  insensitive: Set<string>
  prefixes: string[]
}

function wordList (entries: readonly string[]): WordList {
  const list: WordList = { sensitive: new Set(), insensitive: new Set(), prefixes: [] }
  for (const e of entries) {
    if (e.endsWith('*')) list.prefixes.push(e.slice(0, -1).toLowerCase())
    else if (e === e.toLowerCase()) list.insensitive.add(e)
    else list.sensitive.add(e)
  }
  return list
}

function listed (list: WordList, word: string): boolean {
  const lower = word.toLowerCase()
  return list.sensitive.has(word) || list.insensitive.has(lower) || list.prefixes.some(p => lower.startsWith(p))
}

const A = wordList(NEEDS_A)
const AN = wordList(NEEDS_AN)

/** The article `word` takes: 'a', 'an', or undefined when either is said or it cannot tell (acronyms it does not list). */
export function articleFor (word: string): 'a' | 'an' | undefined {
  if (/^\p{N}/u.test(word)) return articleForNumber(word)
  const a = listed(A, word)
  const an = listed(AN, word)
  if (a && an) return undefined
  if (a) return 'a'
  if (an) return 'an'
  const lower = word.toLowerCase()
  // an all-capitals word may be read letter by letter (an FAQ, a FAQ): no opinion
  if (word !== lower && word === word.toUpperCase()) return undefined
  return /^[aeiou]/.test(lower) ? 'an' : 'a'
}

/** Numbers read aloud: 8, 11, 18 and their thousands ("eleven thousand") start with a vowel sound. */
function articleForNumber (word: string): 'a' | 'an' | undefined {
  const digits = /^[\p{N},]+/u.exec(word)![0].replaceAll(',', '')
  if (!/^\d+$/.test(digits)) return undefined
  if (digits.startsWith('8')) return 'an'
  const lead = digits.length % 3 === 2 ? digits.slice(0, 2) : ''
  return lead === '11' || lead === '18' ? 'an' : 'a'
}
