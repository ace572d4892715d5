/**
 * Elements kept whole through a text/html document (what DeepL's `tag_handling` and `ignore_tags`
 * ask, src/compat/deepl/): part of reading and rebuilding the document (./segment.ts), so it runs
 * where the rest of its work does (inline when cheap, else on the thread pool, within the request's
 * budget). Each element named in `ignore` (Weblate's placeholders `<x id="1"></x>`) and, with `xml`,
 * each self-closing element (`<ph/>`, which an HTML parser would read as an open element holding
 * the rest), each CDATA section (a bogus comment to HTML, ending at its first `>`) and each entity
 * reference HTML does not know (`&product;`, text to HTML) is swapped for an opaque inline stand-in
 * (`<img>` with the request's nonce), which the HTML reading keeps whole inside its sentence; the
 * rebuilt text gets the original bytes back in its place, in one pass. They are found by parse5,
 * the parser text/html is read with. With `xml`, every element but HTML's inline ones and those
 * HTML leaves untranslated is renamed for the reading and named back: HTML reads apart `<title>`'s
 * content (as text) and `<svg>` (kept whole), and drops a `<head>`, `<body>` or a `<td>` outside a
 * table, merging the texts either side of it. An `<a>` or `<nobr>`, and a void element a text
 * closes (`<br>x</br>`), are renamed too (HTML closes one `<a>` where another opens, and reads a
 * void one's content after it), but still read as inline elements of their sentence.
 */
import { randomBytes } from 'node:crypto'
import { decodeHTMLStrict } from 'entities'
import { parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5'
import { invalidField, type FieldPath } from '../../errors.js'
import { INLINE, OPAQUE } from './elements.js'
import type { SegmentDraft } from './segment-run.js'
import { xmlChars } from './office/xml.js'

/** A tag name as `ignore_tags` may give it. */
export const TAG_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,99}$/

/** Elements one document may keep whole: each is a token of its sentence, and more only make work (SECURITY.md). */
export const MAX_KEPT_ELEMENTS = 10_000

/** Which elements of a text/html document are kept whole, as plain data (it travels to the pool's threads). */
export interface KeptElements {
  /** Self-closing elements, CDATA sections and entity references HTML does not know are kept as written, and no HTML-only entity (`&nbsp;`) is written. */
  xml: boolean
  /** Lower-case names of elements kept with their content. */
  ignore: readonly string[]
  /** Marks the request's stand-ins: the same for its reading and its rebuilding, unknown to the client. */
  nonce: string
}

/** The kept elements of one request's documents. */
export function keptElements (xml: boolean, ignore: Iterable<string>): KeptElements {
  return { xml, ignore: [...new Set([...ignore].map(n => n.toLowerCase()))], nonce: randomBytes(6).toString('hex') }
}

interface Span { start: number, end: number }

/** The markup's nodes, each with its place in the text. */
const parse = (text: string): T.DocumentFragment => parseFragment(text, { sourceCodeLocationInfo: true, scriptingEnabled: false })

const NONE: readonly Span[] = []
const CDATA = '<![CDATA['
/** An XML entity reference by name (numeric ones are HTML's too). */
const ENTITY = /&[\p{L}_:][\p{L}\p{N}_.:\-\u00b7]*;/gu
/** Elements whose text HTML reads as text, markup included: a stand-in there would be text too. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext'])
/**
 * Elements XML keeps HTML's reading of: inline ones of their sentence, and those left untranslated
 * (script, style, pre, template). Every other element name HTML's tree builder may read apart from XML:
 * content as text (DocBook's and DITA's `<title>`), kept whole (`<svg>`, `<math>`, `<iframe>`), or
 * the tag dropped (`<head>`, `<body>`, `<frame>`, a `<td>` or `<caption>` outside a table).
 */
const HTML_READING = new Set([...INLINE, ...OPAQUE, 'script', 'style', 'pre', 'listing', 'template'].filter(name => !['svg', 'math', 'iframe'].includes(name)))
/**
 * Inline elements HTML's tree builder nests apart from XML: an `<a>` or `<nobr>` opening inside
 * another closes it, and a void element's content (`<input>big</input>`) is read after it, its end
 * tag as another (`</br>`) or none. Renamed for the reading like the rest, each is still read as
 * an inline element of its sentence: an `<a>` as an `<a>`, a void one holding content as a `<span>`.
 */
const NESTED_APART = new Map([['a', 'a'], ['nobr', 'nobr'], ...['br', 'embed', 'img', 'input', 'wbr'].map(name => [name, 'span'] as const)])
/** A void element's end tag: where a text closes one, its start tags are XML's (each holding content or self-closing), else HTML's (`<br>` alone). */
const VOID_END_TAG = /<\/(br|embed|img|input|wbr)[\t\n\f\r />]/gi
/** A start or end tag's name, as HTML's tokenizer reads it. */
const TAG = /<(\/?)([A-Za-z][^\t\n\f\r />]*)/g

