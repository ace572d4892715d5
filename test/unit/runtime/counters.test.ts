/** Reserved counts in a process (runtime/counters.ts): a limit that additions at once cannot pass, windows, taking back. */
import { describe, expect, it } from 'vitest'
import { LocalCounters } from '../../../src/runtime/counters.js'

describe('LocalCounters', () => {
  it('adds only what keeps the count within the limit, and reads with 0', async () => {
    const counts = new LocalCounters(10)
    const added = await Promise.all(Array.from({ length: 20 }, () => counts.add('a', 40, 100, 60_000)))
    expect(added.filter(c => c.added)).toHaveLength(2)
    expect(await counts.add('a', 0, 100, 60_000)).toMatchObject({ added: true, count: 80 })
    expect(await counts.add('a', 20, 100, 60_000)).toMatchObject({ added: true, count: 100 })
    expect((await counts.add('b', 0, 100, 60_000)).count).toBe(0)
  })

  it('takes back, not below 0, and starts again when the window ends', async () => {
    const counts = new LocalCounters(10)
    await counts.add('a', 3, 10, 50)
    await counts.subtract('a', 5)
    expect((await counts.add('a', 0, 10, 50)).count).toBe(0)
    await counts.add('a', 10, 10, 50)
    expect((await counts.add('a', 1, 10, 50)).added).toBe(false)
    await new Promise(resolve => setTimeout(resolve, 80))
    expect(await counts.add('a', 1, 10, 50)).toMatchObject({ added: true, count: 1 })
  })

  it('keeps at most its number of keys, the oldest going first', async () => {
    const counts = new LocalCounters(2)
    for (const key of ['a', 'b', 'c']) await counts.add(key, 1, 10, 60_000)
    expect((await counts.add('a', 0, 10, 60_000)).count).toBe(0)
    expect((await counts.add('c', 0, 10, 60_000)).count).toBe(1)
  })
})
