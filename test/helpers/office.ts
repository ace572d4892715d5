/**
 * Office files for tests, written and read back independently of the service's own code: built
 * with fflate's zipSync from XML written here, read back with fflate's unzipSync and saxes.
 */
import { crc32, deflateRawSync } from 'node:zlib'
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate'
import { SaxesParser } from 'saxes'

export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
const WML = 'application/vnd.openxmlformats-officedocument.wordprocessingml'

/** A DOCX whose body is `body` (w:p and w:tbl elements), with optional header, footnotes and comments parts, and a PNG. */
export function makeDocx (body: string, extra: { header?: string, footnotes?: string, comments?: string, contentTypes?: string, members?: Record<string, Uint8Array> } = {}): Uint8Array {
  const overrides = [
    `<Override PartName="/word/document.xml" ContentType="${WML}.document.main+xml"/>`,
    `<Override PartName="/word/styles.xml" ContentType="${WML}.styles+xml"/>`,
    extra.header === undefined ? '' : `<Override PartName="/word/header1.xml" ContentType="${WML}.header+xml"/>`,
    extra.footnotes === undefined ? '' : `<Override PartName="/word/footnotes.xml" ContentType="${WML}.footnotes+xml"/>`,
    extra.comments === undefined ? '' : `<Override PartName="/word/comments.xml" ContentType="${WML}.comments+xml"/>`,
    extra.contentTypes ?? ''
  ].join('')
  const files: Zippable = {
    '[Content_Types].xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>${overrides}</Types>`),
    '_rels/.rels': strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${W}><w:body>${body}<w:sectPr/></w:body></w:document>`),
    'word/styles.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles ${W}><w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="en-US"/></w:rPr></w:rPrDefault></w:docDefaults></w:styles>`),
    'word/media/image1.png': new Uint8Array(2000).map((_, i) => (i * 31 + 7) % 251)
  }
  if (extra.header !== undefined) files['word/header1.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:hdr ${W}>${extra.header}</w:hdr>`)
  if (extra.footnotes !== undefined) files['word/footnotes.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:footnotes ${W}>${extra.footnotes}</w:footnotes>`)
  if (extra.comments !== undefined) files['word/comments.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:comments ${W}>${extra.comments}</w:comments>`)
  for (const [name, data] of Object.entries(extra.members ?? {})) files[name] = data
  return zipSync(files)
}

export const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64')

/** The members of a ZIP file given in base64, by fflate. */
export function members (value: string): Record<string, Uint8Array> {
  return unzipSync(Buffer.from(value, 'base64'))
}

export interface ReadRun { text: string, bold: boolean, italic: boolean, link: boolean, lang?: string }

/**
 * The paragraphs of a WordprocessingML part (by `paragraph`, `run`, `text` element names), each
 * as its runs of text with their formatting, read by saxes. A paragraph in a text box is its own.
 */
export function readParagraphs (xml: string, names = { paragraph: 'w:p', run: 'w:r', text: 'w:t', bold: 'w:b', italic: 'w:i', link: 'w:hyperlink' }): ReadRun[][] {
  const parser = new SaxesParser()
  const out: ReadRun[][] = []
  const open: ReadRun[][] = []
  const runs: ReadRun[] = []
  const stack: string[] = []
  let inText = false
  parser.on('opentag', tag => {
    stack.push(tag.name)
    if (tag.name === names.paragraph) open.push([])
    else if (tag.name === names.run) runs.push({ text: '', bold: false, italic: false, link: stack.includes(names.link) })
    else if (tag.name === names.bold && runs.length > 0) runs.at(-1)!.bold = tag.attributes['w:val'] !== '0' && tag.attributes.b !== '0'
    else if (tag.name === names.italic && runs.length > 0) runs.at(-1)!.italic = true
    else if (tag.name === 'w:lang' && runs.length > 0) runs.at(-1)!.lang = tag.attributes['w:val'] as string
    else if (tag.name === names.text) inText = true
    if (tag.name === 'a:rPr' && runs.length > 0) {
      runs.at(-1)!.bold = tag.attributes.b === '1'
      if (tag.attributes.lang !== undefined) runs.at(-1)!.lang = tag.attributes.lang as string
    }
  })
  parser.on('text', t => { if (inText && runs.length > 0) runs.at(-1)!.text += t })
  parser.on('closetag', tag => {
    stack.pop()
    if (tag.name === names.text) inText = false
    else if (tag.name === names.run) {
      const run = runs.pop()!
      if (run.text !== '') open.at(-1)?.push(run)
    } else if (tag.name === names.paragraph) out.push(open.pop()!)
  })
  parser.write(xml).close()
  return out
}

/** The text of each paragraph that has some. */
export const paragraphTexts = (xml: string): string[] => readParagraphs(xml).map(runs => runs.map(r => r.text).join('')).filter(t => t !== '')

export const text = (bytes: Uint8Array): string => strFromU8(bytes)

/** A ZIP file written by hand, for what no well-behaved writer produces: each member's declared inflated size may lie. */
export function handZip (members: Array<{ name: string, data: Uint8Array, declared?: number, stored?: boolean }>): Uint8Array {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const m of members) {
    const name = Buffer.from(m.name)
    const body = m.stored === true ? Buffer.from(m.data) : deflateRawSync(m.data)
    const size = m.declared ?? m.data.length
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(m.stored === true ? 0 : 8, 8)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(m.stored === true ? 0 : 8, 10)
    central.writeUInt16LE(0x21, 14)
    central.writeUInt32LE(crc32(m.data), 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, body)
    centrals.push(central, name)
    offset += 30 + name.length + body.length
  }
  const cd = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(members.length, 8)
  end.writeUInt16LE(members.length, 10)
  end.writeUInt32LE(cd.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, cd, end])
}