/**
 * The spans `pick` selects among the nodes of `root`, in document order: outermost only, unless
 * `within` (a start tag's span holds no other element: the parser's children of a self-closing one
 * are the elements after it). More than `max` is a 400 at `path`.
 */
function spans (root: T.DocumentFragment, pick: (node: T.ChildNode) => readonly Span[], max: number, path: () => FieldPath, within = false): Span[] {
  const out: Span[] = []
  const work: T.ChildNode[] = [...root.childNodes].reverse()
  while (work.length > 0) {
    const node = work.pop()!
    const found = node.sourceCodeLocation == null ? NONE : pick(node)
    if (found.length > 0) {
      if (out.length + found.length > max) throw invalidField(path(), `holds more than ${MAX_KEPT_ELEMENTS.toLocaleString('en')} elements to keep whole (self-closing elements, CDATA sections and entity references of XML, ignored elements); split it`)
      out.push(...found)
      if (!within) continue
    }
    if (!('tagName' in node)) continue
    const children = node.tagName === 'template' ? (node as T.Template).content.childNodes : node.childNodes
    for (let i = children.length - 1; i >= 0; i--) work.push(children[i]!)
  }
  // a misnested element may be cloned by the parser with its original's location: keep each span once, none inside another
  out.sort((a, b) => a.start - b.start || b.end - a.end)
  const outermost: Span[] = []
  for (const s of out) if (outermost.length === 0 || s.start >= outermost[outermost.length - 1]!.end) outermost.push(s)
  return outermost
}

/** A text node's own text as written, unless HTML reads its element's content as text whatever it holds. */
function writtenText (node: T.ChildNode): Span | undefined {
  if (node.nodeName !== '#text') return undefined
  const parent = node.parentNode
  if (parent !== null && 'tagName' in parent && RAW_TEXT.has(parent.tagName)) return undefined
  return { start: node.sourceCodeLocation!.startOffset, end: node.sourceCodeLocation!.endOffset }
}

/**
 * A search for `needle` in `text` from places mostly in document order: an answer still ahead is
 * the next answer, so a document's searches are linear in its length, not in its length times theirs.
 */
function finder (text: string, needle: string): (from: number) => number {
  let searched = Number.POSITIVE_INFINITY
  let found = -1
  return from => {
    if (from < searched || (found !== -1 && found < from)) found = text.indexOf(needle, from)
    searched = from
    return found
  }
}

/**
 * The CDATA sections of XML `text`, each to its `]]>` (or the text's end): HTML reads one as a
 * bogus comment ending at its first `>` (its content's rest then text and elements), within svg
 * or math as text.
 */
function cdataSections (text: string, root: T.DocumentFragment, path: () => FieldPath): Span[] {
  const open = finder(text, CDATA)
  const close = finder(text, ']]>')
  const sections = (from: number, to: number): Span[] => {
    const out: Span[] = []
    for (let at = open(from); at !== -1 && at < to; at = open(at + CDATA.length)) {
      const end = close(at + CDATA.length)
      out.push({ start: at, end: end === -1 ? text.length : end + 3 })
    }
    return out
  }
  // a section's content may read as comments, text and elements holding `<![CDATA[` (inside the first section: dropped)
  return spans(root, node => {
    if (node.nodeName === '#comment') {
      const at = node.sourceCodeLocation!.startOffset
      return text.startsWith(CDATA, at) ? sections(at, at + 1) : NONE
    }
    const own = writtenText(node)
    return own === undefined ? NONE : sections(own.start, own.end)
  }, MAX_KEPT_ELEMENTS, path, true)
}

/** The entity references of a text node that HTML does not know (`&product;`), which XML keeps as written. */
function unknownEntities (text: string, node: T.ChildNode): readonly Span[] {
  const own = writtenText(node)
  const written = own === undefined ? '' : text.slice(own.start, own.end)
  if (own === undefined || !written.includes('&')) return NONE
  const out: Span[] = []
  for (const m of written.matchAll(ENTITY)) {
    if (decodeHTMLStrict(m[0]) === m[0]) out.push({ start: own.start + m.index, end: own.start + m.index + m[0].length })
  }
  return out
}

export interface Protected {
  /** The text read as text/html. */
  text: string
  /** The name whose HTML reading an element of `text` takes, by its parsed tag name (a renamed `<a>` is read as an `<a>`). */
  readAs?: (tagName: string) => string
  /** The rebuilt text with each stand-in replaced by what it stood for. */
  restore: (rebuilt: string) => string
  /** An element's name as written (with `xml`, elements HTML would read apart are renamed). */
  named: (tagName: string) => string
}

