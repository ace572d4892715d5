/**
 * How the service scales with WORKERS on a machine with many cores (issue 23's table): for each
 * WORKERS value, the service with its default settings otherwise, pinned to the first
 * `--service-cores` cores, and autocannon (in a process of its own) pinned to the cores after
 * them, measure short-text detection, short translations en->es with the cache off, and
 * sentiment; then the table and each workload's speed-up over WORKERS=1, against the targets
 * (translate at WORKERS=12 >= 3x, detect >= 6x). Without taskset, or with too few cores, nothing
 * is pinned (the figures then say so). Every WORKERS value's service runs from the start, and they
 * are measured in turns, `--rounds` times: each round's ratios compare runs a few seconds apart
 * (a shared machine's speed drifts), and the median and spread of the rounds are printed.
 *
 *   npx tsx bench/scaling.ts [--workers 1,4,12] [--service-cores 12] [--duration 15] [--connections 64]
 *                            [--rounds 1] [--workloads detect,translate,sentiment] [--env KEY=VALUE,...]
 *
 * bench/device-scaling.sh packs what it needs for a machine without network and runs it there.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { stopAll, stopChildrenOnExit } from './lib/children.js'
import { englishCorpus } from './lib/corpus.js'
import { cpuMsOf, memoryOf, processTree } from './lib/proc.js'
import { median, roundRatios } from './lib/rounds.js'
import { accessToken, ROOT, startService, type Service } from './lib/service.js'

const { values: flags } = parseArgs({
  options: {
    workers: { type: 'string', default: '1,4,12' },
    'service-cores': { type: 'string', default: '12' },
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '1' },
    workloads: { type: 'string', default: 'detect,translate,sentiment' },
    // settings every service gets besides WORKERS, e.g. RATE_LIMIT_MAX=600
    env: { type: 'string', default: '' },
    // a JSON array of the English sentences (where Perl's documentation, bench/lib/corpus.ts, is not installed)
    sentences: { type: 'string' }
  }
})
const WORKERS = flags.workers.split(',').map(Number)
const CORES = availableParallelism()
const SERVICE_CORES = Math.min(Number(flags['service-cores']), CORES)
const hasTaskset = spawnSync('taskset', ['--version']).status === 0
const pin = hasTaskset && CORES > SERVICE_CORES
const serviceWrapper = pin ? ['taskset', '-c', `0-${SERVICE_CORES - 1}`] : []
const loadWrapper = pin ? ['taskset', '-c', `${SERVICE_CORES}-${CORES - 1}`] : []

interface Workload { name: string, path: string, bodies: string[] }

const sentences = flags.sentences === undefined ? englishCorpus().sentences : JSON.parse(readFileSync(flags.sentences, 'utf8')) as string[]
/** The load generator's program: a sibling in the same form as this file (bundled .mjs run as it is, .ts through tsx). */
const CANNON = import.meta.url.endsWith('.mjs')
  ? [fileURLToPath(new URL('./cannon-child.mjs', import.meta.url))]
  : ['--import', 'tsx', join(ROOT, 'bench/lib/cannon-child.ts')]
const reviews = readFileSync(join(ROOT, 'test/data/sentiment-dev.jsonl'), 'utf8').trim().split('\n').map(l => (JSON.parse(l) as { text: string }).text).slice(0, 1000)
const ALL_WORKLOADS: Workload[] = [
  { name: 'detect', path: '/language/detect', bodies: sentences.map(value => JSON.stringify({ document: { value } })) },
  { name: 'translate', path: '/language/translate', bodies: sentences.map(value => JSON.stringify({ document: { value }, source: 'en', targets: ['es'], options: { cache: false } })) },
  { name: 'sentiment', path: '/language/analyze/sentiment', bodies: reviews.map(value => JSON.stringify({ document: { value, language: 'en' } })) }
]

const WORKLOADS = flags.workloads.split(',').map(name => {
  const workload = ALL_WORKLOADS.find(w => w.name === name.trim())
  if (workload === undefined) throw new Error(`--workloads takes ${ALL_WORKLOADS.map(w => w.name).join(', ')}; got "${name}"`)
  return workload
})
const ROUNDS = Number(flags.rounds)
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`--rounds must be a whole number above 0, got ${flags.rounds}`)
const EXTRA_ENV = Object.fromEntries(flags.env.split(',').filter(kv => kv !== '').map(kv => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]))

interface Run { reqPerS: number, p50: number, p99: number, failed: number, serviceCores: number }

