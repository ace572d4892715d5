/** A thread for service-thread.test.ts: answers like an engine's thread, and can spin, fail or die on request. */
import { currentClient } from '../../../src/lib/clients.js'
import { serveParent } from '../../../src/runtime/service-thread.js'
import { UpstreamError } from '../../../src/errors.js'

const seen: string[] = []

const notify = serveParent({
  echo: (text: string) => { seen.push(text); return text.toUpperCase() },
  spin: (ms: number) => {
    const until = performance.now() + ms
    while (performance.now() < until);
    return ms
  },
  wait: async (ms: number, signal: AbortSignal) => await new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(ms), ms)
    signal.addEventListener('abort', () => { clearTimeout(timer); seen.push('aborted'); reject(signal.reason as Error) }, { once: true }) // eslint-disable-line prefer-promise-reject-errors
  }),
  client: () => currentClient() ?? null,
  seen: () => seen,
  notice: (what: string) => { notify({ what }); return true },
  fail: () => { throw new RangeError('no such word') },
  failTyped: () => { throw new UpstreamError('fake', 'answered HTTP 500', undefined, { retryable: true }) },
  die: () => process.exit(3)
})
