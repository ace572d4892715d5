/**
 * Load test of POST /language/detect on short texts, through the service with auth. Without
 * --url it builds and starts the service itself (as bench/translate.ts does) and stops it after.
 * Prints requests/s, latency percentiles and the service's RSS. Texts: the corpus's short bucket
 * when it was built (bench/detect-accuracy/build-corpus.ts), else a few fixed strings.
 *
 *   npm run bench:detect:load [-- --duration 20 --connections 64 --pipelining 1]
 *   npm run bench:detect:load -- --url http://127.0.0.1:8080 --client-id ID --client-secret SECRET
 */
import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { DEFAULT_CORPUS, readCorpus } from './detect-accuracy/corpus.js'
import { accessToken, startService, type Service } from './lib/service.js'
import { memoryOf } from './lib/proc.js'

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    'client-id': { type: 'string', default: 'bench' },
    'client-secret': { type: 'string', default: 'bench-secret' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '64' },
    pipelining: { type: 'string', default: '1' }
  }
})

const FALLBACK = ['Open file', 'Datei öffnen', 'Ouvrir le fichier', 'Abrir archivo', 'Открыть файл', '打开文件', 'ファイルを開く',
  'Apri il file', 'Otwórz plik', 'Bestand openen']
const texts = existsSync(DEFAULT_CORPUS) ? readCorpus(DEFAULT_CORPUS).filter(s => s.bucket === 'short').map(s => s.text) : FALLBACK
const bodies = texts.map(text => JSON.stringify({ document: { value: text } }))

const service: Service | undefined = args.url === undefined ? await startService() : undefined
const url = service?.base ?? args.url!
const token = await accessToken(service ?? { base: url.replace(/\/+$/, ''), clientId: args['client-id'], clientSecret: args['client-secret'] })

let next = 0
const result = await autocannon({
  url,
  connections: Number(args.connections),
  pipelining: Number(args.pipelining),
  duration: Number(args.duration),
  requests: [{
    method: 'POST',
    path: '/language/detect',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    setupRequest: request => ({ ...request, body: bodies[next++ % bodies.length] })
  }]
})

console.log(`POST /language/detect, ${texts.length} short texts, ${args.connections} connections, ${args.duration} s`)
console.log(`requests/s: ${result.requests.average.toFixed(0)} (mean), ${result.requests.p50} (p50 of per-second samples)`)
console.log(`latency ms: p50 ${result.latency.p50}, p90 ${result.latency.p90}, p99 ${result.latency.p99}, max ${result.latency.max}`)
console.log(`responses: ${result['2xx']} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`)
if (service) {
  console.log(`service Node RSS after the run: ${memoryOf([service.child.pid]).rssMb.toFixed(0)} MB`)
  await service.child.stop()
}
