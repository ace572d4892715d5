// Preloaded into the service by `bench/memory.ts --heaps` (`--import`): once the file
// $BENCH_HEAPS_DIR/trigger appears, writes each thread's V8 heap figures to heaps.json (the event
// loop's and every worker thread's, read from the event loop: a pool thread idle in Atomics.wait
// runs no timer of its own), and with BENCH_HEAPS_SNAPSHOTS=1 a heap snapshot per thread; then `done`.
import { createRequire, syncBuiltinESMExports } from 'node:module'
import { existsSync, writeFileSync, createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import v8 from 'node:v8'

const dir = process.env.BENCH_HEAPS_DIR
const threads = []
if (dir !== undefined) {
  const workerThreads = createRequire(import.meta.url)('node:worker_threads')
  const Base = workerThreads.Worker
  workerThreads.Worker = class extends Base {
    constructor (entry, options = {}) {
      super(entry, options)
      const text = String(entry)
      // pool threads run Piscina's entry; the others are named by the module their code imports
      const name = text.includes('piscina') ? 'pool' : (text.match(/\/([\w-]+)\.[jt]s"\)\s*\)?$/)?.[1] ?? 'thread')
      threads.push({ worker: this, name })
    }
  }
  syncBuiltinESMExports()
  const mb = (bytes) => Math.round(bytes / 2 ** 20 * 10) / 10
  const figures = (name, id, h) => ({ thread: name, threadId: id, physicalMb: mb(h.total_physical_size), usedMb: mb(h.used_heap_size), externalMb: mb(h.external_memory) })
  const timer = setInterval(async () => {
    if (!existsSync(join(dir, 'trigger'))) return
    clearInterval(timer)
    const snapshots = process.env.BENCH_HEAPS_SNAPSHOTS === '1'
    const out = [figures('event loop', 0, v8.getHeapStatistics())]
    if (snapshots) v8.writeHeapSnapshot(join(dir, 'event-loop.heapsnapshot'))
    for (const { worker, name } of threads) {
      if (worker.threadId < 0) continue
      try {
        out.push(figures(name, worker.threadId, await worker.getHeapStatistics()))
        if (snapshots) await pipeline(await worker.getHeapSnapshot(), createWriteStream(join(dir, `${name}-${worker.threadId}.heapsnapshot`)))
      } catch {
        // the thread ended meanwhile
      }
    }
    writeFileSync(join(dir, 'heaps.json'), JSON.stringify(out))
    writeFileSync(join(dir, 'done'), '')
  }, 100)
  timer.unref()
}
