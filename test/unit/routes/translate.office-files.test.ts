/**
 * Real office files (test/data/office/README.md): DOCX as Word wrote them for mammoth.js's
 * tests, PPTX from python-pptx's, XLSX from tealeg/xlsx's (Excel's and other writers', one with
 * prefixed SpreadsheetML), ODT (LibreOffice's) and EPUB (pandoc's) from pandoc's, translated by the embedded Apertium and read back with fflate and
 * saxes: every member kept (those without text byte for byte), the structure of each translated
 * part (paragraphs, table cells, notes, comments, text boxes, hyperlinks, shapes, strings) as it
 * was, and its text translated.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatApps } from '../../helpers/format-apps.js'
import { DOCX, EPUB, members, ODT, paragraphTexts, PPTX, text, textsOf, XLSX } from '../../helpers/office.js'

const { post } = formatApps()

const file = (name: string): string => readFileSync(new URL(`../../data/office/${name}`, import.meta.url)).toString('base64')

const count = (xml: string, tag: string): number => xml.split(`<${tag}`).filter(s => /^[\s>/]/.test(s)).length

/**
 * Translates `name` into Spanish; checks every member is there, those not in `changed` byte for
 * byte (`changed`: the parts with text; the first must have changed), and the translated parts' structure.
 */
async function translated (name: string, changed: string[], mime = DOCX): Promise<{ before: Record<string, Uint8Array>, after: Record<string, Uint8Array> }> {
  const value = file(name)
  const { status, body } = await post('/language/translate', { document: { value, mime_type: mime }, source: 'en', targets: ['es'] })
  expect(status, JSON.stringify(body)).toBe(200)
  const before = members(value)
  const after = members(body.results.es.value)
  expect(Object.keys(after)).toEqual(Object.keys(before))
  for (const member of Object.keys(before)) {
    const same = Buffer.from(after[member]!).equals(Buffer.from(before[member]!))
    if (!changed.includes(member)) expect(same, member).toBe(true)
    if (member === changed[0]) expect(same, member).toBe(false)
  }
  for (const part of changed) {
    const [b, a] = [text(before[part]!), text(after[part]!)]
    for (const tag of ['w:p', 'w:tbl', 'w:tc', 'w:hyperlink', 'w:footnote', 'w:endnote', 'w:comment', 'w:txbxContent', 'w:footnoteReference', 'w:commentReference', 'w:drawing', 'a:p', 'a:tc', 'p:sp', 'a:fld', 'a:br', 'a:endParaRPr', 'a:hlinkClick', 'si', 'x:si', 'c', 'is', 'f', 'v', 'text:p', 'text:h', 'text:span', 'text:a', 'table:table-cell', 'text:sequence', 'text:change-start', 'text:change-end', 'text:change', 'text:bookmark-ref', 'text:bookmark-start', 'text:bookmark-end', 'navPoint', 'text', 'dc:title', 'em', 'a']) {
      expect(count(a, tag), `${part} <${tag}>`).toBe(count(b, tag))
    }
  }
  return { before, after }
}

