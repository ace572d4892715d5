/**
 * Accuracy of the offline sentiment analyser on the English dev set (strict: a score of exactly 0 counts as wrong),
 * beside the single analysers it combines; time per sentence; memory.
 * Run: npx tsx bench/sentiment/run.ts
 */
import { readFileSync } from 'node:fs'
import { loadSentiment, scoreSentiment } from '../../src/providers/offline-analyzer/sentiment/index.js'

interface Row { label: string, text: string }
const DEV = new URL('../../test/data/sentiment-dev.jsonl', import.meta.url)
const rows = readFileSync(DEV, 'utf8').trim().split('\n').map(line => JSON.parse(line) as Row)
const TWENTY_WORDS = 'The staff were friendly and the room was clean, but the breakfast was cold and the coffee tasted really awful.'

/** Strict accuracy: positive iff score > 0, negative iff score < 0. */
function accuracy (score: (text: string) => number, set: readonly Row[]): number {
  let right = 0
  for (const row of set) {
    const s = score(row.text)
    if ((row.label === 'positive' && s > 0) || (row.label === 'negative' && s < 0)) right += 1
  }
  return right / set.length
}

/** Mean milliseconds per call over `rounds` passes of the dev set, after warm-up passes (the JIT settles slowly). */
function msPerText (score: (text: string) => number, rounds = 5): number {
  for (let r = 0; r < 5; r += 1) for (const row of rows) score(row.text)
  const start = performance.now()
  for (let r = 0; r < rounds; r += 1) for (const row of rows) score(row.text)
  return (performance.now() - start) / (rows.length * rounds)
}

function msPerCall (score: (text: string) => number, text: string, calls = 20_000): number {
  for (let i = 0; i < 2_000; i += 1) score(text)
  const start = performance.now()
  for (let i = 0; i < calls; i += 1) score(text)
  return (performance.now() - start) / calls
}

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1)
globalThis.gc?.()
const before = process.memoryUsage()
const loadStart = performance.now()
await loadSentiment()
const loadMs = performance.now() - loadStart
globalThis.gc?.()
const loaded = process.memoryUsage()
const service = (text: string): number => scoreSentiment(text, 'en').score
const serviceMs = msPerText(service)
const service20 = msPerCall(service, TWENTY_WORDS)
globalThis.gc?.()
const scored = process.memoryUsage()

// the reference analysers load only now, so the figures above are the service's alone
const { afinnScore, vaderScore, winkScore, winkVaderMean } = await import('./anchors.js')
const odd = rows.filter((_, i) => i % 2 === 0)
const even = rows.filter((_, i) => i % 2 === 1)
const table: Array<[string, (text: string) => number]> = [
  ['service (scoreSentiment en)', service],
  ['wink-nlp', winkScore],
  ['VADER compound', vaderScore],
  ['AFINN comparative', afinnScore],
  ['mean of wink + VADER', winkVaderMean]
]
console.log(`dev set: ${rows.length} English sentences (${rows.filter(r => r.label === 'positive').length} positive); strict accuracy, score 0 = wrong`)
console.log('')
console.log('| analyser                    | accuracy | odd lines | even lines | ms/text |')
console.log('|-----------------------------|----------|-----------|------------|---------|')
for (const [name, score] of table) {
  const ms = score === service ? serviceMs : msPerText(score)
  console.log(`| ${name.padEnd(27)} | ${accuracy(score, rows).toFixed(4).padStart(8)} | ${accuracy(score, odd).toFixed(4).padStart(9)} | ${accuracy(score, even).toFixed(4).padStart(10)} | ${ms.toFixed(4).padStart(7)} |`)
}
console.log('')
console.log(`service: ${service20.toFixed(4)} ms per 20-word sentence ("${TWENTY_WORDS.slice(0, 40)}..."), load ${loadMs.toFixed(0)} ms`)
console.log(`service memory: RSS ${mb(before.rss)} MB before loading, ${mb(loaded.rss)} MB loaded (+${mb(loaded.rss - before.rss)}), ` +
  `${mb(scored.rss)} MB after the timing loops (+${mb(scored.rss - before.rss)}); ` +
  `heap used +${mb(loaded.heapUsed - before.heapUsed)} MB loaded, +${mb(scored.heapUsed - before.heapUsed)} MB after the loops`)
console.log('(heap used is what stays live; RSS also keeps what V8 and the allocator hold after the loops\' churn. ' +
  'Run with NODE_OPTIONS="--expose-gc --max-semi-space-size=2", as in production, for comparable figures)')

/** About 20 words per language, for the time per sentence of the native analysers. */
const NATIVE: Record<string, string> = {
  fr: "Le personnel était très aimable et la chambre propre, mais le petit déjeuner n'était vraiment pas bon du tout.",
  de: 'Das Personal war sehr freundlich und das Zimmer sauber, aber das Frühstück war leider überhaupt nicht gut und kalt.',
  es: 'El personal fue muy amable y la habitación estaba limpia, pero el desayuno no era nada bueno y estaba frío.',
  it: 'Il personale era molto gentile e la camera pulita, ma la colazione non era per niente buona ed era fredda.',
  pt: 'Os funcionários foram muito simpáticos e o quarto estava limpo, mas o café da manhã não era nada bom.',
  nl: 'Het personeel was erg vriendelijk en de kamer schoon, maar het ontbijt was helemaal niet lekker en ook nog koud.'
}
console.log(Object.entries(NATIVE).map(([language, text]) =>
  `${language} ${msPerCall(t => scoreSentiment(t, language).score, text).toFixed(4)} ms`).join(', ') + ' per ~20-word sentence')
