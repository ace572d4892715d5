/** DeepL's ignore_tags and tag_handling xml on top of text/html: the stand-ins made and the original bytes put back, in linear time, within a bound. */
import { describe, expect, it } from 'vitest'
import { MAX_KEPT_ELEMENTS, keptElements, protectMarkup } from '../../../../src/core/documents/kept-elements.js'
import { ValidationError } from '../../../../src/errors.js'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import fc from 'fast-check'
import { nestedInline, xmlElements } from '../../../helpers/xml-markup.js'

const standIns = (text: string): string[] => text.match(/<img data-deepl-keep="[0-9a-f]+-\d+">/g) ?? []

/** A segment as an engine may translate it: at every level, its texts, tokens and tag pairs in reverse order. */
function reversed (segment: string): string {
  const levels: string[][] = [[]]
  for (const part of segment.split(/(<[^>]*>)/).filter(p => p !== '')) {
    if (/^<g[\s>]/.test(part)) levels.push([part])
    else if (part === '</g>') {
      const pair = levels.pop()!
      levels[levels.length - 1]!.push(pair[0] + pair.slice(1).reverse().join('') + part)
    } else levels[levels.length - 1]!.push(part)
  }
  return levels[0]!.reverse().join('')
}

describe('protectMarkup', () => {
  it('swaps each ignored element, content and all, for one stand-in, and puts it back', () => {
    const source = '<p>Hello <x id="1"></x>, <X>the <b>house</b></X> and <y>more</y></p>'
    const p = protectMarkup(source, keptElements(false, ['x']))
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
    const p = protectMarkup(source, keptElements(false, ['x']))
    expect(standIns(p.text)).toHaveLength(1)
    expect(p.restore(p.text)).toBe(source)
  })

  it('xml: keeps self-closing elements as written, also inside an ignored one, and writes no &nbsp;', () => {
    const source = 'Text <ph id="1"/> more <x id="2">in <ph/> x</x> end<br/>'
    const p = protectMarkup(source, keptElements(true, ['x']))
    expect(standIns(p.text)).toHaveLength(3)
    expect(p.text).toContain(' more ')
    expect(p.text).toContain(' end')
    expect(p.restore(p.text)).toBe(source)
  })

  it('xml: keeps CDATA sections whole, markup-like content and all, also inside svg and an ignored element', () => {
    const cdata = '<![CDATA[<b>bold</b> if (a > b) <ph/> &x;]]>'
    const source = `<doc><p>The car.</p>${cdata} <svg><![CDATA[a > b]]></svg> <x>${cdata}</x> <!-- <![CDATA[ a comment --> end <![CDATA[ unclosed > <p>`
    const p = protectMarkup(source, keptElements(true, ['x']))
    expect(standIns(p.text)).toHaveLength(4)
    expect(p.text).not.toContain('bold')
    expect(p.text).toContain('<!-- <![CDATA[ a comment --> end ')
    expect(p.restore(p.text)).toBe(source)
  })

  it('xml: keeps an entity reference HTML does not know as written; known ones and those in attributes or comments are read as before', () => {
    const source = '<p title="&product;">The &product; car &ns:name.x; &amp; &nbsp; &#233; &notit;</p><!-- &c; -->'
    const p = protectMarkup(source, keptElements(true, []))
    expect(standIns(p.text)).toHaveLength(3)
    expect(p.text).toContain('-p title="&product;">The ')
    expect(p.text).toContain(' &amp; &nbsp; &#233; ')
    expect(p.text).toContain('<!-- &c; -->')
    expect(p.restore(p.text)).toBe(source)
  })

  it('xml: a <title>, <svg> or <math> is an element as any other, its markup, CDATA and entities read as XML, named back as written', () => {
    const source = '<doc><Title>Hello &amp; <b>world</b> <![CDATA[a <b> c]]> &product;</Title><svg><text>The dog</text></svg><textarea>Bye <ph/></textarea></doc>'
    const p = protectMarkup(source, keptElements(true, []))
    expect(p.text).not.toMatch(/<\/?(title|svg|textarea)[\s>]/i)
    expect(standIns(p.text)).toHaveLength(3)
    expect(p.restore(p.text)).toBe(source)
    const doc = segmentDocument(source, 'text/html', { kept: keptElements(true, []) })
    expect(doc.segments).toContain('The dog')
    expect(doc.segments.some(t => t.startsWith('Bye'))).toBe(true)
    // the title's <b> an inline element of its sentence, not text
    expect(doc.segments.some(t => t.startsWith('Hello') && t.includes('>world</g>'))).toBe(true)
    expect(doc.segments.join(' ')).not.toMatch(/product|CDATA|&lt;/)
    expect(doc.rebuild(doc.segments.map(s => s.replace('Hello', 'Hola').replace('dog', 'perro'))))
      .toBe(source.replace('Hello', 'Hola').replace('dog', 'perro'))
  })

  it('xml: an element HTML\'s tree builder reads apart (head, body, frame, a table\'s outside a table) is an element as any other: each text its own segment, named back as written', () => {
    const kept = keptElements(true, [])
    for (const [source, texts] of [
      ['<message><head>Hello world</head><body>The red car is fast.</body></message>', ['Hello world', 'The red car is fast.']],
      ['<row><td>The red car</td><td>The house</td></row>', ['The red car', 'The house']],
      ['<note><body>The red car</body><frame>The house</frame></note>', ['The red car', 'The house']],
      ['<doc><table><caption>The red car</caption>The house<tr>The dog</tr></table></doc>', ['The red car', 'The house', 'The dog']],
      ['<html><p>The <b>red</b> car<p>The house</p></p></html>', ['The <g id="1">red</g> car', 'The house']]
    ] as const) {
      const p = protectMarkup(source, kept)
      expect(p.text).not.toMatch(/<\/?(head|body|frame|td|tr|table|caption|html|p)[\s>]/)
      expect(p.restore(p.text)).toBe(source)
      const doc = segmentDocument(source, 'text/html', { kept })
      expect(doc.segments).toEqual(texts)
      expect(doc.rebuild(doc.segments.map(s => `[${s}]`))).toBe(texts.reduce<string>((out, t) => out.replace(`>${t.replace(/<g id="1">(.*)<\/g>/, '<b>$1</b>')}<`, `>[${t.replace(/<g id="1">(.*)<\/g>/, '<b>$1</b>')}]<`), source))
    }
  })

  it('xml: attributes are data, kept as written (entity references included); html: alt and title are text', () => {
    const source = '<doc><p title="The &product; house">Text</p><img alt="A red car"></img></doc>'
    const xml = segmentDocument(source, 'text/html', { kept: keptElements(true, []) })
    expect(xml.segments).toEqual(['Text'])
    expect(xml.rebuild(['Texto'])).toBe(source.replace('>Text<', '>Texto<'))
    const html = segmentDocument(source, 'text/html', { kept: keptElements(false, ['x']) })
    expect(html.segments).toEqual(expect.arrayContaining(['A red car', 'Text']))
  })

  it('xml: an ignored element named as HTML\'s is kept whole', () => {
    const source = '<doc><title>Keep <b>me</b></title><p>Text</p></doc>'
    const p = protectMarkup(source, keptElements(true, ['title']))
    expect(standIns(p.text)).toHaveLength(1)
    expect(p.text).not.toContain('Keep')
    expect(p.restore(p.text)).toBe(source)
  })

  it('html: CDATA sections and unknown entity references are read as HTML reads them', () => {
    const source = '<p>The &product; car <![CDATA[a]]></p>'
    expect(protectMarkup(source, keptElements(false, ['x'])).text).toBe(source)
  })

  it('html without ignore_tags is left as it is', () => {
    const source = '<p>The <b>red</b> car<br/></p>'
    const p = protectMarkup(source, keptElements(false, []))
    expect(p.text).toBe(source)
    expect(p.restore('<p>El coche&nbsp;<b>rojo</b></p>')).toBe('<p>El coche&nbsp;<b>rojo</b></p>')
  })

  it('a stand-in\'s nonce differs per request, so text cannot forge one; a request\'s reading and rebuilding share it', () => {
    const kept = keptElements(false, ['X'])
    const one = standIns(protectMarkup('<x></x>', kept).text)[0]
    expect(standIns(protectMarkup('<x></x>', kept).text)[0]).toBe(one)
    expect(standIns(protectMarkup('<x></x>', keptElements(false, ['x'])).text)[0]).not.toBe(one)
    // a stand-in written by the client is its own text: another request's does not match
    const forged = protectMarkup(`${one!}<x>a</x>`, keptElements(false, ['x']))
    expect(forged.restore(forged.text)).toBe(`${one!}<x>a</x>`)
  })

  it('xml: translated text writes no &nbsp;; an ignored element\'s bytes, attributes and comments come back as written, &nbsp; included', () => {
    const source = '<p title="a&nbsp;b">The&nbsp;house <x>c&nbsp;<br/>d</x><!-- e&nbsp;f --></p>'
    const doc = segmentDocument(source, 'text/html', { kept: keptElements(true, ['x']) })
    expect(doc.segments).toHaveLength(1)
    expect(doc.rebuild(doc.segments)).toBe(source)
    expect(doc.rebuild(doc.segments.map(s => s.replace('house', 'casa')))).toBe(source.replace('The&nbsp;house', 'The&#160;casa'))
  })

  it('reads and rebuilds in time linear in the kept elements (4x the elements, well under 16x the time)', () => {
    const time = (n: number, element: string, kept: () => ReturnType<typeof keptElements>, last: string): number => {
      let best = Number.POSITIVE_INFINITY
      // the process's CPU time, not the clock's (other processes share the cores); the least of five (garbage collection)
      for (let i = 0; i < 5; i++) {
        const started = process.cpuUsage()
        const p = protectMarkup(element.repeat(n) + last, kept())
        expect(p.restore(p.text)).toHaveLength(element.length * n + last.length)
        const used = process.cpuUsage(started)
        best = Math.min(best, (used.user + used.system) / 1000)
      }
      return best
    }
    const xml = (): ReturnType<typeof keptElements> => keptElements(true, [])
    // an ignored element holding a self-closing one: two kept elements each; XML's CDATA sections
    // (unclosed ones too, each to the text's end), text before the only one, and unknown entity references
    for (const [element, kept, each, last = ''] of [['<x/>', xml, 1], ['<x id="1"></x>', () => keptElements(false, ['x']), 1], ['<x><y/></x>', () => keptElements(true, ['x']), 2],
      ['<![CDATA[a > b]]>', xml, 1], ['<![CDATA[ > ', xml, 1], ['<p>a</p>', xml, 1, '<![CDATA[]]>'], ['a &x; ', xml, 1]] as const) {
      const most = MAX_KEPT_ELEMENTS / each
      time(most, element, kept, last)
      const small = time(most / 4, element, kept, last)
      const large = time(most, element, kept, last)
      // linear work gives about 4x; a pass over the whole output per element (the split and join it replaced) gave 16x
      expect(large / small, `${element}: ${small.toFixed(1)} ms, then ${large.toFixed(1)} ms`).toBeLessThan(10)
    }
  })

  it('more than MAX_KEPT_ELEMENTS in a document, self-closing and ignored together, is a 400 at its path', () => {
    const over = (): unknown => protectMarkup('<y/>'.repeat(MAX_KEPT_ELEMENTS / 2) + '<x></x>'.repeat(MAX_KEPT_ELEMENTS / 2 + 1), keptElements(true, ['x']), () => ['documents', 2, 'value'])
    expect(over).toThrow(ValidationError)
    try {
      over()
    } catch (err) {
      expect((err as ValidationError).errors?.[0]?.path).toEqual(['documents', 2, 'value'])
      expect((err as Error).message).toMatch(/more than 10,000 elements/)
    }
    expect(protectMarkup('<x/>'.repeat(MAX_KEPT_ELEMENTS), keptElements(true, [])).text).toContain(`-${MAX_KEPT_ELEMENTS - 1}">`)
  })

  it('xml: a CDATA section and an unknown entity reference are no text of any segment, and come back in their place', () => {
    const source = '<doc><p>The &product; car.</p><![CDATA[<b>bold</b> if (a > b)]]></doc>'
    const doc = segmentDocument(source, 'text/html', { kept: keptElements(true, []) })
    expect(doc.segments.join(' ')).not.toMatch(/product|bold|CDATA/)
    expect(doc.rebuild(doc.segments.map(s => s.replace('car', 'coche')))).toBe('<doc><p>The &product; coche.</p><![CDATA[<b>bold</b> if (a > b)]]></doc>')
  })

  it('a page\'s own <html lang> naming another language than the source is no guide through either reading: its text is translated', () => {
    for (const xml of [true, false]) {
      const doc = segmentDocument('<html lang="fr"><body><p>Hello.</p></body></html>', 'text/html', { language: 'en', kept: keptElements(xml, []) })
      expect(doc.segments, `xml ${xml}`).toEqual(['Hello.'])
    }
  })

  it('a page\'s <html lang> and <body lang> that named the source name the target through either reading (xml renames the elements), one in a script does not', () => {
    const page = '<?xml version="1.0"?>\n<html lang="en"><head><script>var b = \'<body lang="en">\'</script></head><body xml:lang="en-US"><p>The house.</p><x>not this</x><br/></body></html>'
    for (const xml of [true, false]) {
      const doc = segmentDocument(page, 'text/html', { language: 'en', kept: keptElements(xml, ['x']) })
      expect(doc.rebuild(doc.segments.map(s => s.replace('house', 'casa')), 'es')).toBe(page.replace('<html lang="en">', '<html lang="es">')
        .replace('<body xml:lang="en-US">', '<body xml:lang="es">').replace('house', 'casa'))
    }
  })

  it('xml: an <a> or <nobr> inside another and a void element holding content (<br>x</br>) are read as XML nests them: moved by a translation, they come back well-formed, every element as written where it was', () => {
    for (const source of [
      '<p><a href="/1"><b>The big <a href="/2">red dog <a id="x"></a></a></b></a> runs.</p>',
      '<a><span>big <a>dog <a></a></a></span></a>',
      '<p><a><span>big <a><span>car near dog </span><a>near bird</a>small </a></span>big fast </a>.</p>',
      '<doc>The <BR>red</BR> car <input type="text">big</input> dog <nobr>a <nobr>b</nobr></nobr> <br/>x<img src="i.png"></img></doc>'
    ]) {
      const doc = segmentDocument(source, 'text/html', { kept: keptElements(true, []) })
      expect(doc.rebuild(doc.segments)).toBe(source)
      const out = doc.rebuild(doc.segments.map(reversed)) as string
      expect(xmlElements(out), out).toBe(xmlElements(source))
    }
  })

  it('xml: random nestings of a, b, span, input, br and p come back well-formed, every element as written where it was, their sentences moved about', () => {
    for (const source of fc.sample(nestedInline, { numRuns: 300, seed: 20240601 })) {
      const doc = segmentDocument(source, 'text/html', { kept: keptElements(true, []) })
      const out = doc.rebuild(doc.segments.map(reversed)) as string
      expect(xmlElements(out), `${source}\n${out}`).toBe(xmlElements(source))
    }
  })

  it('xml: a <br> no end tag closes is HTML\'s line break, as clients writing HTML send it', () => {
    const doc = segmentDocument('<p>The red car.<br>The big dog.</p>', 'text/html', { kept: keptElements(true, []) })
    expect(doc.segments).toEqual(['The red car.', 'The big dog.'])
  })

  it('is part of reading a text/html document: segments without the kept elements, the rebuilt text with them', () => {
    const kept = keptElements(true, ['x'])
    const source = '<p>The house <ph id="1"/> is <x>not this</x> red.</p>'
    const doc = segmentDocument(source, 'text/html', { kept })
    expect(doc.segments.join(' ')).not.toContain('not this')
    expect(doc.rebuild(doc.segments.map(s => s.replace('house', 'casa')))).toBe('<p>The casa <ph id="1"/> is <x>not this</x> red.</p>')
  })
})
