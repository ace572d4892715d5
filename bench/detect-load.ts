/**
 * Load test of POST /language/detect on short texts, through the service with auth. Without
 * --url it builds and starts the service itself (as bench/translate.ts does) and stops it after.
 * Prints requests/s, latency percentiles, the service's RSS and the cores busy for each WORKERS
 * value (default 1,2) and each load generator (autocannon; wrk, lighter on the shared cores, when
 * installed), in rounds, and the median ratio of the rounds. Texts: the corpus's short bucket
 * when it was built (bench/detect-accuracy/build-corpus.ts), else a few fixed strings.
 *
 *   npm run bench:detect:load [-- --duration 8 --rounds 5 --connections 64 --pipelining 1 --clients autocannon,wrk --repeat 1]
 *   npm run bench:detect:load -- --url http://127.0.0.1:8080 --client-id ID --client-secret SECRET
 */
import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { DEFAULT_CORPUS, readCorpus } from './detect-accuracy/corpus.js'
import { accessToken, startService, type Service } from './lib/service.js'
import { cpuMsOf, machineBusyMs, memoryOf, processes, processTree } from './lib/proc.js'
import { median, roundRatios } from './lib/rounds.js'
import { hasWrk, wrk } from './lib/wrk.js'

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    'client-id': { type: 'string', default: 'bench' },
    'client-secret': { type: 'string', default: 'bench-secret' },
    /** seconds of each run */
    duration: { type: 'string', default: '8' },
    /** rounds of runs (each WORKERS value and load generator once a round) */
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    pipelining: { type: 'string', default: '1' },
    /** WORKERS values to compare, in one run (without --url) */
    workers: { type: 'string', default: '1,2' },
    /** each text repeated this many times (longer texts: the service's work per request outweighs the load generator's) */
    repeat: { type: 'string', default: '1' },
    /** load generators, each run in turn against the same service: autocannon, and wrk (Debian package) when installed */
    clients: { type: 'string', default: 'autocannon,wrk' }
  }
})

const FALLBACK = ['Open file', 'Datei öffnen', 'Ouvrir le fichier', 'Abrir archivo', 'Открыть файл', '打开文件', 'ファイルを開く',
  'Apri il file', 'Otwórz plik', 'Bestand openen']
const texts = existsSync(DEFAULT_CORPUS) ? readCorpus(DEFAULT_CORPUS).filter(s => s.bucket === 'short').map(s => s.text) : FALLBACK
const bodies = texts.map(text => JSON.stringify({ document: { value: Array(Number(args.repeat)).fill(text).join(' ') } }))

/**
 * How many cores the service, the load generator and the whole machine kept busy while `measure`
 * ran: on a machine where they share the cores, what WORKERS can gain is what the others leave.
 * The load generator is this process (autocannon) and its children (wrk).
 */
async function cores<T> (service: Service, measure: () => Promise<T>): Promise<{ result: T, cores: string }> {
  const serviceCpu = (): number => cpuMsOf(new Set(processTree(service.child.pid!).map(p => p.pid)))
  const generatorCpu = (): number => {
    const own = process.cpuUsage()
    const children = processes().filter(p => p.ppid === process.pid && p.pid !== service.child.pid)
    return (own.user + own.system) / 1000 + children.reduce((ms, p) => ms + p.cpuMs, 0)
  }
  const started = performance.now()
  const before = { service: serviceCpu(), generator: generatorCpu(), machine: machineBusyMs() }
  // wrk runs as a child: sample its CPU just before it exits (a child that has exited is gone from /proc)
  let generatorPeak = before.generator
  const sampler = setInterval(() => { generatorPeak = Math.max(generatorPeak, generatorCpu()) }, 200)
  const result = await measure()
  clearInterval(sampler)
  const ms = performance.now() - started
  const share = (used: number): string => (used / ms).toFixed(2)
  return {
    result,
    cores: `cores busy: service ${share(serviceCpu() - before.service)}, load generator ${share(Math.max(generatorPeak, generatorCpu()) - before.generator)}, ` +
      `machine ${share(machineBusyMs() - before.machine)} of 2`
  }
}

