/**
 * What the thread memo saves (core/documents/tasks.ts threadMemo): a costly document's request
 * runs two tasks on the pool, its preparation and, after the engine, its rebuilding. With the
 * memo, the thread that prepared the document (the request's next task goes to it when it is
 * free) rebuilds it from what it read; without, the rebuilding reads the document again. Each
 * request is run both ways on the service's pool runner (runtime/pool.ts poolRunner, two
 * threads), in interleaved rounds; printed: the thread CPU the request was charged (its budget is
 * 5 s) and its time.
 *
 *   npx tsx bench/document-reads.ts [-- --rounds 5]
 */
import { parseArgs } from 'node:util'
import { documentCost, LIGHT_COST } from '../src/core/documents/cost.js'
import type { DocumentTask, TaskResult } from '../src/core/documents/offload.js'
import type { MimeType } from '../src/core/documents/mime.js'
import { DocumentsBusyError, ValidationError } from '../src/errors.js'
import { DOCUMENT_TASKS } from '../src/http/document-tasks.js'
import { poolRunner, ThreadPool } from '../src/runtime/pool.js'

const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } })
const ROUNDS = Number(flags.rounds)

const prose = Array.from({ length: 900 }, (_, i) => `The committee number ${i} reviewed the long report about the new bridge in the morning.`).join(' ').slice(0, 70 * 1024)
const documents: Array<[string, string, MimeType]> = [
  ['70 KB of prose', prose, 'text/plain'],
  ['70 KB of HTML', prose.replace(/\. /g, '.</p>\n<p>'), 'text/html'],
  ['"[x]" x 10000 Markdown', '[x]'.repeat(10_000), 'text/markdown']
]
const settings = { placeholders: true, rules: [], caseSensitive: false, language: 'en' }

const pool = new ThreadPool({ threads: 2, queueMs: 60_000, busyError: waited => new DocumentsBusyError(waited), preload: [DOCUMENT_TASKS] })
await pool.ready()
const runner = poolRunner<DocumentTask, TaskResult>(() => pool, DOCUMENT_TASKS, 'runPooledTask')

/** One request: preparation, then the rebuilding of its segments as they are (the key names the document for the thread memo, or not). */
async function request (value: string, mimeType: MimeType, memo: boolean, round: number): Promise<{ cpu: number, ms: number }> {
  const account = runner.account(60_000)
  const options = { heavy: documentCost(value, mimeType) > LIGHT_COST, overBudget: () => new ValidationError('over budget') }
  const key = memo ? `bench:${round}:${mimeType}` : undefined
  const started = performance.now()
  const prepared = await account.run({ kind: 'prepare', value, mimeType, path: [], settings, key }, options) as Extract<TaskResult, { kind: 'prepare' }>
  await account.run({ kind: 'finish', value, mimeType, path: [], settings, key, translations: [prepared.segments] }, options)
  return { cpu: account.spentMs, ms: performance.now() - started }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const range = (xs: number[]): string => `${median(xs).toFixed(0).padStart(5)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`
const results = new Map<string, { cpu: number[], ms: number[] }>()
for (const [, value, mime] of documents) for (const memo of [true, false]) await request(value, mime, memo, -1) // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, value, mime] of documents) {
    for (const memo of round % 2 === 0 ? [true, false] : [false, true]) {
      const r = await request(value, mime, memo, round)
      const label = `${name}, ${memo ? 'with the memo' : 'read again'}`
      const entry = results.get(label) ?? { cpu: [], ms: [] }
      entry.cpu.push(r.cpu)
      entry.ms.push(r.ms)
      results.set(label, entry)
    }
  }
}
console.log(`one request (prepare, then rebuild) on a pool of 2 threads: median (min-max) of ${ROUNDS} interleaved rounds`)
console.log(`${''.padEnd(44)} thread CPU ms    time ms`)
for (const [label, { cpu, ms }] of results) console.log(`${label.padEnd(44)} ${range(cpu).padEnd(16)} ${range(ms)}`)
await pool.close()
