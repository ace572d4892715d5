// Preloaded into the service (`npm run bench:translate -- --runs off --node-args=--import=./bench/lib/allocations.mjs`):
// samples what the event loop allocates, collected objects included, from BENCH_ALLOC_FROM_S to
// BENCH_ALLOC_TO_S seconds after the service starts (default 10 to 20: inside the cache-off run),
// and writes V8's sampling profile to bench/out/allocations.heapprofile. `node bench/allocations.mjs`
// reads it: bytes a request by function, for the requests the run served in that window.
import { mkdirSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'

const from = Number(process.env.BENCH_ALLOC_FROM_S ?? 10) * 1000
const to = Number(process.env.BENCH_ALLOC_TO_S ?? 20) * 1000
const session = new Session()
session.connect()
setTimeout(async () => {
  await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
  setTimeout(async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling')
    mkdirSync('bench/out', { recursive: true })
    writeFileSync('bench/out/allocations.heapprofile', JSON.stringify(profile))
  }, to - from).unref()
}, from).unref()
