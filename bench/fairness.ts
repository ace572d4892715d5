/**
 * Fairness between clients, tried as an attacker would (issue 23), over real HTTP against the
 * built service with its default settings, each client with its own token:
 *
 *   1. one client sends `"a." x 45000` (88 KB, one sentence Apertium takes quadratic time on)
 *      en->es with cache off, one request at a time, while another sends one short sentence
 *      en->es at a time: the victim's p50/p99 (target p99 <= 250 ms), beside the same without
 *      the attack;
 *   2. one client keeps three 66 KB Markdown bodies in flight (`[x]` x 15000, padded with 22 KB
 *      of JSON white space) while another sends a 70 KB prose document en->eo (cache on, as a
 *      client repeating its document would): the victim's p95 (target <= 800 ms);
 *   3. `[x]` x 30000 Markdown en->en: refused once it has used 5 s of thread CPU (the
 *      per-request budget SECURITY.md promises), measured by the service's CPU meanwhile;
 *   4. two concurrent requests of a 3 KB document into 19 targets: the memory of the service and
 *      its pipelines, against the default memory budget of the pipelines.
 *
 *   npm run bench:fairness [-- --seconds 20 --only 1,2,3,4]
 */
import { parseArgs } from 'node:util'
import { availableParallelism, loadavg, totalmem } from 'node:os'
import { stopAll, stopChildrenOnExit } from './lib/children.js'
import { cpuMsOf, isNodeProcess, memoryOf, processTree } from './lib/proc.js'
import { startService, type Service } from './lib/service.js'
import { defaultMemoryBudgetMb } from '../src/runtime/machine.js'

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    only: { type: 'string', default: '1,2,3,4' }
  }
})
const SECONDS = Number(flags.seconds)
const ONLY = new Set(flags.only.split(',').map(s => s.trim()))
const CLIENTS = ['attacker', 'victim']

/** Nearest-rank percentile. */
function percentile (values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100 * sorted.length) - 1))] ?? NaN
}

async function token (service: Service, id: string): Promise<string> {
  const res = await fetch(`${service.base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: `${id}-secret-0123` })
  })
  return ((await res.json()) as { access_token: string }).access_token
}

/** POST a prepared body; its status, time taken and (cut) text. */
async function post (service: Service, bearer: string, path: string, body: string): Promise<{ status: number, ms: number, text: string }> {
  const started = performance.now()
  const res = await fetch(service.base + path, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body })
  const text = await res.text()
  return { status: res.status, ms: performance.now() - started, text: text.slice(0, 300) }
}

/** The victim's requests, one at a time, for `seconds`: their times. */
async function victimFor (service: Service, bearer: string, path: string, body: (i: number) => string, seconds: number): Promise<number[]> {
  const times: number[] = []
  const until = performance.now() + seconds * 1000
  for (let i = 0; performance.now() < until; i++) {
    const r = await post(service, bearer, path, body(i))
    if (r.status !== 200) throw new Error(`the victim's request answered ${r.status}: ${r.text}`)
    times.push(r.ms)
  }
  return times
}

/** `inFlight` attacker loops sending `body` until `stop()`; their statuses and times. */
function attack (service: Service, bearer: string, path: string, body: string, inFlight: number, stop: () => boolean): Promise<Array<{ status: number, ms: number }>> {
  const results: Array<{ status: number, ms: number }> = []
  return Promise.all(Array.from({ length: inFlight }, async () => {
    while (!stop()) {
      const r = await post(service, bearer, path, body)
      results.push({ status: r.status, ms: r.ms })
    }
  })).then(() => results)
}

const summary = (times: number[]): string => `n ${times.length}, p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`
const statuses = (results: Array<{ status: number }>): string => [...new Set(results.map(r => r.status))].map(s => `${s} x${results.filter(r => r.status === s).length}`).join(', ')
const verdict = (ok: boolean): string => ok ? 'met' : 'MISSED'

