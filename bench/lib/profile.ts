/** A short reading of a V8 CPU profile (node --cpu-prof): where the busy time went. */
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string, url: string, lineNumber: number }
  children?: number[]
}

interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const IDLE = new Set(['(idle)', '(program)'])

function label (node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame
  // keep the part of the path that says which package or source file it is
  const where = url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')
  return `${functionName || '(anonymous)'} ${where}${where ? `:${lineNumber + 1}` : ''}`
}

/** Lines giving the share of busy time (not idle) spent in each function itself, and under it, most first. */
export function profileSummary (file: string, top = 25): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
  const byId = new Map(profile.nodes.map(n => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const time = new Map<number, number>()
  profile.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))

  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let busy = 0
  for (const [id, us] of time) {
    const node = byId.get(id)!
    if (IDLE.has(node.callFrame.functionName)) continue
    busy += us
    self.set(label(node), (self.get(label(node)) ?? 0) + us)
    // a recursive function counts once per sample
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!)
      if (seen.has(name) || name.startsWith('(root)')) continue
      seen.add(name)
      inclusive.set(name, (inclusive.get(name) ?? 0) + us)
    }
  }
  const list = (m: Map<string, number>): string[] => [...m].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([name, us]) => `  ${(100 * us / busy).toFixed(1).padStart(5)}%  ${name}`)
  return [
    `busy ${(busy / 1e6).toFixed(1)} s of ${(profile.timeDeltas.reduce((a, b) => a + b, 0) / 1e6).toFixed(1)} s profiled ` +
      '(wall-clock samples: a system call during which the process lost its core, e.g. a pipe write waking a pipeline stage, counts in full)',
    'self time:', ...list(self),
    'time under (inclusive):', ...list(inclusive)
  ]
}
