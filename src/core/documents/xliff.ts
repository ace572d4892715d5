/**
 * application/xliff+xml (XLIFF 1.2 and 2.0): each `<source>` of a unit (1.2: `<trans-unit>`;
 * 2.0: `<unit>`'s `<segment>`) is a run whose translation is written into its `<target>`, which
 * is created right after the source (on the source's own indentation) where it is missing.
 *
 * - Inline codes travel as tags do in HTML: elements with translatable content are `<g>` pairs
 *   (1.2: `<g>`, `<mrk>`; 2.0: `<pc>`, `<mrk>`), and the rest are `<x/>` tokens copied whole
 *   (1.2: `<x/>`, `<bx/>`, `<ex/>`, `<ph>`, `<bpt>`, `<ept>`, `<it>`; 2.0: `<ph/>`, `<sc/>`,
 *   `<ec/>`, `<sm/>`, `<em/>`, `<cp/>`), as are `<mrk mtype="protected">` (1.2) and
 *   `<mrk translate="no">` (2.0). ICU messages in a source (Angular's `{VAR_PLURAL, plural, …}`)
 *   have each sub-message translated and their syntax kept (core/documents/icu.ts). Comments and processing instructions inside a source are weak
 *   tokens; CDATA is text (written escaped, without the section). The target's codes are the source's, byte for byte.
 * - Which units: those not marked `translate="no"` (on the unit or inherited from its `<group>`
 *   or `<file>`), not already final, and whose source is not empty (an empty or blank source
 *   gets no target and no state). Final: 1.2 a `<target state="final">` or
 *   `state="signed-off"`, or `<trans-unit approved="yes">`; 2.0 a `<segment state="reviewed">`
 *   or `state="final"`. 2.0 `<ignorable>` is kept as it is. A final unit is read as `finished`
 *   says (segment.ts): kept out (translation) or by its source (detection, analysis). Edit and
 *   substitution (`translation`) read every unit holding a target, of any state, by that target,
 *   written back where it changed (a translator's text corrected in place, state kept); a unit
 *   without a target, or with an empty one, is neither read nor written.
 * - A 1.2 unit with a `<seg-source>` is translated from it, so the target keeps its
 *   `<mrk mtype="seg">` segmentation.
 * - With a target language: 1.2 every `<file>` gets `target-language`, 2.0 `<xliff>` gets
 *   `trgLang` (and a target's own `xml:lang`, where it has one, is set too); the state becomes translated (1.2 `state="translated"` on `<target>`, 2.0 on
 *   `<segment>`). Without one (substitute, edit: same-language work) the target is written only
 *   where the text changed, and states and languages stay.
 * - Everything else (declaration, comments, other namespaces, notes, alt-trans, matches,
 *   whitespace, attribute quoting) is copied byte for byte: the file is read by saxes, a strict
 *   XML parser that says where each tag ends, and targets are spliced into the original text
 *   rather than written anew from a parsed tree (the XLIFF libraries write the file anew and
 *   lose what lies outside units). What saxes refuses (not well-formed XML, an undefined entity)
 *   is a 400 naming the line, as is a root that is not `<xliff>` of version 1.x or 2.x.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes'
import { invalidField, type FieldPath } from '../../errors.js'
import { alignText } from './align.js'
import { RunBuilder, type TextFormat } from './run.js'
import { segmentMessageRun } from './icu.js'
import { stringDocument, type StringDocument } from './skeleton.js'
import { xmlErrorAt } from './xml-error.js'
import { decodeXml, escapeXml } from './office/xml.js'
import type { FinishedEntries } from './segment.js'

/** One element of the file: where its start tag, content and end tag lie. */
interface Element {
  /**
   * The qualified name as written (`xlf:source`), and its local part (`source`) when the element
   * is XLIFF's (its namespace or none: older tools declare none); '' for another namespace's
   * element (`<o:source xmlns:o="urn:other">`, which XLIFF lets a unit hold), so no XLIFF name matches it.
   */
  qname: string
  local: string
  attributes: Record<string, string>
  /** 1-based line of its start tag, for errors. */
  line: number
  start: number
  /** End of the start tag (start of the content). */
  openEnd: number
  /** Start of the end tag (end of the content); openEnd for an empty element. */
  closeStart: number
  end: number
  selfClosing: boolean
  parent: Element | undefined
  children: Element[]
}

