/**
 * The asynchronous entry points of the document core, for the use cases: a document's text, its
 * segments ready for an engine, and the document rebuilt from the engine's answers. A cheap
 * estimate of each document's cost (length, lines, tags, keys; Markdown weighs more) decides
 * where the work runs: small documents inline (the common short request pays nothing more), the
 * rest on the document threads (pool.ts) in the request's turn and within its budget.
 */
import type { FieldPath } from '../../errors.js'
import type { EditNote, EditType } from '../../providers/types.js'
import type { Change } from '../editing/changes.js'
import type { AppliedSubstitution, Substitution } from '../glossary.js'
import type { MimeType } from './mime.js'
import { DocumentLane, runInPool, type QueueAccount } from './pool.js'
import { runTask, type DocumentTask, type PrepareSettings, type TaskResult } from './tasks.js'

export { DocumentLane, QueueAccount } from './pool.js'
export type { PrepareSettings } from './tasks.js'

const DOCUMENT_VALUE: FieldPath = ['document', 'value']

/**
 * Estimated cost units (about a microsecond of segmenting each) a document may have to be worked
 * inline, and a request's inline work in all: beyond, its documents go to the threads.
 */
export const INLINE_COST = 2000
const LANE_INLINE_COST = 10_000
/** Documents estimated above this are heavy: they may not hold every thread (pool.ts). */
export const LIGHT_COST = 40_000

/** Cost units of one character, and of each run boundary (line, tag, key), by format. */
const CHAR_COST: Record<MimeType, number> = { 'text/plain': 1, 'text/html': 1, 'text/markdown': 10, 'application/json': 1 }
const RUN_COST = 25

/** Cost of a string leaf, counted only up to `limit` (the caller needs no more). */
function stringCost (text: string, mime: MimeType, limit: number): number {
  const perChar = CHAR_COST[mime]
  let cost = RUN_COST
  for (let i = 0; i < text.length && cost <= limit; i++) {
    const c = text.charCodeAt(i)
    // line breaks end runs everywhere; tags in HTML, string literals in JSON text
    cost += perChar + (c === 10 || (c === 60 && mime === 'text/html') || (c === 34 && mime === 'application/json') ? RUN_COST : 0)
  }
  return cost
}

/** Estimates already made, by object value: a request's reading and rebuilding estimate the same value. */
const estimated = new WeakMap<object, { mime: MimeType, limit: number, cost: number }>()

/** The estimated cost of a document value, up to just past `limit`. */
export function documentCost (value: unknown, mime: MimeType, limit = LIGHT_COST): number {
  if (value === null || typeof value !== 'object') return estimateCost(value, mime, limit)
  const known = estimated.get(value)
  if (known !== undefined && known.mime === mime && known.limit === limit) return known.cost
  const cost = estimateCost(value, mime, limit)
  estimated.set(value, { mime, limit, cost })
  return cost
}

function estimateCost (value: unknown, mime: MimeType, limit: number): number {
  const leaf = mime === 'application/json' && typeof value !== 'string' ? 'text/plain' : mime
  let cost = 0
  const stack: unknown[] = [value]
  while (stack.length > 0 && cost <= limit) {
    const v = stack.pop()
    if (typeof v === 'string') cost += stringCost(v, leaf, limit - cost)
    else if (Array.isArray(v)) {
      for (let i = 0; i < v.length && cost <= limit; i++) {
        cost += 5
        stack.push(v[i])
      }
    } else if (v !== null && typeof v === 'object') {
      // for...in rather than Object.values: no array of 100,000 values for a large object
      for (const key in v) {
        cost += 5
        stack.push((v as Record<string, unknown>)[key])
        if (cost > limit) break
      }
    }
  }
  return cost
}

/** A request's document work: its turn on the threads, and how much it ran inline. */
export class DocumentWork {
  inlineCost = 0
  readonly lane: DocumentLane
  /** `account`: the wait for threads shared with the request's other document work (its reading, when this is its rebuilding). */
  constructor (signal?: AbortSignal, budgetMs?: number, account?: QueueAccount) {
    this.lane = new DocumentLane(budgetMs, signal, account)
  }

