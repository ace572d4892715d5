/**
 * EPUB 2 and 3: the package document named by META-INF/container.xml; each XHTML content
 * document of its manifest (the navigation document among them) through the HTML path, the NCX's
 * labels (`text`), and the package's `dc:title` and `dc:description`.
 */
import { randomBytes } from 'node:crypto'
import { posix } from 'node:path'
import { SaxesParser } from 'saxes'
import { baseLanguage, UNDETERMINED } from '../../languages.js'
import { htmlDrafts } from '../html.js'
import { stringDocument } from '../skeleton.js'
import { mixedText, paragraphsDocument, type PartDocument } from './paragraphs.js'
import { elementsWhere, parseXml, PartError, xmlChars, type XmlElement } from './xml.js'

export interface EpubPackage {
  has: (name: string) => boolean
  text: (name: string) => string
}

const DUBLIN_CORE = mixedText('http://purl.org/dc/elements/1.1/', 'title', ['description'])
const NCX = mixedText('http://www.daisy.org/z3986/2005/ncx/', 'text')

const XML_DECLARATION = /^\uFEFF?<\?xml[^>]*\?>\s*/
/** A DOCTYPE with an internal subset: `<!DOCTYPE html [ <!ENTITY ...> ]>`. */
const INTERNAL_SUBSET = /<!DOCTYPE[^>[]*\[/iy

/** Whether a prolog's (first) DOCTYPE has an internal subset: tried once, at it (tried at each of many `<!DOCTYPE`s, the pattern was quadratic). */
function declaresSubset (prolog: string): boolean {
  INTERNAL_SUBSET.lastIndex = prolog.search(/<!DOCTYPE/i)
  return INTERNAL_SUBSET.lastIndex >= 0 && INTERNAL_SUBSET.test(prolog)
}

/** HTML's void elements: their self-closing tags (`<br/>`) HTML reads as XML does. */
const VOID = new Set(['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr'])

/** A tag name as HTML's tokenizer reads the whole of it. */
const NAME = /^[A-Za-z][^\t\n\f\r />]*$/

/** saxes reading on past what is not well-formed (an entity XHTML 1.1's DTD declares, `&nbsp;`): only where tags end is wanted. */
class TagFinder extends SaxesParser {
  override fail (): this {
    return this
  }
}

/**
 * XHTML as the HTML parser reads it as XML does: each self-closing element but a void one is given
 * an end tag, marked (`<title x…-0></title x…-0>`), and the restore writes it back self-closed. HTML
 * reads `<title/>` as a title whose text runs to the end, `<script/>`, `<style/>` or `<textarea/>`
 * as raw text to the end, and `<a id="n"/>` or `<div/>` as holding what follows.
 */
function endTagsAdded (xhtml: string): { text: string, restore: (rebuilt: string) => string } {
  const ends: Array<{ name: string, at: number }> = []
  const parser = new TagFinder()
  parser.on('opentag', tag => {
    if (tag.isSelfClosing && !VOID.has(tag.name.toLowerCase()) && NAME.test(tag.name) && xhtml.startsWith('/>', parser.position - 2)) ends.push({ name: tag.name, at: parser.position - 2 })
  })
  parser.write(xhtml).close()
  if (ends.length === 0) return { text: xhtml, restore: rebuilt => rebuilt }
  const mark = ` x${randomBytes(6).toString('hex')}-`
  const parts: string[] = []
  let at = 0
  for (const [i, { name, at: end }] of ends.entries()) {
    parts.push(xhtml.slice(at, end), `${mark}${i}></${name}${mark}${i}>`)
    at = end + 2
  }
  parts.push(xhtml.slice(at))
  const pair = new RegExp(`${mark}(\\d+)></[^\\s>]+${mark}\\1>`, 'g')
  const single = new RegExp(`${mark}\\d+>`, 'g')
  // an element the translation put text in keeps its end tag, unmarked
  return { text: parts.join(''), restore: rebuilt => rebuilt.replace(pair, '/>').replace(single, '>') }
}

/** `tag` (a start tag as written) with the values of the attributes `names` that it has set to `value`. */
function withLanguage (tag: string, names: RegExp, value: string): string {
  return tag.replace(new RegExp(`(\\s(?:${names.source})\\s*=\\s*)(?:"[^"]*"|'[^']*')`, 'g'), (_, before: string) => `${before}"${value.replace(/[&<"]/g, '')}"`)
}

/** The base language an `xml:lang` value names; undefined where empty or undetermined. */
function namedBase (value: string | undefined): string | undefined {
  const tag = value?.trim().replace(/_/g, '-')
  const base = tag === undefined || tag === '' ? undefined : baseLanguage(tag)
  return base === UNDETERMINED ? undefined : base
}

/** `tag` (a start tag as written) with its own `xml:lang` set to `target` where it names `source` (a base language; any, where the source is unknown). */
function sourceLanguageTo (tag: string, source: string | undefined, target: string): string {
  return tag.replace(/(\sxml:lang\s*=\s*)(?:"([^"]*)"|'([^']*)')/, (whole, before: string, double?: string, single?: string) => {
    const named = namedBase(double ?? single)
    return named !== undefined && source !== undefined && named !== source ? whole : `${before}"${target.replace(/[&<"]/g, '')}"`
  })
}

