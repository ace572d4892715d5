/** The rules editor on the thread pool, as the service assembles it: clients take turns. */
import { describe, expect, it } from 'vitest'
import { createPooledRulesEditor } from '../../../../src/providers/rules-editor/pooled.js'
import { withClient } from '../../../../src/lib/clients.js'

const editor = createPooledRulesEditor()

const never = new AbortController().signal

describe('the rules editor on the pool', () => {
  it('edits on the pool, and one client\'s short edit is not held up by another\'s long one', async () => {
    // both threads have loaded the dictionary (loading is not what is measured)
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
