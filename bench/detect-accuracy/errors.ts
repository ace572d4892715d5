/**
 * Lists the texts the detector gets wrong in one split of a corpus (core languages, CLDR's name
 * lists apart), with its top answers: for looking at what is left, not for figures.
 *
 *   npx tsx bench/detect-accuracy/errors.ts [--corpus FILE] [--split tune|dev|test] [--bucket short] [--regression FILE]
 */
import { createHash } from 'node:crypto'
import { parseArgs } from 'node:util'
import { createDetector } from '../../src/providers/detector/index.js'
import { CORE_LANGUAGES, DEFAULT_SHORT_CORPUS, readCorpus } from './corpus.js'

const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string', default: DEFAULT_SHORT_CORPUS },
    split: { type: 'string', default: 'tune' },
    bucket: { type: 'string', default: 'short' },
    regression: { type: 'string' }
  }
})
const isTune = (text: string): boolean => (createHash('sha256').update('tune\0').update(text).digest()[0] ?? 0) < 51
const samples = (args.split === 'tune' ? readCorpus(args.corpus, 'dev').filter(s => isTune(s.text)) : readCorpus(args.corpus, args.split as 'dev' | 'test'))
  .filter(s => CORE_LANGUAGES.has(s.lang) && s.bucket === args.bucket && !/^cldr-(language|region|script|currency)$/.test(s.source))
const detector = createDetector({ regressionFile: args.regression })
await detector.ready()
let wrong = 0
for (const s of samples) {
  const top = await detector.detect(s.text)
  if (top[0]?.language === s.lang) continue
  wrong++
  console.log(`${s.lang}\t${top.slice(0, 3).map(c => `${c.language} ${c.confidence.toFixed(2)}`).join(', ')}\t${s.source}\t${s.text}`)
}
console.log(`${wrong} wrong of ${samples.length} (${(100 - 100 * wrong / samples.length).toFixed(2)}%)`)
