/**
 * Markdown parsing with a time limit. micromark is super-linear on some inputs (90k characters of
 * `a* ` take ~20 s), so a large source is parsed in a worker thread that is stopped when it runs
 * over. The trees belong to the request that asked for them (a SegmentContext it passes to the
 * synchronous segmenter), so nothing outlives the request and nothing large is ever parsed on
 * the main thread. Small sources parse inline.
 */
import { Worker } from 'node:worker_threads'
import type { Root } from 'mdast'
import { invalidField, type FieldPath } from '../../errors.js'
import { containerDepth, MAX_TREE_DEPTH, parseMarkdown, treeDepth } from './markdown-parse.js'

/** Sources up to this size parse inline (worst cases stay in the milliseconds). */
export const INLINE_PARSE_CHARS = 2000
/** How long one worker parse may take, from when a worker takes it, before the document is refused. */
export const PARSE_TIMEOUT_MS = 5000
/**
 * Parser threads. A request parses its sources one after another, so one request holds at most
 * one thread and requests take turns in arrival order: a client's slow documents never hold up
 * every other request's Markdown.
 */
export const PARSE_WORKERS = 2

/** What readyToSegment prepared for one request: pass it to that request's segmenting calls; do not look inside. */
export interface SegmentContext {
  readonly trees: ReadonlyMap<string, Root>
}

/** The tree of a source: the one its request's guarded parse left, else (small sources only) parsed inline. */
export function markdownTree (source: string, context: SegmentContext | undefined): Root {
  const tree = context?.trees.get(source)
  if (tree !== undefined) return tree
  if (source.length > INLINE_PARSE_CHARS) {
    // a bug in the caller: parsing here could stall the event loop for many seconds
    throw new Error(`Markdown source of ${source.length} characters to segment without its tree: pass the SegmentContext from readyToSegment`)
  }
  return parseMarkdown(source)
}

/** The parse ran past PARSE_TIMEOUT_MS and was stopped. */
class ParseTimeout extends Error {}
/** The worker could not parse the source (nested too deeply for a stack). */
class ParseRefused extends Error {}

interface Job { id: number, source: string, resolve: (tree: Root) => void, reject: (err: Error) => void }
interface Thread { worker: Worker, running?: { job: Job, timer: NodeJS.Timeout } }

const threads: Thread[] = []
const queue: Job[] = []
let nextId = 0

/** Ends the thread's job (if any) and frees the thread for the next one. */
function settle (thread: Thread, outcome: { tree: Root } | { error: Error }): void {
  const running = thread.running
  if (running === undefined) return
  clearTimeout(running.timer)
  thread.running = undefined
  if ('tree' in outcome) running.job.resolve(outcome.tree)
  else running.job.reject(outcome.error)
}

/** Drops a thread that failed or was stopped, failing its job. */
function discard (thread: Thread, error: Error): void {
  const at = threads.indexOf(thread)
  if (at === -1) return
  threads.splice(at, 1)
  settle(thread, { error })
  dispatch()
}

function startThread (): Thread {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
  const url = new URL(`./markdown-worker${ext}`, import.meta.url)
  // a string entry inherits the process's options as they are: a file entry breaks under
  // --input-type (node -e), and passing execArgv refuses V8 options (--max-semi-space-size)
  const worker = new Worker(`import(${JSON.stringify(url.href)})`, { eval: true })
  const thread: Thread = { worker }
  worker.on('message', (msg: { id: number, tree?: Root, refused?: string }) => {
    if (thread.running?.job.id !== msg.id) return
    settle(thread, msg.tree ? { tree: msg.tree } : { error: new ParseRefused(msg.refused ?? 'no tree') })
    dispatch()
  })
  // a tree this thread cannot take in
  worker.on('messageerror', () => {
    settle(thread, { error: new ParseRefused('it nests too deeply') })
    dispatch()
  })
  worker.on('error', err => discard(thread, err))
  worker.on('exit', code => discard(thread, new Error(`Markdown parser thread exited with code ${code}`)))
  // after the listeners: adding a 'message' listener refs the worker again
  worker.unref()
  threads.push(thread)
  return thread
}

