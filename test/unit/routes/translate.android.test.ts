/**
 * Android strings.xml documents over HTTP: translated by the embedded Apertium and by an outside
 * engine (the LibreTranslate fake), read back with a strict XML parser as Android reads them;
 * detect, edit, analyze and substitute take them too, and a broken file is a 400 naming its line.
 */
import { describe, expect, it } from 'vitest'
import { formatApps } from '../../helpers/format-apps.js'
import { htmlElementTree, htmlLayout, readAndroidStrings } from '../../helpers/android-strings.js'

const { post, libre } = formatApps()

const MIME = 'application/vnd.android.strings+xml'
const XML = '<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n' +
  '    <!-- the title -->\n' +
  '    <string name="app_name" translatable="false">Red Car</string>\n' +
  '    <string name="house">The house is <b>big</b>.</string>\n' +
  '    <string name="where">The red car is in %1$s.\\nThe house is big.</string>\n' +
  '    <string name="wait">Wait <xliff:g id="count">%d</xliff:g> minutes.</string>\n' +
  '    <plurals name="cars">\n        <item quantity="one">%d red car</item>\n        <item quantity="other">%d red cars</item>\n    </plurals>\n' +
  '    <string-array name="colours">\n        <item>The red car</item>\n        <item>The house</item>\n    </string-array>\n' +
  '</resources>\n'

describe('Android strings.xml through /language/translate and /bulk', () => {
  it('Apertium translates the strings, items and plurals; markup, specifiers and the rest kept', async () => {
    const { status, body } = await post('/language/translate/bulk', { documents: [{ value: XML, mime_type: MIME }, { value: 'The house.' }], source: 'en', targets: ['es', 'ca'] })
    expect(status, JSON.stringify(body)).toBe(200)
    for (const target of ['es', 'ca']) {
      const out = body[0].results[target].value as string
      expect(body[0].results[target].mime_type).toBe(MIME)
      const read = readAndroidStrings(out)
      expect(read.strings.app_name).toBe('Red Car')
      expect(read.strings.house).toMatch(/casa/)
      expect(out).toMatch(/<string name="house">[^<]*<b>[^<]+<\/b>\.<\/string>/)
      expect(read.strings.where).toMatch(/^[^\n]*%1\$s\.\n[^\n]+$/)
      expect(read.strings.where).not.toMatch(/\bcar\b/)
      expect(out).toContain('<xliff:g id="count">%d</xliff:g>')
      // CLDR: Spanish and Catalan have one, many (millions) and other
      expect(Object.keys(read.plurals.cars!)).toEqual(['one', 'many', 'other'])
      expect(read.plurals.cars!.many).toBe(read.plurals.cars!.other)
      expect(read.plurals.cars!.one).toMatch(/^%d /)
      expect(read.arrays.colours).toHaveLength(2)
      expect(read.arrays.colours![1]).toMatch(/casa/)
      expect(out).toContain('    <!-- the title -->\n    <string name="app_name" translatable="false">Red Car</string>\n')
    }
  })

  it('an outside engine (LibreTranslate) gets the text with specifiers as tokens; French and Japanese get their plural categories', async () => {
    const { status, body } = await post('/language/translate', { document: { value: XML, mime_type: MIME }, source: 'en', targets: ['fr', 'ja'], options: { preserve_placeholders: false } }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    const fr = readAndroidStrings(body.results.fr.value)
    expect(fr.plurals.cars).toEqual({ one: '%d RED CAR', many: '%d RED CARS', other: '%d RED CARS' })
    expect(fr.strings.where).toBe('THE RED CAR IS IN %1$s.\nTHE HOUSE IS BIG.')
    expect(readAndroidStrings(body.results.ja.value).plurals.cars).toEqual({ other: '%d RED CARS' })
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q)
    expect(sent).toContain('The red car is in <x id="1"/>.')
    expect(sent).toContain('Wait <x id="1"/> minutes.')
  })

  it('Apertium: HTML in a CDATA section comes back with its elements and its lines, each list item translated on its own (K-9 Mail)', async () => {
    const xml = '<resources>\n    <string name="welcome"><![CDATA[\n<p>\nIts improved features include:\n</p>\n<ul>\n  <li>Better performance</li>\n' +
      '  <li>Message refiling</li>\n  <li>Empty Trash</li>\n  <li>Message sorting</li>\n</ul>\n    ]]></string>\n</resources>\n'
    const { status, body } = await post('/language/translate', { document: { value: xml, mime_type: MIME }, source: 'en', targets: ['es'] })
    expect(status, JSON.stringify(body)).toBe(200)
    const html = readAndroidStrings(xml).cdata.welcome!
    const out = readAndroidStrings(body.results.es.value).cdata.welcome!
    expect(htmlElementTree(out)).toEqual(htmlElementTree(html))
    expect(htmlLayout(out)).toEqual(htmlLayout(html))
    expect(out).not.toBe(html)
    expect(out.match(/^ {2}<li>[^<\n]+<\/li>$/gm)).toHaveLength(4)
  })

  it('a broken file is a 400 at /document/value naming the line', async () => {
    const { status, body } = await post('/language/translate', { document: { value: '<resources>\n<string name="a">x</string>\n<string name="b">y\n</resources>\n', mime_type: MIME }, source: 'en', targets: ['es'] })
    expect(status).toBe(400)
    expect(JSON.stringify(body)).toContain('/document/value')
    expect(JSON.stringify(body)).toMatch(/line \d+: /)
  })
})

describe('Android strings.xml on the other document endpoints', () => {
  it('detect reads the strings', async () => {
    const { status, body } = await post('/language/detect', { document: { value: '<resources><string name="a">El coche rojo está en la casa grande.</string></resources>', mime_type: MIME } })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.language).toBe('es')
  })

  it('substitute writes the text with the rules applied in place', async () => {
    const { status, body } = await post('/language/substitute', { document: { value: XML, mime_type: MIME, language: 'en' }, substitutions: [{ text: 'house', substitution: 'home' }] })
    expect(status, JSON.stringify(body)).toBe(200)
    const read = readAndroidStrings(body.document.value)
    expect(read.strings.house).toBe('The home is big.')
    expect(read.arrays.colours).toEqual(['The red car', 'The home'])
    expect(body.document.value).toBe(XML.replaceAll('The house', 'The home'))
  })

  it('edit and analyze take it', async () => {
    const edited = await post('/language/edit', { document: { value: '<resources>\n  <string name="a">Their is a libary in the house.</string>\n</resources>\n', mime_type: MIME, language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    expect(readAndroidStrings(edited.body.document.value).strings.a).toMatch(/library/)
    const analyzed = await post('/language/analyze', { document: { value: XML, mime_type: MIME }, analyses: ['sentiment'] })
    expect(analyzed.status, JSON.stringify(analyzed.body)).toBe(200)
    expect(analyzed.body.meta.language).toBe('en')
  })
})
