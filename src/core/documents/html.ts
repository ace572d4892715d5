/**
 * text/html: text nodes and the attributes alt, title, placeholder and aria-label are text (and
 * a button's label, the value of an `<input type="submit|button|reset">`);
 * everything else is copied from the source byte for byte. Inline elements stay inside their
 * sentence as `<g>` pairs, opaque inline things (`<img>`, `<br>`, `<code>`, inline
 * `translate="no"`) become `<x/>` tokens, and every other element ends a run (as does an inline
 * element holding one). Given the source language, an element marked (`lang`, `xml:lang`) as
 * another is kept as `translate="no"` is.
 */
import { parse, parseFragment, type DefaultTreeAdapterTypes as T, type ParserOptions } from 'parse5'
import { baseLanguage, UNDETERMINED } from '../languages.js'
import { alignText } from './align.js'
import { INLINE, OPAQUE, SKIP, untranslatable } from './elements.js'
import { referenceSpellings, textRanges } from './references.js'
import { RunBuilder, sliceText, type TextFormat, type TextItem } from './run.js'
import { segmentRun, type SegmentDraft } from './segment-run.js'
import type { Retargeted } from './skeleton.js'

/** Opaque elements whose own attributes (alt, title, placeholder...) are still text. */
const OWN_TEXT_ATTRIBUTES = new Set(['audio', 'br', 'embed', 'iframe', 'img', 'input', 'object', 'video', 'wbr'])
/** Skipped elements whose text attributes are still text: a textarea's placeholder and title (its content is the user's). */
const SKIP_KEEPS_ATTRIBUTES = new Set(['textarea'])
const TEXT_ATTRIBUTES = ['alt', 'title', 'placeholder', 'aria-label']
/** A button's `value` is its label: `<input type="submit" value="Send message">`. */
const BUTTON_ATTRIBUTES = [...TEXT_ATTRIBUTES, 'value']
const BUTTON_TYPES = new Set(['submit', 'button', 'reset'])

/**
 * A comment, read one way only: its content never holds `-->`. (`<!--[\s\S]*?-->` repeated could
 * split n comments 2^n ways: 25 empty comments before a `<p>` held a thread for seconds.)
 */
const COMMENT = '<!--(?:[^-]|-(?!->))*-->'
/** A page, not a fragment: its DOCTYPE or first tag after what may come before (an XML declaration, comments), each part read one way only. */
const DOCUMENT = new RegExp(`^\\uFEFF?\\s*(?:<\\?xml[^>]*>\\s*)?(?:${COMMENT}\\s*)*<(?:!doctype|html|head|body)[\\s>]`, 'i')
const OPTIONS: ParserOptions<T.DefaultTreeAdapterMap> = { sourceCodeLocationInfo: true, scriptingEnabled: false }

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\u00a0': '&nbsp;' }
const COLLAPSE = /[ \t\n\r\f]+/g
const TEXT_SPECIAL = /[&<>\u00a0]/gu

/**
 * How translated text is written where `special` characters must be escaped: white space runs
 * are one space there anyway, and a character the source spelled as a reference (`spelled`) is
 * written with that reference.
 */
function htmlFormat (special: RegExp, spelled?: ReadonlyMap<string, string>): TextFormat {
  const pattern = spelled === undefined || spelled.size === 0
    ? special
    : new RegExp(`${[...spelled.keys()].map(c => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('|')}|${special.source}`, 'gu')
  const escape = (c: string): string => spelled?.get(c) ?? ESCAPES[c] ?? `&#${c.codePointAt(0)};`
  return { escape: text => text.replace(COLLAPSE, ' ').replace(pattern, escape), collapse: COLLAPSE }
}

const htmlText = htmlFormat(TEXT_SPECIAL)

