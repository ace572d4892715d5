/** apy's codes to and from BCP 47 tags. */
import { describe, expect, it } from 'vitest'
import { canonicalTag } from '../../../../src/core/languages.js'
import { fromApy, toApy } from '../../../../src/compat/apy/codes.js'

describe('apy codes', () => {
  it('writes tags as ISO 639-3 with the rest after _, and reads them back to the same tag', () => {
    const cases: Array<[string, string]> = [['en', 'eng'], ['es', 'spa'], ['pt-BR', 'por_BR'], ['ca-valencia', 'cat_valencia'], ['sr-Latn', 'srp_Latn'], ['nb', 'nob'], ['ar', 'ara'], ['oc-aranes', 'oci_aranes']]
    for (const [tag, code] of cases) {
      expect(toApy(tag), tag).toBe(code)
      expect(canonicalTag(fromApy(code), ['langpair']), code).toBe(tag)
    }
    // apy's own spellings read as the same languages
    expect(canonicalTag(fromApy('hbs'), ['langpair'])).toBe('sr-Latn')
  })
})
