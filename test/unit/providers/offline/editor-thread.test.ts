/** The rules editor in the process's offline thread, as the service assembles it: calls take turns. */
import { threadId } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { createThreadedOfflineAnalyzer, createThreadedRulesEditor, offlineLoaded } from '../../../../src/providers/offline/thread.js'
import { withClient } from '../../../../src/lib/clients.js'
import { IDLE_MS } from '../../../../src/runtime/idle-gc.js'

const editor = createThreadedRulesEditor()

const never = new AbortController().signal

describe('the rules editor in its thread', () => {
  it('edits in the thread, and one client\'s short edit is not held up by another\'s long one', async () => {
    // the dictionary is loaded (loading is not what is measured)
    await Promise.all(['x', 'y'].map(async c => await withClient(c, async () => await editor.edit({ language: 'en', edits: [{ type: 'grammar' }], toneLevel: 5, temperature: 0, segments: ['Warm up.'] }, never))))
    const long = Array.from({ length: 3000 }, (_, i) => `The hotle number ${i} is wonderfull and teh garden is big.`)
    const done: string[] = []
    const longEdit = withClient('a', async () => await editor.edit({ language: 'en', edits: [{ type: 'grammar' }], toneLevel: 5, temperature: 0, segments: long }, never)).then(r => { done.push('long'); return r })
    await new Promise(resolve => setTimeout(resolve, 30))
    const short = await withClient('b', async () => await editor.edit({ language: 'en', edits: [{ type: 'grammar' }], toneLevel: 5, temperature: 0, segments: ['Teh house is red.'] }, never))
    done.push('short')
    expect(short[0]!.segment).toBe('The house is red.')
    const edited = await longEdit
    expect(edited).toHaveLength(long.length)
    expect(edited[7]!.segment).toContain('hotel number 7')
    expect(done).toEqual(['short', 'long'])
  })

  it('knows what it cannot do without loading anything', () => {
    expect(editor.cannot({ type: 'tone', tone: 'confident' }, 'en')).toMatch(/generative model/)
    expect(editor.cannot({ type: 'grammar' }, 'en')).toBeUndefined()
  })
})

describe('the offline thread', () => {
  it('loads the analysers and each dictionary once for the process, whichever app or client asks', async () => {
    // two apps' engines, two clients each, every call at once: before, each pool thread that took one loaded its own copy
    const engines = [createThreadedOfflineAnalyzer(), createThreadedOfflineAnalyzer()]
    const editors = [createThreadedRulesEditor(), createThreadedRulesEditor()]
    await Promise.all(['a', 'b'].flatMap(client => [
      ...engines.map(async a => await withClient(client, async () => await a.analyze('Mary Smith loved Paris.', 'en', ['sentiment', 'entities'], never))),
      ...editors.map(async e => await withClient(client, async () => await e.edit({ language: 'fr', edits: [{ type: 'grammar' }], toneLevel: 5, temperature: 0, segments: ['Une fautte.'] }, never)))
    ]))
    const loaded = await offlineLoaded()
    expect(loaded.threadId).not.toBe(threadId)
    expect(loaded.analyzer).toBe(true)
    // each dictionary loaded once (a second load would be listed again)
    expect(loaded.dictionaries.filter(d => d === 'fr')).toEqual(['fr'])
  })

  it('has a young generation of its own, larger than the 2 MB semi-spaces the start command gives the rest (analyses allocate fast)', async () => {
    expect((await offlineLoaded()).youngGenerationMb).toBe(24)
  })

  it('gives back the heap its loads and calls grew once it has been idle a moment (idle-gc.ts)', async () => {
    await new Promise(resolve => setTimeout(resolve, IDLE_MS + 800))
    expect((await offlineLoaded()).idleCollections).toBeGreaterThan(0)
  })
})
