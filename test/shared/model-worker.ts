/** A thread for module-thread.test.ts: answers like a model thread, and can spin, fail or die on request. */
import { serveCalls } from '../../src/shared/module-thread.js'

const seen: string[] = []

serveCalls({
  echo: (text: string) => { seen.push(text); return text.toUpperCase() },
  spin: (ms: number) => {
    const until = performance.now() + ms
    while (performance.now() < until);
    return ms
  },
  seen: () => seen,
  fail: () => { throw new RangeError('no such word') },
  die: () => process.exit(3)
})
