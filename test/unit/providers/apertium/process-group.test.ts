/** Pipelines are started by the launcher process: never by a fork of this process, and again once the launcher died. */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { once } from 'node:events'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { Translator } from '../../../../src/core/ports.js'
import { createApertium } from '../../../../src/providers/apertium/index.js'
import { allProcesses, eventually, fakeModesDir, pipelineLeaders, removeFakeModesDirs } from '../../../helpers/apertium-processes.js'

const open: Translator[] = []
function translator (): Translator {
  const t = createApertium({ modesDir: fakeModesDir() })
  open.push(t)
  return t
}
afterEach(async () => { await Promise.all(open.splice(0).map(t => t.close!())) })
afterAll(removeFakeModesDirs)

const run = async (t: Translator, text: string): Promise<string[]> => await t.translate({ from: 'en', to: 'es', segments: [text] }, new AbortController().signal)
const launchers = (): number[] => allProcesses().filter(p => p.ppid === process.pid && p.args.includes('--input-type=module')).map(p => p.pid)

describe('the pipeline launcher', () => {
  it('starts a pipeline holding the event loop far less than one fork of this process would', { timeout: 60_000 }, async () => {
    expect(await run(translator(), 'warm')).toEqual(['warm'])
    // pages of this process that a fork must copy the tables of, as a service's heaps are
    const ballast = Array.from({ length: 96 }, () => Buffer.alloc(16 << 20, 1))
    let forkMs = Infinity
    for (let i = 0; i < 3; i++) {
      const started = performance.now()
      const child = spawn('true')
      forkMs = Math.min(forkMs, performance.now() - started)
      await once(child, 'exit')
    }
    const delay = monitorEventLoopDelay({ resolution: 1 })
    delay.enable()
    expect(await run(translator(), 'hello')).toEqual(['hello'])
    delay.disable()
    expect(ballast).toHaveLength(96)
    expect(delay.max / 1e6).toBeLessThan(forkMs / 2)
  })

  it('comes back after it died, and the pipelines it started keep answering meanwhile', { timeout: 60_000 }, async () => {
    const first = translator()
    expect(await run(first, 'one')).toEqual(['one'])
    const [launcher] = launchers()
    expect(launcher).toBeDefined()
    process.kill(launcher!, 'SIGKILL')
    expect(await eventually(() => !launchers().includes(launcher!))).toBe(true)
    // the running pipeline's pipes are this process's own
    expect(await run(first, 'two')).toEqual(['two'])
    // a new pipeline: a new launcher
    const second = translator()
    expect(await run(second, 'three')).toEqual(['three'])
    expect(launchers()).toHaveLength(1)
    expect(launchers()).not.toContain(launcher)
    expect(pipelineLeaders()).toHaveLength(1)
  })

  it('gives the launcher and the pipelines none of the service\'s settings, only where programs are and the locale (a probe read AUTH_JWT_SECRET in /proc/<pid>/environ of every stage)', { timeout: 60_000 }, async () => {
    const saved = { secret: process.env['AUTH_JWT_SECRET'], metrics: process.env['METRICS_TOKEN'] }
    process.env['AUTH_JWT_SECRET'] = 'never-in-a-stage-0123456789abcdef'
    process.env['METRICS_TOKEN'] = 'metrics-token-never-in-a-stage'
    try {
      expect(await run(translator(), 'env')).toEqual(['env'])
      const engines = [...launchers(), ...pipelineLeaders().map(p => p.pid)]
      expect(engines.length).toBeGreaterThan(1)
      for (const pid of engines) {
        const environ = readFileSync(`/proc/${pid}/environ`, 'utf8')
        expect(environ).not.toContain('never-in-a-stage')
        expect(environ).toMatch(/(^|\0)PATH=/)
      }
    } finally {
      for (const [name, value] of [['AUTH_JWT_SECRET', saved.secret], ['METRICS_TOKEN', saved.metrics]] as const) {
        if (value === undefined) Reflect.deleteProperty(process.env, name)
        else process.env[name] = value
      }
    }
  })
})
