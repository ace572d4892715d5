/**
 * The channel (src/runtime/channel.ts) between a thread and its caller (ServiceThread): calls run
 * in the thread, a caller's abort drops or aborts the call there, errors come back as themselves,
 * the calling client travels along, and a thread that dies fails its calls and is replaced.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { UpstreamError } from '../../../src/errors.js'
import { withClient } from '../../../src/lib/clients.js'
import { ServiceThread } from '../../../src/runtime/service-thread.js'

let thread: ServiceThread | undefined

afterEach(async () => { await thread?.close() })

const start = (options: { onNotice?: (notice: unknown) => void } = {}): ServiceThread =>
  (thread = new ServiceThread({ from: import.meta.url, name: './model-thread', label: 'test model', ...options }))

describe('a service thread over the channel', () => {
  it('runs calls in the thread while the event loop stays free', async () => {
    const t = start()
    expect(await t.call<string>('echo', ['warm'])).toBe('WARM')
    const spun = t.call<number>('spin', [400])
    // timers keep firing on this thread while the other one computes (20 in an idle 400 ms; a
    // blocked event loop would fire at most one, after; a busy machine fired 8)
    let ticks = 0
    const timer = setInterval(() => { ticks++ }, 20)
    expect(await spun).toBe(400)
    clearInterval(timer)
    expect(ticks).toBeGreaterThan(3)
    expect(await t.call<string>('echo', ['hola'])).toBe('HOLA')
  })

  it('drops a call given up before it ran, aborts one that runs, and rejects both at once with their reason', async () => {
    const t = start()
    await t.call('echo', ['warm'])
    const controller = new AbortController()
    const reason = new Error('client went away')
    const dropped = t.call<string>('echo', ['dropped'], controller.signal)
    controller.abort(reason)
    await expect(dropped).rejects.toBe(reason)
    const running = new AbortController()
    const waiting = t.call('wait', [5000], running.signal)
    await new Promise(resolve => setTimeout(resolve, 100))
    running.abort(reason)
    await expect(waiting).rejects.toBe(reason)
    expect(await t.call<string>('echo', ['kept'])).toBe('KEPT')
    await expect.poll(async () => await t.call<string[]>('seen', [])).toEqual(['warm', 'aborted', 'kept'])
  })

  it('passes the service\'s own errors as themselves, any other naming the thread', async () => {
    const t = start()
    await expect(t.call('fail', [])).rejects.toThrow('test model: no such word')
    const typed = await t.call('failTyped', []).catch((err: unknown) => err)
    expect(typed).toBeInstanceOf(UpstreamError)
    expect(typed).toMatchObject({ status: 502, service: 'fake', retryable: true })
    expect(await t.call<string>('echo', ['still here'])).toBe('STILL HERE')
  })

  it('carries the calling client to the thread, and notices back', async () => {
    const notices: unknown[] = []
    const t = start({ onNotice: notice => notices.push(notice) })
    expect(await withClient('client-a', async () => await t.call('client', []))).toBe('client-a')
    expect(await t.call('client', [])).toBe(null)
    await t.call('notice', ['hello'])
    expect(notices).toEqual([{ what: 'hello' }])
  })

  it('fails the calls of a thread that died, and starts a new one on the next call', async () => {
    const t = start()
    await t.call('echo', ['warm'])
    const waiting = t.call<string>('wait', [5000])
    await expect(Promise.all([t.call('die', []), waiting])).rejects.toThrow(/has gone/)
    expect(await t.call<string>('echo', ['again'])).toBe('AGAIN')
  })
})