function dispatch (): void {
  while (queue.length > 0) {
    const thread = threads.find(t => t.running === undefined) ?? (threads.length < PARSE_WORKERS ? startThread() : undefined)
    if (thread === undefined) return
    const job = queue.shift()!
    const timer = setTimeout(() => {
      // the only way to interrupt synchronous code: stop the thread
      discard(thread, new ParseTimeout())
      thread.worker.terminate().catch(() => {})
    }, PARSE_TIMEOUT_MS)
    thread.running = { job, timer }
    thread.worker.postMessage({ id: job.id, source: job.source })
  }
}

function parseInWorker (source: string): Promise<Root> {
  return new Promise((resolve, reject) => {
    queue.push({ id: nextId++, source, resolve, reject })
    dispatch()
  })
}

/** The Markdown strings of a document value: the value itself, or its string leaves. */
function markdownSources (value: unknown, path: FieldPath, out: Array<{ source: string, path: FieldPath }> = []): Array<{ source: string, path: FieldPath }> {
  if (typeof value === 'string') out.push({ source: value, path })
  else if (Array.isArray(value)) value.forEach((v, i) => markdownSources(v, [...path, i], out))
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) markdownSources(v, [...path, k], out)
  }
  return out
}

/** The 400 for a source that nests more deeply than a tree may. */
function tooDeep (at: FieldPath): Error {
  return invalidField(at, `this Markdown document could not be parsed (it nests more than ${MAX_TREE_DEPTH} levels deep); simplify it or send it as text/plain`)
}

/**
 * Parses the large Markdown sources of a value on the calling thread, for a thread that may stall
 * (a document thread, stopped by its caller when it runs over; see pool.ts): the trees for the
 * synchronous segmenting that follows. A source that cannot be parsed is a 400 at its path.
 */
export function parseMarkdownHere (value: unknown, path: FieldPath): SegmentContext {
  const trees = new Map<string, Root>()
  for (const { source, path: at } of markdownSources(value, path)) {
    if (source.length <= INLINE_PARSE_CHARS || trees.has(source)) continue
    if (containerDepth(source) > MAX_TREE_DEPTH) throw tooDeep(at)
    let tree: Root
    try {
      tree = parseMarkdown(source)
    } catch (err) {
      if (err instanceof RangeError) throw invalidField(at, 'this Markdown document could not be parsed (it nests too deeply); simplify it or send it as text/plain')
      throw err
    }
    if (treeDepth(tree) > MAX_TREE_DEPTH) throw tooDeep(at)
    trees.set(source, tree)
  }
  return { trees }
}

/**
 * Parses the large Markdown sources of a value under the time limit, one after another, and
 * returns their trees for the synchronous segmenting that follows. A source that takes too long
 * or cannot be parsed is a 400 at its path.
 */
export async function preparseMarkdown (value: unknown, path: FieldPath): Promise<SegmentContext> {
  const trees = new Map<string, Root>()
  for (const { source, path: at } of markdownSources(value, path)) {
    if (source.length <= INLINE_PARSE_CHARS || trees.has(source)) continue
    if (containerDepth(source) > MAX_TREE_DEPTH) throw tooDeep(at)
    try {
      trees.set(source, await parseInWorker(source))
    } catch (err) {
      if (err instanceof ParseTimeout) {
        throw invalidField(at, `this Markdown document could not be parsed within ${PARSE_TIMEOUT_MS / 1000} s (deeply nested or pathological emphasis); simplify it or send it as text/plain`)
      }
      if (err instanceof ParseRefused) {
        throw invalidField(at, `this Markdown document could not be parsed (${err.message}); simplify it or send it as text/plain`)
      }
      throw err
    }
  }
  return { trees }
}
