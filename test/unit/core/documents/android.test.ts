import { parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5'
import { describe, expect, it } from 'vitest'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import { ValidationError } from '../../../../src/errors.js'
import { htmlElementTree, htmlLayout, readAndroidStrings } from '../../../helpers/android-strings.js'
import { fixture, reverseWords, upper } from './engines.js'

const MIME = 'application/vnd.android.strings+xml'
const XML = '<?xml version="1.0" encoding="utf-8"?>\n' +
  '<!-- App strings -->\n' +
  '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n' +
  '    <string name="app_name" translatable="false">Red Car</string>\n' +
  '    <string name="welcome">Welcome, %1$s! You have %2$d new messages.</string>\n' +
  '    <string name="quote">Don\\\'t say \\"no\\".\\nTry again.</string>\n' +
  '    <string name="bold">The <b>red</b> car is <i>fast</i>.</string>\n' +
  '    <string name="keep">Wait <xliff:g id="time" example="5 minutes">%1$s</xliff:g> please.</string>\n' +
  '    <string name="ref">@string/app_name</string>\n' +
  '    <string name="html"><![CDATA[The <b>house</b> &amp; the car.]]></string>\n' +
  '    <string name="percent">100%% done &amp; saved.</string>\n' +
  '    <plurals name="songs">\n' +
  '        <item quantity="one">%d song found.</item>\n' +
  '        <item quantity="other">%d songs found.</item>\n' +
  '    </plurals>\n' +
  '    <string-array name="planets">\n' +
  '        <item>Mercury</item>\n' +
  '        <item>Venus</item>\n' +
  '    </string-array>\n' +
  '    <string-array name="codes" translatable="false">\n' +
  '        <item>abc</item>\n' +
  '    </string-array>\n' +
  '</resources>\n'

const through = (source: string, target: string | undefined, engine = upper): string => {
  const doc = segmentDocument(source, MIME)
  return doc.rebuild(doc.segments.map(engine), target) as string
}
const problem = (source: string): string => {
  try {
    segmentDocument(source, MIME)
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError)
    const p = (err as ValidationError).errors![0]!
    expect(p.path).toEqual(['document', 'value'])
    return p.message
  }
  throw new Error('no error')
}

/** The words of each `<li>` of an HTML fragment, sorted. */
const itemWords = (html: string): string[][] => {
  const items: string[][] = []
  const text = (node: T.Node): string => node.nodeName === '#text' ? (node as T.TextNode).value : 'childNodes' in node ? node.childNodes.map(text).join('') : ''
  const walk = (node: T.ParentNode): void => node.childNodes.forEach(n => {
    if ('tagName' in n && n.tagName === 'li') items.push(text(n).toLowerCase().split(/\s+/).filter(w => w !== '').sort())
    if ('childNodes' in n) walk(n)
  })
  walk(parseFragment(html))
  return items
}

