/**
 * The rules editor in a thread of its own (rules-worker.ts): its dictionaries (tens of MB each,
 * parsed on first use of a language) load and its edits run there, so neither holds the event
 * loop that answers every other request. What it cannot do is known here, without the dictionaries.
 */
import { ModelThread, type Caller } from '../../shared/module-thread.js'
import type { EditedSegment, Editor, EditJob } from '../types.js'
import { rulesCannot, SPELLING_LANGUAGES } from './index.js'

/** `remote`: the editor of another thread, reached over a port (the large-request thread uses its process's). */
export function createRulesEditorThread (remote?: Caller): Editor {
  const thread = remote === undefined ? new ModelThread({ from: import.meta.url, name: './rules-worker', label: 'rules editor' }) : undefined
  const call: Caller = remote ?? (async (method, args, signal) => await thread!.call(method, args, signal))
  const spelling = new Set(SPELLING_LANGUAGES)
  const ready = async (): Promise<void> => { await call('ready', []) }
  if (thread !== undefined) ready().catch(() => {})
  return {
    name: 'rules',
    cannot: (edit, language) => rulesCannot(edit, language, spelling),
    ready,
    edit: async (job: EditJob, signal: AbortSignal) => await call<EditedSegment[]>('edit', [job], signal),
    close: async () => { await thread?.close() }
  }
}
