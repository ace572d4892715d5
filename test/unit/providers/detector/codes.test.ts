import { describe, expect, it } from 'vitest'
import { allowedAnswer, meaningsOf, scriptOfLanguage, tagOf } from '../../../../src/providers/detector/codes.js'

describe('tagOf', () => {
  it('turns ISO 639-3 and deprecated codes into canonical BCP 47 tags', () => {
    expect(tagOf('eng')).toBe('en')
    expect(tagOf('cmn')).toBe('zh')
    expect(tagOf('iw')).toBe('he')
    expect(tagOf('in')).toBe('id')
    expect(tagOf('jw')).toBe('jv')
    expect(tagOf('zh-Hant')).toBe('zh-Hant')
  })

  it('answers Norwegian as Bokmål and maps macrolanguage members to the macrolanguage', () => {
    expect(tagOf('no')).toBe('nb')
    expect(tagOf('nob')).toBe('nb')
    expect(tagOf('arz')).toBe('ar')
    expect(tagOf('pes')).toBe('fa')
    expect(tagOf('prs')).toBe('fa')
  })

  it('reads fastText\'s Wikipedia codes as fastText means them', () => {
    expect(tagOf('als')).toBe('gsw')
    expect(tagOf('sh')).toBe('sh')
  })

  it('has no tag for unknown, script-only and joke codes', () => {
    expect(tagOf('un')).toBeUndefined()
    expect(tagOf('und')).toBeUndefined()
    expect(tagOf('xx-Arab')).toBeUndefined()
    expect(tagOf('zzb')).toBeUndefined()
  })
})

describe('allowedAnswer', () => {
  it('allows an answer whose base language is allowed', () => {
    expect(allowedAnswer('pt', new Set(['pt']))).toBe(true)
    expect(allowedAnswer('zh-Hant', new Set(['zh']))).toBe(true)
    expect(allowedAnswer('es', new Set(['pt']))).toBe(false)
  })

  it('allows Serbo-Croatian for any of its standards', () => {
    expect(meaningsOf('sh')).toContain('bs')
    expect(allowedAnswer('sh', new Set(['bs']))).toBe(true)
    expect(allowedAnswer('sh', new Set(['sl']))).toBe(false)
  })
})

describe('scriptOfLanguage', () => {
  it('tells the script a language is written in', () => {
    expect(scriptOfLanguage('sr')).toBe('Cyrl')
    expect(scriptOfLanguage('sr-Latn')).toBe('Latn')
    expect(scriptOfLanguage('zh-Hant')).toBe('Hani')
    expect(scriptOfLanguage('zh')).toBe('Hani')
    expect(scriptOfLanguage('ja')).toBe('Jpan')
    expect(scriptOfLanguage('ko')).toBe('Kore')
  })
})
