/**
 * A fake LibreTranslate (test/fakes) in a process of its own, so that the bench's load generator
 * does not delay its answers: prints `{"url","key"}` on its first line, sets its latency from
 * argv[2], and answers a line "calls" on stdin with the number of translate calls so far.
 */
import { createInterface } from 'node:readline'
import { startFakeLibreTranslate } from '../../test/fakes/libretranslate.js'

const fake = await startFakeLibreTranslate()
fake.latencyMs = Number(process.argv[2] ?? '0')
process.stdout.write(JSON.stringify({ url: fake.url, key: fake.key }) + '\n')
createInterface({ input: process.stdin }).on('line', line => {
  if (line.trim() === 'calls') process.stdout.write(String(fake.calls.filter(c => c.path === '/translate').length) + '\n')
}).on('close', () => { fake.close().then(() => process.exit(0), () => process.exit(1)) })
