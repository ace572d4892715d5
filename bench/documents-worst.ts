/**
 * Worst-case inputs of the document core over HTTP (the real app, no engines): how long each
 * request takes, the longest the event loop was blocked meanwhile, and the status.
 * Run: npx tsx bench/documents-worst.ts
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { bearer, testApp, tokenFor } from '../test/helpers/app.js'

const app = await testApp()
const auth = bearer(await tokenFor(app))

async function measure (label: string, url: string, payload: object): Promise<void> {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  const started = performance.now()
  const res = await app.inject({ method: 'POST', url, headers: auth, payload })
  const ms = performance.now() - started
  delay.disable()
  const stall = delay.max / 1e6
  console.log(`${label.padEnd(64)} ${res.statusCode}  ${(ms / 1000).toFixed(2).padStart(6)} s total  ${(stall / 1000).toFixed(2).padStart(6)} s longest stall`)
}

const rule = [{ text: 'end', substitution: 'fin' }]
const markdownDocs = Array.from({ length: 10 }, () => ({ value: 'a* '.repeat(15_000), mime_type: 'text/markdown' }))
await measure('10 x "a* " x 15000 Markdown, 2 targets, /language/translate/bulk', '/language/translate/bulk',
  { documents: markdownDocs, source: 'en', targets: ['en', 'en-GB'] })
await measure('"<span title=t>a " x 50000 + "end." HTML, /language/substitute', '/language/substitute',
  { document: { value: '<span title="t">a '.repeat(50_000) + 'end.', mime_type: 'text/html', language: 'en' }, substitutions: rule })
await measure('"a<img>" x 170000 + " {0}" HTML, /language/substitute', '/language/substitute',
  { document: { value: 'a<img>'.repeat(170_000) + ' {0}', mime_type: 'text/html', language: 'en' }, substitutions: rule })

// the heap a run of large Markdown requests leaves behind (trees kept after the request)
const big = Array.from({ length: 16_000 }, (_, i) => `Line *${i}* of [the text](https://example.com/${i}).`).join('\n')
for (let i = 0; i < 8; i++) {
  await app.inject({ method: 'POST', url: '/language/substitute', headers: auth, payload: { document: { value: big + i, mime_type: 'text/markdown', language: 'en' }, substitutions: rule } })
}
globalThis.gc?.()
console.log(`heap after 8 Markdown documents of ${(big.length / 1000).toFixed(0)} KB: ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB${globalThis.gc ? '' : ' (run with --expose-gc for a collected figure)'}`)
await app.close()
