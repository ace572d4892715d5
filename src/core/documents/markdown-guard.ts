/**
 * Markdown parsing with a time limit. micromark is super-linear on some inputs (90k characters of
 * `a* ` take ~20 s), so a large source is parsed in a worker thread that is stopped when it runs
 * over; the tree is then kept for the synchronous segmenter. Small sources parse inline.
 */
import { Worker } from 'node:worker_threads'
import type { Root } from 'mdast'
import { invalidField } from '../../errors.js'
import { parseMarkdown } from './markdown-parse.js'

/** Sources up to this size parse inline (worst cases stay in the milliseconds). */
export const INLINE_PARSE_CHARS = 2000
/** How long a worker parse may take before the document is refused. */
export const PARSE_TIMEOUT_MS = 5000

const KEPT = 8
const trees = new Map<string, Root>()

/** The tree of a source: the one a guarded parse left, else parsed inline. */
export function markdownTree (source: string): Root {
  return trees.get(source) ?? parseMarkdown(source)
}

/** The parse ran past PARSE_TIMEOUT_MS and was stopped. */
class ParseTimeout extends Error {}

interface Job { id: number, source: string, resolve: (tree: Root) => void, reject: (err: Error) => void }

let worker: Worker | undefined
let running: { job: Job, timer: NodeJS.Timeout } | undefined
const queue: Job[] = []
let nextId = 0

function startWorker (): Worker {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
  // --input-type (node -e) would stop the worker from loading a module file
  const w = new Worker(new URL(`./markdown-worker${ext}`, import.meta.url), {
    execArgv: process.execArgv.filter(arg => !arg.startsWith('--input-type'))
  })
  w.unref()
  w.on('message', (msg: { id: number, tree?: Root, error?: string }) => {
    if (!running || running.job.id !== msg.id) return
    const { job, timer } = running
    clearTimeout(timer)
    running = undefined
    if (msg.tree) job.resolve(msg.tree)
    else job.reject(new Error(msg.error ?? 'markdown parse failed'))
    dispatch()
  })
  w.on('error', (err) => {
    if (running) {
      clearTimeout(running.timer)
      running.job.reject(err)
      running = undefined
    }
    worker = undefined
    dispatch()
  })
  return w
}

function dispatch (): void {
  if (running) return
  const job = queue.shift()
  if (!job) return
  worker ??= startWorker()
  const timer = setTimeout(() => {
    // stop the stuck parse: the only way to interrupt synchronous code
    worker?.terminate().catch(() => {})
    worker = undefined
    running = undefined
    job.reject(new ParseTimeout())
    dispatch()
  }, PARSE_TIMEOUT_MS)
  running = { job, timer }
  worker.postMessage({ id: job.id, source: job.source })
}

function parseInWorker (source: string): Promise<Root> {
  return new Promise((resolve, reject) => {
    queue.push({ id: nextId++, source, resolve, reject })
    dispatch()
  })
}

/** The Markdown strings of a document value: the value itself, or its string leaves. */
function markdownSources (value: unknown, pointer: string, out: Array<{ source: string, pointer: string }> = []): Array<{ source: string, pointer: string }> {
  if (typeof value === 'string') out.push({ source: value, pointer })
  else if (Array.isArray(value)) value.forEach((v, i) => markdownSources(v, `${pointer}/${i}`, out))
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) markdownSources(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out)
  }
  return out
}

/**
 * Parses the large Markdown sources of a value under the time limit, so that the synchronous
 * segmenting that follows finds their trees. A source that takes too long is a 400 at its pointer.
 */
export async function preparseMarkdown (value: unknown, pointer: string): Promise<void> {
  for (const { source, pointer: at } of markdownSources(value, pointer)) {
    if (source.length <= INLINE_PARSE_CHARS || trees.has(source)) continue
    let tree: Root
    try {
      tree = await parseInWorker(source)
    } catch (err) {
      if (!(err instanceof ParseTimeout)) throw err
      throw invalidField(at, `this Markdown document could not be parsed within ${PARSE_TIMEOUT_MS / 1000} s (deeply nested or pathological emphasis); simplify it or send it as text/plain`)
    }
    trees.set(source, tree)
    if (trees.size > KEPT) trees.delete(trees.keys().next().value!)
  }
}
