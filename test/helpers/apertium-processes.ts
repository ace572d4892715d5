/** Looks at this test process's Apertium pipelines through /proc (real processes, nothing stubbed). */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface ProcessInfo {
  pid: number
  /** One-letter state from /proc/<pid>/stat; Z is a zombie (exited, not yet reaped). */
  state: string
  ppid: number
  pgid: number
  args: string[]
}

function readProcess (pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command name is in parentheses and may contain spaces: fields start after the last ")"
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    return { pid, state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]), args }
  } catch {
    return undefined // exited while we looked
  }
}

/** Every live process on the machine (zombies have exited: they only wait for their parent to reap them). */
export function allProcesses (): ProcessInfo[] {
  return readdirSync('/proc').filter(d => /^\d+$/.test(d)).flatMap(d => readProcess(Number(d)) ?? []).filter(p => p.state !== 'Z')
}

/**
 * Pipeline group leaders started for this process: the children of its pipeline launcher (a child
 * of this process) that lead a process group of their own. A real mode's leader is
 * `bash -c <pipeline> apertium-<mode> ...` (filter by mode); bash runs a one-command pipeline in
 * its own place, so a fake mode's leader is its script.
 */
export function pipelineLeaders (mode?: string): ProcessInfo[] {
  const processes = allProcesses()
  const launchers = new Set(processes.filter(p => p.ppid === process.pid && p.args.includes('--input-type=module')).map(p => p.pid))
  return processes.filter(p => launchers.has(p.ppid) && p.pgid === p.pid &&
    (mode === undefined || p.args[4] === `apertium-${mode}`))
}

/** Processes of a process group. */
export function groupMembers (pgid: number): ProcessInfo[] {
  return allProcesses().filter(p => p.pgid === pgid)
}

/** Polls until `check` holds or `ms` pass; answers whether it held. */
export async function eventually (check: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise(resolve => setTimeout(resolve, 25))
  }
  return check()
}

const fakeDirs: string[] = []

/** Removes the directories fakeModesDir made. */
export function removeFakeModesDirs (): void {
  for (const dir of fakeDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/**
 * A modes directory with one mode, `eng-spa`, whose pipeline is a real shell process that
 * answers each NUL-terminated request with the request itself, except: a request containing
 * STALL never answers, CRASH makes it exit, SLOW answers after half a second, LONG after three seconds. `startSeconds`:
 * how long it takes to start reading (as a real pipeline loading its transducers).
 */
export function fakeModesDir (startSeconds = 0): string {
  const dir = mkdtempSync(join(tmpdir(), 'apertium-fake-'))
  fakeDirs.push(dir)
  const script = join(dir, 'echo-translator')
  writeFileSync(script, [
    '#!/bin/bash',
    ...(startSeconds > 0 ? [`sleep ${startSeconds}`] : []),
    "while IFS= read -r -d '' request; do",
    '  case "$request" in',
    '    *STALL*) sleep 3600 ;;',
    '    *CRASH*) exit 3 ;;',
    '    *SLOW*) sleep 0.5 ;;',
    '    *LONG*) sleep 3 ;;',
    '  esac',
    "  printf '%s\\0' \"$request\"",
    'done',
    ''
  ].join('\n'))
  chmodSync(script, 0o755)
  // apertium-wblank-mode -z adds -z to every command; the script ignores its arguments
  writeFileSync(join(dir, 'eng-spa.mode'), `${script} $1\n`)
  return dir
}
