/** The Apertium translator in its thread, as the service assembles it. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { UnsupportedPairError } from '../../../../src/errors.js'
import { createApertiumThread } from '../../../../src/providers/apertium/apertium-thread.js'
import { commandOf, descendants } from '../../../helpers/proc.js'

const apertium = createApertiumThread()
afterAll(async () => { await apertium.close?.() })

const alive = (pid: number): boolean => commandOf(pid) !== ''

describe('the Apertium thread', () => {
  it('translates, lists its pairs, and answers with the service\'s own error types', async () => {
    const never = new AbortController().signal
    expect(await apertium.translate({ from: 'en', to: 'es', segments: ['The red car.'] }, never)).toEqual(['El coche rojo.'])
    expect((await apertium.languages()).some(p => p.from === 'en' && p.to === 'es')).toBe(true)
    const refused = await apertium.translate({ from: 'en', to: 'xx', segments: ['Hello.'] }, never).catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(UnsupportedPairError)
    expect((refused as UnsupportedPairError).status).toBe(400)
  })

  it('rejects at once when its request gives up', async () => {
    const controller = new AbortController()
    const long = Array.from({ length: 2000 }, (_, i) => `Sentence number ${i} is about a small house.`)
    const asked = apertium.translate({ from: 'en', to: 'es', segments: long }, controller.signal)
    const reason = new Error('client went away')
    setTimeout(() => controller.abort(reason), 20)
    await expect(asked).rejects.toBe(reason)
    // and the next request is served
    expect(await apertium.translate({ from: 'en', to: 'es', segments: ['Good morning.'] }, new AbortController().signal)).toHaveLength(1)
  })

  it('leaves no pipeline process behind when the process exits without closing the translator', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./apertium-thread-exit-child.ts', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] })
    const lines = createInterface({ input: child.stdout })
    const [line] = await once(lines, 'line') as [string]
    expect(JSON.parse(line)).toEqual({ translated: 'La casa es roja.' })
    const pipeline = descendants(child.pid!).filter(pid => /lt-proc|apertium|cg-proc|lrx-proc/.test(commandOf(pid)))
    expect(pipeline.length).toBeGreaterThan(0)
    child.stdin.write('exit\n')
    await once(child, 'exit')
    await new Promise(resolve => setTimeout(resolve, 300))
    expect(pipeline.filter(alive)).toEqual([])
  }, 30_000)
})
