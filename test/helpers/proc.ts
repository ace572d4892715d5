/** Linux /proc readings for tests: the processes a process started, and whether one still runs. */
import { readdirSync, readFileSync } from 'node:fs'

/** Every process below `pid`, from /proc (each thread lists the children it started). */
export function descendants (pid: number): number[] {
  let children: number[] = []
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      children.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number))
    }
  } catch {
    // gone meanwhile
    children = []
  }
  return children.flatMap(child => [child, ...descendants(child)])
}

/** The command line of a process, or '' once it is gone (a zombie has none either). */
export function commandOf (pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    return ''
  }
}
