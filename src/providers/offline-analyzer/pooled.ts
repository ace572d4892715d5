/**
 * The offline analyser on the process's thread pool (pool-tasks.ts): its models load and its
 * analyses run on a pool thread, so a long text (about a second per 100,000 characters) never
 * holds the event loop that answers every other request, and analyses take turns by client with
 * all other pool work. A request that gives up has its analysis dropped, or stopped if it runs.
 */
import { ValidationError } from '../../errors.js'
import { PoolWork, processPool, taskModule } from '../../runtime/pool.js'
import type { AnalysisAnswer, Analyzer } from '../../core/ports.js'
import { OFFLINE_ANALYZER, offlineSupports } from './languages.js'

const TASKS = taskModule(import.meta.url, './pool-tasks')
/** Thread CPU time one analysis may take: far more than the longest text allowed needs. */
const BUDGET_MS = 30_000
/** Texts from this long take tens of milliseconds and more: they may not take the pool's last free thread. */
const HEAVY_CHARS = 10_000

export function createPooledOfflineAnalyzer (): Analyzer {
  const overBudget = (): ValidationError => new ValidationError(`analysing this text took more than ${BUDGET_MS / 1000} s of CPU; send a shorter text`)
  return {
    name: OFFLINE_ANALYZER,
    supports: offlineSupports,
    ready: async () => { await processPool().run({ module: TASKS, fn: 'ready', args: [] }, new PoolWork(BUDGET_MS), { overBudget }) },
    analyze: async (text, language, parts, signal) => await processPool().run<AnalysisAnswer>({ module: TASKS, fn: 'analyze', args: [text, language, parts] }, new PoolWork(BUDGET_MS, signal), { overBudget, heavy: text.length >= HEAVY_CHARS })
  }
}
