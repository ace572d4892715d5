/**
 * Processes a bench starts, and their whole trees, stopped however the bench ends: normally,
 * on an error, on Ctrl-C (SIGINT) or SIGTERM.
 */
import { spawn, type SpawnOptions } from 'node:child_process'
import { processStat, processTree } from './proc.js'

export interface Child {
  pid: number
  /** Whether the process has exited. */
  exited: () => boolean
  /** SIGTERM, up to `graceMs` to exit, then SIGKILL to every process of its tree still running. */
  stop: (graceMs?: number) => Promise<void>
}

const running = new Set<Child>()
/** Each child's tree as last seen (pid -> start time), for killing what it leaves behind. */
const trees = new Map<Child, Map<number, number>>()

/** Remembers the child's current tree (its descendants are reparented once it dies, so look first). */
function snapshot (child: Child): Map<number, number> {
  const seen = trees.get(child) ?? new Map<number, number>()
  for (const p of processTree(child.pid)) seen.set(p.pid, p.started)
  trees.set(child, seen)
  return seen
}

/** SIGKILL to the processes seen, only those still the same process (a pid may have been reused). */
function killSeen (seen: Map<number, number>): void {
  for (const [pid, started] of seen) {
    if (processStat(pid)?.started !== started) continue
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
}

/** Starts a process in its own process group; it is stopped with its tree when the bench ends. */
export function startChild (command: string, args: string[], options: SpawnOptions = {}): Child {
  const proc = spawn(command, args, { stdio: 'ignore', ...options, detached: true })
  if (proc.pid === undefined) throw new Error(`could not start ${command}`)
  let done = false
  const ended = new Promise<void>(resolve => proc.once('exit', () => { done = true; resolve() }))
  const child: Child = {
    pid: proc.pid,
    exited: () => done,
    stop: async (graceMs = 10_000) => {
      const seen = snapshot(child)
      if (!done) {
        proc.kill('SIGTERM')
        await Promise.race([ended, new Promise(resolve => setTimeout(resolve, graceMs).unref())])
      }
      killSeen(seen)
      running.delete(child)
      trees.delete(child)
    }
  }
  running.add(child)
  snapshot(child)
  return child
}

/** Updates the remembered trees; call after children have started their own processes. */
export function rememberTrees (): void {
  for (const child of running) if (!child.exited()) snapshot(child)
}

/** Stops every child still running, the last started first. */
export async function stopAll (): Promise<void> {
  for (const child of [...running].reverse()) await child.stop()
}

let installed = false

/** Ctrl-C and SIGTERM stop every child before the bench exits; any other exit kills their trees. */
export function stopChildrenOnExit (): void {
  if (installed) return
  installed = true
  let stopping = false
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    // Ctrl-C reaches us twice (from the terminal and relayed by tsx): the second must not kill us mid-cleanup
    process.on(sig, () => {
      if (stopping) return
      stopping = true
      process.stderr.write(`\n${sig}: stopping what the bench started ...\n`)
      stopAll().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143))
    })
  }
  process.once('exit', () => {
    for (const child of running) {
      const seen = snapshot(child)
      killSeen(seen)
    }
  })
}
