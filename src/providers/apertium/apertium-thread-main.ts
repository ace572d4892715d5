/** The Apertium translator's thread (see apertium-thread.ts): runs the pipelines and reports their process groups. */
import { workerData } from 'node:worker_threads'
import { serveParent } from '../../runtime/service-thread.js'
import type { TranslateCall } from '../../core/ports.js'
import { createApertium, type ApertiumOptions } from './index.js'

const apertium = createApertium(workerData as ApertiumOptions)

const notify = serveParent({
  languages: async () => await apertium.languages(),
  ready: async () => { await apertium.ready!() },
  translate: async (call: TranslateCall, signal: AbortSignal) => {
    // a pipeline that starts for this call is reported before its answer: the caller may exit on it
    const starting = setTimeout(report, 50)
    try {
      return await apertium.translate(call, signal)
    } finally {
      clearTimeout(starting)
      report()
    }
  },
  close: async () => {
    await apertium.close!()
    report()
  }
})

/** Reports the running process groups when they changed. */
let reported = ''
function report (): void {
  const groups = apertium.processGroups()
  const key = groups.join(',')
  if (key === reported) return
  reported = key
  notify({ processGroups: groups })
}
// pipelines also stop on their own (idle, failures): look now and then
setInterval(report, 500).unref()
