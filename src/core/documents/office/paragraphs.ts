/**
 * Paragraphs of Office Open XML parts (WordprocessingML `w:p`, DrawingML `a:p`) as segments, and
 * the part rebuilt with translated paragraphs spliced into its original text.
 *
 * A paragraph's runs travel as inline tags do in HTML: each run's text is a `<g>` pair whose
 * markup is the run's own start tag and properties, so formatting follows its words; hyperlinks,
 * tracked insertions, smart tags and content controls are pairs around their runs; everything
 * else (tabs, breaks, drawings, fields, bookmarks, deletions, comment marks) is a token copied
 * whole. A translated paragraph is written anew between its properties and its end: one run per
 * piece of text, text an engine moved outside every pair in a run of the paragraph's first
 * run's properties, so text always lies in a text element whatever the engine did with tags.
 * Tokens are written from the original text, with the paragraphs nested in them (text boxes)
 * rebuilt too. A paragraph whose segments come back unchanged is copied byte for byte.
 */
import { alignText } from '../align.js'
import type { Item, TextFormat } from '../run.js'
import { segmentRun } from '../segment-run.js'
import { stringDocument, type StringDocument } from '../skeleton.js'
import { decodeXml, elementsWhere, escapeXml, splice, type XmlElement } from './xml.js'

/** The elements of a paragraph, by local name in the vocabulary's namespaces (prefixes are the file's own). */
export interface Vocabulary {
  /** Namespace URIs (transitional and strict OOXML). */
  ns: ReadonlySet<string>
  paragraph: string
  /** Paragraph properties: kept first. */
  properties: string
  run: string
  runProperties: string
  text: string
  /** Whether a rebuilt text element says xml:space="preserve". */
  preserve: boolean
  /** Paragraph children kept last (DrawingML's end-of-paragraph properties). */
  tail: ReadonlySet<string>
  /** A text element may stand in the paragraph itself, outside a run (SpreadsheetML's `<si><t>`). */
  bareText?: boolean
  /** Elements whose content is more of the paragraph (pairs); 'content': the content lies in a child of this name. */
  containers: ReadonlyMap<string, string | undefined>
  /** Containers with an identity (an id, a data binding), never written twice: an engine's answer that would split one keeps the words it moved inside it. */
  whole?: ReadonlySet<string>
  /** Paragraph children that may move to the skeleton at a segment's edge. */
  weak: ReadonlySet<string>
  /** The run properties (as written) with its language set to `target`, where it has one. */
  withLanguage: (properties: string, target: string) => string
  /** A translated paragraph's start tag (as written) with its own language set to `target`, where it named the source (a package's `dc:title xml:lang`). */
  paragraphWithLanguage?: (tag: string, target: string) => string
  /** Mixed content (OpenDocument): text lies in the paragraph and its containers themselves, no runs. */
  mixed?: boolean
  /** Other names of paragraphs (OpenDocument's headings). */
  alsoParagraphs?: ReadonlySet<string>
  /** Elements whose paragraphs are left as they are (OpenDocument's record of tracked changes: deleted text). */
  kept?: ReadonlySet<string>
  /** Empty run elements that are a character of the text, not markup (WordprocessingML's optional hyphen inside a word). */
  characters?: ReadonlyMap<string, string>
}

const TRANSITIONAL = 'http://schemas.openxmlformats.org/'
const STRICT = 'http://purl.oclc.org/ooxml/'

