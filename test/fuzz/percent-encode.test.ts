import { describe, expect, it } from 'vitest'
import { percentEncode } from './arbitraries.js'

describe('the fuzzer\'s percentEncode', () => {
  it('encodes as encodeURIComponent does where that can encode, and a lone surrogate as WTF-8', () => {
    for (const text of ['plain-text_1.0~', 'a b&c=d/é', 'Γειά σου 你好 🙂', '{{7*7}}<script>%']) {
      expect(percentEncode(text)).toBe(encodeURIComponent(text).replace(/[!'()*]/g, c => '%' + c.charCodeAt(0).toString(16).toUpperCase()))
    }
    expect(percentEncode('a\ud800b')).toBe('a%ED%A0%80b')
  })

  it('stops once it has as many characters as asked for, however long the text', () => {
    const huge = 'é'.repeat(5_000_000)
    const out = percentEncode(huge, 1000)
    expect(out.length).toBeGreaterThanOrEqual(1000)
    expect(out.length).toBeLessThan(1000 + 12)
    expect(decodeURIComponent(out)).toBe('é'.repeat(out.length / 6))
  })
})
