// Bytes allocated a request by function, from bench/out/allocations.heapprofile (bench/lib/allocations.mjs):
//   node bench/allocations.mjs REQUESTS [FILE] [ROWS]
// REQUESTS: how many requests the service served while it sampled (req/s x the window's seconds).
// Node's and V8's own frames are counted to the nearest caller of ours or of a package.
import { readFileSync } from 'node:fs'

const requests = Number(process.argv[2])
if (!(requests > 0)) {
  console.error('usage: node bench/allocations.mjs REQUESTS [FILE] [ROWS]')
  process.exit(2)
}
const profile = JSON.parse(readFileSync(process.argv[3] ?? 'bench/out/allocations.heapprofile', 'utf8'))
const rows = Number(process.argv[4] ?? 40)
const bytes = new Map()
let total = 0
function walk (node, owner) {
  const { url, functionName, lineNumber } = node.callFrame
  const own = url !== '' && !url.startsWith('node:') ? `${functionName || '(anonymous)'} ${url.replace(/.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : undefined
  const key = own ?? owner ?? `${functionName || '(V8)'} ${url}`
  bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize)
  total += node.selfSize
  for (const child of node.children) walk(child, own ?? owner)
}
walk(profile.head, undefined)
console.log(`${(total / requests / 1024).toFixed(1)} KB a request in all`)
for (const [key, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`${(size / requests).toFixed(0).padStart(8)} B  ${key}`)