async function main (): Promise<void> {
  stopChildrenOnExit()
  console.log(`machine: ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${loadavg().map(l => l.toFixed(2)).join(' ')}, Node ${process.version}`)
  const service = await startService({
    env: {
      WORKERS: '',
      AUTH_CLIENTS: JSON.stringify(CLIENTS.map(id => ({ id, secret: `${id}-secret-0123`, scopes: ['access'] })))
    }
  })
  const attacker = await token(service, 'attacker')
  const victim = await token(service, 'victim')
  const targets: string[] = []

  if (ONLY.has('1')) {
    const sentence = (i: number): string => JSON.stringify({ document: { value: `The house number ${i} is red and very big.` }, source: 'en', targets: ['es'], options: { cache: false } })
    await victimFor(service, victim, '/language/translate', sentence, 2)
    const quiet = await victimFor(service, victim, '/language/translate', sentence, SECONDS / 2)
    console.log(`\n1. "a." x 45000 en->es, cache off, one at a time, against one sentence en->es:\n   victim alone:         ${summary(quiet)}`)
    let stop = false
    const attacks = attack(service, attacker, '/language/translate', JSON.stringify({ document: { value: 'a.'.repeat(45000) }, source: 'en', targets: ['es'], options: { cache: false } }), 1, () => stop)
    await new Promise(resolve => setTimeout(resolve, 500))
    const during = await victimFor(service, victim, '/language/translate', sentence, SECONDS)
    stop = true
    const attacked = await attacks
    console.log(`   victim under attack:  ${summary(during)}\n   attacker: ${statuses(attacked)}; ${summary(attacked.map(r => r.ms))}`)
    targets.push(`  victim's one-sentence en->es p99 <= 250 ms during the "a." x 45000 attack: ${percentile(during, 99).toFixed(0)} ms ${verdict(percentile(during, 99) <= 250)}`)
  }

  if (ONLY.has('2')) {
    const markdown = JSON.stringify({ document: { value: '[x]'.repeat(15000), mime_type: 'text/markdown' }, source: 'en', targets: ['es'] })
    const padded = markdown.replace('{', '{' + ' '.repeat(66 * 1024 - markdown.length - 1))
    const prose = Array.from({ length: 900 }, (_, i) => `The committee number ${i} reviewed the long report about the new bridge in the morning.`).join(' ').slice(0, 70 * 1024)
    const victimBody = JSON.stringify({ document: { value: prose }, source: 'en', targets: ['eo'] })
    // the victim's document once before: its segments are in the cache, as for a client that repeats it
    await post(service, victim, '/language/translate', victimBody)
    const quiet = await victimFor(service, victim, '/language/translate', () => victimBody, SECONDS / 2)
    console.log(`\n2. three ${(padded.length / 1024).toFixed(0)} KB Markdown bodies in flight against a ${(prose.length / 1024).toFixed(0)} KB prose document en->eo:\n   victim alone:         ${summary(quiet)}`)
    let stop = false
    const attacks = attack(service, attacker, '/language/translate', padded, 3, () => stop)
    await new Promise(resolve => setTimeout(resolve, 500))
    const during = await victimFor(service, victim, '/language/translate', () => victimBody, SECONDS)
    stop = true
    const attacked = await attacks
    console.log(`   victim under attack:  ${summary(during)}\n   attacker: ${statuses(attacked)}; ${summary(attacked.map(r => r.ms))}`)
    targets.push(`  the 70 KB victim's p95 <= 800 ms during the 66 KB Markdown attack: ${percentile(during, 95).toFixed(0)} ms ${verdict(percentile(during, 95) <= 800)}`)
  }

  if (ONLY.has('3')) {
    console.log('\n3. [x] Markdown en->en (no engine: the work is all the document\'s), one request at a time:')
    const tree = (): Set<number> => new Set(processTree(service.child.pid).filter(isNodeProcess).map(p => p.pid))
    let stopped: { status: number, cpu: number } | undefined
    for (const times of [30000, 60000]) {
      const body = JSON.stringify({ document: { value: '[x]'.repeat(times), mime_type: 'text/markdown' }, source: 'en', targets: ['en-GB'] })
      const cpuBefore = cpuMsOf(tree())
      const r = await post(service, attacker, '/language/translate', body)
      const cpu = cpuMsOf(tree()) - cpuBefore
      console.log(`   x ${times}: ${r.status} after ${(r.ms / 1000).toFixed(1)} s, the service's CPU meanwhile ${(cpu / 1000).toFixed(1)} s${r.status === 200 ? '' : `: ${r.text.slice(0, 200)}`}`)
      if (r.status !== 200) stopped = { status: r.status, cpu }
      else if (cpu > 5500) stopped = { status: r.status, cpu }
    }
    targets.push(`  Markdown work stops at 5 s of CPU per request: ${stopped === undefined ? 'no request ran that long' : `answered ${stopped.status} after ${(stopped.cpu / 1000).toFixed(1)} s of the service's CPU`} ${verdict(stopped === undefined || (stopped.status === 400 && stopped.cpu < 6500))}`)
  }

  if (ONLY.has('4')) {
    // 19 targets English translates into (directly or through a pivot), as the service lists them
    const auth = { authorization: `Bearer ${victim}` }
    const locales = await (await fetch(`${service.base}/language/translate/locales`, { headers: auth })).json() as { target: Array<{ tag: string }> }
    const targets19: string[] = []
    for (const { tag } of locales.target) {
      if (targets19.length === 19 || tag === 'en' || tag.startsWith('en-')) continue
      const answer = await (await fetch(`${service.base}/language/translate/locales/supported?source=en&target=${encodeURIComponent(tag)}`, { headers: auth })).json() as { supported: boolean }
      if (answer.supported) targets19.push(tag)
    }
    const doc = Array.from({ length: 60 }, (_, i) => `The engineer number ${i} explained the plan to the council.`).join(' ').slice(0, 3072)
    const body = JSON.stringify({ document: { value: doc }, source: 'en', targets: targets19, options: { cache: false } })
    const memory = (): { node: number, pipelines: number } => {
      const all = processTree(service.child.pid)
      return { node: memoryOf(all.filter(isNodeProcess).map(p => p.pid)).rssMb, pipelines: memoryOf(all.filter(p => !isNodeProcess(p)).map(p => p.pid)).pssMb }
    }
    const before = memory()
    let peak = before.pipelines
    const sampler = setInterval(() => { peak = Math.max(peak, memory().pipelines) }, 200)
    const answers = await Promise.all([post(service, attacker, '/language/translate', body), post(service, victim, '/language/translate', body)])
    clearInterval(sampler)
    const after = memory()
    const budget = defaultMemoryBudgetMb()
    console.log(`\n4. two concurrent 19-target ${(doc.length / 1024).toFixed(0)} KB requests: ${answers.map(a => `${a.status} in ${(a.ms / 1000).toFixed(1)} s`).join(', ')}; ` +
      `pipelines PSS ${before.pipelines.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB, ${after.pipelines.toFixed(0)} MB after; service Node RSS ${after.node.toFixed(0)} MB; default budget ${budget} MB`)
    for (const a of answers) if (a.status !== 200 && a.status !== 503) throw new Error(`a 19-target request answered ${a.status}: ${a.text}`)
    targets.push(`  two 19-target requests stay within the default memory budget (${budget} MB for the pipelines): peak ${peak.toFixed(0)} MB ${verdict(peak <= budget)}`)
  }

  console.log(`\ntargets (issue 23):\n${targets.join('\n')}\n  load average after the run: ${loadavg().map(l => l.toFixed(2)).join(' ')}`)
}

try {
  await main()
} catch (err) {
  process.exitCode = 1
  console.error(`\nbench failed: ${(err as Error).stack ?? String(err)}`)
} finally {
  await stopAll()
}
