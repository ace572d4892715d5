/**
 * The asynchronous entry points of the document core, for the use cases: a document's text, its
 * segments ready for an engine, and the document rebuilt from the engine's answers. A cheap
 * estimate of each document's cost (length, lines, tags, keys; Markdown weighs more) decides
 * where the work runs: small documents inline (the common short request pays nothing more), the
 * rest on the document runner, a port app.ts gives core (the process's thread pool), in the
 * request's client's turn and within the request's budget of thread time.
 */
import { randomUUID } from 'node:crypto'
import { invalidField, type FieldPath, type ValidationError } from '../../errors.js'
import type { EditNote, EditType } from '../ports.js'
import type { Change } from '../editing/changes.js'
import type { AppliedSubstitution, Substitution } from '../glossary.js'
import { HeldValue, JsonFragment } from './held.js'
import type { KeptElements } from './kept-elements.js'
import type { MimeType } from './mime.js'
import type { FinishedEntries } from './segment.js'
import { DocumentMemo, guarded, rebuildAll, runDocumentTask, type DocumentTask, type PrepareSettings, type TaskResult } from './tasks.js'
import type { Prepared } from './prepare.js'
import { documentCost, INLINE_COST, LANE_INLINE_COST, LIGHT_COST } from './cost.js'

export { documentCost, INLINE_COST } from './cost.js'

export type { DocumentTask, PrepareSettings, TaskResult } from './tasks.js'

/** Thread time one request's document work may use in all (SECURITY.md). */
export const DOCUMENT_BUDGET_MS = 5000

/** The port that runs document tasks off the event loop (app.ts gives it the process's thread pool). */
export interface DocumentRunner {
  /** A request's account: `budgetMs` of thread time for all its tasks; `signal` withdraws them. */
  account: (budgetMs: number, signal?: AbortSignal) => DocumentAccount
}

/** One request's account with the runner: every task of the request runs through it. */
export interface DocumentAccount {
  /** Thread time its tasks have used (ms). */
  readonly spentMs: number
  /**
   * Runs a task off the event loop in the request's client's turn. Rejects with `overBudget()` once
   * the account's budget runs out, and with the runner's busy error past its allowance to wait.
   * `heavy`: estimated long (it may be kept from the last free thread).
   */
  run: (task: DocumentTask, options: { heavy: boolean, overBudget: () => Error }) => Promise<TaskResult>
}

const DOCUMENT_VALUE: FieldPath = ['document', 'value']

/** The 400 for a document whose work ran past its request's budget. */
function overBudget (path: FieldPath, budgetMs: number): ValidationError {
  return invalidField(path, `this document is too complex: processing it took more than ${budgetMs / 1000} s; simplify or split it, or send it as text/plain`)
}

/** What a task gives the use case: a rebuilt value of a held document is a JsonFragment. */
type WorkResult = Exclude<TaskResult, { kind: 'finish' }> | { kind: 'finish', results: Array<{ value: unknown, applied: AppliedSubstitution[] }> }

/** A request's document work: its account with the runner (one budget for all its documents), and what ran inline. */
export class DocumentWork {
  inlineCost = 0
  /** Absent without a runner: every task runs inline. */
  readonly account: DocumentAccount | undefined
  private readonly budgetMs: number
  private readonly id = randomUUID()
  /** Per document (by value: strings by content, objects by identity): its key for the runner, and what was read of it inline. */
  private readonly documents = new Map<unknown, { key: string, memo: DocumentMemo }>()

  /** `runner` absent (tests, tools): every document is worked inline. */
  constructor (runner: DocumentRunner | undefined, signal?: AbortSignal, budgetMs = DOCUMENT_BUDGET_MS) {
    this.budgetMs = budgetMs
    this.account = runner?.account(budgetMs, signal)
  }

  private document (value: unknown): { key: string, memo: DocumentMemo } {
    let doc = this.documents.get(value)
    if (doc === undefined) this.documents.set(value, doc = { key: `${this.id}:${this.documents.size}`, memo: new DocumentMemo() })
    return doc
  }

  /**
   * Whether a task is worked inline: its document is cheap (or there is no runner), and the
   * request's inline work so far leaves room for `times` its cost (then counted). A document held
   * by the runner (a large body's) is always worked there.
   */
  private inline (task: DocumentTask, times = 1): boolean {
    if (task.value instanceof HeldValue || (task.kind === 'changes' && task.edited instanceof JsonFragment)) return false
    const cost = documentCost(task.value, task.mimeType)
    if (this.account !== undefined && (cost > INLINE_COST || this.inlineCost + times * cost > LANE_INLINE_COST)) return false
    this.inlineCost += times * cost
    return true
  }

  /**
   * The preparation of a document worked inline, from the request's memo; undefined where the
   * runner works it. Its rebuilding will be inline too: both are counted now.
   */
  preparedInline (task: Extract<DocumentTask, { kind: 'prepare' }>): Prepared | undefined {
    if (!this.inline(task, 2)) return undefined
    return guarded(task.path, () => this.document(task.value).memo.prepare(task, task.settings))
  }

