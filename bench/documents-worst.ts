/**
 * Worst-case inputs of the document core over HTTP (the real app, no engines, MAX_TEXT_CHARS
 * raised so that every input reaches the segmenter): how long each request takes, the longest
 * the event loop was blocked meanwhile, the status, and the heap large Markdown leaves behind.
 * Run: npx tsx bench/documents-worst.ts
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { bearer, testApp, tokenFor } from '../test/helpers/app.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const app = await testApp({ MAX_TEXT_CHARS: '10000000' })
const auth = bearer(await tokenFor(app))
const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers: auth, payload })

async function measure (label: string, url: string, payload: object): Promise<void> {
  let last = performance.now()
  let stall = 0
  const ticker = setInterval(() => {
    const now = performance.now()
    stall = Math.max(stall, now - last)
    last = now
  }, 5)
  const started = performance.now()
  const res = await post(url, payload)
  const ms = performance.now() - started
  // one more tick, so a block that lasted until the answer is seen
  await new Promise(resolve => setTimeout(resolve, 20))
  clearInterval(ticker)
  console.log(`${label.padEnd(62)} ${res.statusCode}  ${(ms / 1000).toFixed(2).padStart(6)} s total  ${(stall / 1000).toFixed(2).padStart(6)} s longest stall`)
}

const rule = [{ text: 'end', substitution: 'fin' }]
const markdownDocs = Array.from({ length: 10 }, () => ({ value: 'a* '.repeat(15_000), mime_type: 'text/markdown' }))
await measure('10 x "a* " x 15000 Markdown, 2 targets, /language/translate/bulk', '/language/translate/bulk',
  { documents: markdownDocs, source: 'en', targets: ['en', 'en-GB'] })
await measure('"<span title=t>a " x 50000 + "end." HTML, /language/substitute', '/language/substitute',
  { document: { value: '<span title="t">a '.repeat(50_000) + 'end.', mime_type: 'text/html', language: 'en' }, substitutions: rule })
await measure('"a<img>" x 170000 + " {0}" HTML, /language/substitute', '/language/substitute',
  { document: { value: 'a<img>'.repeat(170_000) + ' {0}', mime_type: 'text/html', language: 'en' }, substitutions: rule })

// the heap that large Markdown requests leave behind once they are answered
const big = Array.from({ length: 9_000 }, (_, i) => `Line *${i}* of [the text](https://example.com/${i}).`).join('\n')
gc()
const before = process.memoryUsage().heapUsed
for (let i = 0; i < 8; i++) {
  await post('/language/substitute', { document: { value: big + i, mime_type: 'text/markdown', language: 'en' }, substitutions: rule })
}
gc()
const kept = (process.memoryUsage().heapUsed - before) / 2 ** 20
console.log(`heap kept after 8 Markdown documents of ${(big.length / 1000).toFixed(0)} KB: ${kept.toFixed(0)} MB`)
await app.close()