type Version = 1 | 2

/** XLIFF's namespaces, 1.2's and 2.x's. */
const XLIFF_NAMESPACES = new Set(['urn:oasis:names:tc:xliff:document:1.2', 'urn:oasis:names:tc:xliff:document:2.0'])

/** The file as a tree of elements; a 400 naming the line where it is not well-formed XML. */
function parseXml (source: string, path: () => FieldPath): Element {
  const parser = new SaxesParser({ position: true, xmlns: true })
  const stack: Element[] = []
  let root: Element | undefined
  parser.on('opentag', (tag: SaxesTagNS) => {
    const openEnd = parser.position
    const start = source.lastIndexOf('<', openEnd - 1)
    const parent = stack.at(-1)
    const element: Element = {
      qname: tag.name,
      local: tag.uri === '' || XLIFF_NAMESPACES.has(tag.uri) ? tag.local : '',
      attributes: Object.fromEntries(Object.entries(tag.attributes).map(([name, attribute]) => [name, attribute.value])),
      line: parser.line,
      start,
      openEnd,
      closeStart: openEnd,
      end: openEnd,
      selfClosing: tag.isSelfClosing,
      parent,
      children: []
    }
    if (parent === undefined) root = element
    else parent.children.push(element)
    stack.push(element)
  })
  parser.on('closetag', (tag: SaxesTagNS) => {
    const element = stack.pop()!
    if (tag.isSelfClosing) return
    element.end = parser.position
    element.closeStart = source.lastIndexOf('<', element.end - 1)
  })
  try {
    parser.write(source).close()
  } catch (err) {
    const message = (err as Error).message
    const at = xmlErrorAt(message)
    throw invalidField(path(), at === undefined ? `not well-formed XML: ${message}` : `line ${at.line}, column ${at.column}: ${at.reason}`)
  }
  return root!
}

function versionOf (root: Element, path: () => FieldPath): Version {
  if (root.local !== 'xliff') throw invalidField(path(), `line ${root.line}: an XLIFF file's root element is <xliff>, not <${root.qname}>`)
  const version = root.attributes.version ?? ''
  if (/^1\.\d+$/.test(version)) return 1
  if (/^2\.\d+$/.test(version)) return 2
  throw invalidField(path(), `line ${root.line}: <xliff> needs version="1.2" or version="2.0" (or 2.1, 2.2), not ${JSON.stringify(version)}`)
}

function child (element: Element, local: string): Element | undefined {
  return element.children.find(c => c.local === local)
}

/** Whether `translate="no"` holds for the element, on it or on its nearest ancestor that says. */
function untranslatable (element: Element): boolean {
  for (let e: Element | undefined = element; e !== undefined; e = e.parent) {
    const value = e.attributes.translate
    if (value !== undefined) return value.trim().toLowerCase() === 'no'
  }
  return false
}

/** Inline elements whose content is text of the sentence, by version. */
const PAIRS: Record<Version, Set<string>> = { 1: new Set(['g', 'mrk']), 2: new Set(['pc', 'mrk']) }

function isPair (element: Element, version: Version): boolean {
  if (element.selfClosing || !PAIRS[version].has(element.local)) return false
  if (element.local !== 'mrk') return true
  return version === 1 ? element.attributes.mtype !== 'protected' : element.attributes.translate?.trim().toLowerCase() !== 'no'
}

const xmlText: TextFormat = { escape: escapeXml }

/** Markup that may lie between the elements of a source's content (XML text has no other `<`). */
const MARKUP = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>/y