/**
 * The package's Dublin Core paragraphs marked (`xml:lang`, their own or their metadata's) as
 * another language than `source`: left as written, as HTML's are. The package's own
 * `xml:lang`, like `<html lang>`, is its default, no guide.
 */
function otherLanguageMetadata (opf: XmlElement, source: string | undefined): Set<XmlElement> {
  const kept = new Set<XmlElement>()
  if (source === undefined) return kept
  const work: Array<{ e: XmlElement, marked: string | undefined }> = opf.children.map(e => ({ e, marked: undefined }))
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    const marked = namedBase(next.e.attributes['xml:lang']) ?? next.marked
    if (marked !== undefined && marked !== source && DUBLIN_CORE.ns.has(next.e.uri)) kept.add(next.e)
    else work.push(...next.e.children.map(e => ({ e, marked })))
  }
  return kept
}

/** An XHTML document through the HTML path (its XML declaration aside, its self-closing elements read as XML reads them); what we escape is written as XML allows; translated, its root's lang and xml:lang (where set) name the target. */
function xhtmlDocument (source: string, name: string, locale: string, language?: string): PartDocument {
  // as the package document and the NCX: an internal DTD subset (entities declared) is refused, not read as text
  if (declaresSubset(source.slice(0, source.search(/<(?![?!])/) >>> 0))) throw new PartError(`part "${name}" declares entities in its DOCTYPE, which are not read (entity expansion?)`)
  const declaration = XML_DECLARATION.exec(source)?.[0] ?? ''
  const body = source.slice(declaration.length)
  const read = endTagsAdded(body)
  // read as HTML, written as XML: a character XML cannot hold (a substitution's) is dropped
  const drafts = htmlDrafts(read.text, locale, true, language).map(d => ({ ...d, format: { ...d.format, escape: (text: string, atStart: boolean) => d.format.escape(xmlChars(text), atStart) } }))
  const doc = stringDocument(read.text, drafts)
  const nbsp = body.includes('&nbsp;')
  return {
    segments: doc.segments,
    rebuild: (translated, target) => {
      let out = read.restore(doc.rebuild(translated))
      if (out === body) return undefined
      // the HTML path writes a no-break space as &nbsp;, which XML does not know without a DTD
      if (!nbsp) out = out.replaceAll('&nbsp;', '&#160;')
      if (target !== undefined) out = out.replace(/<html\b[^>]*>/, tag => withLanguage(tag, /lang|xml:lang/, target))
      return declaration + out
    }
  }
}

