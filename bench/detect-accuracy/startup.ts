/**
 * Prints the detector's start-up time (createDetector() to ready()) and the process RSS before,
 * after loading and after a warm-up of detections, in a fresh process.
 *
 *   npx tsx bench/detect-accuracy/startup.ts [--model FILE]   (a model other than the shipped one)
 *   npx tsx bench/detect-accuracy/startup.ts --no-regression  (without regression.bin, to compare)
 *   npx tsx bench/detect-accuracy/startup.ts --no-word-lists  (without wordlists.bin, to compare)
 *   npx tsx bench/detect-accuracy/startup.ts --regression FILE  (another regression: train-regression.ts --out FILE)
 */
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { createDetector } from '../../src/providers/detector/index.js'

const { values: args } = parseArgs({ options: { model: { type: 'string' }, regression: { type: 'string' }, 'no-regression': { type: 'boolean', default: false }, 'no-word-lists': { type: 'boolean', default: false } } })
const model = args.model === undefined ? undefined : JSON.parse(readFileSync(args.model, 'utf8'))

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`
const before = process.memoryUsage().rss
const started = performance.now()
const detector = createDetector({ ...(model === undefined ? {} : { model }), ...(args['no-regression'] ? { regression: false } : {}), ...(args['no-word-lists'] ? { wordLists: false } : {}), regressionFile: args.regression })
const constructed = performance.now() - started
await detector.ready()
const loaded = performance.now() - started
const loadedMemory = process.memoryUsage()
const afterLoad = loadedMemory.rss

const texts = ['Open file', 'Datei konnte nicht geöffnet werden', 'Преузимање датотека није успело', '無法開啟檔案，請檢查權限設定。',
  'The weather is lovely today, so we are going for a long walk in the park.']
const t0 = performance.now()
let n = 0
while (performance.now() - t0 < 2000) for (const t of texts) { await detector.detect(t); n++ }
const warm = process.memoryUsage()

console.log(`${new Date().toISOString()}: ${cpus().length} x ${cpus()[0]?.model ?? 'CPU'}, Node ${process.versions.node}${args.model === undefined ? '' : `, model ${args.model}`}${args['no-regression'] ? ', no regression' : ''}${args['no-word-lists'] ? ', no word lists' : ''}${args.regression === undefined ? '' : `, regression ${args.regression}`}`)
console.log(`createDetector() returned in ${constructed.toFixed(1)} ms; models loaded (ready) after ${loaded.toFixed(0)} ms`)
console.log(`RSS: ${mb(before)} before, ${mb(afterLoad)} after loading (heap used ${mb(loadedMemory.heapUsed)}, array buffers ${mb(loadedMemory.arrayBuffers)}), ${mb(warm.rss)} after ${n} detections (heap used ${mb(warm.heapUsed)}, array buffers ${mb(warm.arrayBuffers)})`)