/** The document of one source's content, its offsets from the content's start. */
function sourceDocument (source: string, element: Element, version: Version, locale: string): StringDocument {
  const base = element.openEnd
  const content = source.slice(base, element.closeStart)
  const run = new RunBuilder()
  // the text between two tags: a `<` there starts a comment, a processing instruction or CDATA
  // (a gap ends at the next tag's `<`, so no search runs past it)
  const text = (start: number, end: number): void => {
    for (let at = start; at < end;) {
      const lt = content.indexOf('<', at)
      const stop = lt === -1 || lt >= end ? end : lt
      if (stop > at) {
        const decoded = decodeXml(content.slice(at, stop))
        run.push({ kind: 'text', start: at, end: stop, text: decoded, offsets: alignText(decoded, content, at, stop, { escapes: false }) })
      }
      if (stop === end) break
      MARKUP.lastIndex = stop
      const markup = MARKUP.exec(content)
      if (markup === null) break
      const markupEnd = stop + markup[0].length
      if (markup[1] !== undefined && markup[1] !== '') {
        // CDATA is text; its translation is written escaped, without the section (offsets null: not split)
        run.push({ kind: 'text', start: stop, end: markupEnd, text: markup[1], offsets: null })
      } else {
        run.push({ kind: 'token', start: stop, end: markupEnd, weak: true, breaks: false })
      }
      at = markupEnd
    }
  }
  // a work stack rather than recursion: inline codes may nest deeply
  const work: Array<Element | { close: Element }> = [...element.children].reverse()
  let at = element.openEnd
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    if ('close' in next) {
      const e = next.close
      text(at - base, e.closeStart - base)
      run.push({ kind: 'close', start: e.closeStart - base, end: e.end - base })
      at = e.end
      continue
    }
    text(at - base, next.start - base)
    if (isPair(next, version)) {
      run.push({ kind: 'open', start: next.start - base, end: next.openEnd - base })
      work.push({ close: next }, ...[...next.children].reverse())
      at = next.openEnd
    } else {
      run.push({ kind: 'token', start: next.start - base, end: next.end - base, weak: false, breaks: false })
      at = next.end
    }
  }
  text(at - base, element.closeStart - base)
  return stringDocument(content, segmentMessageRun(run.take(), xmlText, locale))
}