/** autocannon in its own (pinned) process against `service`. */
function load (service: Service, token: string, workload: Workload, seconds: number): Run {
  const job = { url: service.base + workload.path, connections: Number(flags.connections), duration: seconds, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, bodies: workload.bodies }
  const tree = (): Set<number> => new Set(processTree(service.child.pid).map(p => p.pid))
  const cpuBefore = cpuMsOf(tree())
  const started = performance.now()
  const out = execFileSync(loadWrapper[0] ?? process.execPath, [...loadWrapper.slice(1), ...(loadWrapper.length > 0 ? [process.execPath] : []), ...CANNON, JSON.stringify(job)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  const wall = performance.now() - started
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as { requests: number, duration: number, non2xx: number, errors: number, p50: number, p99: number }
  return { reqPerS: r.requests / r.duration, p50: r.p50, p99: r.p99, failed: r.non2xx + r.errors, serviceCores: (cpuMsOf(tree()) - cpuBefore) / wall }
}

async function main (): Promise<void> {
  stopChildrenOnExit()
  console.log(`machine: ${CORES} cores, load average ${loadavg().map(l => l.toFixed(2)).join(' ')}, Node ${process.version}; ` +
    (pin ? `service pinned to cores 0-${SERVICE_CORES - 1}, load generator to ${SERVICE_CORES}-${CORES - 1}` : 'nothing pinned (no taskset, or no cores to spare for the load generator)'))
  // every WORKERS value's service at once, idle while another is measured
  const services = new Map<number, { service: Service, token: string }>()
  for (const workers of WORKERS) {
    const service = await startService({ env: { ...EXTRA_ENV, WORKERS: String(workers) }, wrapper: serviceWrapper })
    services.set(workers, { service, token: await accessToken(service) })
  }
  // runs by WORKERS, then workload: one a round
  const table = new Map<number, Map<string, Run[]>>(WORKERS.map(w => [w, new Map(WORKLOADS.map(l => [l.name, []]))]))
  for (let round = 1; round <= ROUNDS; round++) {
    for (const workload of WORKLOADS) {
      for (const workers of WORKERS) {
        const { service, token } = services.get(workers)!
        // every worker warm: its pipelines started, its models loaded
        if (round === 1) load(service, token, workload, 3)
        const run = load(service, token, workload, Number(flags.duration))
        table.get(workers)!.get(workload.name)!.push(run)
        console.log(`${ROUNDS > 1 ? `round ${round}: ` : ''}WORKERS=${String(workers).padEnd(3)} ${workload.name.padEnd(10)} ${run.reqPerS.toFixed(0).padStart(7)} req/s  p50 ${run.p50.toFixed(1).padStart(6)} ms  p99 ${run.p99.toFixed(1).padStart(7)} ms  ` +
          `${run.failed} failed; the service kept ${run.serviceCores.toFixed(1)} cores busy`)
      }
    }
  }
  for (const [workers, { service }] of services) {
    const tree = processTree(service.child.pid)
    console.log(`WORKERS=${workers}: memory of the service and its pipelines ${memoryOf(tree.map(p => p.pid)).pssMb.toFixed(0)} MB (PSS)`)
    await service.child.stop()
  }
  const rate = (workers: number, name: string): number => median(table.get(workers)!.get(name)!.map(r => r.reqPerS))
  console.log(`\n| WORKERS | ${WORKLOADS.map(w => `${w.name} req/s`).join(' | ')} |\n|---|${WORKLOADS.map(() => '---').join('|')}|`)
  for (const workers of WORKERS) console.log(`| ${workers} | ${WORKLOADS.map(w => rate(workers, w.name).toFixed(0)).join(' | ')} |`)
  const most = Math.max(...WORKERS)
  if (WORKERS.includes(1) && most > 1) {
    const rates = (workers: number, name: string): number[] => table.get(workers)!.get(name)!.map(r => r.reqPerS)
    const ratios = new Map(WORKLOADS.map(w => [w.name, roundRatios(rates(1, w.name), rates(most, w.name))]))
    console.log(`\nspeed-up at WORKERS=${most} over WORKERS=1:`)
    for (const [name, r] of ratios) console.log(`  ${name}: ${r.text}`)
    const ratio = (name: string): number | undefined => ratios.get(name)?.median
    const target = (name: string, aim: number): string => {
      const r = ratio(name)
      return r === undefined ? `${name} not measured` : `${name} >= ${aim}x: ${r.toFixed(2)}x ${r >= aim ? 'met' : 'MISSED'}`
    }
    console.log(`targets (issue 23, WORKERS=12 on 12 cores): ${target('translate', 3)}; ${target('detect', 6)}` +
      `${most === 12 && SERVICE_CORES === 12 ? '' : ` (measured at WORKERS=${most} on ${SERVICE_CORES} cores: not the targets' setting)`}`)
  }
  const failed = [...table.values()].flatMap(runs => [...runs.values()].flat()).reduce((n, r) => n + r.failed, 0)
  if (failed > 0) throw new Error(`${failed} requests failed`)
}

try {
  await main()
} catch (err) {
  process.exitCode = 1
  console.error(`\nbench failed: ${(err as Error).stack ?? String(err)}`)
} finally {
  await stopAll()
}
