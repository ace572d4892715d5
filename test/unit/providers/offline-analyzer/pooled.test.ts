/** The offline analyser on the thread pool, as the service assembles it: clients take turns. */
import { describe, expect, it } from 'vitest'
import { createPooledOfflineAnalyzer } from '../../../../src/providers/offline-analyzer/pooled.js'
import { withClient } from '../../../../src/lib/clients.js'

const analyzer = createPooledOfflineAnalyzer()

const never = new AbortController().signal

describe('the offline analyser on the pool', () => {
  it('analyses on the pool, and an analysis whose request gave up is refused at once', async () => {
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
    // both threads have loaded the models (loading is not what is measured)
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