  /**
   * Runs a task inline when the document is cheap (or there is no runner), else on the runner.
   * What is rebuilt of a document held by the runner comes back as JSON text for the answer
   * (JsonFragment).
   */
  async run (task: DocumentTask): Promise<WorkResult> {
    if (this.inline(task)) return runDocumentTask(task, this.document(task.value).memo) as WorkResult
    if (this.account === undefined) throw new Error('a held document needs a document runner')
    // the key lets the thread that prepared the document rebuild it from what it read (tasks.ts threadMemo)
    const sent: DocumentTask = { ...task, key: this.document(task.value).key }
    if (task.value instanceof HeldValue) sent.value = task.value.ref
    if (sent.kind === 'changes' && sent.edited instanceof JsonFragment) sent.edited = { json: sent.edited.json }
    const result = await this.account.run(sent, {
      heavy: documentCost(task.value, task.mimeType) > LIGHT_COST,
      overBudget: () => overBudget(task.path, this.budgetMs)
    })
    if (result.kind === 'finish') {
      return { kind: 'finish', results: result.results.map(r => 'json' in r ? { value: new JsonFragment(r.json), applied: r.applied } : r) }
    }
    return result
  }
}

/**
 * A document as segments ready for an engine, and the finish that rebuilds it from the engine's
 * answers: one answer set per target, all rebuilt from one reading of the document.
 */
export interface PreparedDocument {
  segments: string[]
  /** `targets`: the language of each answer set (formats such as gettext name it in the document); undefined: the source's, left as it is. */
  finish: (translations: string[][], work: DocumentWork, targets?: Array<string | undefined>) => Promise<Array<{ value: unknown, applied: AppliedSubstitution[] }>>
}

/**
 * The visible text of a document (what would be translated, without markup, code or URLs; a
 * catalog's finished entries as `finished` says, by default none).
 */
export async function textOfDocument (value: unknown, mimeType: MimeType, work: DocumentWork, options: { language?: string | undefined, path?: FieldPath | undefined, kept?: KeptElements | undefined, finished?: FinishedEntries | undefined } = {}): Promise<string> {
  if (typeof value === 'string' && mimeType === 'text/plain') return value
  const { language, kept, finished } = options
  const result = await work.run({ kind: 'text', value, mimeType, path: options.path ?? DOCUMENT_VALUE, ...(language === undefined ? {} : { language }), ...(kept === undefined ? {} : { kept }), ...(finished === undefined ? {} : { finished }) })
  return (result as Extract<WorkResult, { kind: 'text' }>).text
}

/**
 * Segments ready for an engine (placeholders and glossary phrases protected). The finish rebuilds
 * the document from the answers, starting from what the preparation read (the request's memo, or
 * the runner's thread's when it runs there again; another thread reads the document anew).
 */
export async function prepareDocument (value: unknown, mimeType: MimeType, settings: PrepareSettings, work: DocumentWork, path: FieldPath = DOCUMENT_VALUE): Promise<PreparedDocument> {
  const task = { kind: 'prepare', value, mimeType, settings, path } as const
  // read on the event loop: rebuilt by the preparation itself, from what it read
  const read = work.preparedInline(task)
  if (read !== undefined) {
    return {
      segments: read.segments,
      finish: async (translations, _finishing, targets) => guarded(path, () => rebuildAll(read, translations, targets))
    }
  }
  const result = await work.run(task)
  const { segments } = result as Extract<TaskResult, { kind: 'prepare' }>
  return {
    segments,
    finish: async (translations, finishing, targets) => {
      for (const translated of translations) {
        if (translated.length !== segments.length) throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
      }
      const done = await finishing.run({ kind: 'finish', value, mimeType, settings, path, translations, ...(targets === undefined ? {} : { targets }) })
      return (done as Extract<WorkResult, { kind: 'finish' }>).results
    }
  }
}

/** The document with every rule applied to its text, in the input's shape, and what was applied. */
export async function substituteInDocument (value: unknown, mimeType: MimeType, rules: readonly Substitution[],
  options: { caseSensitive: boolean, placeholders?: boolean, language?: string, path?: FieldPath, finished?: FinishedEntries }, work: DocumentWork): Promise<{ value: unknown, applied: AppliedSubstitution[] }> {
  const settings: PrepareSettings = { placeholders: options.placeholders ?? true, rules, caseSensitive: options.caseSensitive, ...(options.language === undefined ? {} : { language: options.language }), ...(options.finished === undefined ? {} : { finished: options.finished }) }
  const done = await work.run({ kind: 'finish', value, mimeType, settings, path: options.path ?? DOCUMENT_VALUE })
  return (done as Extract<WorkResult, { kind: 'finish' }>).results[0]!
}

/**
 * The `changes` of an edit (its original value against the edited one), diffed by the runner
 * when the original is long (a diff of 100,000 characters takes tens of milliseconds).
 */
export async function documentChanges (before: unknown, edited: unknown, notes: EditNote[], asked: EditType[], work: DocumentWork): Promise<Change[]> {
  const mimeType: MimeType = (before instanceof HeldValue ? before.kind === 'string' : typeof before === 'string') ? 'text/plain' : 'application/json'
  const done = await work.run({ kind: 'changes', value: before, mimeType, path: DOCUMENT_VALUE, edited, notes, asked })
  return (done as Extract<WorkResult, { kind: 'changes' }>).changes
}
