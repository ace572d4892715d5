/**
 * Load test of the analysis endpoints through the service with auth (offline analysers): POST
 * /language/analyze/sentiment on short review sentences (language given, then detected), and
 * POST /language/analyze with all four parts. Prints requests/s, latency and the service's RSS
 * after start-up (every analyser loaded) and after each run. Without --url it builds and starts
 * the service itself and stops it after.
 *
 *   npx tsx bench/analyze.ts [--duration 15 --connections 32]
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { accessToken, startService, type Service } from './lib/service.js'
import { memoryOf } from './lib/proc.js'

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    'client-id': { type: 'string', default: 'bench' },
    'client-secret': { type: 'string', default: 'bench-secret' },
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '32' }
  }
})

// the labelled dev set's sentences: real short reviews
const sentences = readFileSync(new URL('../test/data/sentiment-dev.jsonl', import.meta.url), 'utf8')
  .split('\n').filter(line => line.trim() !== '').map(line => (JSON.parse(line) as { text: string }).text)

const service: Service | undefined = args.url === undefined ? await startService() : undefined
const url = service?.base ?? args.url!
const token = await accessToken(service ?? { base: url.replace(/\/+$/, ''), clientId: args['client-id'], clientSecret: args['client-secret'] })
const rss = (): string => service ? `${memoryOf([service.child.pid]).rssMb.toFixed(0)} MB` : 'n/a (--url)'

console.log(`${sentences.length} review sentences, ${args.connections} connections, ${args.duration} s per run`)
console.log(`service RSS after start-up (all offline analysers loaded): ${rss()}`)

async function run (label: string, path: string, body: (text: string) => unknown): Promise<void> {
  const bodies = sentences.map(text => JSON.stringify(body(text)))
  let next = 0
  const result = await autocannon({
    url,
    connections: Number(args.connections),
    duration: Number(args.duration),
    requests: [{
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      setupRequest: request => ({ ...request, body: bodies[next++ % bodies.length] })
    }]
  })
  console.log(`\n${label}`)
  console.log(`  requests/s: ${result.requests.average.toFixed(0)} (mean)   latency ms p50 ${result.latency.p50}, p99 ${result.latency.p99}`)
  console.log(`  responses: ${result['2xx']} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors   RSS after: ${rss()}`)
}

await run('POST /language/analyze/sentiment, language given (en)', '/language/analyze/sentiment', text => ({ document: { value: text, language: 'en' } }))
await run('POST /language/analyze/sentiment, language detected', '/language/analyze/sentiment', text => ({ document: { value: text } }))
await run('POST /language/analyze, all four parts (en)', '/language/analyze', text => ({ document: { value: text, language: 'en' } }))
if (service) await service.child.stop()
