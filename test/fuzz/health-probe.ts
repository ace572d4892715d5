/**
 * Probes GET /health every `intervalMs` from a worker thread (so the fuzzer's own work on the main
 * thread does not delay the probe) and records each round trip. Probes go out on schedule whether
 * or not the previous one has answered: a service stalled for a second shows as the twenty slow
 * answers clients would have seen, not as one.
 */
import { Worker } from 'node:worker_threads'

export interface HealthProbe {
  /** Stops probing; the latencies (ms) of every probe, and how many failed or were not 200. */
  stop: () => Promise<{ latencies: number[], failures: number }>
}

// plain JavaScript: a worker evaluated from a string needs no loader
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads')
const { url, intervalMs, timeoutMs } = workerData
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
parentPort.on('message', async () => {
  clearInterval(timer)
  await Promise.allSettled([...inFlight])
  parentPort.postMessage({ latencies, failures })
})
`

/** Starts probing `${base}/health`. */
export function startHealthProbe (base: string, intervalMs = 50, timeoutMs = 5_000): HealthProbe {
  const worker = new Worker(PROBE, { eval: true, workerData: { url: `${base}/health`, intervalMs, timeoutMs } })
  const result = new Promise<{ latencies: number[], failures: number }>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  return {
    async stop () {
      worker.postMessage('stop')
      const out = await result
      await worker.terminate()
      return out
    }
  }
}

/** The p-th percentile (0..100) of `values`. */
export function percentile (values: readonly number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}
