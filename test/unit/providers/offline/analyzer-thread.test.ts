/** The offline analyser in the process's offline thread, as the service assembles it: calls take turns. */
import { describe, expect, it } from 'vitest'
import { createThreadedOfflineAnalyzer } from '../../../../src/providers/offline/thread.js'
import { withClient } from '../../../../src/lib/clients.js'

const analyzer = createThreadedOfflineAnalyzer()

const never = new AbortController().signal

describe('the offline analyser in its thread', () => {
  it('analyses in the thread, and an analysis whose request gave up is refused at once', async () => {
    await analyzer.ready!()
    const answer = await analyzer.analyze('Mary Smith loved the wonderful hotel in Paris.', 'en', ['sentiment', 'entities'], never)
    expect(answer.sentiment!.sentiment).toBe('positive')
    expect(answer.entities!.map(e => e.type)).toContain('PERSON')
    const controller = new AbortController()
    controller.abort(new Error('gone'))
    await expect(analyzer.analyze('Anything.', 'en', ['sentiment'], controller.signal)).rejects.toThrow('gone')
    expect(analyzer.supports('sentiment', 'pt-BR')).toBe(true)
    expect(analyzer.supports('sentiment', 'ja')).toBe(false)
  })

  it('takes turns between clients: one\'s short analysis is not held up by another\'s long one with every part', async () => {
    // the models are loaded (loading is not what is measured)
    await Promise.all(['x', 'y'].map(async c => await withClient(c, async () => await analyzer.analyze('Warm up.', 'en', ['entities', 'sentiment', 'moderation', 'categories'], never))))
    const long = 'Mary Smith loved the wonderful hotel in Paris, but the food was awful and the staff rude. '.repeat(1100)
    const done: string[] = []
    const longAnalysis = withClient('a', async () => await analyzer.analyze(long, 'en', ['entities', 'sentiment', 'moderation', 'categories'], never)).then(r => { done.push('long'); return r })
    await new Promise(resolve => setTimeout(resolve, 30))
    const short = await withClient('b', async () => await analyzer.analyze('What a wonderful day.', 'en', ['sentiment'], never))
    done.push('short')
    expect(short.sentiment!.sentiment).toBe('positive')
    const answer = await longAnalysis
    expect(answer.entities!.find(e => e.name === 'Mary Smith')!.mentions).toHaveLength(1100)
    expect(answer.categories).toBeDefined()
    expect(done).toEqual(['short', 'long'])
  })
})

describe('the event loop during a long analysis', () => {
  it('stays free: the longest pause of a 10 ms timer is a small part of the analysis time', async () => {
    await analyzer.analyze('Warm up.', 'en', ['entities', 'sentiment', 'moderation', 'categories'], never)
    const long = 'Mary Smith loved the wonderful hotel in Paris, but the food was awful and the staff rude. '.repeat(1100)
    let longest = 0
    let last = performance.now()
    const timer = setInterval(() => {
      const now = performance.now()
      longest = Math.max(longest, now - last)
      last = now
    }, 10)
    const started = performance.now()
    await analyzer.analyze(long, 'en', ['entities', 'sentiment', 'moderation', 'categories'], never)
    const took = performance.now() - started
    clearInterval(timer)
    // on the event loop, the longest pause would be about the whole analysis
    expect(longest).toBeLessThan(Math.max(took / 3, 50))
  })
})