/** The characters escaped in an attribute value quoted with `quote` (or unquoted). */
function attributeSpecial (quote: string): RegExp {
  return quote === '"' ? /[&"\u00a0]/gu : quote === "'" ? /[&'\u00a0]/gu : /[&"'=<>`\s]/gu
}

/** The drafts with each one's text written back in the references its source used (byte for byte where the engine kept them). */
function withSpellings (drafts: SegmentDraft[], source: string, special: RegExp): SegmentDraft[] {
  return drafts.map(draft => {
    const spelled = referenceSpellings(source, textRanges(draft))
    return spelled.size === 0 ? draft : { ...draft, format: htmlFormat(special, spelled) }
  })
}

function isElement (node: T.Node): node is T.Element {
  return 'tagName' in node
}

function attribute (el: T.Element, name: string): string | undefined {
  return el.attrs.find(a => a.name === name)?.value
}

/** Whether the walker reads the element's content inline, as part of the sentence around it. */
function walkedInline (el: T.Element): boolean {
  return INLINE.has(el.tagName) && !untranslatable(name => attribute(el, name))
}

/**
 * The inline elements holding a block (`<a href><h2>Title</h2>Read more</a>`, a link wrapping
 * a card): the block ends the run, so such an element cannot be a pair inside one sentence and
 * is walked as a block itself. Each block marks its inline ancestors up to the first marked one,
 * so every element is looked at once.
 */
function inlinesHoldingBlocks (root: T.Node): Set<T.Element> {
  const holding = new Set<T.Element>()
  const work: T.Node[] = [root]
  for (let node = work.pop(); node !== undefined; node = work.pop()) {
    if (!('childNodes' in node)) continue
    for (const child of node.childNodes) work.push(child)
    if (!isElement(node) || INLINE.has(node.tagName) || OPAQUE.has(node.tagName)) continue
    for (let up = node.parentNode; up !== null && isElement(up) && walkedInline(up) && !holding.has(up); up = up.parentNode) holding.add(up)
  }
  return holding
}

/** The base language an element is marked as (`xml:lang`, else `lang`); undefined where unmarked or unknown (`lang=""`). */
function markedLanguage (el: T.Element): string | undefined {
  const tag = (attribute(el, 'xml:lang') ?? attribute(el, 'lang'))?.trim()
  const base = tag === undefined || tag === '' ? undefined : baseLanguage(tag.replace(/_/g, '-'))
  return base === UNDETERMINED ? undefined : base
}

/** Walks a parsed tree into segment drafts; `flat` treats every element as a block. */
class Walker {
  readonly drafts: SegmentDraft[] = []
  disordered = false
  private readonly run = new RunBuilder()
  private readonly work: Array<T.Node | (() => void)> = []
  // parse5 re-opens misnested formatting elements as clones carrying the original's location
  private readonly seen = new Set<number>()

  /** `language`: the source's base language, where known; `page`: the page's own `<html>` and `<body>`. */
  constructor (private readonly source: string, private readonly locale: string, private readonly flat: boolean, private readonly textAttributes: boolean, private readonly holdingBlocks: ReadonlySet<T.Element>, private readonly language: string | undefined, private readonly page: ReadonlySet<T.Element>) {}

  flush (): void {
    this.disordered ||= this.run.disordered
    this.run.disordered = false
    this.drafts.push(...withSpellings(segmentRun(this.run.take(), htmlText, this.locale), this.source, TEXT_SPECIAL))
  }

  /** Visits the tree in document order; a work stack rather than recursion, for deep trees. */
  walk (root: T.Node): void {
    this.work.push(root)
    for (let next = this.work.pop(); next !== undefined; next = this.work.pop()) {
      if (typeof next === 'function') next()
      else this.node(next)
    }
    this.flush()
  }

  /** Schedules the children of a node (then `after`, if given) before anything already scheduled. */
  children (node: T.ParentNode, after?: () => void): void {
    if (after) this.work.push(after)
    for (let i = node.childNodes.length - 1; i >= 0; i--) this.work.push(node.childNodes[i]!)
  }

  node (node: T.Node): void {
    const loc = 'sourceCodeLocation' in node ? node.sourceCodeLocation : undefined
    if (node.nodeName === '#text') {
      if (!loc) return
      if (this.flat) this.flush()
      const text = (node as T.TextNode).value
      const offsets = alignText(text, this.source, loc.startOffset, loc.endOffset, { escapes: false, tags: true })
      this.text({ kind: 'text', start: loc.startOffset, end: loc.endOffset, text, offsets })
      if (this.flat) this.flush()
    } else if (node.nodeName === '#comment') {
      if (loc) this.run.push({ kind: 'token', start: loc.startOffset, end: loc.endOffset, weak: true, breaks: false })
    } else if (isElement(node)) {
      this.element(node)
    } else if ('childNodes' in node) {
      this.children(node)
    }
  }

  /**
   * A text node, cut where its source holds a tag the parser ignored and joined the text around
   * (`car</span> is`): the tag is left between the parts, where the run keeps it as a weak token.
   */
  text (item: TextItem): void {
    const { starts, ends } = item.offsets ?? { starts: [], ends: [] }
    let from = 0
    for (let j = 1; j < starts.length; j++) {
      if (starts[j]! > ends[j - 1]! && this.source.slice(ends[j - 1]!, starts[j]!).includes('<')) {
        this.run.push(sliceText(item, from, j))
        from = j
      }
    }
    this.run.push(from === 0 ? item : sliceText(item, from, item.text.length))
  }

  element (el: T.Element): void {
    const loc = el.sourceCodeLocation
    const startTag = loc?.startTag
    if (!loc || !startTag || this.seen.has(startTag.startOffset)) {
      this.children(el)
      return
    }
    this.seen.add(startTag.startOffset)
    const name = el.tagName
    const inline = INLINE.has(name) || OPAQUE.has(name)
    // the page's own <html lang> or <body lang> is no guide (exporters write their default there): the request's source says what the page is
    const marked = this.page.has(el) ? undefined : markedLanguage(el)
    const no = untranslatable(name => attribute(el, name)) || (marked !== undefined && this.language !== undefined && marked !== this.language)
    if (SKIP.has(name) || (no && !inline)) {
      this.flush()
      if (SKIP_KEEPS_ATTRIBUTES.has(name) && !no) this.attributes(el)
    } else if (OPAQUE.has(name) || no) {
      if (OWN_TEXT_ATTRIBUTES.has(name) && !no) this.attributes(el)
      const end = loc.endTag?.endOffset ?? loc.endOffset
      this.run.push({ kind: 'token', start: loc.startOffset, end, weak: name === 'br' || name === 'wbr', breaks: name === 'br' })
    } else if (INLINE.has(name) && !this.flat && !this.holdingBlocks.has(el)) {
      this.attributes(el)
      this.run.push({ kind: 'open', start: startTag.startOffset, end: startTag.endOffset })
      const close = loc.endTag ?? { startOffset: loc.endOffset, endOffset: loc.endOffset }
      this.children(el, () => this.run.push({ kind: 'close', start: close.startOffset, end: close.endOffset }))
    } else {
      this.flush()
      this.attributes(el)
      this.children(el, () => this.flush())
    }
  }

  /** Drafts for the element's text attributes, each value a run of its own. */
  attributes (el: T.Element): void {
    if (!this.textAttributes) return
    const locs = el.sourceCodeLocation?.attrs
    const button = el.tagName === 'input' && BUTTON_TYPES.has(attribute(el, 'type')?.toLowerCase() ?? '')
    for (const name of button ? BUTTON_ATTRIBUTES : TEXT_ATTRIBUTES) {
      const value = attribute(el, name)
      const loc = locs?.[name]
      if (value === undefined || loc === undefined) continue
      const raw = this.source.slice(loc.startOffset, loc.endOffset)
      const m = /^[^\s=]+\s*=\s*(["']?)/.exec(raw)
      if (!m) continue
      const quote = m[1]!
      const start = loc.startOffset + m[0].length
      const end = quote ? loc.endOffset - 1 : loc.endOffset
      if (quote && this.source[end] !== quote) continue
      const offsets = alignText(value, this.source, start, end, { escapes: false })
      const special = attributeSpecial(quote)
      this.drafts.push(...withSpellings(segmentRun([{ kind: 'text', start, end, text: value, offsets }], htmlFormat(special), this.locale), this.source, special))
    }
  }
}

/** Names each element of the tree as `readAs` says, so the walk reads it as that name's element. */
function renameElements (root: T.Node, readAs: (tagName: string) => string): void {
  const work: T.Node[] = [root]
  for (let node = work.pop(); node !== undefined; node = work.pop()) {
    if (isElement(node)) node.tagName = node.nodeName = readAs(node.tagName)
    if ('childNodes' in node) work.push(...node.childNodes)
  }
}

/** The page's `<html>` element: the first thing of the tree but comments, a DOCTYPE and white space. */
function pageRoot (root: T.Node, named: (tagName: string) => string): T.Element | undefined {
  if (!('childNodes' in root)) return undefined
  for (const node of root.childNodes) {
    if (isElement(node)) return named(node.tagName) === 'html' ? node : undefined
    if (node.nodeName === '#text' && (node as T.TextNode).value.trim() !== '') return undefined
  }
  return undefined
}

/**
 * The values of the page's `<html>` and `<body>` start tags' lang and xml:lang that name `from`
 * (a base language), written as the target: found where the parser read those tags, so a `<body
 * lang>` spelled in a script or a comment is no tag, and nothing of the page is searched.
 */
function pageLanguage (page: readonly T.Element[], source: string, from: string): Retargeted[] {
  const out: Retargeted[] = []
  for (const el of page) {
    // an implied element has no place in the source, nor an attribute merged from a second tag the parser met later
    const locs = el.sourceCodeLocation?.attrs
    if (locs === undefined) continue
    for (const name of ['lang', 'xml:lang']) {
      const loc = locs[name]
      const value = attribute(el, name)?.trim()
      if (loc === undefined || value === undefined || value === '' || baseLanguage(value.replace(/_/g, '-')) !== from) continue
      const m = /^[^\s=]+\s*=\s*/.exec(source.slice(loc.startOffset, loc.endOffset))
      if (m) out.push({ start: loc.startOffset + m[0].length, end: loc.endOffset, write: to => `"${to.replace(/[&<"]/g, '')}"` })
    }
  }
  return out.sort((a, b) => a.start - b.start)
}

/** An HTML document or fragment read: its segment drafts, and where its page names the source language (for the rebuild to name the target). */
export interface HtmlReading {
  drafts: SegmentDraft[]
  pageLanguage: Retargeted[]
}

/**
 * An HTML document or fragment read; without `textAttributes` (XML's reading) no attribute is
 * text. `language`: the source language, where known (translation's, given or detected): elements
 * marked as another are left as written, and the page's `<html lang>` and `<body lang>` that name
 * it are found (a fragment has none). `named`: an element's name as written (XML's reading renames
 * the elements HTML would read apart); `readAs`: the name whose reading an element takes, by its
 * tag name (elements renamed for the parser, ./kept-elements.ts).
 */
export function readHtml (source: string, locale: string, textAttributes = true, language?: string, named: (tagName: string) => string = tagName => tagName, readAs?: (tagName: string) => string): HtmlReading {
  const root = DOCUMENT.test(source) ? parse(source, OPTIONS) : parseFragment(source, OPTIONS)
  if (readAs !== undefined) renameElements(root, readAs)
  const holdingBlocks = inlinesHoldingBlocks(root)
  const base = language === undefined || language === UNDETERMINED ? undefined : baseLanguage(language)
  // the page's own <html> and <body> (by the names written: XML's reading renames them)
  const html = pageRoot(root, named)
  const body = html?.childNodes.find((node): node is T.Element => isElement(node) && named(node.tagName) === 'body')
  const page = [html, body].filter(el => el !== undefined)
  const walk = (flat: boolean): Walker => {
    const walker = new Walker(source, locale, flat, textAttributes, holdingBlocks, base, new Set(page))
    walker.walk(root)
    return walker
  }
  const walker = walk(false)
  // a tree the parser reordered (misnested tags, foster-parented table text) cannot be cut by
  // position into sentences with tags; fall back to one run per text node
  const drafts = walker.disordered ? walk(true).drafts : walker.drafts
  return { drafts, pageLanguage: language === undefined ? [] : pageLanguage(page, source, baseLanguage(language)) }
}

/** The segment drafts of an HTML document or fragment (see readHtml). */
export function htmlDrafts (source: string, locale: string, textAttributes = true, language?: string): SegmentDraft[] {
  return readHtml(source, locale, textAttributes, language).drafts
}
