import { describe, expect, it } from 'vitest'
import { SCRIPTS, dominantScript, scriptProfile } from '../../../../src/providers/detector/scripts.js'

function counts (text: string): Record<string, number> {
  const profile = scriptProfile(text)
  return Object.fromEntries(SCRIPTS.map((s, i) => [s, profile.counts[i]!]).filter(([s, n]) => s !== '' && n !== 0))
}

describe('scriptProfile', () => {
  it('counts letters per script and ignores digits, spaces and punctuation', () => {
    expect(counts('Привет, world 42!')).toEqual({ Cyrl: 6, Latn: 5 })
    expect(scriptProfile('Привет, world 42!').letters).toBe(11)
  })

  it('counts code points, reading surrogate pairs as one character', () => {
    const profile = scriptProfile('𠀀a')
    expect(profile.codePoints).toBe(2)
    expect(counts('𠀀a')).toEqual({ Hani: 1, Latn: 1 })
  })
})

describe('dominantScript', () => {
  it('names the script with the most letters', () => {
    expect(dominantScript(scriptProfile('Ελληνικά with a few words'))).toBe('Latn')
    expect(dominantScript(scriptProfile('Ελληνικά κείμενο, ok'))).toBe('Grek')
    expect(dominantScript(scriptProfile('שלום'))).toBe('Hebr')
  })

  it('calls text with kana Japanese and text with Hangul Korean, even when Han characters dominate', () => {
    expect(dominantScript(scriptProfile('日本語の文章'))).toBe('Jpan')
    expect(dominantScript(scriptProfile('大韓民國 국가'))).toBe('Kore')
    expect(dominantScript(scriptProfile('中文文本'))).toBe('Hani')
  })

  it('weighs a CJK character above a Latin letter', () => {
    expect(dominantScript(scriptProfile('USB 设备'))).toBe('Hani')
  })

  it('is empty for text without letters', () => {
    expect(dominantScript(scriptProfile('123 — !?'))).toBe('')
  })
})
