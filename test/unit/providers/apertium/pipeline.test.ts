import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { ApertiumModesError, ServiceUnavailableError, UpstreamError, UpstreamTimeoutError } from '../../../../src/errors.js'
import { emptyRegistry } from '../../../../src/registry.js'
import { createApertium, type ApertiumOptions } from '../../../../src/providers/apertium/index.js'
import { Pipeline } from '../../../../src/providers/apertium/pipeline.js'
import { CALL_WINDOW } from '../../../../src/providers/apertium/translate.js'
import type { Translator } from '../../../../src/core/ports.js'
import { bearer, testApp, tokenFor } from '../../../helpers/app.js'
import { eventually, fakeModesDir, groupMembers, pipelineLeaders, removeFakeModesDirs, type ProcessInfo } from '../../../helpers/apertium-processes.js'

const open: Translator[] = []
function translator (options: ApertiumOptions = {}): Translator {
  const t = createApertium(options)
  open.push(t)
  return t
}
afterEach(async () => {
  await Promise.all(open.splice(0).map(t => t.close!()))
})
afterAll(removeFakeModesDirs)

const never = new AbortController().signal
const run = (t: Translator, segments: string[], signal = never, from = 'en', to = 'es'): Promise<string[]> =>
  t.translate({ from, to, segments }, signal)

