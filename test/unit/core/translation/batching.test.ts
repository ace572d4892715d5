/** The batcher (src/core/translation/batching.ts): shared calls to an outside engine, filled and ordered by client in turn. */
import { describe, expect, it } from 'vitest'
import { Batcher } from '../../../../src/core/translation/batching.js'
import type { TranslatorChoice } from '../../../../src/core/translation/catalog.js'
import type { LanguagePair, Translator } from '../../../../src/core/ports.js'
import { withClient } from '../../../../src/lib/clients.js'

/** An engine of one call at a time that takes 20 ms a call and records each call's pair and segments. */
class RecordingEngine implements Translator {
  readonly name = 'remote'
  readonly batching = { concurrency: 1, maxSegments: 10 }
  calls: Array<{ to: string, segments: string[] }> = []
  async languages (): Promise<LanguagePair[]> { return [{ from: 'en', to: 'es' }, { from: 'en', to: 'fr' }] }
  async translate (job: { to: string, segments: string[] }): Promise<string[]> {
    this.calls.push({ to: job.to, segments: job.segments })
    await new Promise(resolve => setTimeout(resolve, 20))
    return job.segments.map(s => `${job.to}:${s}`)
  }
}

const never = new AbortController().signal
const choice = (translator: Translator, to: string): TranslatorChoice => ({ translator, from: 'en', to })
/** The index of the first call that held `segment`. */
const callOf = (engine: RecordingEngine, segment: string): number => engine.calls.findIndex(c => c.segments.includes(segment))

describe('Batcher', () => {
  it('fills a call with the clients\' requests in turn: one client\'s backlog does not fill every call', async () => {
    const engine = new RecordingEngine()
    const batcher = new Batcher(10_000)
    const es = choice(engine, 'es')
    const first = withClient('a', async () => await batcher.translate(es, ['a-first'], {}, never))
    // twenty full calls' worth from client a, then one segment from b
    const backlog = Array.from({ length: 20 }, async (_, n) =>
      await withClient('a', async () => await batcher.translate(es, Array.from({ length: 10 }, (_, i) => `a${n}-${i}`), {}, never)))
    const other = withClient('b', async () => await batcher.translate(es, ['b'], {}, never))
    expect(await other).toEqual(['es:b'])
    await Promise.all([first, ...backlog])
    // the first call left alone; b's segment rides in the next one, not after a's twenty
    expect(callOf(engine, 'b')).toBeLessThanOrEqual(2)
    expect(engine.calls).toHaveLength(22)
  })

  it('gives a call to the pair of the next client in turn: another pair does not wait for one client\'s backlog', async () => {
    const engine = new RecordingEngine()
    const batcher = new Batcher(10_000)
    const backlog = Array.from({ length: 20 }, async (_, n) =>
      await withClient('a', async () => await batcher.translate(choice(engine, 'es'), Array.from({ length: 10 }, (_, i) => `a${n}-${i}`), {}, never)))
    const other = withClient('b', async () => await batcher.translate(choice(engine, 'fr'), ['b'], {}, never))
    expect(await other).toEqual(['fr:b'])
    await Promise.all(backlog)
    expect(callOf(engine, 'b')).toBeLessThanOrEqual(2)
    // a call holds one pair
    for (const call of engine.calls) expect(new Set(call.segments.map(s => s.startsWith('b') ? 'fr' : 'es'))).toEqual(new Set([call.to]))
  })

  it('shares a call among the requests for one pair that wait together, and answers each its own', async () => {
    const engine = new RecordingEngine()
    const batcher = new Batcher(10_000)
    const es = choice(engine, 'es')
    const out = await Promise.all(Array.from({ length: 9 }, async (_, n) =>
      await withClient(`c${n % 3}`, async () => await batcher.translate(es, [`s${n}`], {}, never))))
    out.forEach((answer, n) => expect(answer).toEqual([`es:s${n}`]))
    // the first leaves at once, the other eight share the next call
    expect(engine.calls).toHaveLength(2)
  })
})
