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
 *                            [--baseline DIR] [--generators 1]
 *
 * `--baseline DIR`: another checkout, built (say a `git worktree` of the commit before a change),
 * whose services are measured in the same turns, so a change's effect on the speed-up is seen in
 * one run.
 *
 * bench/device-scaling.sh packs what it needs for a machine without network and runs it there.
 */
import { execFile, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, promisify } from 'node:util'
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
    baseline: { type: 'string' },
    // load generator processes (the connections shared out among them)
    generators: { type: 'string', default: '1' },
    // a JSON array of the English sentences (where Perl's documentation, bench/lib/corpus.ts, is not installed)
    sentences: { type: 'string' }
  }
})
const WORKERS = flags.workers.split(',').map(Number)
const CORES = availableParallelism()
const SERVICE_CORES = Math.min(Number(flags['service-cores']), CORES)
const execFileAsync = promisify(execFile)
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
const GENERATORS = Number(flags.generators)
if (!Number.isInteger(GENERATORS) || GENERATORS < 1) throw new Error(`--generators must be a whole number above 0, got ${flags.generators}`)
const EXTRA_ENV = Object.fromEntries(flags.env.split(',').filter(kv => kv !== '').map(kv => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]))

interface Run { reqPerS: number, p50: number, p99: number, failed: number, serviceCores: number, cpuUsPerRequest: number }

/**
 * autocannon in `--generators` processes of its own (pinned) against `service`, the connections
 * shared out: one process is one thread, which on a machine shared with other work gets its share
 * of one core and can cap what any number of workers seem to serve. p50: the generators' median;
 * p99: the worst generator's.
 */
async function load (service: Service, token: string, workload: Workload, seconds: number): Promise<Run> {
  const connections = Number(flags.connections)
  const jobs = Array.from({ length: GENERATORS }, (_, i) => ({
    url: service.base + workload.path,
    connections: Math.floor(connections / GENERATORS) + (i < connections % GENERATORS ? 1 : 0),
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    bodies: workload.bodies
  }))
  const tree = (): Set<number> => new Set(processTree(service.child.pid).map(p => p.pid))
  const cpuBefore = cpuMsOf(tree())
  const started = performance.now()
  const outs = await Promise.all(jobs.map(async job => (await execFileAsync(loadWrapper[0] ?? process.execPath, [...loadWrapper.slice(1), ...(loadWrapper.length > 0 ? [process.execPath] : []), ...CANNON, JSON.stringify(job)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })).stdout))
  const wall = performance.now() - started
  const rs = outs.map(out => JSON.parse(out.trim().split('\n').at(-1)!) as { requests: number, duration: number, non2xx: number, errors: number, p50: number | null, p99: number | null })
  const requests = rs.reduce((n, r) => n + r.requests, 0)
  const cpuMs = cpuMsOf(tree()) - cpuBefore
  // no answer in a run: JSON has no NaN, the child's percentiles come as null
  return {
    reqPerS: rs.reduce((n, r) => n + r.requests / r.duration, 0),
    p50: median(rs.map(r => r.p50 ?? NaN)),
    p99: Math.max(...rs.map(r => r.p99 ?? NaN)),
    failed: rs.reduce((n, r) => n + r.non2xx + r.errors, 0),
    serviceCores: cpuMs / wall,
    cpuUsPerRequest: cpuMs * 1000 / Math.max(1, requests)
  }
}

async function main (): Promise<void> {
  stopChildrenOnExit()
  console.log(`machine: ${CORES} cores, load average ${loadavg().map(l => l.toFixed(2)).join(' ')}, Node ${process.version}; ` +
    (pin ? `service pinned to cores 0-${SERVICE_CORES - 1}, load generator to ${SERVICE_CORES}-${CORES - 1}` : 'nothing pinned (no taskset, or no cores to spare for the load generator)') +
    `; ${GENERATORS} load generator process${GENERATORS > 1 ? 'es' : ''}, ${flags.connections} connections in all`)
  // every build's every WORKERS value's service at once, idle while another is measured
  const builds = [{ label: flags.baseline === undefined ? '' : 'this ', root: undefined as string | undefined }]
  if (flags.baseline !== undefined) builds.unshift({ label: 'baseline ', root: flags.baseline })
  const services = new Map<string, { service: Service, token: string }>()
  const table = new Map<string, Map<string, Run[]>>()
  const name = (build: { label: string }, workers: number): string => `${build.label}WORKERS=${workers}`
  for (const build of builds) {
    for (const workers of WORKERS) {
      const service = await startService({ env: { ...EXTRA_ENV, WORKERS: String(workers) }, wrapper: serviceWrapper, ...(build.root === undefined ? {} : { root: build.root }) })
      services.set(name(build, workers), { service, token: await accessToken(service) })
      table.set(name(build, workers), new Map(WORKLOADS.map(l => [l.name, []])))
    }
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const workload of WORKLOADS) {
      for (const [label, { service, token }] of services) {
        // every worker warm: its pipelines started, its models loaded
        if (round === 1) await load(service, token, workload, 3)
        const run = await load(service, token, workload, Number(flags.duration))
        table.get(label)!.get(workload.name)!.push(run)
        console.log(`${ROUNDS > 1 ? `round ${round}: ` : ''}${label.padEnd(builds.length > 1 ? 21 : 12)} ${workload.name.padEnd(10)} ${run.reqPerS.toFixed(0).padStart(7)} req/s  p50 ${run.p50.toFixed(1).padStart(6)} ms  p99 ${run.p99.toFixed(1).padStart(7)} ms  ` +
          `${run.failed} failed; the service kept ${run.serviceCores.toFixed(1)} cores busy, ${run.cpuUsPerRequest.toFixed(0)} µs CPU a request`)
      }
    }
  }
  for (const [label, { service }] of services) {
    const tree = processTree(service.child.pid)
    console.log(`${label}: memory of the service and its pipelines ${memoryOf(tree.map(p => p.pid)).pssMb.toFixed(0)} MB (PSS)`)
    await service.child.stop()
  }
  const most = Math.max(...WORKERS)
  for (const build of builds) {
    const runs = (workers: number, workload: string): Run[] => table.get(name(build, workers))!.get(workload)!
    console.log(`\n${build.label === '' ? '' : `${build.label.trim()}: `}| WORKERS | ${WORKLOADS.map(w => `${w.name} req/s`).join(' | ')} |\n|---|${WORKLOADS.map(() => '---').join('|')}|`)
    for (const workers of WORKERS) console.log(`| ${workers} | ${WORKLOADS.map(w => median(runs(workers, w.name).map(r => r.reqPerS)).toFixed(0)).join(' | ')} |`)
    if (!WORKERS.includes(1) || most === 1) continue
    const ratios = new Map(WORKLOADS.map(w => [w.name, roundRatios(runs(1, w.name).map(r => r.reqPerS), runs(most, w.name).map(r => r.reqPerS))]))
    console.log(`${build.label}speed-up at WORKERS=${most} over WORKERS=1:`)
    for (const [workload, r] of ratios) {
      const cpu = (workers: number): number => median(runs(workers, workload).map(run => run.cpuUsPerRequest))
      console.log(`  ${workload}: ${r.text}; the service's CPU a request (median): ${cpu(1).toFixed(0)} µs at WORKERS=1, ${cpu(most).toFixed(0)} µs at WORKERS=${most}`)
    }
    const target = (workload: string, aim: number): string => {
      const r = ratios.get(workload)?.median
      return r === undefined ? `${workload} not measured` : `${workload} >= ${aim}x: ${r.toFixed(2)}x ${r >= aim ? 'met' : 'MISSED'}`
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
