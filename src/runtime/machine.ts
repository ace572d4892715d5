/**
 * What this machine (or container) gives the service: its cores and its memory, within the
 * cgroup's limits when there are any (a container sees the host's cores and memory otherwise),
 * and this process's share of them when WORKERS processes serve.
 */
import cluster from 'node:cluster'
import { readFileSync } from 'node:fs'
import { availableParallelism, totalmem } from 'node:os'

/** The first of `files` that reads as a number (cgroup v2, then v1); undefined when none does or it says "max". */
function readNumber (files: string[], pick: (text: string) => number | undefined): number | undefined {
  for (const file of files) {
    try {
      const value = pick(readFileSync(file, 'utf8').trim())
      if (value !== undefined && Number.isFinite(value) && value > 0) return value
    } catch {
      // not there: the next
    }
  }
  return undefined
}

/** Cores this process may use: the CPUs it may run on, fewer when a CPU quota says so. */
export function machineCores (): number {
  const quota = readNumber(['/sys/fs/cgroup/cpu.max'], text => {
    const [max, period] = text.split(/\s+/)
    return max === 'max' ? undefined : Number(max) / Number(period)
  }) ?? readNumber(['/sys/fs/cgroup/cpu/cpu.cfs_quota_us'], text => {
    const quotaUs = Number(text)
    if (quotaUs <= 0) return undefined
    const period = readNumber(['/sys/fs/cgroup/cpu/cpu.cfs_period_us'], Number) ?? 100_000
    return quotaUs / period
  })
  const cpus = availableParallelism()
  return quota === undefined ? cpus : Math.max(1, Math.min(cpus, Math.ceil(quota)))
}

/** Memory this process tree may use, MB: the machine's, or the cgroup's limit when lower. */
export function machineMemoryMb (): number {
  const total = totalmem()
  const limit = readNumber(['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes'], Number)
  return Math.floor(Math.min(total, limit ?? total) / (1024 * 1024))
}

/** How many processes share the machine: WORKERS in a cluster worker, else this one alone. */
export function serviceProcesses (workers: number): number {
  return cluster.isWorker ? Math.max(1, workers) : 1
}

/** This process's share of `total`, at least `min`. */
export function processShare (total: number, workers: number, min = 1): number {
  return Math.max(min, Math.floor(total / serviceProcesses(workers)))
}

/**
 * WORKERS when not set: half the cores, at least one. Each worker process has its event loop, its
 * pool threads and its own Apertium pipelines (a busy direction takes about a core in its
 * pipeline's busiest stage), so two cores a process keep both busy without more processes than
 * cores to feed (docs/benchmarks.md has the measurements behind it).
 */
export function defaultWorkers (): number {
  return Math.max(1, Math.floor(machineCores() / 2))
}

/**
 * APERTIUM_MAX_MEMORY_MB when not set: 40% of the memory this service may use (the machine's, or
 * its container's limit), for all its pipelines together. A pipeline takes 15 MB to ~1 GB by pair.
 */
export function defaultMemoryBudgetMb (): number {
  return Math.max(256, Math.floor(machineMemoryMb() * 0.4))
}