/** Node processes of the service: the process and its direct children (cluster workers; Apertium's stages are their children). */
const nodePids = (service: Service): number[] =>
  [service.child.pid, ...processes().filter(p => p.ppid === service.child.pid).map(p => p.pid)]

async function run (url: string, token: string): Promise<autocannon.Result> {
  let next = 0
  return await autocannon({
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
}

function report (label: string, result: autocannon.Result, rss?: string): void {
  console.log(`${label}: ${result.requests.average.toFixed(0)} req/s (mean), latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; ` +
    `${result['2xx']} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors${rss === undefined ? '' : `; Node RSS after: ${rss}`}`)
}

console.log(`POST /language/detect, ${texts.length} short texts${args.repeat === '1' ? '' : ` each repeated ${args.repeat} times`}, ${args.connections} connections, ${args.duration} s per run`)
if (args.url !== undefined) {
  const url = args.url
  const token = await accessToken({ base: url.replace(/\/+$/, ''), clientId: args['client-id'], clientSecret: args['client-secret'] })
  report(url, await run(url, token))
} else {
  // every WORKERS value in one run, each service started once and loaded in turns (lib/rounds.ts)
  const clients = args.clients.split(',').map(c => c.trim())
  if (clients.includes('wrk') && !await hasWrk()) {
    console.log('wrk is not installed (apt-get install wrk): autocannon only')
    clients.splice(clients.indexOf('wrk'), 1)
  }
  const counts = args.workers.split(',')
  const services: Array<{ workers: string, service: Service, token: string }> = []
  try {
    for (const workers of counts) {
      const service = await startService({ env: { WORKERS: workers } })
      services.push({ workers, service, token: '' })
    }
    // each worker loads its detector; /ready answered for the first one
    await new Promise(resolve => setTimeout(resolve, 3000))
    for (const s of services) s.token = await accessToken(s.service)
    // rates[client][workers][round]
    const rates = new Map(clients.map(c => [c, new Map(counts.map(w => [w, [] as number[]]))]))
    for (let round = 1; round <= Number(args.rounds); round++) {
      for (const client of clients) {
        for (const { workers, service, token } of services) {
          const label = `round ${round}, WORKERS=${workers}`
          if (client === 'wrk') {
            const { result: r, cores: used } = await cores(service, () => wrk(service.base, '/language/detect', { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              bodies, Number(args.connections), Number(args.duration)))
            const memory = memoryOf(nodePids(service))
            console.log(`${label} (wrk, 1 thread): ${r.reqPerS.toFixed(0)} req/s, latency p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms; ` +
              `${r.requests} requests, ${r.errors} errors; Node RSS after: ${memory.rssMb.toFixed(0)} MB in ${memory.processes} processes; ${used}`)
            rates.get(client)!.get(workers)!.push(r.reqPerS)
          } else {
            const { result, cores: used } = await cores(service, () => run(service.base, token))
            const memory = memoryOf(nodePids(service))
            report(`${label} (autocannon)`, result, `${memory.rssMb.toFixed(0)} MB in ${memory.processes} processes; ${used}`)
            rates.get(client)!.get(workers)!.push(result.requests.average)
          }
        }
      }
    }
    for (const [client, byWorkers] of rates) {
      const first = byWorkers.get(counts[0]!)!
      console.log(`${client}: ${counts.map(w => `WORKERS=${w} median ${median(byWorkers.get(w)!).toFixed(0)} req/s`).join(', ')}`)
      for (const w of counts.slice(1)) console.log(`${client}: WORKERS=${w} / WORKERS=${counts[0]}: ${roundRatios(first, byWorkers.get(w)!).text}`)
    }
  } finally {
    for (const { service } of services) await service.child.stop()
  }
}