/** The parts of an EPUB with text, by member name; a PartError naming what is missing. `language`: the source, where known (text marked as another is left as written). */
export function epubParts (pkg: EpubPackage, locale: string, language?: string): Array<{ name: string, doc: PartDocument }> {
  // (where the member stands is not checked: books zipped with it elsewhere are read, and written back in their order)
  if (!pkg.has('mimetype') || pkg.text('mimetype').trim() !== 'application/epub+zip') throw new PartError('is not an EPUB: it has no "mimetype" member saying application/epub+zip')
  if (!pkg.has('META-INF/container.xml')) throw new PartError('is not an EPUB: META-INF/container.xml is missing')
  const container = parseXml(pkg.text('META-INF/container.xml'), 'META-INF/container.xml')
  const rootfile = elementsWhere(container, e => e.local === 'rootfile').map(e => e.attributes['full-path']).find(p => p !== undefined)
  if (rootfile === undefined || !pkg.has(rootfile)) throw new PartError(`is not an EPUB: its package document ${rootfile === undefined ? 'is not named in META-INF/container.xml' : `"${rootfile}" is missing`}`)
  const opfSource = pkg.text(rootfile)
  const opf = parseXml(opfSource, rootfile, { externalDoctype: true })
  const base = posix.dirname(rootfile)
  // the container's files and the package document are no content documents (a probe's item `../mimetype` came back "aplicación/epub+cremallera")
  const notContent = (path: string): boolean => path === 'mimetype' || path.startsWith('META-INF/') || path === rootfile
  const resolve = (href: string): string | undefined => {
    let path: string
    try {
      path = posix.normalize(posix.join(base === '.' ? '' : base, decodeURIComponent(href.split('#')[0]!)))
    } catch {
      return undefined
    }
    return path.startsWith('../') || !pkg.has(path) || notContent(path) ? undefined : path
  }
  const parts: Array<{ name: string, doc: PartDocument }> = []
  const items = elementsWhere(opf, (e: XmlElement) => e.local === 'item')
  const done = new Set<string>()
  for (const item of items) {
    const type = item.attributes['media-type'] ?? ''
    const name = resolve(item.attributes.href ?? '')
    if (name === undefined || done.has(name)) continue
    if (type === 'application/xhtml+xml') parts.push({ name, doc: xhtmlDocument(pkg.text(name), name, locale, language) })
    else if (type === 'application/x-dtbncx+xml') {
      const source = pkg.text(name)
      parts.push({ name, doc: paragraphsDocument(source, parseXml(source, name, { externalDoctype: true }), NCX, locale) })
    } else continue
    done.add(name)
  }
  // encrypted members (DRM) cannot be read; obfuscated fonts are members we copy anyway
  if (pkg.has('META-INF/encryption.xml')) {
    const encrypted = new Set(elementsWhere(parseXml(pkg.text('META-INF/encryption.xml'), 'META-INF/encryption.xml'), e => e.local === 'CipherReference')
      .map(e => { try { return posix.normalize(decodeURIComponent(e.attributes.URI ?? '')) } catch { return e.attributes.URI ?? '' } }))
    const locked = [rootfile, ...parts.map(p => p.name)].find(name => encrypted.has(name))
    if (locked !== undefined) throw new PartError(`is encrypted: its part "${locked}" is listed in META-INF/encryption.xml (DRM), and cannot be read`)
  }
  // translated, the book's (first) dc:language names the target, and so does the xml:lang of the package and of each translated element where it named the source
  const source = language === undefined || language === UNDETERMINED ? undefined : baseLanguage(language)
  const metadata = paragraphsDocument(opfSource, opf, { ...DUBLIN_CORE, paragraphWithLanguage: (tag, target) => sourceLanguageTo(tag, source, target) }, locale, otherLanguageMetadata(opf, source))
  parts.unshift({
    name: rootfile,
    doc: {
      segments: metadata.segments,
      rebuild: (translated, target) => {
        const out = metadata.rebuild(translated, target)
        if (target === undefined) return out
        // the package's start tag stands where it did: only paragraphs inside it were rewritten
        const written = out ?? opfSource
        const set = (written.slice(0, opf.start) + sourceLanguageTo(written.slice(opf.start, opf.openEnd), source, target) + written.slice(opf.openEnd)).replace(/(<([\w.-]+:)?language\b[^>]*>)[^<]*(<\/\2language>)/, (_, open: string, _prefix: string, close: string) => open + target.replace(/[&<]/g, '') + close)
        return set === opfSource ? undefined : set
      }
    }
  })
  return parts
}
