/**
 * An XML part of an office package as a tree of elements located in its text, read by saxes
 * (strict, namespace-aware, no DTD: a DOCTYPE is refused, so no entity is ever declared or
 * expanded; an undefined entity is an error), so that translated paragraphs can be spliced into
 * the original text. Elements are known by namespace and local name, whatever their prefix.
 */
import { SaxesParser, type SaxesStartTagNS, type SaxesTagNS } from 'saxes'
import { xmlErrorAt } from '../xml-error.js'

/** Why a part was refused: the message names the part and the line. */
export class PartError extends Error {}

export interface XmlElement {
  /** The qualified name as written (`w:p`), its local part (`p`), prefix (`w`, or '') and namespace. */
  name: string
  local: string
  prefix: string
  uri: string
  /** Attribute values by qualified name. */
  attributes: Record<string, string>
  start: number
  /** End of the start tag (start of the content). */
  openEnd: number
  /** Start of the end tag (end of the content); openEnd for an empty element. */
  closeStart: number
  end: number
  selfClosing: boolean
  children: XmlElement[]
}

/** Elements one part may hold: past that it is refused rather than read (a huge part). */
export const MAX_ELEMENTS = 2_000_000

/** How deep one part's elements may nest: real parts nest tens deep (our fixtures 16 at most, a table in a text box in a table a few more). */
export const MAX_XML_DEPTH = 1_000

const PREDEFINED = new Map([['xml', 'http://www.w3.org/XML/1998/namespace'], ['xmlns', 'http://www.w3.org/2000/xmlns/']])

/**
 * saxes resolving namespace prefixes through a stack per prefix: its own lookup walks every open
 * element for each name (a 1.2 KB DOCX of 40,000 nested elements took 33 s, one 1,000 deep over
 * 200,000 elements 6 s). `enter` and `leave` follow the elements; `declared` is what the start
 * tag being read declares, which saxes resolves its names against before the tag is opened.
 */
class PartParser extends SaxesParser<{ position: true, xmlns: true }> {
  private readonly scopes = new Map<string, string[]>()
  declared: Record<string, string> = Object.create(null) as Record<string, string>

  constructor () {
    super({ position: true, xmlns: true })
  }

  override resolve (prefix: string): string | undefined {
    return this.declared[prefix] ?? this.scopes.get(prefix)?.at(-1) ?? PREDEFINED.get(prefix)
  }

  enter (tag: SaxesTagNS): void {
    for (const prefix in tag.ns) {
      const stack = this.scopes.get(prefix)
      if (stack === undefined) this.scopes.set(prefix, [tag.ns[prefix]!])
      else stack.push(tag.ns[prefix]!)
    }
  }

  leave (tag: SaxesTagNS): void {
    for (const prefix in tag.ns) this.scopes.get(prefix)!.pop()
  }
}

/** The part's root element; a PartError naming `part` and the line where it is not well-formed. */
export function parseXml (source: string, part: string, options: { externalDoctype?: boolean } = {}): XmlElement {
  const parser = new PartParser()
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  let count = 0
  // EPUB 2's NCX and XHTML name an external DTD (never read); an internal subset, where entities are declared, is refused
  parser.on('doctype', (doctype: string) => {
    if (options.externalDoctype !== true) throw new PartError(`part "${part}" has a DOCTYPE, which office parts never have (entity expansion?)`)
    if (doctype.includes('[')) throw new PartError(`part "${part}" declares entities in its DOCTYPE, which are not read (entity expansion?)`)
  })
  parser.on('opentagstart', (tag: SaxesStartTagNS) => {
    if (stack.length >= MAX_XML_DEPTH) throw new PartError(`part "${part}" nests elements more than ${MAX_XML_DEPTH} deep`)
    parser.declared = tag.ns
  })
  parser.on('opentag', (tag: SaxesTagNS) => {
    parser.enter(tag)
    if (++count > MAX_ELEMENTS) throw new PartError(`part "${part}" has more than ${MAX_ELEMENTS} elements`)
    const openEnd = parser.position
    const attributes: Record<string, string> = Object.create(null) as Record<string, string>
    for (const a of Object.values(tag.attributes)) attributes[a.name] = a.value
    const element: XmlElement = {
      name: tag.name,
      local: tag.local,
      prefix: tag.prefix,
      uri: tag.uri,
      attributes,
      start: source.lastIndexOf('<', openEnd - 1),
      openEnd,
      closeStart: openEnd,
      end: openEnd,
      selfClosing: tag.isSelfClosing,
      children: []
    }
    const parent = stack.at(-1)
    if (parent === undefined) root = element
    else parent.children.push(element)
    stack.push(element)
  })
  parser.on('closetag', (tag: SaxesTagNS) => {
    parser.leave(tag)
    const element = stack.pop()!
    if (tag.isSelfClosing) return
    element.end = parser.position
    element.closeStart = source.lastIndexOf('<', element.end - 1)
  })
  try {
    parser.write(source).close()
  } catch (err) {
    if (err instanceof PartError) throw err
    const message = (err as Error).message
    const at = xmlErrorAt(message)
    throw new PartError(at === undefined ? `part "${part}" is not well-formed XML: ${message}` : `part "${part}", line ${at.line}, column ${at.column}: ${at.reason}`)
  }
  if (root === undefined) throw new PartError(`part "${part}" has no root element`)
  return root
}

/** Every element that `wanted` takes, in document order, outer before inner, not under one `prune` takes (a work stack: parts nest deeply). */
export function elementsWhere (root: XmlElement, wanted: (e: XmlElement) => boolean, prune?: (e: XmlElement) => boolean): XmlElement[] {
  const out: XmlElement[] = []
  const work = [root]
  for (let e = work.pop(); e !== undefined; e = work.pop()) {
    if (prune?.(e) === true) continue
    if (wanted(e)) out.push(e)
    for (let i = e.children.length - 1; i >= 0; i--) work.push(e.children[i]!)
  }
  return out
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** XML text with its predefined entities and character references decoded. */
export function decodeXml (raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref]!
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

/**
 * The characters XML 1.0 allows no document to hold, not even as a reference: C0 controls but tab,
 * line feed and carriage return, U+FFFE, U+FFFF and lone surrogates. A substitution or an engine
 * may write them (a glossary pasted from Excel holds its in-cell line breaks, U+000B).
 */
// eslint-disable-next-line no-control-regex -- control characters are what XML refuses
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Text without the characters XML cannot hold (NOT_XML), which are dropped. */
export function xmlChars (text: string): string {
  return text.replace(NOT_XML, '')
}

/** Text escaped for XML content, without the characters XML cannot hold. */
export function escapeXml (text: string): string {
  return xmlChars(text).replace(/[&<>]/g, c => c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')
}

/** Applies non-overlapping edits (sorted by start) to `source`. */
export function splice (source: string, edits: ReadonlyArray<{ start: number, end: number, text: string }>): string {
  let out = ''
  let at = 0
  for (const edit of edits) {
    out += source.slice(at, edit.start) + edit.text
    at = edit.end
  }
  return out + source.slice(at)
}
