/**
 * Office files over HTTP: a DOCX in base64 translated by the embedded Apertium and by an outside
 * engine (the LibreTranslate fake), read back with fflate and saxes (test/helpers/office.ts):
 * text, run formatting, tables, notes and untouched parts byte for byte; detect, substitute, edit
 * and analyze take it too, and a hostile file is a 400 at /document/value.
 */
import fc from 'fast-check'
import { strToU8, zipSync } from 'fflate'
import { SaxesParser } from 'saxes'
import { describe, expect, it } from 'vitest'
import { hostileOffice } from '../../fuzz/hostile.js'
import { formatApps } from '../../helpers/format-apps.js'
import { base64, DOCX, EPUB, makeDocx, makeEpub, makeOdf, makePptx, makeXlsx, members, ODP, ODS, ODT, paragraphTexts, PPTX, readParagraphs, text, textsOf, XLSX } from '../../helpers/office.js'

const { post, libre } = formatApps()

const BODY =
  '<w:p><w:r><w:rPr><w:lang w:val="en-US"/></w:rPr><w:t xml:space="preserve">The </w:t></w:r><w:r><w:rPr><w:b/><w:lang w:val="en-US"/></w:rPr><w:t>red</w:t></w:r><w:r><w:rPr><w:lang w:val="en-US"/></w:rPr><w:t xml:space="preserve"> house is big.</w:t></w:r></w:p>' +
  '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>The cat is in the house.</w:t></w:r></w:p></w:tc></w:tr></w:tbl>' +
  '<w:p><w:r><w:t>Open {file} now.</w:t></w:r></w:p>'
const FILE = makeDocx(BODY, { footnotes: '<w:footnote w:id="1"><w:p><w:r><w:t>The dog is small.</w:t></w:r></w:p></w:footnote>' })

describe('DOCX through /language/translate and /bulk', () => {
  it('Apertium translates body, table and notes; bold follows its word; the rest of the file byte for byte', async () => {
    const { status, body } = await post('/language/translate/bulk', { documents: [{ value: base64(FILE), mime_type: DOCX }], source: 'en', targets: ['es', 'ca'] })
    expect(status, JSON.stringify(body)).toBe(200)
    const before = members(base64(FILE))
    for (const target of ['es', 'ca']) {
      const result = body[0].results[target]
      expect(result.mime_type).toBe(DOCX)
      const after = members(result.value)
      expect(Object.keys(after)).toEqual(Object.keys(before))
      for (const name of ['[Content_Types].xml', '_rels/.rels', 'word/media/image1.png']) {
        expect(Buffer.from(after[name]!).equals(Buffer.from(before[name]!)), name).toBe(true)
      }
      expect(text(after['word/styles.xml']!)).toContain(`<w:rPrDefault><w:rPr><w:lang w:val="${target}"/></w:rPr></w:rPrDefault>`)
      const document = text(after['word/document.xml']!)
      const [first, cell, placeholder] = readParagraphs(document)
      expect(first!.map(r => r.text).join('')).toMatch(/casa/)
      const bold = first!.filter(r => r.bold)
      expect(bold).toHaveLength(1)
      expect(bold[0]!.text).toMatch(/^(roja|vermella)$/)
      expect(first!.every(r => r.lang === target)).toBe(true)
      expect(cell!.map(r => r.text).join('')).toMatch(/casa/)
      expect(document).toMatch(/<w:tbl><w:tr><w:tc><w:p>/)
      expect(placeholder!.map(r => r.text).join('')).toContain('{file}')
      expect(paragraphTexts(text(after['word/footnotes.xml']!))[0]).not.toMatch(/dog/)
    }
  })

  it('an outside engine (LibreTranslate) gets the runs as tags', async () => {
    const { status, body } = await post('/language/translate', { document: { value: base64(FILE), mime_type: DOCX }, source: 'en', targets: ['fr'] }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    const document = text(members(body.results.fr.value)['word/document.xml']!)
    expect(readParagraphs(document)[0]).toEqual([
      { text: 'THE ', bold: false, italic: false, link: false, lang: 'fr' },
      { text: 'RED', bold: true, italic: false, link: false, lang: 'fr' },
      { text: ' HOUSE IS BIG.', bold: false, italic: false, link: false, lang: 'fr' }
    ])
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q)
    expect(sent).toContain('The <g id="1">red</g> house is big.')
  })

  it('a hostile or broken file is a 400 at /document/value naming what is wrong', async () => {
    const cases: Array<[string, RegExp]> = [
      ['bm90IGEgemlw', /the DOCX file is not a ZIP file/],
      ['%%%', /base64/],
      [base64(zipSync({ '../evil.xml': strToU8('x') })), /member "\.\.\/evil\.xml" has "\." or "\.\." in its path/],
      [base64(makeDocx('', { contentTypes: '<Override PartName="/word/vbaData.xml" ContentType="application/vnd.ms-word.vbaData+xml"/>' })), /holds macros/]
    ]
    for (const [value, message] of cases) {
      const { status, body } = await post('/language/translate', { document: { value, mime_type: DOCX }, source: 'en', targets: ['es'] })
      expect(status, JSON.stringify(body)).toBe(400)
      expect(body.errors[0].pointer).toBe('/document/value')
      expect(body.errors[0].message).toMatch(message)
    }
  })
})

