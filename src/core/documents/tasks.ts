/**
 * The document work a request can hand to the document runner, as plain data in and out: the
 * visible text of a document, its segments ready for an engine, and the document rebuilt from the
 * engine's answers. Each task is complete in itself. Inline, the request's memo keeps what a task
 * segmented or prepared, so its next task on the same document (its rebuilding after its
 * preparation) starts from it; off the event loop a task reads its document anew
 * (docs/architecture.md says what that costs).
 */
import { invalidField, ValidationError, type FieldPath } from '../../errors.js'
import type { EditNote, EditType } from '../ports.js'
import { changesOf, type Change } from '../editing/changes.js'
import type { AppliedSubstitution, Substitution } from '../glossary.js'
import { plainText } from '../tagged.js'
import { segmentDocument, type SegmentedDocument } from './index.js'
import type { KeptElements } from './kept-elements.js'
import type { MimeType } from './mime.js'
import { prepareForTranslation, type Prepared } from './prepare.js'

/** How a document is prepared for an engine (PrepareOptions without the path). */
export interface PrepareSettings {
  placeholders: boolean
  rules: readonly Substitution[]
  caseSensitive: boolean
  language?: string
  /** text/html: elements kept whole. */
  kept?: KeptElements | undefined
}

interface TaskBase {
  value: unknown
  mimeType: MimeType
  /** Where the value is in the request, for errors. */
  path: FieldPath
}

export type DocumentTask =
  | TaskBase & { kind: 'text', language?: string, kept?: KeptElements }
  | TaskBase & { kind: 'prepare', settings: PrepareSettings }
  /**
   * The document rebuilt once per answer set (one per target), from one reading of it;
   * `translations` absent: once, with the identity translation (substitution). `targets`: the
   * language of each answer set, for formats that name it (gettext's Language and plurals).
   */
  | TaskBase & { kind: 'finish', settings: PrepareSettings, translations?: string[][], targets?: string[] }
  /** The `changes` of an edit: `value` (the original) against `edited`. */
  | TaskBase & { kind: 'changes', edited: unknown, notes: EditNote[], asked: EditType[] }

export type TaskResult =
  | { kind: 'text', text: string }
  | { kind: 'prepare', segments: string[] }
  /** A rebuilt value of a held document comes back as its JSON text (`json`), for the answer as it is. */
  | { kind: 'finish', results: Array<{ value: unknown, applied: AppliedSubstitution[] } | { json: string, applied: AppliedSubstitution[] }> }
  | { kind: 'changes', changes: Change[] }

/** What was made of one document: its segmentations by language, its preparations by settings. */
export class DocumentMemo {
  private readonly segmented = new Map<string, SegmentedDocument>()
  private readonly prepared = new Map<string, Prepared>()

  segment (task: TaskBase, language = 'en', kept?: KeptElements): SegmentedDocument {
    const key = kept === undefined ? language : JSON.stringify([language, kept])
    let doc = this.segmented.get(key)
    if (doc === undefined) this.segmented.set(key, doc = segmentDocument(task.value, task.mimeType, { language, path: task.path, kept }))
    return doc
  }

  prepare (task: TaskBase, settings: PrepareSettings): Prepared {
    const key = JSON.stringify([settings.placeholders, settings.caseSensitive, settings.language ?? '', settings.rules, settings.kept ?? null])
    let prepared = this.prepared.get(key)
    if (prepared === undefined) this.prepared.set(key, prepared = prepareForTranslation(task.value, task.mimeType, { ...settings, path: task.path }))
    return prepared
  }
}

const TOO_DEEP = 'this document nests too deeply to be processed; simplify it or send it as text/plain'

/** Runs a task, starting from what `memo` holds of its document. A stack overflow is the document's fault: a 400 at its path. */
export function runDocumentTask (task: DocumentTask, memo = new DocumentMemo()): TaskResult {
  try {
    return runWith(task, memo)
  } catch (err) {
    if (err instanceof RangeError && !(err instanceof ValidationError)) throw invalidField(task.path, TOO_DEEP)
    throw err
  }
}

function runWith (task: DocumentTask, memo: DocumentMemo): TaskResult {
  if (task.kind === 'changes') return { kind: 'changes', changes: changesOf(task.value, task.edited, task.notes, task.asked) }
  if (task.kind === 'text') {
    if (typeof task.value === 'string' && task.mimeType === 'text/plain') return { kind: 'text', text: task.value }
    return { kind: 'text', text: memo.segment(task, task.language, task.kept).segments.map(plainText).join('\n') }
  }
  const prepared = memo.prepare(task, task.settings)
  if (task.kind === 'prepare') return { kind: 'prepare', segments: prepared.segments }
  return { kind: 'finish', results: (task.translations ?? [prepared.segments]).map((translated, i) => prepared.finish(translated, task.targets?.[i])) }
}
