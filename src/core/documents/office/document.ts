/**
 * Office files and EPUB as documents: on the wire a binary format's value is the file in base64
 * (answers too). The ZIP package is read within bounds (zip.ts), its text parts are segmented
 * by format, and the file is rebuilt with only the parts whose text changed written anew (each
 * spliced into its original text); every other member comes back with the same bytes. A file
 * nothing changed in comes back as it was sent.
 */
import { invalidField, type FieldPath } from '../../../errors.js'
import type { StringDocument } from '../skeleton.js'
import { epubParts } from './epub.js'
import { DRAWING, OPENDOCUMENT, paragraphsDocument, spreadsheetText, THREADED_COMMENTS, WORDPROCESSING, type PartDocument, type Vocabulary } from './paragraphs.js'
import { odsHeaders, xlsxHeaders } from './spreadsheet.js'
import { parseXml, PartError, type XmlElement } from './xml.js'
import { readZip, writeZip, ZipError, type ZipEntry } from './zip.js'

export const OFFICE_TYPES = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PPTX',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'XLSX',
  'application/vnd.oasis.opendocument.text': 'ODT',
  'application/vnd.oasis.opendocument.spreadsheet': 'ODS',
  'application/vnd.oasis.opendocument.presentation': 'ODP',
  'application/epub+zip': 'EPUB'
} as const
export type OfficeType = keyof typeof OFFICE_TYPES

export function isOfficeType (mime: string): mime is OfficeType {
  return Object.hasOwn(OFFICE_TYPES, mime)
}

/** A package's members by name, with the text of its XML parts decoded on demand. */
class Package {
  readonly byName = new Map<string, ZipEntry>()
  constructor (readonly entries: ZipEntry[], private readonly fail: (message: string) => Error) {
    for (const e of entries) this.byName.set(e.name, e)
  }

  text (name: string): string {
    const entry = this.byName.get(name)
    if (entry === undefined) throw this.fail(`has no part "${name}"`)
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(entry.data)
    } catch {
      throw this.fail(`part "${name}" is not UTF-8 text`)
    }
  }

  private readonly parsed = new Map<string, { source: string, root: XmlElement }>()

  /** A part read once: what is kept is known by its elements. */
  xml (name: string): { source: string, root: XmlElement } {
    let part = this.parsed.get(name)
    if (part === undefined) {
      const source = this.text(name)
      part = { source, root: parseXml(source, name) }
      this.parsed.set(name, part)
    }
    return part
  }
}

/** A part to translate: its name and document. */
interface TextPart { name: string, doc: PartDocument }

const MACRO_TYPES = /macroEnabled|vbaProject|vbaData/i

