/**
 * The rules editor on the process's thread pool (pool-tasks.ts): its dictionaries (tens of MB
 * each, parsed on first use of a language) load and its edits run on a pool thread, so neither
 * holds the event loop that answers every other request. What it cannot do is known here,
 * without the dictionaries.
 */
import { ValidationError } from '../../errors.js'
import { PoolWork, processPool, taskModule } from '../../runtime/pool.js'
import type { EditedSegment, Editor, EditJob } from '../../core/ports.js'
import { rulesCannot, SPELLING_LANGUAGES } from './index.js'

const TASKS = taskModule(import.meta.url, './pool-tasks')
/** Thread CPU time one edit may take: far more than the longest text allowed needs. */
const BUDGET_MS = 30_000
/** Texts from this long take tens of milliseconds and more: they may not take the pool's last free thread. */
const HEAVY_CHARS = 10_000

export function createPooledRulesEditor (): Editor {
  const spelling = new Set(SPELLING_LANGUAGES)
  const overBudget = (): ValidationError => new ValidationError(`editing this text took more than ${BUDGET_MS / 1000} s of CPU; send a shorter text`)
  return {
    name: 'rules',
    cannot: (edit, language) => rulesCannot(edit, language, spelling),
    ready: async () => { await processPool().run({ module: TASKS, fn: 'ready', args: [] }, new PoolWork(BUDGET_MS), { overBudget }) },
    spellsAs: async (text: string, language: string, signal: AbortSignal) => await processPool().run<boolean>({ module: TASKS, fn: 'spellsAs', args: [text, language] }, new PoolWork(BUDGET_MS, signal), { overBudget }),
    edit: async (job: EditJob, signal: AbortSignal) => await processPool().run<EditedSegment[]>({ module: TASKS, fn: 'edit', args: [job] }, new PoolWork(BUDGET_MS, signal), { overBudget, heavy: job.segments.reduce((n, segment) => n + segment.length, 0) >= HEAVY_CHARS })
  }
}