export const WORDPROCESSING: Vocabulary = {
  ns: new Set([`${TRANSITIONAL}wordprocessingml/2006/main`, `${STRICT}wordprocessingml/main`]),
  paragraph: 'p',
  properties: 'pPr',
  run: 'r',
  runProperties: 'rPr',
  text: 't',
  preserve: true,
  tail: new Set(),
  containers: new Map([['hyperlink', undefined], ['ins', undefined], ['moveTo', undefined], ['smartTag', undefined], ['customXml', undefined], ['dir', undefined], ['bdo', undefined], ['sdt', 'sdtContent']]),
  // a link split in two is still the same link; two controls or insertions with one w:id are not
  whole: new Set(['ins', 'moveTo', 'customXml', 'sdt']),
  weak: new Set(['bookmarkStart', 'bookmarkEnd', 'proofErr', 'permStart', 'permEnd', 'commentRangeStart', 'commentRangeEnd']),
  // "infor<w:softHyphen/>mation" is one word to the engine (a token there cut it in two: "infor­mation" untranslated)
  characters: new Map([['softHyphen', '\u00ad'], ['noBreakHyphen', '\u2011']]),
  // only where the source set one: w:val, the language of Latin-script text
  withLanguage: (properties, target) => properties.replace(/(<(?:[\w.-]+:)?lang\b[^>]*?\s(?:[\w.-]+:)?val=)("[^"]*"|'[^']*')/, (_, before: string) => `${before}"${target}"`)
}

/** Elements of mixed content (text and inline markup, no runs) in namespace `ns`: EPUB's metadata and NCX labels, Excel's threaded comments, OpenDocument's text. */
export const mixedText = (ns: string, paragraph: string, also: string[] = []): Vocabulary => ({
  ns: new Set([ns]),
  paragraph,
  alsoParagraphs: new Set(also),
  properties: '',
  run: '',
  runProperties: '',
  text: '',
  preserve: false,
  tail: new Set(),
  containers: new Map(),
  weak: new Set(),
  withLanguage: properties => properties,
  mixed: true
})

/**
 * OpenDocument's text (ODT, ODS, ODP): `text:p` and `text:h` of mixed content, `text:span` and
 * `text:a` pairs around their words; notes, frames, fields, spaces, tabs and breaks are tokens
 * (a note's or a frame's paragraphs are paragraphs of their own). The text deleted under change
 * tracking (`text:tracked-changes`) is kept as it is.
 */
export const OPENDOCUMENT: Vocabulary = {
  ...mixedText('urn:oasis:names:tc:opendocument:xmlns:text:1.0', 'p', ['h']),
  containers: new Map([['span', undefined], ['a', undefined], ['ruby-base', undefined], ['meta', undefined]]),
  weak: new Set(['bookmark', 'bookmark-start', 'bookmark-end', 'soft-page-break', 'reference-mark', 'reference-mark-start', 'reference-mark-end', 'alphabetical-index-mark', 'toc-mark', 'change-start', 'change-end', 'change']),
  kept: new Set(['tracked-changes'])
}

/** SpreadsheetML's rich text: a shared string `si`, an inline string `is`, a comment's `text`; a plain one (a bare `t`) is written back plain, not as a run (readers would take it for rich text). */
export function spreadsheetText (paragraph: string): Vocabulary {
  return {
    ns: new Set([`${TRANSITIONAL}spreadsheetml/2006/main`, `${STRICT}spreadsheetml/main`]),
    paragraph,
    properties: '',
    run: 'r',
    runProperties: 'rPr',
    text: 't',
    preserve: true,
    tail: new Set(['rPh', 'phoneticPr']),
    bareText: true,
    containers: new Map(),
    weak: new Set(),
    withLanguage: properties => properties
  }
}

/** Excel's threaded comments: each `<text>` is plain text, no runs (its legacy copy in the comments part is translated too). */
export const THREADED_COMMENTS: Vocabulary = mixedText('http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments', 'text')

export const DRAWING: Vocabulary = {
  ns: new Set([`${TRANSITIONAL}drawingml/2006/main`, `${STRICT}drawingml/main`]),
  paragraph: 'p',
  properties: 'pPr',
  run: 'r',
  runProperties: 'rPr',
  text: 't',
  preserve: false,
  tail: new Set(['endParaRPr']),
  containers: new Map(),
  weak: new Set(),
  withLanguage: (properties, target) => properties.replace(/^(<(?:[\w.-]+:)?rPr\b[^>]*?\slang=)("[^"]*"|'[^']*')/, (_, before: string) => `${before}"${target}"`)
}

/** What a marker in a paragraph's skeleton stands for: a run's opening with its text element, or source copied (nested paragraphs rebuilt). */
type Marker =
  | { kind: 'open', runTag: string, properties: string, textOpen: string }
  | { kind: 'copy', before: string, start: number, end: number, after: string }

// NUL never occurs in XML text: a marker cannot be confused with the part's own text
// eslint-disable-next-line no-control-regex
const MARK = /\u0000(\d+)\u0000/g
const mark = (k: number): string => `\u0000${k}\u0000`

interface Paragraph {
  element: XmlElement
  /** Its text is one bare text element (SpreadsheetML's plain `<si><t>`): written back as one, not as a run. */
  bare?: boolean
  /** Its content rewritten: from after the properties to before the tail. */
  contentStart: number
  contentEnd: number
  skeleton: string
  markers: Marker[]
  doc: StringDocument
}

const xmlFormat: TextFormat = { escape: escapeXml }

/** A paragraph of mixed content: its text between tags is text, its containers pairs, other elements tokens. */
function buildMixedParagraph (source: string, p: XmlElement, v: Vocabulary, locale: string): Paragraph {
  const ours = (e: XmlElement): boolean => v.ns.has(e.uri)
  const markers: Marker[] = []
  const copy = (start: number, end: number): string => mark(markers.push({ kind: 'copy', before: '', start, end, after: '' }) - 1)
  let skeleton = ''
  const items: Item[] = []
  const push = (kind: 'open' | 'close' | 'token', text: string, weak = false): void => {
    const start = skeleton.length
    skeleton += text
    items.push(kind === 'token' ? { kind, start, end: skeleton.length, weak, breaks: false } : { kind, start, end: skeleton.length })
  }
  const gap = (start: number, end: number): void => {
    if (end <= start) return
    const raw = source.slice(start, end)
    // a comment, a processing instruction or CDATA between elements: kept whole
    if (raw.includes('<')) return push('token', copy(start, end), true)
    const text = decodeXml(raw)
    const at = skeleton.length
    skeleton += escapeXml(text)
    items.push({ kind: 'text', start: at, end: skeleton.length, text, offsets: alignText(text, skeleton, at, skeleton.length, { escapes: false }) })
  }
  // a work stack rather than recursion: spans may nest deeply
  const work: Array<XmlElement | { close: XmlElement }> = p.children.slice().reverse()
  let at = p.openEnd
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    if ('close' in next) {
      const e = next.close
      gap(at, e.closeStart)
      push('close', copy(e.closeStart, e.end))
      at = e.end
      continue
    }
    gap(at, next.start)
    if (ours(next) && v.containers.has(next.local) && !next.selfClosing) {
      push('open', copy(next.start, next.openEnd))
      work.push({ close: next }, ...next.children.slice().reverse())
      at = next.openEnd
    } else {
      push('token', copy(next.start, next.end), ours(next) && v.weak.has(next.local))
      at = next.end
    }
  }
  gap(at, p.closeStart)
  const doc = stringDocument(skeleton, segmentRun(items, xmlFormat, locale))
  return { element: p, contentStart: p.openEnd, contentEnd: p.closeStart, skeleton, markers, doc }
}

function buildParagraph (source: string, p: XmlElement, v: Vocabulary, locale: string): Paragraph {
  const is = (e: XmlElement | undefined, local: string): boolean => e !== undefined && e.local === local && v.ns.has(e.uri)
  const ours = (e: XmlElement): boolean => v.ns.has(e.uri)
  // new markup is written with the paragraph's own prefix
  const q = (local: string): string => p.prefix === '' ? local : `${p.prefix}:${local}`
  const textOpen = `<${q(v.text)}${v.preserve ? ' xml:space="preserve"' : ''}>`
  const children = p.children
  let first = 0
  if (is(children[0], v.properties)) first = 1
  let last = children.length
  while (last > first && ours(children[last - 1]!) && v.tail.has(children[last - 1]!.local)) last--
  const contentStart = first === 1 ? children[0]!.end : p.openEnd
  const contentEnd = last < children.length ? children[last]!.start : p.closeStart
  const markers: Marker[] = []
  const marker = (m: Marker): string => mark(markers.push(m) - 1)
  const closeText = `</${q(v.text)}></${q(v.run)}>`
  const runOf = (r: XmlElement): { tag: string, properties: string } => {
    const props = r.children.find(c => is(c, v.runProperties))
    return { tag: source.slice(r.start, r.openEnd), properties: props === undefined ? '' : source.slice(props.start, props.end) }
  }
  // the paragraph's most used run properties (by text) are its plain text: no tags for them
  const weight = new Map<string, number>()
  const scan: XmlElement[] = children.slice(first, last)
  for (let e = scan.pop(); e !== undefined; e = scan.pop()) {
    if (v.bareText === true && is(e, v.text)) {
      weight.set('', (weight.get('') ?? 0) + e.closeStart - e.openEnd)
    } else if (is(e, v.run)) {
      const length = e.children.reduce((n, c) => n + (is(c, v.text) ? c.closeStart - c.openEnd : 0), 0)
      if (length > 0) weight.set(runOf(e).properties, (weight.get(runOf(e).properties) ?? 0) + length)
    } else if (ours(e) && v.containers.has(e.local)) {
      const content = v.containers.get(e.local)
      const inner = content === undefined ? e : e.children.find(c => is(c, content))
      if (inner !== undefined) scan.push(...inner.children)
    }
  }
  let base = ''
  let most = -1
  for (const [properties, n] of weight) if (n > most) [base, most] = [properties, n]
  // the paragraph's own run: where its plain text and text outside every pair go
  const plain = marker({ kind: 'open', runTag: `<${q(v.run)}>`, properties: base, textOpen })
  let skeleton = plain
  const items: Item[] = []
  const push = (kind: 'open' | 'close', text: string, whole = false): void => {
    const start = skeleton.length
    skeleton += text
    items.push(whole ? { kind: 'open', start, end: skeleton.length, whole } : { kind, start, end: skeleton.length })
  }
  const token = (text: string, weak: boolean): void => {
    const start = skeleton.length
    skeleton += closeText + text + plain
    items.push({ kind: 'token', start, end: skeleton.length, weak, breaks: false })
  }
  const copy = (e: XmlElement, before = '', after = ''): string => marker({ kind: 'copy', before, start: e.start, end: e.end, after })
  // a work stack rather than recursion: containers may nest deeply
  const work: Array<XmlElement | string> = children.slice(first, last).reverse()
  for (let e = work.pop(); e !== undefined; e = work.pop()) {
    if (typeof e === 'string') {
      push('close', closeText + e + plain)
      continue
    }
    const bare = v.bareText === true && is(e, v.text)
    if ((is(e, v.run) || bare) && !e.selfClosing) {
      // a bare text element is a run of its own with no properties
      const run = bare ? { tag: `<${q(v.run)}>`, properties: '' } : runOf(e)
      for (const c of bare ? [e] : e.children) {
        if (is(c, v.runProperties)) continue
        const raw = source.slice(c.openEnd, c.closeStart)
        const character = c.selfClosing && ours(c) ? v.characters?.get(c.local) : undefined
        if ((is(c, v.text) && !raw.includes('<')) || character !== undefined) {
          if (raw === '' && character === undefined) continue
          const tagged = run.properties !== base
          if (tagged) push('open', closeText + marker({ kind: 'open', runTag: run.tag, properties: run.properties, textOpen }))
          const text = character ?? decodeXml(raw)
          const start = skeleton.length
          skeleton += escapeXml(text)
          items.push({ kind: 'text', start, end: skeleton.length, text, offsets: alignText(text, skeleton, start, skeleton.length, { escapes: false }) })
          if (tagged) push('close', closeText + plain)
        } else {
          token(copy(c, run.tag + run.properties, `</${q(v.run)}>`), false)
        }
      }
      continue
    }
    const container = ours(e) && v.containers.has(e.local)
    const content = container ? v.containers.get(e.local) : undefined
    const inner = content === undefined ? e : e.children.find(c => is(c, content))
    if (container && inner !== undefined && !inner.selfClosing && !e.selfClosing) {
      push('open', closeText + marker({ kind: 'copy', before: '', start: e.start, end: inner.openEnd, after: '' }) + plain, v.whole?.has(e.local) === true)
      work.push(source.slice(inner.closeStart, e.end), ...inner.children.slice().reverse())
      continue
    }
    token(copy(e), ours(e) && v.weak.has(e.local))
  }
  skeleton += closeText
  const doc = stringDocument(skeleton, segmentRun(items, xmlFormat, locale))
  const only = last - first === 1 ? children[first]! : undefined
  const bare = v.bareText === true && only !== undefined && is(only, v.text) && !only.selfClosing && !source.slice(only.openEnd, only.closeStart).includes('<')
  return { element: p, contentStart, contentEnd, skeleton, markers, doc, bare }
}

/** An XML part's paragraphs as one document; rebuild gives undefined when nothing changed. */
export interface PartDocument {
  segments: string[]
  rebuild: (translated: readonly string[], target?: string) => string | undefined
}

/** `kept`: elements whose paragraphs are left as they are, whatever the vocabulary (a spreadsheet's identifiers). */
export function paragraphsDocument (source: string, root: XmlElement, v: Vocabulary, locale: string, kept?: ReadonlySet<XmlElement>): PartDocument {
  const build = v.mixed === true ? buildMixedParagraph : buildParagraph
  const paragraphs = elementsWhere(root, e => (e.local === v.paragraph || v.alsoParagraphs?.has(e.local) === true) && v.ns.has(e.uri) && !e.selfClosing, e => kept?.has(e) === true || (v.kept?.has(e.local) === true && v.ns.has(e.uri))).map(p => build(source, p, v, locale)).filter(p => p.doc.segments.length > 0)
  // outer before inner, by start: a paragraph in a text box comes after the one holding it
  paragraphs.sort((a, b) => a.element.start - b.element.start)
  const segments = paragraphs.flatMap(p => p.doc.segments)
  return {
    segments,
    rebuild: (translated, target) => {
      const written = new Map<Paragraph, string>()
      let k = 0
      for (const p of paragraphs) {
        const own = translated.slice(k, k + p.doc.segments.length)
        k += own.length
        const rebuilt = p.doc.rebuild(own)
        if (rebuilt !== p.skeleton) written.set(p, rebuilt)
      }
      if (written.size === 0) return undefined
      // paragraphs directly inside [start, end), in order (those nested in them skipped)
      const render = (start: number, end: number): string => {
        const edits: Array<{ start: number, end: number, text: string }> = []
        let lo = 0
        let hi = paragraphs.length
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if (paragraphs[mid]!.element.start < start) lo = mid + 1
          else hi = mid
        }
        let after = start
        for (let i = lo; i < paragraphs.length && paragraphs[i]!.element.start < end; i++) {
          const p = paragraphs[i]!
          if (p.element.start < after || p.element.end > end) continue
          edits.push({ start: p.element.start - start, end: p.element.end - start, text: paragraph(p) })
          after = p.element.end
        }
        return splice(source.slice(start, end), edits)
      }
      const paragraph = (p: Paragraph): string => {
        const rebuilt = written.get(p)
        const e = p.element
        if (rebuilt === undefined) return source.slice(e.start, e.openEnd) + render(e.openEnd, e.end)
        const open = target === undefined || v.paragraphWithLanguage === undefined ? source.slice(e.start, e.openEnd) : v.paragraphWithLanguage(source.slice(e.start, e.openEnd), target)
        // runs left without text are dropped
        const prefix = p.element.prefix === '' ? '' : `${p.element.prefix.replaceAll('.', '\\.')}:`
        const content = rebuilt.replace(new RegExp(`\\u0000(\\d+)\\u0000</${prefix}${v.text}></${prefix}${v.run}>`, 'g'), (whole, n: string) => p.markers[Number(n)]!.kind === 'open' ? '' : whole)
        if (p.bare === true) {
          // its text alone: the only marker is the plain run's opening, written as a text element again
          const own = p.element.prefix === '' ? '' : `${p.element.prefix}:`
          const t = own + v.text
          const text = content.replace(MARK, '').replaceAll(`</${t}></${own}${v.run}>`, '')
          return open + source.slice(e.openEnd, p.contentStart) + `<${t}${/^[ \t\r\n]|[ \t\r\n]$/.test(text) ? ' xml:space="preserve"' : ''}>${text}</${t}>` + render(p.contentEnd, e.end)
        }
        const expanded = content.replace(MARK, (_, n: string) => {
          const m = p.markers[Number(n)]!
          if (m.kind === 'copy') return m.before + render(m.start, m.end) + m.after
          return m.runTag + (target === undefined ? m.properties : v.withLanguage(m.properties, target)) + m.textOpen
        })
        return open + source.slice(e.openEnd, p.contentStart) + expanded + render(p.contentEnd, e.end)
      }
      const changed = render(0, source.length)
      return changed === source ? undefined : changed
    }
  }
}
