import { afterEach, describe, expect, it } from 'vitest'
import { ModelThread } from '../../src/shared/module-thread.js'

let thread: ModelThread | undefined

afterEach(async () => { await thread?.close() })

describe('ModelThread', () => {
  it('runs calls in the thread while the event loop stays free', async () => {
    thread = new ModelThread({ from: import.meta.url, name: './model-worker', label: 'test model' })
    await thread.started()
    const spun = thread.call<number>('spin', [400])
    // timers keep firing on this thread while the other one computes
    let ticks = 0
    const timer = setInterval(() => { ticks++ }, 20)
    expect(await spun).toBe(400)
    clearInterval(timer)
    expect(ticks).toBeGreaterThan(8)
    expect(await thread.call<string>('echo', ['hola'])).toBe('HOLA')
  })

  it('drops a queued call whose request gave up, and rejects it at once with its reason', async () => {
    thread = new ModelThread({ from: import.meta.url, name: './model-worker', label: 'test model' })
    await thread.started()
    const busy = thread.call<number>('spin', [300])
    const controller = new AbortController()
    const dropped = thread.call<string>('echo', ['dropped'], controller.signal)
    const kept = thread.call<string>('echo', ['kept'])
    const reason = new Error('client went away')
    controller.abort(reason)
    await expect(dropped).rejects.toBe(reason)
    await busy
    expect(await kept).toBe('KEPT')
    expect(await thread.call<string[]>('seen', [])).toEqual(['kept'])
  })

  it('passes an error thrown in the thread to its caller, naming the thread', async () => {
    thread = new ModelThread({ from: import.meta.url, name: './model-worker', label: 'test model' })
    await expect(thread.call('fail', [])).rejects.toThrow('test model: no such word')
    expect(await thread.call<string>('echo', ['still here'])).toBe('STILL HERE')
  })

  it('fails the calls of a thread that died, and starts a new one on the next call', async () => {
    thread = new ModelThread({ from: import.meta.url, name: './model-worker', label: 'test model' })
    await thread.started()
    const waiting = thread.call<string>('echo', ['after'])
    await expect(Promise.all([thread.call('die', []), waiting])).rejects.toThrow(/exited with code 3/)
    expect(await thread.call<string>('echo', ['again'])).toBe('AGAIN')
  })
})