/** The Open Packaging Conventions content types: part name (without its leading /) -> type. */
function contentTypes (pkg: Package): Map<string, string> {
  if (!pkg.byName.has('[Content_Types].xml')) throw new PartError('is not an Office Open XML package: [Content_Types].xml is missing')
  const { root } = pkg.xml('[Content_Types].xml')
  const types = new Map<string, string>()
  const defaults = new Map<string, string>()
  for (const c of root.children) {
    const type = c.attributes.ContentType ?? ''
    if (MACRO_TYPES.test(type)) throw new PartError(`holds macros (content type ${type}); macro-enabled files (.docm, .xlsm, .pptm) are not taken: save the file without macros (.docx, .xlsx, .pptx)`)
    if (c.local === 'Override' && c.attributes.PartName !== undefined) types.set(c.attributes.PartName.replace(/^\//, ''), type)
    if (c.local === 'Default' && c.attributes.Extension !== undefined) defaults.set(c.attributes.Extension.toLowerCase(), type)
  }
  for (const e of pkg.entries) {
    if (/(^|\/)vbaProject\.bin$/i.test(e.name)) throw new PartError(`holds macros (part "${e.name}"); macro-enabled files (.docm, .xlsm, .pptm) are not taken: save the file without macros`)
    if (!types.has(e.name)) {
      const ext = /\.([^./]+)$/.exec(e.name)?.[1]?.toLowerCase()
      const type = ext === undefined ? undefined : defaults.get(ext)
      if (type !== undefined) types.set(e.name, type)
    }
  }
  return types
}

const OOXML = 'application/vnd.openxmlformats-officedocument.'
const WML = `${OOXML}wordprocessingml.`
const PML = `${OOXML}presentationml.`
const SML = `${OOXML}spreadsheetml.`
const THREADED = 'application/vnd.ms-excel.threadedcomments+xml'

/**
 * Per format: the content type of its main part, and the parts whose text is translated, by
 * content type, with the vocabulary of their paragraphs. DOCX: body, headers, footers, notes,
 * comments. PPTX: slides and notes (layouts and masters hold the templates' prompts and are
 * kept). XLSX: shared strings, inline strings of the sheets, comments and threaded comments (formulas, numbers,
 * dates and sheet names are never text here; nor are the headers of tables and pivot sources,
 * spreadsheet.ts).
 */
type OoxmlType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' | 'application/vnd.openxmlformats-officedocument.presentationml.presentation' | 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const FORMATS: Record<OoxmlType, { main: string, parts: ReadonlyMap<string, Vocabulary> }> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    main: `${WML}document.main+xml`,
    parts: new Map(['document.main+xml', 'template.main+xml', 'header+xml', 'footer+xml', 'footnotes+xml', 'endnotes+xml', 'comments+xml'].map(t => [WML + t, WORDPROCESSING]))
  },
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': {
    main: `${PML}presentation.main+xml`,
    parts: new Map([[`${PML}slide+xml`, DRAWING], [`${PML}notesSlide+xml`, DRAWING]])
  },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
    main: `${SML}sheet.main+xml`,
    parts: new Map([[`${SML}sharedStrings+xml`, spreadsheetText('si')], [`${SML}worksheet+xml`, spreadsheetText('is')], [`${SML}comments+xml`, spreadsheetText('text')], [THREADED, THREADED_COMMENTS]])
  }
}

/**
 * OpenDocument (ODT, ODS, ODP): the `mimetype` member names the format; the paragraphs of
 * content.xml, and of styles.xml (headers and footers) but in presentations (whose masters hold
 * the templates' prompts); in spreadsheets, not the header row of a data pilot's source
 * (spreadsheet.ts). Basic or script macros and encrypted documents are refused.
 */