describe('PPTX and XLSX through /language/translate', () => {
  const slide = makePptx(['<p:sp><p:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t xml:space="preserve">The </a:t></a:r><a:r><a:rPr lang="en-US" b="1"/><a:t>red</a:t></a:r><a:r><a:rPr lang="en-US"/><a:t> house is big.</a:t></a:r></a:p></p:txBody></p:sp>'], '<a:p><a:r><a:rPr lang="en-US"/><a:t>The cat is small.</a:t></a:r></a:p>')
  const book = makeXlsx('The house', ['<t>The red car</t>', '<r><t xml:space="preserve">The </t></r><r><rPr><b/></rPr><t>big</t></r><r><t xml:space="preserve"> house.</t></r>'],
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><f>1+1</f><v>2</v></c><c r="C1" t="inlineStr"><is><t>The cat.</t></is></c></row>')

  it('Apertium translates slides, notes, shared and inline strings; bold follows its word; sheet names and formulas kept', async () => {
    const { status, body } = await post('/language/translate/bulk', { documents: [{ value: base64(slide), mime_type: PPTX }, { value: base64(book), mime_type: XLSX }], source: 'en', targets: ['es'] })
    expect(status, JSON.stringify(body)).toBe(200)
    const pptx = members(body[0].results.es.value)
    const runs = readParagraphs(text(pptx['ppt/slides/slide1.xml']!), { paragraph: 'a:p', run: 'a:r', text: 'a:t', bold: 'a:b', italic: 'a:i', link: 'a:hlinkClick' })[0]!
    expect(runs.map(r => r.text).join('')).toMatch(/casa/)
    expect(runs.filter(r => r.bold).map(r => r.text)).toEqual(['roja'])
    expect(runs.every(r => r.lang === 'es')).toBe(true)
    expect(textsOf(text(pptx['ppt/notesSlides/notesSlide1.xml']!), 'a:p', 'a:t')[0]).toMatch(/gato/)
    expect(text(pptx['ppt/slideLayouts/slideLayout1.xml']!)).toContain('Click to edit Master title style')
    const xlsx = members(body[1].results.es.value)
    const strings = textsOf(text(xlsx['xl/sharedStrings.xml']!), 'si')
    expect(strings[0]).toMatch(/coche/)
    expect(strings[1]).toMatch(/casa/)
    expect(text(xlsx['xl/sharedStrings.xml']!)).toMatch(/<r><rPr><b\/><\/rPr><t xml:space="preserve">grande<\/t><\/r>/)
    const sheet = text(xlsx['xl/worksheets/sheet1.xml']!)
    expect(textsOf(sheet, 'is')[0]).toMatch(/gato/)
    expect(sheet).toContain('<c r="B1"><f>1+1</f><v>2</v></c>')
    expect(text(xlsx['xl/workbook.xml']!)).toContain('<sheet name="The house"')
  })

  it('an outside engine (LibreTranslate) gets their runs as tags', async () => {
    const { status, body } = await post('/language/translate/bulk', { documents: [{ value: base64(slide), mime_type: PPTX }, { value: base64(book), mime_type: XLSX }], source: 'en', targets: ['fr'] }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(textsOf(text(members(body[0].results.fr.value)['ppt/slides/slide1.xml']!), 'a:p', 'a:t')).toEqual(['THE RED HOUSE IS BIG.'])
    expect(textsOf(text(members(body[1].results.fr.value)['xl/sharedStrings.xml']!), 'si')).toEqual(['THE RED CAR', 'THE BIG HOUSE.'])
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q)
    expect(sent).toContain('The <g id="1">red</g> house is big.')
    expect(sent).toContain('The <g id="1">big</g> house.')
  })

  it('a macro-enabled workbook is a 400 naming its content type', async () => {
    const macro = zipSync({ ...members(base64(book)), '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.ms-excel.sheet.macroEnabled.main+xml"/></Types>') })
    const { status, body } = await post('/language/translate', { document: { value: base64(macro), mime_type: XLSX }, source: 'en', targets: ['es'] })
    expect(status).toBe(400)
    expect(body.errors[0]).toEqual({ pointer: '/document/value', message: expect.stringMatching(/^the XLSX file holds macros \(content type application\/vnd\.ms-excel\.sheet\.macroEnabled\.main\+xml\)/) })
  })
})

