/**
 * Tunes the word lists' weights (ensemble.ts, WORD_LIST_WEIGHTS): for each pair, accuracy on the
 * short corpus's tune part (core texts short, all core texts, long-tail short) and how many of
 * the greetings test's phrases are wrong. One detector; the weights are changed between runs.
 *
 *   npx tsx bench/detect-accuracy/tune-wordlists.ts [--grid 0:0:0:0,2:1:2:1]   miss:hit for a lone word, then for 2-3 words; --lists FILE: other word lists
 *   ... --split dev   the whole dev split, not only its tune part
 *   ... --grid 2:1:4:1:2:1   then the everyday words' gain for a lone word and for 2-3 words
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { createDetector } from '../../src/providers/detector/index.js'
import { CORE_LANGUAGES, DEFAULT_SHORT_CORPUS, readCorpus } from './corpus.js'

const { values: args } = parseArgs({ options: { grid: { type: 'string', default: '0:0:0:0,2:1:4:1' }, lists: { type: 'string' }, regression: { type: 'string' }, split: { type: 'string', default: 'tune' } } })
const isTune = (text: string): boolean => (createHash('sha256').update('tune\0').update(text).digest()[0] ?? 0) < 51
// --split dev: the whole dev split (5 times the texts; its fit part trained the lexicon and regression, the same for every weight)
const samples = readCorpus(DEFAULT_SHORT_CORPUS, 'dev').filter(s => (args.split === 'dev' || isTune(s.text)) && !/^cldr-(language|region|script|currency)$/.test(s.source))
// the greetings test's phrases, read from the test itself (object literals of strings)
const test = readFileSync('test/unit/providers/detector/greetings.test.ts', 'utf8')
const literal = (name: string): Record<string, string[]> => {
  const start = test.indexOf(`const ${name}`)
  const body = test.slice(test.indexOf('{', start), test.indexOf('\n}\n', start) + 2)
  // eslint-disable-next-line no-new-func -- the literals of our own test file, not input
  return Function(`return (${body})`)() as Record<string, string[]>
}
const phrases = literal('PHRASES')
const also = literal('ALSO')

const weights: { miss: [number, number], hit: [number, number], everyday: [number, number] } = { miss: [0, 0], hit: [0, 0], everyday: [0, 0] }
const detector = createDetector({ wordListWeights: weights, wordListsFile: args.lists, regressionFile: args.regression })
await detector.ready()
for (const pair of args.grid.split(',')) {
  const [miss1 = 0, hit1 = 0, miss = 0, hit = 0, everyday1 = 0, everyday = 0] = pair.split(':').map(Number)
  weights.miss = [miss1, miss]
  weights.hit = [hit1, hit]
  weights.everyday = [everyday1, everyday]
  const tally = { short: [0, 0], core: [0, 0], tail: [0, 0] }
  for (const s of samples) {
    const right = (await detector.detect(s.text))[0]?.language === s.lang ? 1 : 0
    const core = CORE_LANGUAGES.has(s.lang)
    const rows = core ? (s.bucket === 'short' ? [tally.short, tally.core] : [tally.core]) : (s.bucket === 'short' ? [tally.tail] : [])
    for (const r of rows) { r[0]! += right; r[1]!++ }
  }
  const wrong: string[] = []
  for (const [language, list] of Object.entries(phrases)) {
    for (const phrase of list) {
      const answer = (await detector.detect(phrase))[0]?.language ?? 'und'
      if (answer !== language && !(also[phrase] ?? []).includes(answer)) wrong.push(`${phrase} ${answer}`)
    }
  }
  const pct = (r: number[]): string => `${(100 * r[0]! / r[1]!).toFixed(2)}% (${r[1]! - r[0]!} wrong of ${r[1]})`
  console.log(`${pair}: core short ${pct(tally.short)}, core ${pct(tally.core)}, tail short ${pct(tally.tail)}; greetings wrong ${wrong.length}: ${wrong.join(', ')}`)
}