describe('warm pipelines (real processes)', () => {
  it('start lazily, one process group per mode, and close() leaves no process behind', async () => {
    const t = translator()
    await t.ready!()
    expect(pipelineLeaders()).toEqual([])
    expect(await run(t, ['The house is big.'])).toEqual(['La casa es grande.'])
    expect(await run(t, ['La casa es grande.'], never, 'es', 'en')).toEqual(['The house is big.'])
    const leaders = pipelineLeaders()
    expect(leaders.map(l => l.args[4]).sort()).toEqual(['apertium-eng-spa', 'apertium-spa-eng'])
    for (const leader of leaders) {
      expect(leader.pgid).toBe(leader.pid)
      expect(groupMembers(leader.pgid).length).toBeGreaterThan(5)
    }
    await t.close!()
    expect(await eventually(() => pipelineLeaders().length === 0 && leaders.every(l => groupMembers(l.pgid).length === 0))).toBe(true)
    await expect(run(t, ['Hello'])).rejects.toBeInstanceOf(ServiceUnavailableError)
  })

  it('write the requests in flight again when the process group dies, and serve later requests on a new one', async () => {
    const t = translator()
    await run(t, ['Warm up.'])
    const [leader] = pipelineLeaders('eng-spa')
    const segments = Array.from({ length: 1500 }, (_, i) => `The house has ${i} windows.`)
    const bulk = run(t, segments)
    await new Promise(resolve => setTimeout(resolve, 40))
    process.kill(-leader!.pgid, 'SIGKILL')
    // a crash is not the requests' fault: each is tried once more on a fresh pipeline
    expect((await bulk).map((out, i) => out === `La casa tiene ${i} ventanas.`).every(Boolean)).toBe(true)
    expect(await run(t, ['The house is big.'])).toEqual(['La casa es grande.'])
    const [next] = pipelineLeaders('eng-spa')
    expect(next?.pid).toBeDefined()
    expect(next?.pid).not.toBe(leader!.pid)
  })

  it('fail pending requests on close() and leave no process, even while starting', async () => {
    const t = translator({ modesDir: fakeModesDir() })
    const pending = run(t, ['x SLOW', 'y'])
    const closing = t.close!()
    await expect(pending).rejects.toBeInstanceOf(ServiceUnavailableError)
    await closing
    expect(await eventually(() => pipelineLeaders().length === 0)).toBe(true)
  })

  it('never run ~/.bashrc, even where bash takes itself for a remote shell (SHLVL unset)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'apertium-home-'))
    const marker = join(home, 'bashrc-ran')
    writeFileSync(join(home, '.bashrc'), `touch '${marker}'\n`)
    const saved = { HOME: process.env['HOME'], SHLVL: process.env['SHLVL'] }
    process.env['HOME'] = home
    delete process.env['SHLVL']
    try {
      const t = translator({ modesDir: fakeModesDir() })
      expect(await run(t, ['one'])).toEqual(['one'])
      expect(existsSync(marker)).toBe(false)
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
      rmSync(home, { recursive: true, force: true })
    }
  })

  it('fail a request that crashes the pipeline and retry the ones behind it', async () => {
    const t = translator({ modesDir: fakeModesDir() })
    const crash = run(t, ['one CRASH'])
    const behind = run(t, ['two'])
    await expect(crash).rejects.toBeInstanceOf(UpstreamError)
    expect(await behind).toEqual(['two'])
  })

  it('say why a pipeline failed at start, for the log: what its stages wrote to stderr is the error\'s engineMessage, never its detail', async () => {
    // a stage that cannot start writes why at once and exits, before its pipes can have reached the service
    const dir = mkdtempSync(join(tmpdir(), 'apertium-broken-'))
    try {
      const script = join(dir, 'broken-stage')
      writeFileSync(script, "#!/bin/sh\necho \"Error: Cannot open file 'eng-spa.automorf.bin'\" >&2\nexit 1\n", { mode: 0o755 })
      writeFileSync(join(dir, 'eng-spa.mode'), `${script} $1\n`)
      // several at once, as at start-up: each pipe waits its turn to be handed over
      const failures = await Promise.all(Array.from({ length: 8 }, async () =>
        await run(translator({ modesDir: dir }), ['hello']).then(() => undefined, (err: unknown) => err)))
      for (const failed of failures) {
        expect(failed).toBeInstanceOf(UpstreamError)
        expect((failed as UpstreamError).engineMessage).toContain("Cannot open file 'eng-spa.automorf.bin'")
        // a stage's words may quote another client's text: clients get ours only
        expect((failed as UpstreamError).message).not.toContain('Cannot open')
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('time out a stuck pipeline, kill its whole group and retry the requests behind it', async () => {
    const t = translator({ modesDir: fakeModesDir(), requestTimeoutMs: 300 })
    const started = Date.now()
    const stuck = run(t, ['a STALL'])
    const timedOut = expect(stuck).rejects.toBeInstanceOf(UpstreamTimeoutError)
    const behind = run(t, ['b'])
    let leader: ProcessInfo | undefined
    expect(await eventually(() => (leader = pipelineLeaders()[0]) !== undefined)).toBe(true)
    await timedOut
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    expect(Date.now() - started).toBeLessThan(3000)
    expect(await behind).toEqual(['b'])
    // the sleeping stage went with its group
    expect(await eventually(() => groupMembers(leader!.pgid).length === 0)).toBe(true)
  })

  it('give a fresh process three times requestTimeoutMs for its first answer (it is loading), then requestTimeoutMs', async () => {
    // the fake takes 1 s to start reading: past requestTimeoutMs, within three times it
    const t = translator({ modesDir: fakeModesDir(1), requestTimeoutMs: 500 })
    expect(await run(t, ['first'])).toEqual(['first'])
    const started = Date.now()
    await expect(run(t, ['b STALL'])).rejects.toBeInstanceOf(UpstreamTimeoutError)
    // the running process has answered: a stall is noticed after requestTimeoutMs, not three times that
    expect(Date.now() - started).toBeGreaterThanOrEqual(490)
    expect(Date.now() - started).toBeLessThan(1300)
  })

  it('shut down after the idle time and start again on the next request', async () => {
    const t = translator({ idleMs: 400 })
    expect(await run(t, ['The house is big.'])).toEqual(['La casa es grande.'])
    const [leader] = pipelineLeaders('eng-spa')
    expect(leader).toBeDefined()
    expect(await eventually(() => groupMembers(leader!.pgid).length === 0, 5000)).toBe(true)
    expect(pipelineLeaders()).toEqual([])
    expect(await run(t, ['The car is red.'])).toEqual(['El coche es rojo.'])
  })

  it('keep at most maxPipelines running, stopping the least recently used idle one', async () => {
    const t = translator({ maxPipelines: 1 })
    await run(t, ['The house is big.'])
    const [first] = pipelineLeaders('eng-spa')
    await run(t, ['La casa es grande.'], never, 'es', 'en')
    expect(await eventually(() => groupMembers(first!.pgid).length === 0)).toBe(true)
    expect(pipelineLeaders().map(l => l.args[4])).toEqual(['apertium-spa-eng'])
  })

  it('drop an aborted request at once and keep the FIFO in step', async () => {
    const t = translator({ modesDir: fakeModesDir() })
    const controller = new AbortController()
    const started = Date.now()
    const slow = run(t, ['x LONG'], controller.signal)
    setTimeout(() => controller.abort(), 50)
    await expect(slow).rejects.toMatchObject({ name: 'AbortError' })
    // the answer would take 3 s
    expect(Date.now() - started).toBeLessThan(1500)
    // the slow answer still comes out of the pipeline; it must not be taken for this one
    expect(await run(t, ['after'])).toEqual(['after'])
  })

  it('refuse requests beyond maxPending', async () => {
    const t = translator({ modesDir: fakeModesDir(), maxPending: 2 })
    await expect(run(t, ['1 SLOW', '2 SLOW', '3 SLOW'])).rejects.toBeInstanceOf(ServiceUnavailableError)
  })

  it('serve a call of any size: it holds at most CALL_WINDOW places of maxPending', async () => {
    const maxPending = 300
    expect(CALL_WINDOW).toBeLessThanOrEqual(maxPending)
    const t = translator({ modesDir: fakeModesDir(), maxPending })
    const segments = Array.from({ length: 5000 }, (_, i) => `segment ${i}`)
    expect(await run(t, segments)).toEqual(segments)
  })

  it('answer a caller that comes during a bulk job before the job ends', async () => {
    const t = translator({ modesDir: fakeModesDir() })
    const finished: string[] = []
    const bulk = run(t, Array.from({ length: 10_000 }, (_, i) => `bulk ${i}`)).then(() => finished.push('bulk'))
    const single = run(t, ['single']).then(() => finished.push('single'))
    await Promise.all([bulk, single])
    expect(finished).toEqual(['single', 'bulk'])
  })

  it('are killed when the process exits without close()', async () => {
    const child = join(import.meta.dirname, 'pipeline-exit-child.ts')
    const pgid = Number(execFileSync(process.execPath, ['--import', 'tsx', child, fakeModesDir()], { encoding: 'utf8' }).trim())
    expect(pgid).toBeGreaterThan(0)
    // the stalled stage sleeps for an hour: only the exit handler's kill ends it this soon
    expect(await eventually(() => groupMembers(pgid).length === 0, 2000)).toBe(true)
  })
})

describe('the waiting requests (fair queue)', () => {
  const pipelines: Pipeline[] = []
  afterEach(() => { for (const p of pipelines.splice(0)) p.close() })
  const echoPipeline = (): Pipeline => {
    const script = `${join(fakeModesDir(), 'echo-translator')} $1`
    const p = new Pipeline({ mode: 'eng-spa', script, requestTimeoutMs: 10_000, idleMs: 60_000, maxPending: 1_000_000 })
    pipelines.push(p)
    return p
  }

  // 50,000 requests took about 50 s with the code this replaced (each request and each abort went over
  // the whole queue, and every request added a listener to the shared signal); the 10 s limit
  // only catches that
  it('queues and withdraws 50,000 requests of one signal in linear time', { timeout: 10_000 }, async () => {
    const p = echoPipeline()
    const head = p.request('head SLOW')
    const job = new AbortController()
    const waiting = Array.from({ length: 50_000 }, (_, i) => p.request(`r${i}`, job.signal))
    const settled = Promise.allSettled(waiting)
    job.abort()
    // nothing was written yet (the requests of one turn go out together after it): only the head is left
    expect(p.pending).toBe(1)
    const outcomes = await settled
    expect(outcomes.every(o => o.status === 'rejected' && (o.reason as Error).name === 'AbortError')).toBe(true)
    expect(await head).toBe('head SLOW')
    const after = Array.from({ length: 50_000 }, (_, i) => `a${i}`)
    expect(await Promise.all(after.map(r => p.request(r)))).toEqual(after)
    expect(p.pending).toBe(0)
  })
})

describe('without modes', () => {
  it('is not ready and lists no pairs, saying what is wrong with the folder', async () => {
    const t = translator({ modesDir: '/nonexistent/apertium/modes' })
    await expect(t.ready!()).rejects.toBeInstanceOf(ServiceUnavailableError)
    await expect(t.ready!()).rejects.toMatchObject({ modesDir: '/nonexistent/apertium/modes', problem: 'does not exist', message: expect.stringMatching(/^apertium: cannot read modes in \/nonexistent\/apertium\/modes \(ENOENT/) })
    await expect(t.languages()).rejects.toBeInstanceOf(ApertiumModesError)
    const empty = mkdtempSync(join(tmpdir(), 'apertium-no-modes-'))
    try {
      const none = translator({ modesDir: empty })
      await expect(none.languages()).rejects.toMatchObject({ problem: 'holds no usable modes', message: `apertium: no usable modes in ${empty}` })
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })

  it('a translation is answered naming APERTIUM_DIR and what is wrong with its folder, not the packages to install', async () => {
    // a probe's APERTIUM_DIR=/nonexistent was told to install the Debian packages; only the log named the path
    const app = await testApp({ TRANSLATION_SERVICES: 'apertium' }, { registry: { ...emptyRegistry(), translators: [translator({ modesDir: '/nonexistent/modes' })] } })
    try {
      const res = await app.inject({ method: 'POST', url: '/language/translate', headers: bearer(await tokenFor(app)), payload: { source: 'en', targets: ['es'], document: { value: 'Hello world.' } } })
      expect(res.statusCode, res.body).toBe(503)
      const { detail } = res.json() as { detail: string }
      expect(detail).toMatch(/Apertium engine cannot start: its modes folder \/nonexistent\/modes does not exist; check APERTIUM_DIR/)
      expect(detail).toMatch(/outside engines are switched on by DEEPL_API_KEY/)
    } finally {
      await app.close()
    }
  })
})
