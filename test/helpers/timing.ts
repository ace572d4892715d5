/**
 * Time for tests that compare a small and a large input (linear against quadratic work): the
 * process's CPU time, not the clock's (other processes share the cores), and the least of a few
 * runs (garbage collection comes and goes).
 */
export function leastCpuMs (run: () => void, runs = 3): number {
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < runs; i++) {
    const started = process.cpuUsage()
    run()
    const used = process.cpuUsage(started)
    best = Math.min(best, (used.user + used.system) / 1000)
  }
  return best
}
