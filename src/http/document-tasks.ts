/**
 * The document core's tasks as a pool thread runs them (core/documents/tasks.ts), from what the
 * thread kept of the document (threadMemo). A document held on the pool (a large body's value,
 * runtime/held-values.ts) is worked on the value held there, and what is rebuilt of it goes back
 * as JSON text; an edited value that came as JSON text is parsed here.
 */
import { runDocumentTask, threadMemo, type DocumentTask, type TaskResult } from '../core/documents/tasks.js'
import { isHeldRef, resolveHeld } from '../runtime/held-values.js'

/** The module pool threads run document tasks from (this one). */
export const DOCUMENT_TASKS = import.meta.url

export function runPooledTask (task: DocumentTask): TaskResult {
  const held = isHeldRef(task.value)
  if (held) task.value = resolveHeld(task.value as Parameters<typeof resolveHeld>[0])
  if (task.kind === 'changes' && typeof task.edited === 'object' && task.edited !== null && typeof (task.edited as { json?: unknown }).json === 'string') {
    task.edited = JSON.parse((task.edited as { json: string }).json)
  }
  const result = runDocumentTask(task, threadMemo(task))
  if (held && result.kind === 'finish') {
    result.results = result.results.map(r => 'value' in r ? { json: JSON.stringify(r.value), applied: r.applied } : r)
  }
  return result
}
