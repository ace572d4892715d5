/**
 * Every language a translation engine lists is a locale at /language/locale/{tag}, named the same:
 * tags CLDR reaches through a likely region (ca-valencia), locales with variants it has no data for
 * (oc-aranes) and languages it knows without a locale (frp) resolve; the rest stays unknown.
 */
import { describe, expect, it } from 'vitest'
import { getLocale, languageName } from '../../../src/core/locales.js'
import { NotFoundError } from '../../../src/errors.js'

describe('getLocale beyond CLDR locale ids', () => {
  it('reaches a variant through its likely region', () => {
    expect(getLocale('ca-valencia')).toMatchObject({ tag: 'ca-valencia', name: 'Catalan (Valencian)', base: 'ca', parent: 'ca-ES', region: { tag: 'ES' } })
  })

  it('answers a locale with variants CLDR has no data for, its parent the locale without them', () => {
    expect(getLocale('oc-aranes')).toMatchObject({ tag: 'oc-aranes', base: 'oc', parent: 'oc', script: { tag: 'Latn' } })
    expect(getLocale('en-GB-oxendict')).toMatchObject({ parent: 'en-GB' })
  })

  it('answers a language CLDR knows by its likely subtags, with root as its parent', () => {
    expect(getLocale('frp')).toMatchObject({ tag: 'frp', name: 'Arpitan', base: 'frp', parent: 'root', region: { tag: 'FR' }, script: { tag: 'Latn' } })
  })

  it.each(['frp-US', 'de-US-1996', 'xx-fonipa', 'qaa', 'xx', 'de-US'])('still answers %s with a 404', tag => {
    expect(() => getLocale(tag)).toThrow(NotFoundError)
  })
})

describe('languageName', () => {
  it.each(['en-US', 'pt-BR', 'frp', 'oc-aranes', 'ca-valencia', 'sr-Latn', 'zh-Hant', 'EN-gb'])('is the name /language/locale/%s gives', tag => {
    expect(languageName(tag)).toBe(getLocale(tag).name)
  })
})
