/** DeepL's language codes to and from BCP 47 tags. */
import { describe, expect, it } from 'vitest'
import { sourceFromDeepL, sourceToDeepL, targetFromDeepL, toDeepL } from '../../../../src/compat/deepl/codes.js'

describe('DeepL codes', () => {
  it('reads targets in any case, bare EN and PT as DeepL\'s clients mean them', () => {
    expect(targetFromDeepL('EN-US')).toBe('en-US')
    expect(targetFromDeepL('en-gb')).toBe('en-GB')
    expect(targetFromDeepL('EN')).toBe('en-US')
    expect(targetFromDeepL('pt')).toBe('pt-PT')
    expect(targetFromDeepL('PT-BR')).toBe('pt-BR')
    expect(targetFromDeepL('ZH-HANS')).toBe('zh-Hans')
    expect(targetFromDeepL('ES')).toBe('es')
    expect(targetFromDeepL('not a tag')).toBe('not a tag')
  })

  it('reads sources as given (EN is English, any variant)', () => {
    expect(sourceFromDeepL('EN')).toBe('en')
    expect(sourceFromDeepL('de')).toBe('de')
  })

  it('writes tags as DeepL does', () => {
    expect(toDeepL('pt-BR')).toBe('PT-BR')
    expect(toDeepL('zh-Hant')).toBe('ZH-HANT')
    expect(sourceToDeepL('en-GB')).toBe('EN')
    expect(sourceToDeepL('es')).toBe('ES')
    // Norwegian is DeepL's NB (Bokmål), whether a service says no or nb
    expect(toDeepL('no')).toBe('NB')
    expect(toDeepL('nb')).toBe('NB')
    expect(sourceToDeepL('no')).toBe('NB')
    expect(sourceToDeepL('nb-NO')).toBe('NB')
    expect(targetFromDeepL('NB')).toBe('nb')
  })
})
