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
