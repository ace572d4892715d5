import { describe, expect, it } from 'vitest'
import { canonicalTag, sourceTagsForCode, tagForCode } from '../../../../src/providers/apertium/language-tags.js'

describe('Apertium language codes to BCP 47', () => {
  it('maps ISO 639-3 codes to their 639-1 form through Intl', () => {
    expect(['eng', 'spa', 'cat', 'por', 'fra', 'ita', 'glg', 'rus', 'ukr', 'eus', 'oci', 'arg', 'srd', 'isl', 'mkd', 'bel']
      .map(code => tagForCode(code)))
      .toEqual(['en', 'es', 'ca', 'pt', 'fr', 'it', 'gl', 'ru', 'uk', 'eu', 'oc', 'an', 'sc', 'is', 'mk', 'be'])
  })

  it('keeps codes that have no 639-1 form and two-letter codes as they are', () => {
    expect(tagForCode('ast')).toBe('ast')
    expect(tagForCode('frp')).toBe('frp')
    expect(tagForCode('es')).toBe('es')
    expect(tagForCode('eo')).toBe('eo')
  })

  it('names regions and registered variants', () => {
    expect(tagForCode('por', 'BR')).toBe('pt-BR')
    expect(tagForCode('eng', 'US')).toBe('en-US')
    expect(tagForCode('cat', 'valencia')).toBe('ca-valencia')
    expect(tagForCode('oc', 'aran')).toBe('oc-aranes')
    expect(tagForCode('oci', 'gascon')).toBe('oc-gascon')
  })

  it('names the standards of Serbo-Croatian as languages', () => {
    expect(tagForCode('hbs')).toBe('sr-Latn')
    expect(tagForCode('hbs', 'HR')).toBe('hr')
    expect(tagForCode('hbs', 'BS')).toBe('bs')
    expect(tagForCode('hbs', 'SR')).toBe('sr-Latn')
    expect(sourceTagsForCode('hbs')).toEqual(['sr-Latn', 'bs', 'hr'])
  })

  it('leaves out variants BCP 47 cannot name', () => {
    expect(tagForCode('cat', 'iec2017')).toBeUndefined()
    expect(tagForCode('cat', 'valencia_uni')).toBeUndefined()
    expect(tagForCode('por', 'PTpre1990')).toBeUndefined()
    expect(tagForCode('Cyrl')).toBeUndefined()
  })

  it('canonicalizes requested tags', () => {
    expect(canonicalTag('PT-br')).toBe('pt-BR')
    expect(canonicalTag('sh')).toBe('sr-Latn')
    expect(canonicalTag('pt_BR')).toBeUndefined()
  })
})
