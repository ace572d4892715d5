/**
 * Whether Node/V8 flags that save memory cost speed: starts the built service once per variant
 * (the start command's flags plus the variant's), all at once and idle while another is measured,
 * then in rounds, each workload on each variant in turn (a shared machine's speed drifts):
 * short-text detection, short translations en->es with the cache off, sentiment of a review, all
 * four analyses of a short text, a grammar edit. Prints each run, then per workload each variant's
 * req/s as a fraction of the first variant's (median and each round's), p99, and each worker's
 * RSS after the runs.
 *
 *   npx tsx bench/memory-speed.ts [--variants='|--optimize-for-size'] [--rounds 3] [--duration 8]
 *                                 [--connections 8] [--workloads detect,translate,sentiment,analyze,edit]
 *                                 [--root DIR] [--baseline DIR]
 *
 * `--variants`: Node flag sets separated by `|`, each beside the start command's (empty: those
 * alone; `--no-optimize-for-size` turns off a flag the start command gives). `--root DIR`: another
 * checkout, built, whose dist/server.js runs (say a `git worktree` that nothing else rebuilds).
 * `--baseline DIR`: one more service first, from that checkout with the start command's flags
 * (a change in the code measured against the commit before it, in the same turns).
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { stopAll, stopChildrenOnExit } from './lib/children.js'
import { englishCorpus } from './lib/corpus.js'
import { memoryOf } from './lib/proc.js'
import { median } from './lib/rounds.js'
import { accessToken, ROOT, startService, type Service } from './lib/service.js'

const { values: flags } = parseArgs({
  options: {
    variants: { type: 'string', default: '|--optimize-for-size' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '8' },
    workloads: { type: 'string', default: 'detect,translate,sentiment,analyze,edit' },
    root: { type: 'string' },
    baseline: { type: 'string' }
  }
})
interface Variant { label: string, nodeArgs: string[], root: string | undefined }
const VARIANTS: Variant[] = flags.variants.split('|').map(v => v.split(' ').filter(arg => arg !== '')).map(nodeArgs => ({
  label: nodeArgs.length === 0 ? 'start flags' : `+ ${nodeArgs.join(' ')}`, nodeArgs, root: flags.root
}))
if (flags.baseline !== undefined) VARIANTS.unshift({ label: 'baseline', nodeArgs: [], root: flags.baseline })
const ROUNDS = Number(flags.rounds)
const DURATION = Number(flags.duration)
const CONNECTIONS = Number(flags.connections)

interface Workload { name: string, path: string, bodies: string[] }
const sentences = englishCorpus().sentences
const reviews = readFileSync(join(ROOT, 'test/data/sentiment-dev.jsonl'), 'utf8').trim().split('\n').map(l => (JSON.parse(l) as { text: string }).text).slice(0, 1000)
const ALL: Workload[] = [
  { name: 'detect', path: '/language/detect', bodies: sentences.map(value => JSON.stringify({ document: { value } })) },
  { name: 'translate', path: '/language/translate', bodies: sentences.map(value => JSON.stringify({ document: { value }, source: 'en', targets: ['es'], options: { cache: false } })) },
  { name: 'sentiment', path: '/language/analyze/sentiment', bodies: reviews.map(value => JSON.stringify({ document: { value, language: 'en' } })) },
  { name: 'analyze', path: '/language/analyze', bodies: reviews.map(value => JSON.stringify({ document: { value, language: 'en' } })) },
  { name: 'edit', path: '/language/edit', bodies: reviews.map(value => JSON.stringify({ document: { value, language: 'en' }, edits: [{ type: 'grammar' }] })) }
]
const WORKLOADS = flags.workloads.split(',').map(name => {
  const workload = ALL.find(w => w.name === name.trim())
  if (workload === undefined) throw new Error(`--workloads takes ${ALL.map(w => w.name).join(', ')}; got "${name}"`)
  return workload
})

interface Run { reqPerS: number, p99: number, failed: number }

async function load (service: Service, token: string, workload: Workload, seconds: number): Promise<Run> {
  let next = 0
  const result = await autocannon({
    url: service.base + workload.path,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [{ method: 'POST', setupRequest: req => ({ ...req, body: workload.bodies[next++ % workload.bodies.length]! }) }]
  })
  return { reqPerS: result.requests.total / (result.duration || seconds), p99: result.latency.p99, failed: result.non2xx + result.errors }
}

async function main (): Promise<void> {
  stopChildrenOnExit()
  const label = (i: number): string => VARIANTS[i]!.label
  console.log(`${new Date().toISOString()}, load average ${loadavg().map(l => l.toFixed(2)).join(' ')}, Node ${process.version}, ${CONNECTIONS} connections, ${DURATION} s runs, ${ROUNDS} rounds`)
  const services: Array<{ service: Service, token: string }> = []
  for (const { nodeArgs, root } of VARIANTS) {
    const service = await startService({ nodeArgs, ...(root === undefined ? {} : { root }) })
    services.push({ service, token: await accessToken(service) })
  }
  const runs = VARIANTS.map(() => new Map<string, Run[]>(WORKLOADS.map(w => [w.name, []])))
  for (let round = 1; round <= ROUNDS; round++) {
    for (const workload of WORKLOADS) {
      // each round starts with another variant, so neither always runs first
      const order = services.map((_, i) => (i + round - 1) % services.length)
      for (const i of order) {
        const { service, token } = services[i]!
        if (round === 1) await load(service, token, workload, 2)
        const run = await load(service, token, workload, DURATION)
        runs[i]!.get(workload.name)!.push(run)
        console.log(`round ${round}: ${label(i).padEnd(28)} ${workload.name.padEnd(10)} ${run.reqPerS.toFixed(0).padStart(6)} req/s  p99 ${run.p99.toFixed(0).padStart(5)} ms  ${run.failed} failed`)
      }
    }
  }
  console.log('\nreq/s as a fraction of the first variant\'s, median of the rounds (each round); p99 median')
  for (const workload of WORKLOADS) {
    for (let i = 0; i < VARIANTS.length; i++) {
      const mine = runs[i]!.get(workload.name)!
      const first = runs[0]!.get(workload.name)!
      const ratios = mine.map((r, k) => r.reqPerS / first[k]!.reqPerS)
      console.log(`  ${workload.name.padEnd(10)} ${label(i).padEnd(28)} ${median(mine.map(r => r.reqPerS)).toFixed(0).padStart(6)} req/s  ${median(ratios).toFixed(2)} (${ratios.map(r => r.toFixed(2)).join(', ')})  p99 ${median(mine.map(r => r.p99)).toFixed(0)} ms`)
    }
  }
  for (let i = 0; i < services.length; i++) console.log(`${label(i)}: worker RSS after the runs ${memoryOf([services[i]!.service.child.pid]).rssMb.toFixed(0)} MB`)
  const failed = runs.flatMap(m => [...m.values()].flat()).reduce((n, r) => n + r.failed, 0)
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
