/**
 * Comparisons made in rounds: this machine's speed drifts by tens of percent from one minute to
 * the next, so two configurations are measured in turns, round after round, each ratio compares
 * the runs of one round, and the median of the rounds is the figure.
 */

/** The median of `values` (the mean of the middle two for an even count). */
export function median (values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** "median 1.63x over 5 rounds (each round: ...)" for rates of `b` over rates of `a`, round by round. */
export function roundRatios (a: readonly number[], b: readonly number[]): { median: number, text: string } {
  const ratios = b.map((rate, i) => rate / a[i]!)
  const m = median(ratios)
  return { median: m, text: `median ${m.toFixed(2)}x over ${ratios.length} rounds (each round: ${ratios.map(r => r.toFixed(2)).join(', ')})` }
}
