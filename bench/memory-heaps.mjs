// What holds a V8 heap snapshot (`npm run bench:memory -- --snapshots DIR` writes one per thread):
//   node bench/memory-heaps.mjs FILE.heapsnapshot [minMB]
// prints the reachable total, the self size by constructor or type, the scripts' sources by
// package, and the dominator tree (retained sizes: what would go if that object went) down to minMB.
import { readFileSync } from 'node:fs'
const file = process.argv[2]; const minMb = Number(process.argv[3] ?? 1)
const snap = JSON.parse(readFileSync(file, 'utf8'))
const m = snap.snapshot.meta
const NF = m.node_fields.length; const EF = m.edge_fields.length
const nTypes = m.node_fields.indexOf('type'); const nName = m.node_fields.indexOf('name'); const nSelf = m.node_fields.indexOf('self_size'); const nEdges = m.node_fields.indexOf('edge_count')
const eType = m.edge_fields.indexOf('type'); const eName = m.edge_fields.indexOf('name_or_index'); const eTo = m.edge_fields.indexOf('to_node')
const nodeTypes = m.node_types[0]; const edgeTypes = m.edge_types[0]
const nodes = snap.nodes; const edges = snap.edges; const strings = snap.strings
const N = nodes.length / NF
const firstEdge = new Uint32Array(N + 1)
for (let i = 0, e = 0; i < N; i++) { firstEdge[i] = e; e += nodes[i * NF + nEdges] * EF }
firstEdge[N] = edges.length
const weakT = edgeTypes.indexOf('weak'); const shortcutT = edgeTypes.indexOf('shortcut')
const typeOf = i => nodeTypes[nodes[i * NF + nTypes]]
const nameOf = i => strings[nodes[i * NF + nName]]
const selfOf = i => nodes[i * NF + nSelf]
// post-order DFS from root 0 over non-weak edges
const order = new Int32Array(N).fill(-1); const post = []
const stack = [0]; const iter = [firstEdge[0]]; order[0] = -2
while (stack.length) {
  const v = stack[stack.length - 1]; let e = iter[iter.length - 1]
  let pushed = false
  while (e < firstEdge[v + 1]) {
    const t = edges[e + eType]; const to = edges[e + eTo] / NF; e += EF
    if (t === weakT || t === shortcutT) continue
    if (order[to] === -1) { order[to] = -2; iter[iter.length - 1] = e; stack.push(to); iter.push(firstEdge[to]); pushed = true; break }
  }
  if (!pushed) { stack.pop(); iter.pop(); order[v] = post.length; post.push(v) }
}
// predecessors
const predCount = new Uint32Array(N)
for (let v = 0; v < N; v++) { if (order[v] < 0) continue; for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF) { const t = edges[e + eType]; if (t === weakT || t === shortcutT) continue; predCount[edges[e + eTo] / NF]++ } }
const predStart = new Uint32Array(N + 1); for (let i = 0; i < N; i++) predStart[i + 1] = predStart[i] + predCount[i]
const preds = new Uint32Array(predStart[N]); const fill = predStart.slice(0, N)
for (let v = 0; v < N; v++) { if (order[v] < 0) continue; for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF) { const t = edges[e + eType]; if (t === weakT || t === shortcutT) continue; const to = edges[e + eTo] / NF; preds[fill[to]++] = v } }
const idom = new Int32Array(N).fill(-1); idom[0] = 0
const intersect = (a, b) => { while (a !== b) { while (order[a] < order[b]) a = idom[a]; while (order[b] < order[a]) b = idom[b] } return a }
let changed = true
while (changed) {
  changed = false
  for (let k = post.length - 2; k >= 0; k--) {
    const v = post[k]; let nd = -1
    for (let p = predStart[v]; p < predStart[v + 1]; p++) { const u = preds[p]; if (idom[u] === -1) continue; nd = nd === -1 ? u : intersect(u, nd) }
    if (nd !== -1 && idom[v] !== nd) { idom[v] = nd; changed = true }
  }
}
const retained = new Float64Array(N)
for (const v of post) { retained[v] += selfOf(v); if (v !== 0) retained[idom[v]] += retained[v] }
const MB = x => (x / 1048576).toFixed(2)
console.log('total reachable self', MB(retained[0]), 'nodes', N)
// self by type / constructor
const byCtor = new Map()
for (let v = 0; v < N; v++) { if (order[v] < 0) continue; const k = typeOf(v) === 'object' ? nameOf(v) : `(${typeOf(v)})`; byCtor.set(k, (byCtor.get(k) ?? 0) + selfOf(v)) }
console.log('-- self size by constructor/type (top 25)')
for (const [k, s] of [...byCtor].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(MB(s).padStart(8), k.slice(0, 80))
// the scripts' sources by package
const sourceOf = new Map(); const counted = new Set()
for (let v = 0; v < N; v++) {
  if (typeOf(v) !== 'code' || order[v] < 0) continue
  const name = nameOf(v)
  if (!/^(file:\/\/|\/|node:)/.test(name)) continue
  for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF) {
    if (strings[edges[e + eName]] !== 'source') continue
    const to = edges[e + eTo] / NF
    if (counted.has(to)) continue
    counted.add(to)
    const pkg = name.startsWith('node:') ? 'node:* (in the binary)' : name.match(/node_modules\/((@[^/]+\/)?[^/]+)/)?.[1] ?? 'the service'
    sourceOf.set(pkg, (sourceOf.get(pkg) ?? 0) + selfOf(to))
  }
}
console.log('-- scripts\' sources by package (top 15)')
for (const [k, s] of [...sourceOf].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(MB(s).padStart(8), k)
// edge name from idom to v
const edgeName = (u, v) => { for (let e = firstEdge[u]; e < firstEdge[u + 1]; e += EF) if (edges[e + eTo] / NF === v) { const t = edgeTypes[edges[e + eType]]; const n = edges[e + eName]; return t === 'element' || t === 'hidden' ? `[${n}]` : strings[n] } return '?' }
const label = v => `${typeOf(v)}:${String(nameOf(v)).slice(0, 50).replace(/\n/g, ' ')}`
// print dominator tree nodes with retained >= minMb, depth-limited
const children = new Map()
for (let v = 1; v < N; v++) { if (order[v] < 0 || idom[v] < 0) continue; const d = idom[v]; if (!children.has(d)) children.set(d, []); children.get(d).push(v) }
const walk = (v, depth) => {
  const kids = (children.get(v) ?? []).filter(c => retained[c] >= minMb * 1048576).sort((a, b) => retained[b] - retained[a])
  for (const c of kids) { console.log(`${'  '.repeat(depth)}${MB(retained[c])} ${edgeName(v, c)} -> ${label(c)}`); if (depth < 14) walk(c, depth + 1) }
}
console.log('-- dominator tree, retained >= ' + minMb + ' MB')
walk(0, 0)
