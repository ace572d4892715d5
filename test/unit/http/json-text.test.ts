import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { textDepth, tooDeep } from '../../../src/http/json-text.js'

describe('a JSON body\'s depth read from its text', () => {
  it('is one more than the depth of its deepest object, whatever the strings hold, and says "too deep" exactly when the parsed value is', () => {
    const depthOf = (v: unknown): number => v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 8 }), (value, max) => {
      const text = JSON.stringify(value)
      expect(textDepth(text)).toBe(depthOf(value))
      expect(textDepth(text) > max).toBe(tooDeep(value, max) !== undefined)
    }), { numRuns: 500 })
    expect(textDepth(JSON.stringify({ a: '[[[{{{"\\', b: ['\\"]]]'] }))).toBe(2)
  })
})