describe('application/vnd.android.strings+xml', () => {
  it('sends the text of strings, items and plurals with specifiers, escapes and xliff:g as tokens; unchanged comes back byte for byte', () => {
    const doc = segmentDocument(XML, MIME)
    expect(doc.segments).toEqual([
      'Welcome, <x id="1"/>!',
      'You have <x id="1"/> new messages.',
      'Don\'t say "no".',
      'Try again.',
      'The <g id="1">red</g> car is <g id="2">fast</g>.',
      'Wait <x id="1"/> please.',
      'The <g id="1">house</g> &amp; the car.',
      '100<x id="1"/> done &amp; saved.',
      '<x id="1"/> song found.',
      '<x id="1"/> songs found.',
      'Mercury',
      'Venus'
    ])
    expect(doc.rebuild(doc.segments)).toBe(XML)
    expect(doc.rebuild(doc.segments, 'en')).toBe(XML)
  })

  it('writes translated text escaped as Android needs, everything outside string text kept', () => {
    const out = through(XML, 'de', s => upper(s).replace('DON\'T SAY', 'L\'AMI DIT'))
    const read = readAndroidStrings(out)
    expect(read.strings).toMatchObject({
      app_name: 'Red Car',
      welcome: 'WELCOME, %1$s! YOU HAVE %2$d NEW MESSAGES.',
      quote: 'L\'AMI DIT "NO".\nTRY AGAIN.',
      ref: '@string/app_name',
      percent: '100%% DONE & SAVED.'
    })
    expect(out).toContain('<string name="quote">L\\\'AMI DIT \\"NO\\".\\nTRY AGAIN.</string>')
    expect(out).toContain('<string name="bold">THE <b>RED</b> CAR IS <i>FAST</i>.</string>')
    expect(out).toContain('<xliff:g id="time" example="5 minutes">%1$s</xliff:g>')
    expect(out).toContain('<![CDATA[THE <b>HOUSE</b> &amp; THE CAR.]]>')
    expect(read.arrays).toEqual({ planets: ['MERCURY', 'VENUS'], codes: ['abc'] })
    expect(read.plurals.songs).toEqual({ one: '%d SONG FOUND.', other: '%d SONGS FOUND.' })
    expect(out.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<!-- App strings -->\n<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n')).toBe(true)
  })

  it('writes the target\'s plural categories: one from one, the others from other', () => {
    const ru = readAndroidStrings(through(XML, 'ru')).plurals.songs
    expect(ru).toEqual({ one: '%d SONG FOUND.', few: '%d SONGS FOUND.', many: '%d SONGS FOUND.', other: '%d SONGS FOUND.' })
    expect(readAndroidStrings(through(XML, 'ja')).plurals.songs).toEqual({ other: '%d SONGS FOUND.' })
    expect(through(XML, 'ru')).toContain('        <item quantity="one">%d SONG FOUND.</item>\n        <item quantity="few">%d SONGS FOUND.</item>\n')
    // no target (substitute, edit): the items in place
    expect(readAndroidStrings(through(XML, undefined)).plurals.songs).toEqual({ one: '%d SONG FOUND.', other: '%d SONGS FOUND.' })
  })

  it('escapes a leading @ or ? and a backslash in translated text', () => {
    const src = '<resources><string name="a">Hello</string><string name="b">Hi <b>x</b></string></resources>'
    const out = through(src, 'es', s => s === 'Hello' ? '@home ? a\\b' : s)
    expect(out).toBe('<resources><string name="a">\\@home ? a\\\\b</string><string name="b">Hi <b>x</b></string></resources>')
    expect(readAndroidStrings(out).strings.a).toBe('@home ? a\\b')
  })

  it('protects \\t, \\\\ and \\uXXXX, reads \\@ \\? and quotes as text, keeps whitespace outside text', () => {
    const src = '<resources>\n  <string name="a">\\@ home\\tThe house\\u2026 is a\\\\b?</string>\n  <string name="b">"  Quoted  house  "</string>\n' +
      '  <string name="c">\n    The red car.\n    The house.\n  </string>\n  <string name="d">?attr/colorPrimary</string>\n</resources>'
    const doc = segmentDocument(src, MIME)
    expect(doc.segments).toEqual(['@ home<x id="1"/>The house<x id="2"/> is a<x id="3"/>b?', 'Quoted house', 'The red car.', 'The house.'])
    const out = doc.rebuild(doc.segments.map(upper), 'es') as string
    expect(out).toBe('<resources>\n  <string name="a">\\@ HOME\\tTHE HOUSE\\u2026 IS A\\\\B?</string>\n  <string name="b">"  QUOTED HOUSE  "</string>\n' +
      '  <string name="c">\n    THE RED CAR.\n    THE HOUSE.\n  </string>\n  <string name="d">?attr/colorPrimary</string>\n</resources>')
    expect(readAndroidStrings(out).strings).toEqual({ a: '@ HOME\tTHE HOUSE\u2026 IS A\\B?', b: 'QUOTED HOUSE', c: 'THE RED CAR. THE HOUSE.', d: '?attr/colorPrimary' })
  })

  it('Arabic gets zero from the source\'s zero, the rest from one and other', () => {
    const src = '<resources><plurals name="p"><item quantity="zero">No house</item><item quantity="one">One house</item><item quantity="other">%d houses</item></plurals></resources>'
    expect(readAndroidStrings(through(src, 'ar')).plurals.p).toEqual({ zero: 'NO HOUSE', one: 'ONE HOUSE', two: '%d HOUSES', few: '%d HOUSES', many: '%d HOUSES', other: '%d HOUSES' })
    expect(readAndroidStrings(through(src, 'ja')).plurals.p).toEqual({ other: '%d HOUSES' })
  })

  it('a file that is not a strings.xml is a 400 naming the line', () => {
    expect(problem('<resources>\n<string name="a">x</string>\n<string name="b">y</strin>\n</resources>')).toMatch(/^line 3: /)
    expect(problem('<resources>\n<string name="a">&nbsp;</string></resources>')).toMatch(/^line 2: /)
    expect(problem('\n<html><body/></html>')).toBe('line 2: the root element must be <resources>, not <html>')
    expect(problem('<resources>\n<plurals name="p">\n<item quantity="several">x</item></plurals></resources>')).toMatch(/^line 3: a <plurals> <item> needs quantity/)
    expect(problem('')).toMatch(/^line 1: /)
    expect(problem('just text')).toMatch(/^line 1: /)
  })

  it('a DOCTYPE\'s general entities are tokens kept as written; one in a DTD comment, or a parameter entity, declares nothing', () => {
    const dtd = '<!DOCTYPE resources [\n  <!-- <!ENTITY commented "x"> -->\n  <!ENTITY % param "y">\n  <!ENTITY app \'Red Car\'>\n  <!ENTITY amp "z">\n]>\n'
    const src = `${dtd}<resources>\n  <string name="a">&app; is fast &amp; red.</string>\n  <string name="b">&app;</string>\n</resources>\n`
    const doc = segmentDocument(src, MIME)
    expect(doc.segments).toEqual(['<x id="1"/> is fast &amp; red.'])
    expect(doc.rebuild(doc.segments.map(upper))).toBe(src.replace('is fast &amp; red.', 'IS FAST &amp; RED.'))
    expect(problem(`${dtd}<resources>\n  <string name="a">&commented; car</string>\n</resources>`)).toMatch(/^line 8: undefined entity/)
    expect(problem(`${dtd}<resources>\n  <string name="a">&param; car</string>\n</resources>`)).toMatch(/^line 8: undefined entity/)
  })

  it('reads a DOCTYPE in time linear in its length: long runs of blanks, many unclosed comments (a probe\'s 200 KB took 5 s)', () => {
    for (const dtd of [`<!DOCTYPE resources [<!ENTITY${' '.repeat(200_000)}"x">]>\n`, `<!DOCTYPE resources [<!ENTITY %${' '.repeat(200_000)}"x">]>\n`,
      `<!DOCTYPE resources [${'<!--'.repeat(50_000)}]>\n`]) {
      const started = performance.now()
      try { segmentDocument(`${dtd}<resources>\n  <string name="a">Hello world.</string>\n</resources>\n`, MIME) } catch { /* not well-formed: what matters is when */ }
      expect(performance.now() - started, dtd.slice(0, 30)).toBeLessThan(1000)
    }
    const spaced = '<!DOCTYPE resources [\n  <!ENTITY   app "Red Car">\n  <!ENTITY  %  param "y">\n]>\n'
    expect(segmentDocument(`${spaced}<resources>\n  <string name="a">&app; is fast.</string>\n</resources>\n`, MIME).segments).toEqual(['<x id="1"/> is fast.'])
    expect(problem(`${spaced}<resources>\n  <string name="a">&param; car</string>\n</resources>`)).toMatch(/undefined entity/)
  })

  it('HTML in a CDATA section is read as text/html reads it, a segment per block; its layout comes back as written (K-9 Mail)', () => {
    const source = fixture('k9-strings.xml')
    const html = readAndroidStrings(source).cdata.accounts_welcome!
    const doc = segmentDocument(source, MIME)
    expect(doc.segments).toEqual(segmentDocument(html, 'text/html').segments)
    expect(doc.segments).toContain('Its improved features include:')
    expect(doc.segments).toContain('Better performance')
    expect(doc.rebuild(doc.segments, 'es')).toBe(source)
    // a line break inside a sentence is a space, as in text/html; every other one is kept
    const joined = html.replace('has\nsome', 'has some').replace('at\n<a', 'at <a')
    const out = readAndroidStrings(through(source, 'es')).cdata.accounts_welcome!
    expect(out.toLowerCase()).toBe(joined.toLowerCase())
    // an engine that moves words: each stays in its own item, the tree and the lines are the source's
    const moved = readAndroidStrings(through(source, 'es', reverseWords)).cdata.accounts_welcome!
    expect(htmlElementTree(moved)).toEqual(htmlElementTree(html))
    expect(htmlLayout(moved)).toEqual(htmlLayout(joined))
    expect(itemWords(moved)).toEqual(itemWords(html))
    expect(itemWords(html)).toHaveLength(14)
  })

  it('inline elements in a CDATA section travel inside their sentence; <br> ends one', () => {
    const src = '<resources><string name="a"><![CDATA[<div>The <b>red</b> car.<br>The <i>house</i></div>\n  <h1>Title</h1>]]></string></resources>'
    const doc = segmentDocument(src, MIME)
    expect(doc.segments).toEqual(['The <g id="1">red</g> car.', 'The <g id="1">house</g>', 'Title'])
    const out = readAndroidStrings(through(src, 'es', reverseWords)).cdata.a!
    expect(htmlElementTree(out)).toEqual(htmlElementTree('<div><b></b><br><i></i></div><h1></h1>'))
  })

  it('HTML\'s character references in a CDATA section are characters for the engine, not text ("&nbsp;" came back "&amp;NBSP;")', () => {
    const src = '<resources><string name="a"><![CDATA[<p>Copyright&nbsp;&copy; 2024 caf&eacute; &amp; bar &#233;</p>]]></string></resources>'
    const doc = segmentDocument(src, MIME)
    expect(doc.segments).toEqual(['Copyright\u00a0© 2024 café &amp; bar é'])
    expect(doc.rebuild(doc.segments)).toBe(src)
    const out = readAndroidStrings(through(src, 'es')).cdata.a!
    // read as Html.fromHtml reads it: the same text, in capitals
    const text = (parseFragment(out).childNodes[0] as T.Element).childNodes.map(n => (n as T.TextNode).value).join('')
    expect(text).toBe('COPYRIGHT\u00a0© 2024 CAFÉ & BAR É')
  })

  it('tags in a CDATA section take HTML attributes: unquoted values and valueless ones, as Html.fromHtml reads them', () => {
    const html = {
      a: '<font color=red>The red car</font> is <a href=https://example.com/search?q=car>very fast</a>.',
      b: '<p>The house is big.</p><p align=center>The dog is small.</p>',
      c: 'Type <input disabled> here and look at <img src=house.png alt=house> the house.'
    }
    const src = `<resources>\n${Object.entries(html).map(([name, h]) => `  <string name="${name}"><![CDATA[${h}]]></string>\n`).join('')}</resources>\n`
    const doc = segmentDocument(src, MIME)
    expect(doc.segments).toEqual([
      '<g id="1">The red car</g> is <g id="2">very fast</g>.',
      'The house is big.',
      'The dog is small.',
      'Type <x id="1"/> here and look at <x id="2"/> the house.'
    ])
    expect(doc.rebuild(doc.segments, 'es')).toBe(src)
    const out = readAndroidStrings(through(src, 'es')).cdata
    for (const [name, h] of Object.entries(html)) {
      expect(htmlElementTree(out[name]!)).toEqual(htmlElementTree(h))
      for (const tag of h.match(/<[^>]*>/g)!) expect(out[name]).toContain(tag)
    }
  })

  it('in a CDATA section, style, script, pre, textarea and translate="no" or class="notranslate" elements are kept whole, as text/html keeps them', () => {
    const html = '<html><head><style>body { color: red; }</style></head><body><p>The red car is fast.</p>' +
      '<script>var msg = "The house is big";</script><pre>The dog is <b>small</b>.</pre>' +
      '<p translate="no">The cat is black.</p><div class="box notranslate">The <div>bird</div> sings.</div>' +
      '<textarea>The fish swims.</textarea><p>The <span translate=no>Red Car</span> app is <b>fast</b>.</p></body></html>'
    const src = `<resources>\n  <string name="a"><![CDATA[${html}]]></string>\n</resources>\n`
    const doc = segmentDocument(src, MIME)
    expect(doc.segments).toEqual(['The red car is fast.', 'The <x id="1"/> app is <g id="2">fast</g>.'])
    expect(doc.rebuild(doc.segments, 'es')).toBe(src)
    const out = readAndroidStrings(through(src, 'es')).cdata.a!
    for (const kept of ['<style>body { color: red; }</style>', '<script>var msg = "The house is big";</script>', '<pre>The dog is <b>small</b>.</pre>',
      '<p translate="no">The cat is black.</p>', '<div class="box notranslate">The <div>bird</div> sings.</div>', '<textarea>The fish swims.</textarea>',
      '<span translate=no>Red Car</span>']) expect(out).toContain(kept)
    expect(out).toContain('<p>THE RED CAR IS FAST.</p>')
  })

  it('pairs the tags of a CDATA section in linear time', () => {
    const time = (n: number): number => {
      const src = `<resources><string name="a"><![CDATA[The ${'<b>'.repeat(n)}car${'</i>'.repeat(n)}.]]></string></resources>`
      const start = performance.now()
      expect(segmentDocument(src, MIME).segments.join(' ')).toContain('car')
      return performance.now() - start
    }
    time(1000)
    const small = Math.min(time(3000), time(3000))
    const large = Math.min(time(12000), time(12000))
    // quadratic pairing would take 16 times as long for 4 times the tags
    expect(large).toBeLessThan(small * 8 + 50)
  })

  it('a backslash before a line break is a kept line break, as aapt2 reads it, never a visible backslash (SwiFTP)', () => {
    const source = fixture('swiftp-strings.xml')
    const doc = segmentDocument(source, MIME)
    expect(doc.segments.filter(s => s.includes('\\'))).toEqual([])
    expect(doc.rebuild(doc.segments, 'es')).toBe(source)
    const out = through(source, 'es')
    expect(readAndroidStrings(out).strings.help_dlg_message).toBe(readAndroidStrings(source).strings.help_dlg_message!.toUpperCase())
    expect(out).toContain('SWIFTP/.\\n\\n\\\n\\\nTHIS PROGRAM')
  })

  it('any other escaped character is the character (\\a is a, \\# is #); an escaped space is kept as written', () => {
    const src = '<resources><string name="a">Press \\a or \\# to start.\\ \\ The house.\\ </string></resources>'
    const doc = segmentDocument(src, MIME)
    expect(doc.segments[0]).toMatch(/^Press a or # to start\./)
    expect(doc.segments.filter(s => s.includes('\\'))).toEqual([])
    expect(doc.rebuild(doc.segments, 'es')).toBe(src)
    const out = through(src, 'es')
    expect(readAndroidStrings(out).strings.a).toBe(readAndroidStrings(src).strings.a!.toUpperCase())
    expect(out).toContain('THE HOUSE.\\ </string>')
  })
})