  /** The request's next document work (rebuilding after reading): a CPU budget of its own, the same allowance to wait for threads. */
  next (signal?: AbortSignal): DocumentWork {
    return new DocumentWork(signal, undefined, this.lane.account)
  }

  /** Runs a task inline when the document is cheap, else on a thread. */
  async run (task: DocumentTask): Promise<TaskResult> {
    const cost = documentCost(task.value, task.mimeType)
    if (cost <= INLINE_COST && this.inlineCost + cost <= LANE_INLINE_COST) {
      this.inlineCost += cost
      return runTask(task)
    }
    return await runInPool(task, this.lane, cost > LIGHT_COST)
  }
}

/**
 * A document as segments ready for an engine, and the finish that rebuilds it from the engine's
 * answers: one answer set per target, all rebuilt from one reading of the document.
 */
export interface PreparedDocument {
  segments: string[]
  finish: (translations: string[][], work: DocumentWork) => Promise<Array<{ value: unknown, applied: AppliedSubstitution[] }>>
}

/** The visible text of a document (what would be translated, without markup, code or URLs). */
export async function textOfDocument (value: unknown, mimeType: MimeType, work: DocumentWork, options: { language?: string, path?: FieldPath } = {}): Promise<string> {
  if (typeof value === 'string' && mimeType === 'text/plain') return value
  const result = await work.run({ kind: 'text', value, mimeType, path: options.path ?? DOCUMENT_VALUE, ...(options.language === undefined ? {} : { language: options.language }) })
  return (result as Extract<TaskResult, { kind: 'text' }>).text
}

/**
 * Segments ready for an engine (placeholders and glossary phrases protected). The finish runs the
 * preparation again with the answers (on a thread for a costly document: nothing is held there
 * while the engines work) and may be given another DocumentWork, with a budget of its own.
 */
export async function prepareDocument (value: unknown, mimeType: MimeType, settings: PrepareSettings, work: DocumentWork, path: FieldPath = DOCUMENT_VALUE): Promise<PreparedDocument> {
  const result = await work.run({ kind: 'prepare', value, mimeType, settings, path })
  const { segments } = result as Extract<TaskResult, { kind: 'prepare' }>
  return {
    segments,
    finish: async (translations, finishing) => {
      for (const translated of translations) {
        if (translated.length !== segments.length) throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
      }
      const done = await finishing.run({ kind: 'finish', value, mimeType, settings, path, translations })
      return (done as Extract<TaskResult, { kind: 'finish' }>).results
    }
  }
}

/** The document with every rule applied to its text, in the input's shape, and what was applied. */
export async function substituteInDocument (value: unknown, mimeType: MimeType, rules: readonly Substitution[],
  options: { caseSensitive: boolean, placeholders?: boolean, language?: string, path?: FieldPath }, work: DocumentWork): Promise<{ value: unknown, applied: AppliedSubstitution[] }> {
  const settings: PrepareSettings = { placeholders: options.placeholders ?? true, rules, caseSensitive: options.caseSensitive, ...(options.language === undefined ? {} : { language: options.language }) }
  const done = await work.run({ kind: 'finish', value, mimeType, settings, path: options.path ?? DOCUMENT_VALUE })
  return (done as Extract<TaskResult, { kind: 'finish' }>).results[0]!
}

/**
 * The `changes` of an edit (its original value against the edited one), diffed on a document
 * thread when the original is long (a diff of 100,000 characters takes tens of milliseconds).
 */
export async function documentChanges (before: unknown, edited: unknown, notes: EditNote[], asked: EditType[], work: DocumentWork): Promise<Change[]> {
  const mimeType: MimeType = typeof before === 'string' ? 'text/plain' : 'application/json'
  const done = await work.run({ kind: 'changes', value: before, mimeType, path: DOCUMENT_VALUE, edited, notes, asked })
  return (done as Extract<TaskResult, { kind: 'changes' }>).changes
}
