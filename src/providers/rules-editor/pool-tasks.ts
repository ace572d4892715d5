/** The rules editor's tasks on a pool thread (see pooled.ts): its dictionaries load on the thread's first use of a language and stay. */
import type { EditJob } from '../../core/ports.js'
import { createRulesEditor } from './index.js'

let editor: ReturnType<typeof createRulesEditor> | undefined
const rules = (): ReturnType<typeof createRulesEditor> => (editor ??= createRulesEditor())

export async function ready (): Promise<void> {
  await rules().ready!()
}

export async function edit (job: EditJob): Promise<unknown> {
  return await rules().edit(job, new AbortController().signal)
}

export async function spellsAs (text: string, language: string): Promise<boolean> {
  return await rules().spellsAs!(text, language, new AbortController().signal)
}
