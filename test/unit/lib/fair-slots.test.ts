/** The fair slots (src/lib/fair-slots.ts): a bounded number of slots, waiters served by client in turn, each wait bounded by its signal. */
import { describe, expect, it } from 'vitest'
import { FairSlots } from '../../../src/lib/fair-slots.js'

const never = new AbortController().signal

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
    for (let i = 0; i < 6; i++) {
      slots.release()
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
    slots.release()
    await next
    expect(slots.waiters).toBe(0)
  })
})
