/**
 * The document work a request can hand to a document thread (pool.ts), as plain data in and out:
 * the visible text of a document, its segments ready for an engine, and the document rebuilt from
 * the engine's answers. Each task is complete in itself (nothing is kept between tasks), so a
 * thread stopped for running over loses nothing of other requests, and any thread can take any
 * task. Run inline, a task is exactly what the synchronous entry points do.
 */
import type { FieldPath } from '../../errors.js'
import type { EditNote, EditType } from '../../providers/types.js'
import { changesOf, type Change } from '../editing/changes.js'
import type { AppliedSubstitution, Substitution } from '../glossary.js'
import { plainText } from '../tagged.js'
import { segmentDocument } from './index.js'
import type { MimeType } from './mime.js'
import { prepareForTranslation } from './prepare.js'

/** How a document is prepared for an engine (PrepareOptions without the path). */
export interface PrepareSettings {
  placeholders: boolean
  rules: readonly Substitution[]
  caseSensitive: boolean
  language?: string
}

interface TaskBase {
  value: unknown
  mimeType: MimeType
  /** Where the value is in the request, for errors. */
  path: FieldPath
}

export type DocumentTask =
  | TaskBase & { kind: 'text', language?: string }
  | TaskBase & { kind: 'prepare', settings: PrepareSettings }
  /**
   * The document rebuilt once per answer set (one per target), from one reading of it;
   * `translations` absent: once, with the identity translation (substitution).
   */
  | TaskBase & { kind: 'finish', settings: PrepareSettings, translations?: string[][] }
  /** The `changes` of an edit: `value` (the original) against `edited`. */
  | TaskBase & { kind: 'changes', edited: unknown, notes: EditNote[], asked: EditType[] }

export type TaskResult =
  | { kind: 'text', text: string }
  | { kind: 'prepare', segments: string[] }
  | { kind: 'finish', results: Array<{ value: unknown, applied: AppliedSubstitution[] }> }
  | { kind: 'changes', changes: Change[] }

/** Runs a task on this thread. */
export function runTask (task: DocumentTask): TaskResult {
  if (task.kind === 'changes') return { kind: 'changes', changes: changesOf(task.value, task.edited, task.notes, task.asked) }
  if (task.kind === 'text') {
    if (typeof task.value === 'string' && task.mimeType === 'text/plain') return { kind: 'text', text: task.value }
    const doc = segmentDocument(task.value, task.mimeType, { language: task.language, path: task.path })
    return { kind: 'text', text: doc.segments.map(plainText).join('\n') }
  }
  const prepared = prepareForTranslation(task.value, task.mimeType, { ...task.settings, path: task.path })
  if (task.kind === 'prepare') return { kind: 'prepare', segments: prepared.segments }
  return { kind: 'finish', results: (task.translations ?? [prepared.segments]).map(translated => prepared.finish(translated)) }
}
