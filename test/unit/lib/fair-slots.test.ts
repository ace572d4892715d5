/** The fair slots (src/lib/fair-slots.ts): a bounded number of slots, waiters served by client in turn, each wait bounded by its signal. */
import { describe, expect, it } from 'vitest'
import { allButOne, FairSlots } from '../../../src/lib/fair-slots.js'

const never = new AbortController().signal
/** Lets every grant and what follows it run. */
const settled = async (): Promise<void> => { await new Promise(resolve => setImmediate(resolve)) }

describe('FairSlots', () => {
  it('hands freed slots to the waiting clients in turn: one client\'s backlog does not hold another\'s call', async () => {
    const slots = new FairSlots(1)
    await slots.acquire('a', never)
    const order: string[] = []
    const waits = [
      ...Array.from({ length: 5 }, (_, i) => slots.acquire('a', never).then(() => order.push(`a${i}`))),
      slots.acquire('b', never).then(() => order.push('b'))
    ]
    expect(slots.waiters).toBe(6)
    expect(slots.waitersOf('a')).toBe(5)
    // each holder gives its slot back in turn: the first, then those the order granted
    for (const holder of ['a', 'a', 'b', 'a', 'a', 'a']) {
      slots.release(holder)
      await Promise.resolve()
    }
    await Promise.all(waits)
    expect(order).toEqual(['a0', 'b', 'a1', 'a2', 'a3', 'a4'])
  })

  it('gives up a wait when its signal aborts (a bounded wait), and the slot goes to the next waiter', async () => {
    const slots = new FairSlots(1)
    await slots.acquire('a', never)
    const late = slots.acquire('b', AbortSignal.timeout(20))
    const next = slots.acquire('c', never)
    await expect(late).rejects.toMatchObject({ name: 'TimeoutError' })
    expect(slots.waiters).toBe(1)
    slots.release('a')
    await next
    expect(slots.waiters).toBe(0)
  })
})

describe('FairSlots with a cap per client', () => {
  it('leaves another client a slot: a client at its cap waits, another takes the free slot at once', async () => {
    const slots = new FairSlots(4, { perClient: allButOne(4) })
    for (let i = 0; i < 3; i++) await slots.acquire('b', never)
    let fourth = false
    const waiting = slots.acquire('b', never).then(() => { fourth = true })
    await settled()
    expect(fourth).toBe(false)
    expect(slots.waitersOf('b')).toBe(1)
    // the slot b may not take is a's at once
    await slots.acquire('a', never)
    expect(slots.waiters).toBe(1)
    // a's slot freed goes not to b, still at its cap; b's own freed slot does
    slots.release('a')
    await settled()
    expect(fourth).toBe(false)
    slots.release('b')
    await waiting
    expect(slots.waiters).toBe(0)
  })

  it('hands a freed slot to the next waiter whose client is under its cap, skipping one at it', async () => {
    const slots = new FairSlots(2, { perClient: allButOne(2) })
    await slots.acquire('b', never)
    await slots.acquire('a', never)
    const order: string[] = []
    // b's line comes first in turn, but b holds its one slot
    const waits = [slots.acquire('b', never).then(() => order.push('b')), slots.acquire('c', never).then(() => order.push('c'))]
    slots.release('a')
    await settled()
    expect(order).toEqual(['c'])
    slots.release('b')
    await Promise.all(waits)
    expect(order).toEqual(['c', 'b'])
  })

  it('gives the one slot of a single-slot set to whoever comes: all but one of one is one', async () => {
    expect(allButOne(1)).toBe(1)
    const slots = new FairSlots(1, { perClient: allButOne(1) })
    await slots.acquire('b', never)
    const next = slots.acquire('b', never)
    slots.release('b')
    await next
    expect(slots.waiters).toBe(0)
  })
})
