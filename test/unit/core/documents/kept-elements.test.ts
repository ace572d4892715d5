/** DeepL's ignore_tags and tag_handling xml on top of text/html: the stand-ins made and the original bytes put back. */
import { describe, expect, it } from 'vitest'
import { protectMarkup } from '../../../../src/core/documents/kept-elements.js'

const standIns = (text: string): string[] => text.match(/<img data-deepl-keep="[0-9a-f]+-\d+">/g) ?? []

describe('protectMarkup', () => {
  it('swaps each ignored element, content and all, for one stand-in, and puts it back', () => {
    const source = '<p>Hello <x id="1"></x>, <X>the <b>house</b></X> and <y>more</y></p>'
    const p = protectMarkup(source, { xml: false, ignore: new Set(['x']) })
    expect(standIns(p.text)).toHaveLength(2)
    expect(p.text).not.toContain('house')
    expect(p.text).toContain('<y>more</y>')
    expect(p.restore(p.text)).toBe(source)
    // stand-ins moved by a translation come back where they went
    const [a, b] = standIns(p.text)
    expect(p.restore(`<p>${b} y ${a}</p>`)).toBe('<p><X>the <b>house</b></X> y <x id="1"></x></p>')
  })

  it('takes the outermost ignored element only', () => {
    const source = 'A <x>b <x>c</x> d</x> e'
    const p = protectMarkup(source, { xml: false, ignore: new Set(['x']) })
    expect(standIns(p.text)).toHaveLength(1)
    expect(p.restore(p.text)).toBe(source)
  })

  it('xml: keeps self-closing elements as written, also inside an ignored one, and writes no &nbsp;', () => {
    const source = 'Text <ph id="1"/> more <x id="2">in <ph/> x</x> end<br/>'
    const p = protectMarkup(source, { xml: true, ignore: new Set(['x']) })
    expect(standIns(p.text)).toHaveLength(3)
    expect(p.text).toContain(' more ')
    expect(p.text).toContain(' end')
    expect(p.restore(p.text)).toBe(source)
    expect(p.restore('a&nbsp;b')).toBe('a&#160;b')
  })

  it('html without ignore_tags is left as it is', () => {
    const source = '<p>The <b>red</b> car<br/></p>'
    const p = protectMarkup(source, { xml: false, ignore: new Set() })
    expect(p.text).toBe(source)
    expect(p.restore('<p>El coche&nbsp;<b>rojo</b></p>')).toBe('<p>El coche&nbsp;<b>rojo</b></p>')
  })

  it('a stand-in\'s nonce differs per call, so text cannot forge one', () => {
    const one = standIns(protectMarkup('<x></x>', { xml: false, ignore: new Set(['x']) }).text)[0]
    const two = standIns(protectMarkup('<x></x>', { xml: false, ignore: new Set(['x']) }).text)[0]
    expect(one).not.toBe(two)
  })
})