describe('real DOCX files through Apertium', () => {
  it('tables: each cell translated in its cell; the styles\' languages name the target', async () => {
    const { before, after } = await translated('mammoth-tables.docx', ['word/document.xml', 'word/styles.xml'])
    const cells = paragraphTexts(text(after['word/document.xml']!))
    expect(cells).toHaveLength(6)
    expect(cells.filter(c => ['Above', 'Top left', 'Top right', 'Bottom left', 'Bottom right', 'Below'].includes(c))).toEqual([])
    expect(cells[0]).toBe('Encima')
    const langs = (xml: string): string[] => [...xml.matchAll(/<w:lang [^>]*>/g)].map(m => m[0])
    const [was, now] = [langs(text(before['word/styles.xml']!)), langs(text(after['word/styles.xml']!))]
    expect(was.length).toBeGreaterThan(0)
    expect(now).toEqual(was.map(tag => tag.replace(/w:val="[^"]*"/, 'w:val="es"')))
  })

  it('comments, footnotes and endnotes: translated in their parts, references kept', async () => {
    const comments = await translated('mammoth-comments.docx', ['word/comments.xml', 'word/document.xml', 'word/styles.xml'])
    expect(paragraphTexts(text(comments.after['word/comments.xml']!)).join(' ')).toMatch(/taquión|barra|bar/)
    const footnotes = await translated('mammoth-footnotes.docx', ['word/footnotes.xml', 'word/document.xml', 'word/styles.xml'])
    expect(paragraphTexts(text(footnotes.after['word/footnotes.xml']!)).join(' ')).toMatch(/taquión|barra/)
    const endnotes = await translated('mammoth-endnotes.docx', ['word/endnotes.xml', 'word/document.xml', 'word/styles.xml'])
    expect(paragraphTexts(text(endnotes.after['word/endnotes.xml']!)).join(' ')).toMatch(/taquión|barra/)
  })

  it('a hyperlink in a footnote stays a hyperlink around its words', async () => {
    const { after } = await translated('mammoth-footnote-hyperlink.docx', ['word/footnotes.xml', 'word/styles.xml'])
    expect(text(after['word/footnotes.xml']!)).toMatch(/<w:hyperlink [^>]*r:id="rId1"[^>]*>(?:(?!<\/w:hyperlink>).)*<w:t[^>]*>Ejemplo<\/w:t>/s)
  })

  it('text boxes (a drawing and its VML fallback) are translated inside the drawing', async () => {
    const { after } = await translated('mammoth-text-box.docx', ['word/document.xml', 'word/styles.xml'])
    const body = text(after['word/document.xml']!)
    expect(body).not.toMatch(/Datum plane/)
    expect(count(body, 'w:txbxContent')).toBe(2)
  })

  it('a picture alone comes back as it was sent; a part with a byte order mark, a list and strict OOXML are read', async () => {
    const picture = file('mammoth-tiny-picture.docx')
    const { body } = await post('/language/translate', { document: { value: picture, mime_type: DOCX }, source: 'en', targets: ['es'] })
    expect(body.results.es.value).toBe(picture)
    const bom = await translated('mammoth-utf8-bom.docx', ['word/document.xml', 'word/styles.xml'])
    expect(paragraphTexts(text(bom.after['word/document.xml']!))[0]).toMatch(/XML/)
    expect(paragraphTexts(text(bom.after['word/document.xml']!))[0]).not.toMatch(/This XML has/)
    const list = await translated('mammoth-simple-list.docx', ['word/document.xml', 'word/styles.xml'])
    expect(paragraphTexts(text(list.after['word/document.xml']!))).toEqual(['Apple', 'Plátano'])
    await translated('mammoth-strict-format.docx', ['word/document.xml', 'word/styles.xml'])
  })
})

describe('real PPTX and XLSX files through Apertium', () => {
  it('python-pptx: a table\'s cells, text with fields, breaks and formatting, notes', async () => {
    const table = await translated('python-pptx-tbl-cell.pptx', ['ppt/slides/slide2.xml', 'ppt/slides/slide1.xml', 'ppt/slides/slide3.xml'], PPTX)
    expect(textsOf(text(table.after['ppt/slides/slide2.xml']!), 'a:p', 'a:t').filter(t => t !== '')).toEqual(['celda fusionada', 'celda fusionada'])
    expect(textsOf(text(table.after['ppt/slides/slide1.xml']!), 'a:p', 'a:t')).toContain('teniendo márgenes hechos de encargo')
    const runs = await translated('python-pptx-txt-text.pptx', ['ppt/slides/slide2.xml', 'ppt/slides/slide1.xml'], PPTX)
    expect(textsOf(text(runs.after['ppt/slides/slide2.xml']!), 'a:p', 'a:t')).toContain('El texto corrido en celda de mesa')
    await translated('python-pptx-test.pptx', ['ppt/slides/slide1.xml'], PPTX)
    const notes = await translated('python-pptx-sld-notes.pptx', ['ppt/notesSlides/notesSlide1.xml'], PPTX)
    expect(textsOf(text(notes.after['ppt/notesSlides/notesSlide1.xml']!), 'a:p', 'a:t')).toContain('Notas')
  })

  it('tealeg/xlsx: shared strings, merged cells, inline strings, and prefixed SpreadsheetML', async () => {
    const merged = await translated('tealeg-merged_cells.xlsx', ['xl/sharedStrings.xml'], XLSX)
    expect(textsOf(text(merged.after['xl/sharedStrings.xml']!), 'si')).toEqual(['Cita', 'Producto', 'Cantidad', '01.01.2016', 'Un', 'B', '02.01.2016', 'C', '03.01.2016', '31.12.2017', 'Año Nuevo feliz!'])
    const inline = await translated('tealeg-inlineStrings.xlsx', ['xl/worksheets/sheet1.xml'], XLSX)
    expect(textsOf(text(inline.after['xl/worksheets/sheet1.xml']!), 'is')).toContain('Campaña')
    // its strings ("w") are no words to Apertium: the LibreTranslate fake (upper case) writes them, with the file's own prefix, plain as they were
    const { status, body } = await post('/language/translate', { document: { value: file('tealeg-namespaced.xlsx'), mime_type: XLSX }, source: 'en', targets: ['fr'] }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    const prefixed = text(members(body.results.fr.value)['xl/sharedStrings.xml']!)
    expect(prefixed).toContain('<x:si><x:t/></x:si><x:si><x:t>W</x:t></x:si>')
    expect(prefixed).not.toContain('<x:r>')
    expect(textsOf(prefixed, 'x:si', 'x:t').filter(t => t !== 'W')).toEqual([''])
    await translated('tealeg-file_with_hyperlinks.xlsx', [], XLSX)
  })
})

describe('real ODT and EPUB files through Apertium', () => {
  it('LibreOffice\'s ODT: mixed styles keep their spans, a table and its caption, tracked changes with the deleted text kept, references', async () => {
    const mixed = await translated('pandoc-textMixedStyles.odt', ['content.xml', 'styles.xml'], ODT)
    expect(textsOf(text(mixed.after['content.xml']!), 'text:p', 'text:p')[0]).toBe('Esto es un texto sencillo')
    const table = await translated('pandoc-tableWithCaption.odt', ['content.xml', 'styles.xml'], ODT)
    expect(textsOf(text(table.after['content.xml']!), 'text:p', 'text:p')).toContain('Encabezamiento de mesa')
    const changes = await translated('pandoc-trackedChanges.odt', ['content.xml', 'styles.xml'], ODT)
    const content = text(changes.after['content.xml']!)
    expect(content).toMatch(/<text:deletion>.*<text:p[^>]*>deleted<\/text:p>/s)
    expect(textsOf(content, 'text:p', 'text:p')).toContain('Algún texto con e insertado texto.')
    await translated('pandoc-referenceToText.odt', ['content.xml', 'styles.xml'], ODT)
  })

  it('pandoc\'s EPUB 2 and 3: chapters, navigation, NCX and title translated, an obfuscated font\'s listing no obstacle', async () => {
    const two = await translated('pandoc-epub2_no_cover.epub', ['OEBPS/EPUB_Pandoc_Test.xhtml', 'OEBPS/content.opf', 'OEBPS/toc.ncx'], EPUB)
    expect(text(two.after['OEBPS/content.opf']!)).toMatch(/<dc:language>es<\/dc:language>/)
    const three = await translated('pandoc-tiny.epub', ['EPUB/content.opf', 'EPUB/text/a.xhtml', 'EPUB/nav.xhtml', 'EPUB/toc.ncx'], EPUB)
    expect(text(three.after['EPUB/content.opf']!)).toContain('<dc:title id="epub-title-1">Prueba</dc:title><dc:language>es</dc:language>')
    expect(text(three.after['EPUB/text/a.xhtml']!)).toContain('<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="es"><head><meta charset="utf-8"/><title>Prueba</title>')
  })
})

describe('a target the source already is', () => {
  it('gets every file back as it was sent, its language not renamed (an EPUB\'s dc:language was)', async () => {
    for (const [name, mime] of [['pandoc-tiny.epub', EPUB], ['pandoc-epub2_no_cover.epub', EPUB], ['mammoth-tables.docx', DOCX]] as const) {
      const value = file(name)
      const { status, body } = await post('/language/translate', { document: { value, mime_type: mime }, source: 'en', targets: ['en', 'en-GB'] })
      expect(status, JSON.stringify(body)).toBe(200)
      expect(body.extra.services).toEqual({ en: 'none', 'en-GB': 'none' })
      expect(body.results.en.value, name).toBe(value)
      expect(body.results['en-GB'].value, name).toBe(value)
    }
  })
})
