import { describe, expect, it } from 'vitest'
import { forEachWord } from '../../../../src/providers/detector/words.js'

function words (text: string): string[] {
  const found: string[] = []
  forEachWord(text, w => found.push(w))
  return found
}

describe('forEachWord', () => {
  it('yields lower-case runs of letters, splitting at digits, spaces and punctuation', () => {
    expect(words('Čitaj DATOTEKU, molim!  2x')).toEqual(['čitaj', 'datoteku', 'molim', 'x'])
  })

  it('keeps combining marks inside a word', () => {
    expect(words('e\u0301te\u0301 ok')).toEqual(['e\u0301te\u0301', 'ok'])
  })
})