export const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation'
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

const PML = 'application/vnd.openxmlformats-officedocument.presentationml'
const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'
const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

/** A PPTX of slides (each the content of a p:spTree), a notes slide and a layout with template text. */
export function makePptx (slides: string[], notes?: string): Uint8Array {
  const overrides = [
    `<Override PartName="/ppt/presentation.xml" ContentType="${PML}.presentation.main+xml"/>`,
    `<Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="${PML}.slideLayout+xml"/>`,
    ...slides.map((_, i) => `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="${PML}.slide+xml"/>`),
    notes === undefined ? '' : `<Override PartName="/ppt/notesSlides/notesSlide1.xml" ContentType="${PML}.notesSlide+xml"/>`
  ].join('')
  const files: Zippable = {
    '[Content_Types].xml': strToU8(`${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`),
    '_rels/.rels': strToU8(`${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>`),
    'ppt/presentation.xml': strToU8(`${XML_DECL}<p:presentation ${P}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 2}"/>`).join('')}</p:sldIdLst></p:presentation>`),
    'ppt/slideLayouts/slideLayout1.xml': strToU8(`${XML_DECL}<p:sldLayout ${P}><p:cSld><p:spTree><p:sp><p:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>Click to edit Master title style</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sldLayout>`)
  }
  slides.forEach((tree, i) => { files[`ppt/slides/slide${i + 1}.xml`] = strToU8(`${XML_DECL}<p:sld ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${tree}</p:spTree></p:cSld></p:sld>`) })
  if (notes !== undefined) files['ppt/notesSlides/notesSlide1.xml'] = strToU8(`${XML_DECL}<p:notes ${P}><p:cSld><p:spTree><p:sp><p:txBody><a:bodyPr/>${notes}</p:txBody></p:sp></p:spTree></p:cSld></p:notes>`)
  return zipSync(files)
}

const SML = 'application/vnd.openxmlformats-officedocument.spreadsheetml'
const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

/**
 * An XLSX of one sheet named `sheetName` whose sheetData is `cells`, with shared strings `strings`
 * (each an si's content); `extra`: tables of the sheet (each a table part's content, its
 * columns' names taken from `columns`), pivot cache definitions (each a cacheSource's content
 * and its fields' names) and defined names (a definedName's attributes and text).
 */
export function makeXlsx (sheetName: string, strings: string[], rows: string, extra: { tables?: Array<{ ref: string, columns: string[] }>, pivotSources?: Array<{ source: string, fields: string[] }>, definedNames?: string } = {}): Uint8Array {
  const tables = extra.tables ?? []
  const caches = extra.pivotSources ?? []
  const files: Zippable = {
    '[Content_Types].xml': strToU8(`${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${SML}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SML}.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="${SML}.sharedStrings+xml"/>${tables.map((_, i) => `<Override PartName="/xl/tables/table${i + 1}.xml" ContentType="${SML}.table+xml"/>`).join('')}${caches.map((_, i) => `<Override PartName="/xl/pivotCache/pivotCacheDefinition${i + 1}.xml" ContentType="${SML}.pivotCacheDefinition+xml"/>`).join('')}</Types>`),
    '_rels/.rels': strToU8(`${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    'xl/workbook.xml': strToU8(`${XML_DECL}<workbook ${S}><sheets><sheet name="${sheetName.replaceAll('&', '&amp;')}" sheetId="1" r:id="rId1"/></sheets>${extra.definedNames === undefined ? '' : `<definedNames>${extra.definedNames}</definedNames>`}${caches.length === 0 ? '' : `<pivotCaches>${caches.map((_, i) => `<pivotCache cacheId="${i + 1}" r:id="rId${i + 3}"/>`).join('')}</pivotCaches>`}</workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(`${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>${caches.map((_, i) => `<Relationship Id="rId${i + 3}" Type="${REL}/pivotCacheDefinition" Target="pivotCache/pivotCacheDefinition${i + 1}.xml"/>`).join('')}</Relationships>`),
    'xl/worksheets/sheet1.xml': strToU8(`${XML_DECL}<worksheet ${S}><sheetData>${rows}</sheetData>${tables.length === 0 ? '' : `<tableParts count="${tables.length}">${tables.map((_, i) => `<tablePart r:id="rId${i + 1}"/>`).join('')}</tableParts>`}</worksheet>`),
    'xl/sharedStrings.xml': strToU8(`${XML_DECL}<sst ${S} count="${strings.length}" uniqueCount="${strings.length}">${strings.map(s => `<si>${s}</si>`).join('')}</sst>`)
  }
  if (tables.length > 0) files['xl/worksheets/_rels/sheet1.xml.rels'] = strToU8(`${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${tables.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/table" Target="../tables/table${i + 1}.xml"/>`).join('')}</Relationships>`)
  tables.forEach((t, i) => { files[`xl/tables/table${i + 1}.xml`] = strToU8(`${XML_DECL}<table xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" id="${i + 1}" name="Table${i + 1}" displayName="Table${i + 1}" ref="${t.ref}"><autoFilter ref="${t.ref}"/><tableColumns count="${t.columns.length}">${t.columns.map((c, k) => `<tableColumn id="${k + 1}" name="${c}"/>`).join('')}</tableColumns></table>`) })
  caches.forEach((c, i) => { files[`xl/pivotCache/pivotCacheDefinition${i + 1}.xml`] = strToU8(`${XML_DECL}<pivotCacheDefinition ${S} refreshOnLoad="1"><cacheSource type="worksheet">${c.source}</cacheSource><cacheFields count="${c.fields.length}">${c.fields.map(f => `<cacheField name="${f}" numFmtId="0"><sharedItems/></cacheField>`).join('')}</cacheFields></pivotCacheDefinition>`) })
  return zipSync(files)
}

/**
 * A sheet's cells by reference (`A1`): the text of a shared string or inline string, the value
 * otherwise, and whether a string is rich text (runs) or plain (one `t`), read by saxes.
 */
export function readCells (sheet: string, sharedStrings: string): Map<string, { text: string, rich?: boolean }> {
  const strings: Array<{ text: string, rich: boolean }> = []
  const shared = new SaxesParser()
  let inText = false
  shared.on('opentag', tag => {
    if (tag.name === 'si') strings.push({ text: '', rich: false })
    if (tag.name === 'r') strings.at(-1)!.rich = true
    if (tag.name === 't') inText = true
  })
  shared.on('text', t => { if (inText) strings.at(-1)!.text += t })
  shared.on('closetag', tag => { if (tag.name === 't') inText = false })
  shared.write(sharedStrings).close()
  const cells = new Map<string, { text: string, rich?: boolean }>()
  const parser = new SaxesParser()
  let cell: { ref: string, type: string, text: string, rich: boolean } | undefined
  let reading = false
  parser.on('opentag', tag => {
    if (tag.name === 'c') cell = { ref: tag.attributes.r as string, type: (tag.attributes.t as string | undefined) ?? 'n', text: '', rich: false }
    if (cell === undefined) return
    if (tag.name === 'r') cell.rich = true
    if (tag.name === 'v' || tag.name === 't') reading = true
  })
  parser.on('text', t => { if (reading && cell !== undefined) cell.text += t })
  parser.on('closetag', tag => {
    if (tag.name === 'v' || tag.name === 't') reading = false
    if (tag.name !== 'c' || cell === undefined) return
    if (cell.type === 's') cells.set(cell.ref, strings[Number(cell.text)]!)
    else if (cell.type === 'inlineStr') cells.set(cell.ref, { text: cell.text, rich: cell.rich })
    else cells.set(cell.ref, { text: cell.text })
    cell = undefined
  })
  parser.write(sheet).close()
  return cells
}

/** The values of attribute `attribute` of the elements named `element` (a table's column names, a pivot cache's field names), by saxes. */
export function attributesOf (xml: string, element: string, attribute: string): string[] {
  const parser = new SaxesParser()
  const out: string[] = []
  parser.on('opentag', tag => { if (tag.name === element) out.push(tag.attributes[attribute] as string) })
  parser.write(xml).close()
  return out
}

/** The text of each element named `element` (shared strings' si, inline strings' is), its t elements joined, by saxes. */
export function textsOf (xml: string, element: string, textName = 't'): string[] {
  const parser = new SaxesParser()
  const out: string[] = []
  let depth = 0
  let inText = false
  parser.on('opentag', tag => {
    if (tag.name === element) { depth++; if (depth === 1) out.push('') }
    if (tag.name === textName) inText = true
  })
  parser.on('text', t => { if (inText && depth > 0) out[out.length - 1] += t })
  parser.on('closetag', tag => {
    if (tag.name === element) depth--
    if (tag.name === textName) inText = false
  })
  parser.write(xml).close()
  return out
}

export const ODT = 'application/vnd.oasis.opendocument.text'
export const ODS = 'application/vnd.oasis.opendocument.spreadsheet'
export const ODP = 'application/vnd.oasis.opendocument.presentation'
export const EPUB = 'application/epub+zip'

const ODF_NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"'

/** An OpenDocument file of `mime` whose office:body holds `body`, with styles.xml holding `styles` (master pages). */
export function makeOdf (mime: string, body: string, styles = ''): Uint8Array {
  return zipSync({
    mimetype: [strToU8(mime), { level: 0 }],
    'content.xml': strToU8(`${XML_DECL}<office:document-content ${ODF_NS} office:version="1.3"><office:automatic-styles/><office:body>${body}</office:body></office:document-content>`),
    'styles.xml': strToU8(`${XML_DECL}<office:document-styles ${ODF_NS} office:version="1.3"><office:master-styles>${styles}</office:master-styles></office:document-styles>`),
    'META-INF/manifest.xml': strToU8(`${XML_DECL}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/></manifest:manifest>`),
    'Pictures/a.png': new Uint8Array(500).map((_, i) => (i * 13) % 256)
  })
}

/** An EPUB 3 with a package document (title, description), a navigation document, an NCX and XHTML chapters. */
export function makeEpub (chapters: string[]): Uint8Array {
  const xhtml = (title: string, body: string): string => `${XML_DECL}<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en"><head><title>${title}</title></head><body>${body}</body></html>`
  const files: Zippable = {
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8(`${XML_DECL}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`),
    'OEBPS/content.opf': strToU8(`${XML_DECL}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:1</dc:identifier><dc:title>The red house</dc:title><dc:description>A book about a big house.</dc:description><dc:language>en</dc:language><dc:creator>Ann Smith</dc:creator></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>${chapters.map((_, i) => `<item id="c${i}" href="text/chapter%20${i + 1}.xhtml" media-type="application/xhtml+xml"/>`).join('')}<item id="css" href="style.css" media-type="text/css"/></manifest><spine toc="ncx">${chapters.map((_, i) => `<itemref idref="c${i}"/>`).join('')}</spine></package>`),
    'OEBPS/nav.xhtml': strToU8(xhtml('Contents', `<nav epub:type="toc"><ol>${chapters.map((_, i) => `<li><a href="text/chapter%20${i + 1}.xhtml">The chapter ${i + 1}</a></li>`).join('')}</ol></nav>`)),
    'OEBPS/toc.ncx': strToU8(`${XML_DECL}<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">\n<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><docTitle><text>The red house</text></docTitle><navMap>${chapters.map((_, i) => `<navPoint id="n${i}" playOrder="${i + 1}"><navLabel><text>The chapter ${i + 1}</text></navLabel><content src="text/chapter%20${i + 1}.xhtml"/></navPoint>`).join('')}</navMap></ncx>`),
    'OEBPS/style.css': strToU8('p { margin: 0 }')
  }
  chapters.forEach((body, i) => { files[`OEBPS/text/chapter ${i + 1}.xhtml`] = strToU8(xhtml(`The chapter ${i + 1}`, body)) })
  return zipSync(files)
}
