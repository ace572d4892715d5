/**
 * A pool thread (see pool.ts): runs export `fn` of `module` with the task's arguments and answers
 * its result, or the error it threw in the channel's form (so the service's own errors arrive as
 * themselves), with the CPU time the task took on this thread (its request pays it). The modules
 * the pool names load as the thread starts, any other on its first task; all stay loaded.
 */
import { setPriority } from 'node:os'
import { workerData } from 'node:worker_threads'
import { sendable } from './channel.js'
import { idleCollections, working } from './idle-gc.js'
import type { TaskAnswer } from './pool.js'

// a little below the event loop and the engine pipelines (on Linux a thread's nice value is its
// own); not far below, or any other work on the machine starves documents (docs/benchmarks.md "Fairness")
try {
  setPriority(5)
} catch {
  // not permitted here: the thread runs at the process's priority
}

const modules = new Map<string, Promise<Record<string, unknown>>>()

function load (module: string): Promise<Record<string, unknown>> {
  let loaded = modules.get(module)
  if (loaded === undefined) {
    loaded = import(module) as Promise<Record<string, unknown>>
    modules.set(module, loaded)
    loaded.catch(() => modules.delete(module))
  }
  return loaded
}

// what every task of the service needs is loaded before the thread takes its first task
await Promise.all(((workerData as { preload?: string[] } | undefined)?.preload ?? []).map(load))

/** What ThreadPool.ready() asks each thread: it answers once it has loaded what it preloads. */
export function ready (): boolean {
  return true
}

/** How often idle-gc.ts gave back this thread's heap. */
export function collections (): number {
  return idleCollections()
}

/** Piscina's task function (pool-entry.mjs): one TaskCall. */
export async function runCall ({ module, fn, args }: { module: string, fn: string, args: unknown[] }): Promise<TaskAnswer> {
  const from = process.threadCpuUsage()
  // the heap a document grew goes back to the system once the thread is idle
  const done = working()
  const cpuMs = (): number => {
    const { user, system } = process.threadCpuUsage(from)
    return (user + system) / 1000
  }
  try {
    const exported = (await load(module))[fn]
    if (typeof exported !== 'function') throw new Error(`${module} has no function ${fn}`)
    const result = await (exported as (...a: unknown[]) => unknown)(...args)
    return { result, cpuMs: cpuMs() }
  } catch (err) {
    return { error: sendable(err), cpuMs: cpuMs() }
  } finally {
    done()
  }
}