function odfParts (pkg: Package, mime: OfficeType, locale: string): TextPart[] {
  const label = OFFICE_TYPES[mime]
  const declared = pkg.byName.has('mimetype') ? pkg.text('mimetype').trim() : undefined
  if (declared !== mime) throw new PartError(`is not an ${label} file: its "mimetype" member ${declared === undefined ? 'is missing' : `says ${JSON.stringify(declared.slice(0, 100))}`}`)
  for (const e of pkg.entries) {
    if (/^(Basic|Scripts)\//.test(e.name)) throw new PartError(`holds macros (part "${e.name}"); documents with Basic or script macros are not taken: save the file without macros`)
  }
  if (pkg.byName.has('META-INF/manifest.xml') && pkg.text('META-INF/manifest.xml').includes('encryption-data')) throw new PartError('is encrypted (password-protected): save it without a password')
  if (!pkg.byName.has('content.xml')) throw new PartError(`is not an ${label} file: content.xml is missing`)
  const names = mime === 'application/vnd.oasis.opendocument.presentation' ? ['content.xml'] : ['content.xml', 'styles.xml']
  return pkg.entries.filter(e => names.includes(e.name)).map(e => {
    const { source, root } = pkg.xml(e.name)
    const kept = mime === 'application/vnd.oasis.opendocument.spreadsheet' && e.name === 'content.xml' ? odsHeaders(root) : undefined
    return { name: e.name, doc: paragraphsDocument(source, root, OPENDOCUMENT, locale, kept) }
  })
}

function textParts (pkg: Package, mime: OfficeType, locale: string, language?: string): TextPart[] {
  if (mime === 'application/epub+zip') return epubParts({ has: name => pkg.byName.has(name), text: name => pkg.text(name) }, locale, language)
  if (mime.startsWith('application/vnd.oasis.opendocument.')) return odfParts(pkg, mime, locale)
  const format = FORMATS[mime as OoxmlType]
  const types = contentTypes(pkg)
  // a part [Content_Types].xml names but the package lacks is no main part
  const main = [...types].find(([name, t]) => t === format.main && pkg.byName.has(name))?.[0]
  if (main === undefined) throw new PartError(`is not a ${OFFICE_TYPES[mime]} file: it has no main part of type ${format.main}`)
  const kept = mime === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' ? xlsxHeaders({ has: name => pkg.byName.has(name), xml: name => pkg.xml(name) }, types, main) : undefined
  const parts: TextPart[] = []
  for (const e of pkg.entries) {
    const vocabulary = format.parts.get(types.get(e.name) ?? '')
    if (vocabulary === undefined) continue
    const { source, root } = pkg.xml(e.name)
    parts.push({ name: e.name, doc: paragraphsDocument(source, root, vocabulary, locale, types.get(e.name) === THREADED ? mentioning(root) : kept) })
  }
  return parts
}

/** The threaded comments with @mentions: kept, as their mentions locate the names by character offsets into the text. */
function mentioning (root: XmlElement): Set<XmlElement> {
  return new Set(root.children.filter(c => c.local === 'threadedComment' && c.children.some(m => m.local === 'mentions' && m.children.length > 0)))
}

/**
 * A translated DOCX's styles part with the language of its document defaults and styles (each
 * w:lang's w:val, where set) named the target, so spelling and hyphenation follow the text;
 * undefined when it has none. Read as the part it is (saxes) before it is touched.
 */
function docxStyles (pkg: Package, target: string): { name: string, text: string } | undefined {
  const name = pkg.entries.map(e => e.name).find(n => n === 'word/styles.xml')
  if (name === undefined) return undefined
  const source = pkg.text(name)
  parseXml(source, name)
  const text = source.replace(/(<(?:[\w.-]+:)?lang\b[^>]*?\s(?:[\w.-]+:)?val=)("[^"]*"|'[^']*')/g, (_, before: string) => `${before}"${target.replace(/[&<"]/g, '')}"`)
  return text === source ? undefined : { name, text }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** An office file (base64) as a string document whose rebuild is the file (base64) with its text translated; `language`: the source, where known (EPUB). */
export function officeDocument (value: string, mime: OfficeType, locale: string, path: () => FieldPath, language?: string): StringDocument {
  const label = OFFICE_TYPES[mime]
  const fail = (message: string): Error => invalidField(path(), `the ${label} file ${message}`)
  const compact = value.replace(/[\r\n\t ]+/g, '')
  if (compact.length % 4 === 1 || !BASE64.test(compact)) throw invalidField(path(), `${label === 'ODT' || label === 'ODS' || label === 'ODP' || label === 'EPUB' ? 'an' : 'a'} ${label} file is sent in base64 (RFC 4648, standard alphabet); this value is not base64`)
  let pkg: Package
  let parts: TextPart[]
  try {
    pkg = new Package(readZip(Buffer.from(compact, 'base64')), fail)
    parts = textParts(pkg, mime, locale, language)
  } catch (err) {
    if (err instanceof ZipError || err instanceof PartError) throw fail(err.message)
    throw err
  }
  const segments = parts.flatMap(p => p.doc.segments)
  return {
    segments,
    rebuild: (translated, target) => {
      if (translated.length !== segments.length) throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
      const written = new Map<string, Uint8Array>()
      let k = 0
      for (const part of parts) {
        const own = translated.slice(k, k + part.doc.segments.length)
        k += own.length
        const text = part.doc.rebuild(own, target)
        if (text !== undefined) written.set(part.name, Buffer.from(text, 'utf8'))
      }
      if (written.size === 0) return value
      if (target !== undefined && mime === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document') {
        const styles = docxStyles(pkg, target)
        if (styles !== undefined) written.set(styles.name, Buffer.from(styles.text, 'utf8'))
      }
      const entries = pkg.entries.map(e => written.has(e.name) ? { ...e, data: written.get(e.name)! } : e)
      return Buffer.from(writeZip(entries)).toString('base64')
    }
  }
}
