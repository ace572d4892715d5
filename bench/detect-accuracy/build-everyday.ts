/**
 * Adds to src/providers/detector/wordlists.bin, per language, the words most often met in its
 * everyday text (the fortune cookies and Wesnoth's campaign dialogue that build-training.ts
 * gathers, none of them a text of either corpus), as Bloom filters named "everyday:<tag>" beside
 * the spelling lists (whose filters are copied as they are; older everyday lists are replaced).
 * The ensemble reads them for a lone word: "hallo", "dobranoc" are frequent in German's and
 * Polish's everyday text, where the Debian catalogs and CLDR have none of them.
 * Run after build-training.ts (its output is read) and build-wordlists.ts (which writes the file anew).
 *
 *   npx tsx bench/detect-accuracy/build-everyday.ts [--top 10000] [--min-count 3] [--min-words 20000] [--lists FILE] [--out FILE]
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { encodeWordLists, EVERYDAY, EVERYDAY_MAX_LETTERS, mergeWordLists, type WordList } from '../../src/providers/detector/wordlists.js'
import { forEachWord } from '../../src/providers/detector/words.js'
import { DEFAULT_EXTRA, isEveryday, readCorpus } from './corpus.js'

const { values: args } = parseArgs({
  options: {
    top: { type: 'string', default: '10000' },
    'min-count': { type: 'string', default: '3' },
    'min-words': { type: 'string', default: '20000' },
    extra: { type: 'string', default: DEFAULT_EXTRA },
    lists: { type: 'string', default: 'src/providers/detector/wordlists.bin' },
    out: { type: 'string', default: 'src/providers/detector/wordlists.bin' }
  }
})
const TOP = Number(args.top)
const MIN_COUNT = Number(args['min-count'])
/** Languages with fewer running words of everyday text get no list: their counts say little. */
const MIN_WORDS = Number(args['min-words'])
/** 16 bits a word: ~0.05% of other words read as held by a list. */
const BITS_PER_WORD = 16
const MAX_LETTERS = EVERYDAY_MAX_LETTERS

const counts = new Map<string, Map<string, number>>()
const totals = new Map<string, number>()
for (const s of readCorpus(args.extra)) {
  if (!isEveryday(s.source)) continue
  let words = counts.get(s.lang)
  if (words === undefined) counts.set(s.lang, words = new Map())
  forEachWord(s.text, word => {
    if (word.length > MAX_LETTERS) return
    words.set(word, (words.get(word) ?? 0) + 1)
    totals.set(s.lang, (totals.get(s.lang) ?? 0) + 1)
  })
}

const lists: WordList[] = []
const table: string[] = []
for (const [language, words] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
  const total = totals.get(language) ?? 0
  if (total < MIN_WORDS) continue
  const kept = [...words].filter(([, n]) => n >= MIN_COUNT).sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0)).slice(0, TOP).map(([w]) => w)
  lists.push({ language: `${EVERYDAY}${language}`, words: new Set(kept) })
  table.push(`${language} ${kept.length}/${total}`)
}
const added = encodeWordLists(lists, BITS_PER_WORD, MAX_LETTERS)
writeFileSync(args.out, mergeWordLists(readFileSync(args.lists), added, EVERYDAY))
console.log(table.join(', '))
console.log(`${lists.length} languages, ${lists.reduce((n, l) => n + l.words.size, 0)} words, ${(added.length / 1e6).toFixed(2)} MB more -> ${args.out}`)
