/**
 * Gives back the heap a worker thread grew into, once the thread is idle: after its work the heap
 * keeps the pages it grew by (garbage and room) until V8's memory reducer runs, ~8 s after the
 * allocations stop, and a regular full GC frees them to V8's own pool, not to the system. A
 * memory-reducing GC (`flavor: 'last-resort'`: compacts, releases pages) does, at ~50 ms for a
 * heap of 100 MB. It runs when the thread has had no work for IDLE_MS and its heap grew by
 * GROWTH_MB since the last one, so a thread busy or idle costs nothing (docs/benchmarks.md "Memory budget").
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** How long a thread must have had no work before its heap is collected (ms). */
export const IDLE_MS = 200
/** How much its heap must have grown since the last collection (MB of physical heap). */
export const GROWTH_MB = 12

type Collect = (options: { type: 'major', flavor: 'last-resort' }) => void

let collect: Collect | null | undefined
/**
 * V8's gc(), without --expose-gc on the command line: a context made while the flag is on has it.
 * The flag is the process's and stays on: a thread turning it off raced another's context
 * ("gc is not defined"). Where it cannot be had, the thread is not collected early, never stopped.
 */
function collector (): Collect | null {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc')
    try {
      collect = runInNewContext('gc') as Collect
    } catch {
      collect = null
    }
  }
  return collect
}

const physicalMb = (): number => getHeapStatistics().total_physical_size / 2 ** 20

let busy = 0
let lastEnded = 0
let timer: NodeJS.Timeout | undefined
let baseMb = physicalMb()
// per thread, on its global: from sources a thread may load this module twice (tsx)
const COUNT = Symbol.for('idle-gc.collections')
const counts = globalThis as { [COUNT]?: number }
/** How many collections this thread ran. */
export const idleCollections = (): number => counts[COUNT] ?? 0

/** Once the thread has been idle IDLE_MS: collects if its heap grew; checked at most every IDLE_MS, not at each call (short calls come by thousands a second). */
function check (): void {
  timer = undefined
  if (busy > 0) return
  const idleMs = performance.now() - lastEnded
  if (idleMs < IDLE_MS) {
    arm(IDLE_MS - idleMs)
    return
  }
  if (physicalMb() - baseMb < GROWTH_MB) return
  const gc = collector()
  if (gc === null) return
  gc({ type: 'major', flavor: 'last-resort' })
  counts[COUNT] = idleCollections() + 1
  baseMb = physicalMb()
}

function arm (ms: number): void {
  timer = setTimeout(check, ms)
  // an idle thread may still exit
  timer.unref()
}

/** Call as a piece of work starts in this thread; call the function it returns once the work ended. */
export function working (): () => void {
  busy++
  let ended = false
  return () => {
    if (ended) return
    ended = true
    if (--busy > 0) return
    lastEnded = performance.now()
    if (timer === undefined) arm(IDLE_MS)
  }
}

/** `handlers` (a thread's calls), each marked as work while it runs. */
export function collectedWhenIdle<H extends Record<string, (...args: never[]) => unknown>> (handlers: H): H {
  const wrapped: Record<string, (...args: never[]) => unknown> = {}
  for (const [name, handler] of Object.entries(handlers)) {
    wrapped[name] = (...args: never[]) => {
      const done = working()
      try {
        const result = handler(...args)
        if (result instanceof Promise) return result.finally(done)
        done()
        return result
      } catch (err) {
        done()
        throw err
      }
    }
  }
  return wrapped as H
}
