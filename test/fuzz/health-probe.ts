/**
 * Probes GET /health every `intervalMs` from a process of its own (so neither the fuzzer's work nor
 * its lower CPU priority delays the probe) and records each round trip. Probes go out on schedule
 * whether or not the previous one has answered: a service stalled for a second shows as the twenty
 * slow answers clients would have seen, not as one.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'

export interface HealthProbe {
  /** Stops probing; the latencies (ms) of every probe, and how many failed or were not 200. */
  stop: () => Promise<{ latencies: number[], failures: number }>
}

// plain JavaScript: run by node -e, no loader needed
const PROBE = `
const [url, intervalMs, timeoutMs] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])]
const latencies = []
const inFlight = new Set()
let failures = 0
const probe = async () => {
  const started = performance.now()
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
    await res.arrayBuffer()
    if (res.status !== 200) failures++
  } catch {
    failures++
  }
  latencies.push(performance.now() - started)
}
const timer = setInterval(() => {
  const p = probe()
  inFlight.add(p)
  p.finally(() => inFlight.delete(p))
}, intervalMs)
process.once('message', async () => {
  clearInterval(timer)
  await Promise.allSettled([...inFlight])
  process.send({ latencies, failures }, () => process.disconnect())
})
`

/** Starts probing `${base}/health`. */
export function startHealthProbe (base: string, intervalMs = 50, timeoutMs = 5_000): HealthProbe {
  const child = spawn(process.execPath, ['-e', PROBE, `${base}/health`, String(intervalMs), String(timeoutMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const result = new Promise<{ latencies: number[], failures: number }>((resolve, reject) => {
    child.once('message', message => resolve(message as { latencies: number[], failures: number }))
    child.once('error', reject)
    child.once('exit', code => reject(new Error(`the /health probe exited with code ${code}`)))
  })
  result.catch(() => {})
  return {
    async stop () {
      child.send('stop')
      const out = await result
      if (child.exitCode === null) await once(child, 'exit')
      return out
    }
  }
}

/**
 * Lowers the CPU priority of every thread of this process (Linux; elsewhere nothing): a load
 * generator on the service's own cores yields them to the service, as it would be on other machines
 * in production. Processes started before (the service, the probe) keep theirs.
 */
export async function yieldCores (nice = 10): Promise<void> {
  const { readdirSync } = await import('node:fs')
  const { setPriority } = await import('node:os')
  try {
    for (const tid of readdirSync('/proc/self/task')) setPriority(Number(tid), nice)
  } catch {
    // not Linux
  }
}

/** The p-th percentile (0..100) of `values`. */
export function percentile (values: readonly number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}
