/**
 * The document work a request can hand to the document runner, as plain data in and out: the
 * visible text of a document, its segments ready for an engine, and the document rebuilt from the
 * engine's answers. A document is read once per request where it can be: what a task prepared is
 * kept in a memo (the request's own inline, the runner's thread's by the document's key), so the
 * request's rebuilding after its preparation starts from it. Any task is still complete in
 * itself: where the document is not held it is read again.
 */
import { invalidField, ValidationError, type FieldPath } from '../../errors.js'
import type { EditNote, EditType } from '../ports.js'
import { changesOf, type Change } from '../editing/changes.js'
import type { AppliedSubstitution, Substitution } from '../glossary.js'
import { plainText } from '../tagged.js'
import { rawLength } from './cost.js'
import { segmentDocument, type FinishedEntries, type SegmentedDocument } from './segment.js'
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
  /** A catalog's finished entries: kept as they are (translation), or their translation read (edit, substitution). */
  finished?: FinishedEntries
  /** Same-language work (edit): changed sentences written over their source. */
  inPlace?: boolean
  /** The language a catalog is translated into, where what is read of it depends on it (SegmentOptions). */
  target?: string
}

interface TaskBase {
  value: unknown
  mimeType: MimeType
  /** Where the value is in the request, for errors. */
  path: FieldPath
  /** Names the document within its request, for what a runner's thread keeps of it (threadMemo). */
  key?: string | undefined
}

export type DocumentTask =
  | TaskBase & { kind: 'text', language?: string, kept?: KeptElements, finished?: FinishedEntries }
  | TaskBase & { kind: 'prepare', settings: PrepareSettings }
  /**
   * The document rebuilt once per answer set (one per target), from one reading of it;
   * `translations` absent: once, with the identity translation (substitution). `targets`: the
   * language of each answer set, for formats that name it (gettext's Language and plurals).
   */
  | TaskBase & { kind: 'finish', settings: PrepareSettings, translations?: string[][], targets?: Array<string | undefined> }
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

  /** `language`: where unknown (detection reads the text), nothing marked as another language is left out. */
  segment (task: TaskBase, language?: string, kept?: KeptElements, finished: FinishedEntries = 'kept'): SegmentedDocument {
    const key = kept === undefined && finished === 'kept' ? language ?? '' : JSON.stringify([language ?? '', kept ?? null, finished])
    let doc = this.segmented.get(key)
    if (doc === undefined) this.segmented.set(key, doc = segmentDocument(task.value, task.mimeType, { language, path: task.path, kept, finished }))
    return doc
  }

  prepare (task: TaskBase, settings: PrepareSettings): Prepared {
    const key = JSON.stringify([settings.placeholders, settings.caseSensitive, settings.language ?? '', settings.rules, settings.kept ?? null, settings.finished ?? 'kept', settings.inPlace === true, settings.target ?? ''])
    let prepared = this.prepared.get(key)
    if (prepared === undefined) this.prepared.set(key, prepared = prepareForTranslation(task.value, task.mimeType, { ...settings, path: task.path }))
    return prepared
  }
}

const TOO_DEEP = 'this document nests too deeply to be processed; simplify it or send it as text/plain'

/** Runs a task, starting from what `memo` holds of its document. */
export function runDocumentTask (task: DocumentTask, memo = new DocumentMemo()): TaskResult {
  return guarded(task.path, () => runWith(task, memo))
}

/** Runs document work on the document at `path`: a stack overflow is the document's fault, a 400 at its path. */
export function guarded<T> (path: FieldPath, work: () => T): T {
  try {
    return work()
  } catch (err) {
    if (err instanceof RangeError && !(err instanceof ValidationError)) throw invalidField(path, TOO_DEEP)
    throw err
  }
}

function runWith (task: DocumentTask, memo: DocumentMemo): TaskResult {
  if (task.kind === 'changes') return { kind: 'changes', changes: changesOf(task.value, task.edited, task.notes, task.asked) }
  if (task.kind === 'text') {
    if (typeof task.value === 'string' && task.mimeType === 'text/plain') return { kind: 'text', text: task.value }
    return { kind: 'text', text: memo.segment(task, task.language, task.kept, task.finished).segments.map(plainText).join('\n') }
  }
  const prepared = memo.prepare(task, task.settings)
  if (task.kind === 'prepare') return { kind: 'prepare', segments: prepared.segments }
  return { kind: 'finish', results: rebuildAll(prepared, task.translations ?? [prepared.segments], task.targets) }
}

/** The document rebuilt once per answer set, from one preparation; `targets`: each set's language. */
export function rebuildAll (prepared: Prepared, translations: readonly string[][], targets?: ReadonlyArray<string | undefined>): Array<{ value: unknown, applied: AppliedSubstitution[] }> {
  return translations.map((translated, i) => prepared.finish(translated, targets?.[i]))
}

/**
 * What a runner's thread holds of the documents it prepared lately, by key, until their
 * rebuilding: only preparations are kept (their rebuilding follows), a few, for a minute, and
 * within a bound on their documents' text (a large document's preparation takes tens of MB).
 * bench/document-reads.ts measures what it saves.
 */
const threadMemos = new Map<string, { memo: DocumentMemo, at: number, chars: number }>()
const THREAD_MEMOS = 4
const THREAD_MEMO_CHARS = 1_000_000
const THREAD_MEMO_MS = 60_000

/** On a runner's thread: the memo of a task's document (a new one when its key is not held, or it has none). */
export function threadMemo (task: DocumentTask): DocumentMemo {
  const now = Date.now()
  for (const [k, entry] of threadMemos) if (now - entry.at > THREAD_MEMO_MS) threadMemos.delete(k)
  const key = task.key
  if (key === undefined) return new DocumentMemo()
  const found = threadMemos.get(key)
  threadMemos.delete(key)
  const memo = found?.memo ?? new DocumentMemo()
  // kept for the rebuilding that follows a preparation; the rebuilding itself was its last use
  const chars = rawLength(task.value, THREAD_MEMO_CHARS + 1)
  if (task.kind === 'prepare' && chars <= THREAD_MEMO_CHARS) {
    threadMemos.set(key, { memo, at: now, chars })
    let total = 0
    for (const entry of threadMemos.values()) total += entry.chars
    for (const [k, entry] of threadMemos) {
      if (threadMemos.size <= THREAD_MEMOS && total <= THREAD_MEMO_CHARS) break
      threadMemos.delete(k)
      total -= entry.chars
    }
  }
  return memo
}
