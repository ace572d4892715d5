/** The fair queue (src/lib/fair-queue.ts): clients in turn, each client's items in order. */
import { describe, expect, it } from 'vitest'
import { FairQueue } from '../../../src/lib/fair-queue.js'

describe('FairQueue', () => {
  it('takes one item of each waiting client in turn, each client\'s in order', () => {
    const q = new FairQueue<string>()
    for (let i = 0; i < 4; i++) q.push('a', `a${i}`)
    q.push('b', 'b0')
    q.push('c', 'c0')
    q.push('b', 'b1')
    const out: string[] = []
    for (let item = q.shift(); item !== undefined; item = q.shift()) out.push(item)
    expect(out).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2', 'a3'])
    expect(q.size).toBe(0)
  })

  it('skips a client whose next item may not go now, keeping its turn', () => {
    const q = new FairQueue<number>()
    q.push('heavy', 100)
    q.push('light', 1)
    q.push('heavy', 200)
    expect(q.shift((_client, n) => n < 10)).toBe(1)
    expect(q.shift((_client, n) => n < 10)).toBeUndefined()
    expect(q.shift()).toBe(100)
    expect(q.sizeOf('heavy')).toBe(1)
  })

  it('removes an item given up, and drains what is left', () => {
    const q = new FairQueue<string>()
    q.push('a', 'x')
    q.push('a', 'y')
    q.push(undefined, 'z')
    expect(q.remove('a', 'x')).toBe(true)
    expect(q.remove('a', 'x')).toBe(false)
    expect(q.drain().sort()).toEqual(['y', 'z'])
    expect(q.size).toBe(0)
  })

  it('shows the next item in turn and every waiting item without taking them', () => {
    const q = new FairQueue<string>()
    expect(q.peek()).toBeUndefined()
    q.push('a', 'a0')
    q.push('a', 'a1')
    q.push('b', 'b0')
    expect(q.peek()).toBe('a0')
    expect(q.items().sort()).toEqual(['a0', 'a1', 'b0'])
    expect(q.shift()).toBe('a0')
    expect(q.peek()).toBe('b0')
    expect(q.size).toBe(2)
  })

  it('takes any value a Map keys by as a client (an object: a line of its own)', () => {
    const q = new FairQueue<string, unknown>()
    const job = {}
    q.push(job, 'j0')
    q.push(job, 'j1')
    q.push({}, 'k0')
    expect([q.shift(), q.shift(), q.shift()]).toEqual(['j0', 'k0', 'j1'])
  })

  it('stays linear with a long line (100,000 items of one client, a few of others)', () => {
    const q = new FairQueue<number>()
    for (let i = 0; i < 100_000; i++) q.push('big', i)
    q.push('small', -1)
    const started = performance.now()
    let n = 0
    for (let item = q.shift(); item !== undefined; item = q.shift()) n++
    expect(n).toBe(100_001)
    expect(performance.now() - started).toBeLessThan(2000)
  })
})
