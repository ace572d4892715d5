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

/**
 * Where a request's main-thread time goes, by part of its way: each busy sample counts for the
 * part of the nearest frame (from the sampled function outwards) that names one, else "other".
 */
const PARTS: Array<[part: string, frame: RegExp]> = [
  ['garbage collection', /^\(garbage collector\)/],
  ['logging', /node_modules\/pino|dist\/http\/log-redaction/],
  ['auth (token check)', /dist\/http\/auth\/|node_modules\/jose\//],
  ['limits (rate limit, headers, load shedding)', /@fastify\/rate-limit|@fastify\/helmet|@fastify\/under-pressure|dist\/http\/(limits|address-limit|cluster-rate-limit|attempts)\.js/],
  ['channel to another thread', /dist\/runtime\/channel\.js|^postMessage |node:internal\/worker/],
  ['answer (serialization, writing)', /fast-json-stringify|fastify\/lib\/(reply|serialization)\.js|^writeUtf8String|node:_http_outgoing/],
  ['body (parse, validation)', /secure-json-parse|fastify\/lib\/(contentTypeParser|validation)\.js|node_modules\/ajv\/|dist\/http\/(validation|bodies|json-text)\.js/],
  ['segments (documents, sentences)', /dist\/core\/(documents|verbatim|segment|text)/],
  ['translation (cache, batching, queues)', /dist\/core\/translation\/|dist\/(runtime|lib)\/fair-|dist\/cache\//],
  ['route handler', /dist\/routes\//],
  ['HTTP and fastify', /node_modules\/fastify\/|find-my-way|node:_http_|node:net|node:internal\/streams|node:stream|avvio|light-my-request/]
]

/**
 * The busy time of the samples taken within `windows` ([from, to] on the profile's clock: Node's
 * monotonic clock in µs, as process.hrtime gives it in every process), by part (PARTS), in µs per
 * request for the `requests` answered in them.
 */
export function profileParts (file: string, windows: ReadonlyArray<readonly [number, number]>, requests: number): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile & { startTime: number }
  const byId = new Map(profile.nodes.map(n => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const partOf = new Map<number, string>()
  const part = (id: number): string => {
    let found = partOf.get(id)
    if (found !== undefined) return found
    const node = byId.get(id)!
    const text = `${node.callFrame.functionName} ${node.callFrame.url}`
    found = PARTS.find(([, frame]) => frame.test(text))?.[0] ?? (parent.has(id) ? part(parent.get(id)!) : 'other')
    partOf.set(id, found)
    return found
  }
  const time = new Map<string, number>()
  const self = new Map<string, number>()
  let busy = 0
  let at = profile.startTime
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0
    const us = profile.timeDeltas[i + 1] ?? 0
    if (!windows.some(([from, to]) => at >= from && at <= to) || IDLE.has(byId.get(id)!.callFrame.functionName)) return
    busy += us
    const name = part(id)
    time.set(name, (time.get(name) ?? 0) + us)
    const fn = `${label(byId.get(id)!)} (${name})`
    self.set(fn, (self.get(fn) ?? 0) + us)
  })
  return [
    `main thread busy ${(busy / 1000).toFixed(0)} ms over ${requests} requests: ${(busy / requests).toFixed(0)} µs a request (wall-clock samples: time the thread waited for a core in a system call counts)`,
    ...[...time].sort((a, b) => b[1] - a[1]).map(([name, us]) => `  ${(us / requests).toFixed(0).padStart(5)} µs  ${(100 * us / busy).toFixed(1).padStart(5)}%  ${name}`),
    'the functions that took most of it themselves:',
    ...[...self].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([name, us]) => `  ${(us / requests).toFixed(1).padStart(6)} µs  ${name}`)
  ]
}