/** `tag` (a start tag as written) with attribute `name` set to `value`, added before the tag's end where missing. */
function withAttribute (tag: string, name: string, value: string): string {
  const escaped = value.replace(/[&<"]/g, c => c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&quot;')
  const pattern = new RegExp(`(\\s${name.replace(/[.:-]/g, '\\$&')}\\s*=\\s*)(?:"[^"]*"|'[^']*')`)
  if (pattern.test(tag)) return tag.replace(pattern, (_, before: string) => `${before}"${escaped}"`)
  const end = /\s*\/?>$/.exec(tag)!
  return `${tag.slice(0, end.index)} ${name}="${escaped}"${tag.slice(end.index)}`
}

/** A source to translate, its target (if any) and the element that carries its state. */
interface Unit {
  source: Element
  target: Element | undefined
  /** 2.0: the segment, whose state is set. */
  segment: Element | undefined
  doc: StringDocument
  /** How a unit not translated is read: a final unit by its source (not written), or any unit holding a target by that target (`doc` is the target's). */
  finished?: 'source' | 'translation'
}

/** Whether a source holds nothing but white space: its unit is left as it is (no target, no state). */
function blank (source: string, element: Element): boolean {
  return source.slice(element.openEnd, element.closeStart).trim() === ''
}

/** The units to translate, in file order (not `translate="no"`, not blank; final ones as `finished` says; with `translation`, those holding a target). */
function unitsOf (root: Element, version: Version, source: string, locale: string, finished: FinishedEntries): Unit[] {
  const units: Unit[] = []
  const unit = (src: Element, target: Element | undefined, segment: Element | undefined, final: boolean): void => {
    // edit and substitution work on the translations held, whatever their state: a unit without a target, or with an empty one, is not theirs to fill
    if (finished === 'translation') {
      if (target !== undefined && !blank(source, target)) units.push({ source: src, target, segment, doc: sourceDocument(source, target, version, locale), finished })
      return
    }
    if (!final) units.push({ source: src, target, segment, doc: sourceDocument(source, src, version, locale) })
    else if (finished === 'source') units.push({ source: src, target, segment, doc: sourceDocument(source, src, version, locale), finished })
  }
  const work: Element[] = [root]
  for (let e = work.pop(); e !== undefined; e = work.pop()) {
    if (version === 1 && e.local === 'trans-unit') {
      // a segmented source (<seg-source>, its sentences in <mrk mtype="seg">) is translated as it is segmented
      const src = child(e, 'seg-source') ?? child(e, 'source')
      const target = child(e, 'target')
      const state = target?.attributes.state
      const final = e.attributes.approved === 'yes' || state === 'final' || state === 'signed-off'
      if (src !== undefined && !blank(source, src) && !untranslatable(e)) unit(src, target, undefined, final)
      continue
    }
    if (version === 2 && e.local === 'unit') {
      if (untranslatable(e)) continue
      for (const segment of e.children.filter(c => c.local === 'segment')) {
        const src = child(segment, 'source')
        const state = segment.attributes.state
        if (src === undefined || blank(source, src)) continue
        unit(src, child(segment, 'target'), segment, state === 'final' || state === 'reviewed')
      }
      continue
    }
    for (let i = e.children.length - 1; i >= 0; i--) work.push(e.children[i]!)
  }
  return units
}

/** The white space (a line break and indentation) before the element, when only white space lies there. */
function indentBefore (source: string, element: Element): string {
  const gt = source.lastIndexOf('>', element.start - 1)
  const gap = source.slice(gt + 1, element.start)
  return /^[ \t\r\n]*$/.test(gap) ? gap : ''
}

/** An XLIFF 1.2 or 2.0 file as a string document: its sources' sentences, written into targets. */
export function xliffDocument (source: string, locale: string, path: () => FieldPath, finished: FinishedEntries = 'kept'): StringDocument {
  const root = parseXml(source, path)
  const version = versionOf(root, path)
  const units = unitsOf(root, version, source, locale, finished)
  const segments = units.flatMap(u => u.doc.segments)
  const files = version === 1 ? root.children.filter(c => c.local === 'file') : [root]
  return {
    segments,
    rebuild: (translated, target) => {
      if (translated.length !== segments.length) throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
      const edits: Array<{ start: number, end: number, text: string }> = []
      const startTag = (e: Element, name: string, value: string): void => {
        edits.push({ start: e.start, end: e.openEnd, text: withAttribute(source.slice(e.start, e.openEnd), name, value) })
      }
      if (target !== undefined) for (const file of files) startTag(file, version === 1 ? 'target-language' : 'trgLang', target)
      let k = 0
      for (const unit of units) {
        const own = translated.slice(k, k + unit.doc.segments.length)
        k += own.length
        const content = unit.doc.rebuild(own)
        const { source: src, target: existing } = unit
        if (unit.finished !== undefined) {
          // a final target read by its source stays; a target read as itself is written back where it changed, state and all kept
          if (unit.finished === 'translation' && existing !== undefined && content !== source.slice(existing.openEnd, existing.closeStart)) {
            edits.push({ start: existing.openEnd, end: existing.closeStart, text: content })
          }
          continue
        }
        if (target === undefined && content === source.slice(src.openEnd, src.closeStart)) continue
        const prefix = src.qname.slice(0, src.qname.length - src.local.length)
        const state = target !== undefined && version === 1
        if (existing === undefined) {
          const open = `<${prefix}target${state ? ' state="translated"' : ''}>`
          edits.push({ start: src.end, end: src.end, text: `${indentBefore(source, src)}${open}${content}</${prefix}target>` })
        } else {
          let open = source.slice(existing.start, existing.openEnd)
          if (existing.selfClosing) open = open.replace(/\s*\/>$/, '>')
          if (state) open = withAttribute(open, 'state', 'translated')
          if (target !== undefined && existing.attributes['xml:lang'] !== undefined) open = withAttribute(open, 'xml:lang', target)
          edits.push({ start: existing.start, end: existing.end, text: `${open}${content}</${existing.qname}>` })
        }
        if (target !== undefined && unit.segment !== undefined) startTag(unit.segment, 'state', 'translated')
      }
      edits.sort((a, b) => a.start - b.start)
      let out = ''
      let at = 0
      for (const edit of edits) {
        out += source.slice(at, edit.start) + edit.text
        at = edit.end
      }
      return out + source.slice(at)
    }
  }
}