/** Swaps the spans for stand-ins, recording what each stood for. */
function swap (text: string, found: Span[], nonce: string, kept: string[]): string {
  const parts: string[] = []
  let at = 0
  for (const { start, end } of found) {
    parts.push(text.slice(at, start), `<img data-deepl-keep="${nonce}-${kept.length}">`)
    kept.push(text.slice(start, end))
    at = end
  }
  parts.push(text.slice(at))
  return parts.join('')
}

/**
 * A text/html document's text with its kept elements swapped for stand-ins, and the restore that
 * puts them back. More than MAX_KEPT_ELEMENTS in all is a 400 at `path`.
 */
export function protectMarkup (text: string, kept: KeptElements, path: () => FieldPath = () => ['document', 'value']): Protected {
  const originals: string[] = []
  let work = text
  let root: T.DocumentFragment | undefined
  const renamed = `x${kept.nonce}-`
  if (kept.xml) {
    const closedVoids = new Set([...work.matchAll(VOID_END_TAG)].map(m => m[1]!.toLowerCase()))
    const htmlReading = (name: string): boolean => HTML_READING.has(name) && NESTED_APART.get(name) !== name && !closedVoids.has(name)
    // an element no HTML parser gives a meaning, or one it nests apart from XML: named back by restore, after everything else
    work = work.replace(TAG, (tag, slash: string, name: string) => htmlReading(name.toLowerCase()) ? tag : `<${slash}${renamed}${name}`)
    // first the CDATA sections, whose content is no markup: read again without them
    if (work.includes(CDATA)) work = swap(work, cdataSections(work, parse(work), path), kept.nonce, originals)
    root = parse(work)
    const source = work
    const selfClosing = spans(root, node => {
      if (!('tagName' in node)) return unknownEntities(source, node)
      const tag = node.sourceCodeLocation!.startTag
      return tag !== undefined && source.startsWith('/>', tag.endOffset - 2) ? [{ start: tag.startOffset, end: tag.endOffset }] : NONE
    }, MAX_KEPT_ELEMENTS - originals.length, path, true)
    work = swap(source, selfClosing, kept.nonce, originals)
    // read again only when the stand-ins changed the markup
    if (selfClosing.length > 0) root = undefined
  }
  const named = (tag: string): string => tag.startsWith(renamed) ? tag.slice(renamed.length) : tag
  if (kept.ignore.length > 0) {
    const names = new Set(kept.ignore)
    const ignored = spans(root ?? parse(work), node => 'tagName' in node && names.has(named(node.tagName)) ? [{ start: node.sourceCodeLocation!.startOffset, end: node.sourceCodeLocation!.endOffset }] : NONE,
      MAX_KEPT_ELEMENTS - originals.length, path)
    work = swap(work, ignored, kept.nonce, originals)
  }
  if (originals.length === 0 && !kept.xml) return { text, restore: rebuilt => rebuilt, named }
  // the nonce is ours (hex), never the client's
  const standIn = new RegExp(`<img data-deepl-keep="${kept.nonce}-(\\d+)">`, 'g')
  const renamedTag = new RegExp(`<(/?)${renamed}`, 'g')
  // an ignored element's bytes may hold stand-ins of self-closing ones swapped before (lower numbers): each is expanded once
  const expanded: string[] = []
  for (const [i, original] of originals.entries()) expanded.push(original.replace(standIn, (m, n: string) => Number(n) < i ? expanded[Number(n)]! : m))
  const readAs = (tag: string): string => (tag.startsWith(renamed) ? NESTED_APART.get(tag.slice(renamed.length)) : undefined) ?? tag
  return {
    text: work,
    named,
    ...kept.xml ? { readAs } : {},
    restore (rebuilt) {
      const whole = originals.length === 0 ? rebuilt : rebuilt.replace(standIn, (m, n: string) => expanded[Number(n)] ?? m)
      return kept.xml ? whole.replace(renamedTag, '<$1') : whole
    }
  }
}

/**
 * XML's translated text: a no-break space is written `&#160;` (HTML's `&nbsp;` is no entity of
 * XML's without a DTD), and a character XML cannot hold is dropped; the markup, comments and
 * attributes around it are kept as written.
 */
export function xmlTextDrafts (drafts: SegmentDraft[]): SegmentDraft[] {
  return drafts.map(draft => ({ ...draft, format: { ...draft.format, escape: (text, atStart) => draft.format.escape(xmlChars(text), atStart).replaceAll('&nbsp;', '&#160;') } }))
}
