/** Linux /proc readings for the benches: process trees, CPU time and memory of what a bench started. */
import { readdirSync, readFileSync } from 'node:fs'

export interface ProcStat {
  pid: number
  ppid: number
  pgrp: number
  /** user + system CPU time, milliseconds, its own and that of the children it has waited for */
  cpuMs: number
  /** start time after boot, in clock ticks: with the pid, names one process even if pids are reused */
  started: number
  /** the command name (/proc/<pid>/comm, at most 15 characters): see isNodeProcess */
  name: string
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICK_MS = 10

function parseStat (pid: number, text: string): ProcStat {
  // the command name may hold spaces and parentheses: fields start after the last ')'
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return {
    pid,
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    // utime + stime + cutime + cstime: a server that restarts its workers keeps their time this way
    cpuMs: (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS,
    started: Number(fields[19]),
    name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'))
  }
}

/** Whether a process is Node's (the service's own, not a pipeline's): Node 24 names its main thread, and so the process, "MainThread". */
export function isNodeProcess (p: ProcStat): boolean {
  return p.name === 'MainThread' || p.name === 'node'
}

/** Every process visible now (processes that exit while being read are skipped). */
export function processes (): ProcStat[] {
  return readdirSync('/proc').filter(d => /^\d+$/.test(d)).flatMap(d => processStat(Number(d)) ?? [])
}

/** The process now running as `pid`, if any. */
export function processStat (pid: number): ProcStat | undefined {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return undefined
  }
}

/** The process `root` and every process whose parent chain leads to it. */
export function processTree (root: number, all: ProcStat[] = processes()): ProcStat[] {
  const children = new Map<number, ProcStat[]>()
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p])
  const out = all.filter(p => p.pid === root)
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!.pid) ?? []))
  return out
}

/** Sum of a field (kB) of /proc/<pid>/<file> over processes; processes gone meanwhile count 0. */
function sumKb (pids: readonly number[], file: string, field: string): number {
  let kb = 0
  const pattern = new RegExp(`^${field}:\\s+(\\d+)`, 'm')
  for (const pid of pids) {
    try {
      kb += Number(pattern.exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'))?.[1] ?? 0)
    } catch {}
  }
  return kb
}

export interface Memory {
  processes: number
  /** resident set size, MB (shared pages counted in every process) */
  rssMb: number
  /** proportional set size, MB (shared pages split between the processes sharing them) */
  pssMb: number
}

/** RSS and PSS of the given processes, together. */
export function memoryOf (pids: readonly number[]): Memory {
  return {
    processes: pids.length,
    rssMb: sumKb(pids, 'status', 'VmRSS') / 1024,
    pssMb: sumKb(pids, 'smaps_rollup', 'Pss') / 1024
  }
}

/** Total CPU milliseconds used so far by the given processes (those still alive). */
export function cpuMsOf (pids: ReadonlySet<number>, all: ProcStat[] = processes()): number {
  return all.filter(p => pids.has(p.pid)).reduce((ms, p) => ms + p.cpuMs, 0)
}

/** CPU milliseconds the whole machine has been busy since boot, all cores together (/proc/stat). */
export function machineBusyMs (): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number)
  // user nice system idle iowait irq softirq steal: everything but idle and iowait
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields
  return (user + nice + system + irq + softirq + steal) * TICK_MS
}