describe('OpenDocument and EPUB through /language/translate', () => {
  const odt = makeOdf(ODT, '<office:text><text:p>The <text:span text:style-name="T1">red</text:span> house is big.</text:p><table:table><table:table-row><table:table-cell><text:p>The cat is in the house.</text:p></table:table-cell></table:table-row></table:table></office:text>')
  const ods = makeOdf(ODS, '<office:spreadsheet><table:table table:name="The house"><table:table-row><table:table-cell office:value-type="string"><text:p>The red car</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="42"><text:p>42</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>')
  const odp = makeOdf(ODP, '<office:presentation><draw:page draw:name="p1"><draw:frame><draw:text-box><text:p>The dog is small.</text:p></draw:text-box></draw:frame></draw:page></office:presentation>')
  const epub = makeEpub(['<h1>The house</h1><p>The <b>red</b> car is in the house.</p>'])
  const documents = [{ value: base64(odt), mime_type: ODT }, { value: base64(ods), mime_type: ODS }, { value: base64(odp), mime_type: ODP }, { value: base64(epub), mime_type: EPUB }]

  it('Apertium translates paragraphs, cells, frames and chapters; spans and bold follow their words', async () => {
    const { status, body } = await post('/language/translate/bulk', { documents, source: 'en', targets: ['es'] })
    expect(status, JSON.stringify(body)).toBe(200)
    const content = (i: number): string => text(members(body[i].results.es.value)['content.xml']!)
    // Apertium moves the adjective after its noun, and its span with it
    expect(content(0)).toContain('<text:p>La casa <text:span text:style-name="T1">roja</text:span> es grande.</text:p>')
    expect(textsOf(content(0), 'text:p', 'text:p')[1]).toMatch(/gato/)
    expect(content(1)).toContain('<table:table-cell office:value-type="float" office:value="42"><text:p>42</text:p></table:table-cell>')
    expect(content(1)).toContain('table:name="The house"')
    expect(textsOf(content(1), 'text:p', 'text:p')[0]).toMatch(/coche/)
    expect(textsOf(content(2), 'text:p', 'text:p')[0]).toMatch(/perro/)
    const book = members(body[3].results.es.value)
    expect(text(book['OEBPS/text/chapter 1.xhtml']!)).toContain('<p>El coche <b>rojo</b> es en la casa.</p>')
    expect(text(book['OEBPS/content.opf']!)).toMatch(/<dc:title>[^<]*casa[^<]*<\/dc:title>/)
  })

  it('an outside engine (LibreTranslate) gets spans and inline elements as tags', async () => {
    const { status, body } = await post('/language/translate/bulk', { documents, source: 'en', targets: ['fr'] }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(text(members(body[0].results.fr.value)['content.xml']!)).toContain('<text:p>THE <text:span text:style-name="T1">RED</text:span> HOUSE IS BIG.</text:p>')
    expect(text(members(body[3].results.fr.value)['OEBPS/text/chapter 1.xhtml']!)).toContain('<p>THE <b>RED</b> CAR IS IN THE HOUSE.</p>')
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q)
    expect(sent).toContain('The <g id="1">red</g> house is big.')
  })

  it('a chapter\'s text marked as another language is left as written', async () => {
    const book = makeEpub(['<blockquote xml:lang="de"><p>Frisch weht der Wind.</p></blockquote><p>I saw it <span xml:lang="la">vidi in ampulla</span> there.</p>'])
    const { status, body } = await post('/language/translate', { document: { value: base64(book), mime_type: EPUB }, source: 'en', targets: ['fr'] }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(text(members(body.results.fr.value)['OEBPS/text/chapter 1.xhtml']!)).toContain('<blockquote xml:lang="de"><p>Frisch weht der Wind.</p></blockquote><p>I SAW IT <span xml:lang="la">vidi in ampulla</span> THERE.</p>')
  })

  it('the package\'s translated metadata and the package itself say the target where they said the source; metadata marked as another language is left as written', async () => {
    // w3c/epub-tests pkg-lang_but_not_content: a translated <dc:description xml:lang="en"> kept "en"
    const book = members(base64(makeEpub(['<p>The house.</p>'])))
    const opf = text(book['OEBPS/content.opf']!)
      .replace('<package ', '<package xml:lang="en" ')
      .replace('<dc:title>', '<dc:title xml:lang="en-GB">')
      .replace('<dc:description>A book about a big house.</dc:description>', '<dc:description xml:lang=\'en\'>A book about a big house.</dc:description><dc:description xml:lang="de">Ein Buch über ein großes Haus.</dc:description>')
      .replace('<dc:creator>', '<dc:creator xml:lang="en">')
    const { status, body } = await post('/language/translate', { document: { value: base64(zipSync({ ...book, 'OEBPS/content.opf': strToU8(opf) })), mime_type: EPUB }, source: 'en-US', targets: ['fr'] }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    const after = text(members(body.results.fr.value)['OEBPS/content.opf']!)
    // each element of the package document: its name, xml:lang and text, by saxes
    const read: Array<[string, string | undefined, string]> = []
    const parser = new SaxesParser()
    const open: number[] = []
    parser.on('opentag', tag => { open.push(read.push([tag.name, tag.attributes['xml:lang'] as string | undefined, '']) - 1) })
    parser.on('closetag', () => open.pop())
    parser.on('text', t => { if (open.length > 0) read[open.at(-1)!]![2] += t })
    parser.write(after).close()
    const element = (name: string): Array<[string | undefined, string]> => read.filter(e => e[0] === name).map(e => [e[1], e[2]])
    expect(element('package')).toEqual([['fr', '']])
    expect(element('dc:title')).toEqual([['fr', 'THE RED HOUSE']])
    expect(element('dc:description')).toEqual([['fr', 'A BOOK ABOUT A BIG HOUSE.'], ['de', 'Ein Buch über ein großes Haus.']])
    expect(element('dc:creator')).toEqual([['en', 'Ann Smith']])
    expect(element('dc:language')).toEqual([[undefined, 'fr']])
    // nothing else changed
    expect(after).toBe(opf.replace('xml:lang="en" ', 'xml:lang="fr" ').replace('<dc:title xml:lang="en-GB">The red house', '<dc:title xml:lang="fr">THE RED HOUSE')
      .replace('<dc:description xml:lang=\'en\'>A book about a big house.', '<dc:description xml:lang="fr">A BOOK ABOUT A BIG HOUSE.').replace('<dc:language>en<', '<dc:language>fr<'))
  })
})

describe('DOCX fuzzing', () => {
  it('the fuzzer\'s hostile files are answered 200, 400 or 413 (never 500), a 400 at /document/value', async () => {
    const cases = fc.sample(hostileOffice({ hugeChars: 2000, tags: 200, depth: 50, keys: 100 }), { numRuns: 40, seed: 33 })
    const labels = new Set<string>()
    for (const c of cases) {
      const { status, body } = await post('/language/translate', { document: { value: c.value, mime_type: c.mime_type }, source: 'en', targets: ['es'] })
      expect([200, 400, 413], `${c.label}: ${JSON.stringify(body).slice(0, 300)}`).toContain(status)
      if (status === 400) expect(body.errors[0].pointer, c.label).toBe('/document/value')
      labels.add(`${c.label} ${status}`)
    }
    expect([...labels].some(l => l.startsWith('docx-hostile-container 400'))).toBe(true)
  }, 120_000)
})

describe('DOCX on the other document endpoints', () => {
  it('detect reads its text', async () => {
    const file = makeDocx('<w:p><w:r><w:t>El coche rojo está en la casa grande y el perro duerme.</w:t></w:r></w:p>')
    const { status, body } = await post('/language/detect', { document: { value: base64(file), mime_type: DOCX } })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.language).toBe('es')
  })

  it('substitute applies the rules in the file; with nothing to apply the file comes back as sent', async () => {
    const { status, body } = await post('/language/substitute', { document: { value: base64(FILE), mime_type: DOCX, language: 'en' }, substitutions: [{ text: 'house', substitution: 'home' }] })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(paragraphTexts(text(members(body.document.value)['word/document.xml']!))).toEqual(['The red home is big.', 'The cat is in the home.', 'Open {file} now.'])
    const none = await post('/language/substitute', { document: { value: base64(FILE), mime_type: DOCX, language: 'en' }, substitutions: [{ text: 'castle', substitution: 'home' }] })
    expect(none.body.document.value).toBe(base64(FILE))
  })

  it('edit corrects the text and answers changes of the text, not of the base64', async () => {
    const file = makeDocx('<w:p><w:r><w:t>Their is a libary in the house.</w:t></w:r></w:p>')
    const { status, body } = await post('/language/edit', { document: { value: base64(file), mime_type: DOCX, language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(paragraphTexts(text(members(body.document.value)['word/document.xml']!))[0]).toMatch(/library/)
    expect(JSON.stringify(body.changes)).toMatch(/libary/)
    expect(JSON.stringify(body.changes)).not.toMatch(/UEsDB/)
  })

  it('analyze takes it', async () => {
    const { status, body } = await post('/language/analyze', { document: { value: base64(FILE), mime_type: DOCX }, analyses: ['sentiment'] })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.meta.language).toBe('en')
  })
})
