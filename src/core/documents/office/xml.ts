/**
 * An XML part of an office package as a tree of elements located in its text, read by saxes
 * (strict, no DTD: a DOCTYPE is refused, so no entity is ever declared or expanded; an undefined
 * entity is an error), so that translated paragraphs can be spliced into the original text.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes'

/** Why a part was refused: the message names the part and the line. */
export class PartError extends Error {}

export interface XmlElement {
  /** The qualified name as written (`w:p`). */
  name: string
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

/** The part's root element; a PartError naming `part` and the line where it is not well-formed. */
export function parseXml (source: string, part: string): XmlElement {
  const parser = new SaxesParser({ position: true, xmlns: false })
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  let count = 0
  parser.on('doctype', () => { throw new PartError(`part "${part}" has a DOCTYPE, which office parts never have (entity expansion?)`) })
  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (++count > MAX_ELEMENTS) throw new PartError(`part "${part}" has more than ${MAX_ELEMENTS} elements`)
    const openEnd = parser.position
    const element: XmlElement = {
      name: tag.name,
      attributes: tag.attributes,
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
  parser.on('closetag', (tag: SaxesTagPlain) => {
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
    const m = /^(\d+):(\d+): (.*?)\.?$/s.exec(message)
    throw new PartError(m === null ? `part "${part}" is not well-formed XML: ${message}` : `part "${part}", line ${m[1]}, column ${m[2]}: ${m[3]}`)
  }
  if (root === undefined) throw new PartError(`part "${part}" has no root element`)
  return root
}

/** Every element named `name` in document order, outer before inner (a work stack: parts nest deeply). */
export function elementsNamed (root: XmlElement, names: ReadonlySet<string>): XmlElement[] {
  const out: XmlElement[] = []
  const work = [root]
  for (let e = work.pop(); e !== undefined; e = work.pop()) {
    if (names.has(e.name)) out.push(e)
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

/** Text escaped for XML content. */
export function escapeXml (text: string): string {
  return text.replace(/[&<>]/g, c => c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')
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
