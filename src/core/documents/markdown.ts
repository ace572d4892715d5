/**
 * text/markdown (CommonMark + GFM + front matter): paragraphs, headings and table cells are
 * runs; emphasis, strong, strikethrough and links with their own text stay inside the sentence
 * as `<g>` pairs; inline code, images, inline HTML, autolinks, footnote and short references
 * become `<x/>` tokens. Code blocks, HTML blocks, front matter, definitions, every URL and the
 * attribute blocks ending headings and lines (`{#id .class}`) are copied byte for byte, and so
 * are container markers (`> [!NOTE]`, `!!! note`, `=== "Tab"`, `:::tip`), their titles
 * translated. A translated sentence is written on one line, escaped for Markdown.
 */
import type { Nodes, PhrasingContent, Root } from 'mdast'
import { alignText } from './align.js'
import type { FieldPath } from '../../errors.js'
import { INLINE, OPAQUE } from './elements.js'
import { markdownTree } from './markdown-parse.js'
import { RunBuilder, sliceText, type TextFormat, type TextItem } from './run.js'
import { segmentRun, type SegmentDraft } from './segment-run.js'

/**
 * Translated text for Markdown: every character that could start markup is escaped, and only
 * those, so placeholders come back as they went (`{user_name}`, `<0>…</0>`): an underscore run
 * between letters or digits never delimits emphasis, nor a run of `*`, `_` or `~` between spaces
 * (`2 * 3`), `<` starts HTML or an autolink only before a letter, `!`, `?` or `/` and a letter,
 * and brackets make a link only before `(`, or where the document defines a label or the text
 * holds a link (`links`: a bracket in its text could end it): elsewhere `[p. 30]` and
 * `[@smith04]` stay as written.
 */
function markdownText (links: boolean): TextFormat {
  return {
    escape: (text, atStart) => {
      // every match starts where its run starts (the lookbehinds), so both stay linear in run length
      let out = text.replace(/(?<!\s)\s*\n\s*/g, ' ')
      // one starting a block may be a task list's `[ ]`
      const brackets = links || out.includes('](') || (atStart && out.startsWith('['))
      out = out.replace(/[\\`|]|(?<=[^ \t][ \t])([*_~]+)(?=[ \t])|[*~]|[[\]]|<(?=[A-Za-z!?]|\/[A-Za-z])|(?<=[\p{L}\p{N}])(_+)(?=[\p{L}\p{N}])|(?<!_)_+/gu,
        (m, loose: string | undefined, inWord: string | undefined) =>
          loose !== undefined || inWord !== undefined || (!brackets && (m === '[' || m === ']')) ? m : m.replace(/./g, '\\$&'))
        .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
      // what would open a block at the start of a line: a quote, a list item, an ATX heading, a setext underline or a thematic break (a leading `*` or `_` is escaped above)
      if (atStart) out = out.replace(/^(?:>|[-+](?=[ \t]|$)|#(?=#{0,5}(?:[ \t]|$))|=(?==*[ \t]*$)|-(?=-*[ \t]*$))/, '\\$&').replace(/^(\d{1,9})([.)])(?=[ \t]|$)/, '$1\\$2')
      return out
    },
    collapse: /[ \t]*(?:\r\n|\n|\r)[ \t]*/g
  }
}

/** Whether the tree defines a link or footnote label, which brackets in text could then name. */
function definesLabels (root: Root): boolean {
  const work: Nodes[] = [root]
  for (let node = work.pop(); node !== undefined; node = work.pop()) {
    if (node.type === 'definition' || node.type === 'footnoteDefinition') return true
    if (node.type === 'root' || node.type === 'blockquote' || node.type === 'list' || node.type === 'listItem') work.push(...node.children)
  }
  return false
}

/** One item of an attribute block: `#id`, `.class` or `key=value`. */
const ATTRIBUTE = '(?:#[\\p{L}\\p{N}_:.-]+|\\.[\\p{L}\\p{N}_-]+|[A-Za-z_][\\w:.-]*=(?:"[^"\\n{}]*"|\'[^\'\\n{}]*\'|[^\\s"\'{}]+))'
/** An attribute block (Pandoc, kramdown's `{: …}`, MkDocs attr_list, markdown-it-attrs): `{#id .class key="a b"}`, not `{name}`. */
const ATTRIBUTES = new RegExp(`^\\{:?[ \\t]*${ATTRIBUTE}(?:[ \\t]+${ATTRIBUTE})*[ \\t]*\\}$`, 'u')

/**
 * The attribute blocks ending a line of a text node, as [start, end) in it: each starts at its
 * line's last `{`, after white space or where the node starts (`*word*{.red}`), so each line is
 * read once.
 */
export function attributeBlocks (text: string): Array<[number, number]> {
  const blocks: Array<[number, number]> = []
  for (let start = 0; start < text.length;) {
    const next = text.indexOf('\n', start)
    const end = next === -1 ? text.length : next
    const line = text.slice(start, end).trimEnd()
    const open = line.lastIndexOf('{')
    if (open !== -1 && line.endsWith('}') && (start + open === 0 || /\s/.test(text[start + open - 1]!)) && ATTRIBUTES.test(line.slice(open))) {
      blocks.push([start + open, start + line.length])
    }
    start = end + 1
  }
  return blocks
}

/** Where a paragraph's text node holds whole lines: its first line starts one, its last ends one; `alert`: its first line opens a blockquote. */
interface MarkerLines {
  first: boolean
  last: boolean
  alert: boolean
}

/** Python-Markdown's admonition (`!!! note "Title"`) and PyMdown's details (`??? tip`, `???+ tip`): types, then a quoted title. */
const ADMONITION = /^(?:!!!|\?\?\?\+?) ?[\p{L}\p{N}_-]+(?: +[\p{L}\p{N}_-]+)*(?: +"(?<title>.*)")? *$/du
/** A PyMdown content tab: `=== "Title"`, `===! "Title"`, `===+ "Title"`. */
const CONTENT_TAB = /^===[!+]{0,2} +"(?<title>.*)" *$/du
/** A GitHub alert's `[!NOTE]` (any word, any case: Obsidian's callouts, folded with `+` or `-`, may have a title after it). */
const ALERT = /^\[![\p{L}\p{N}_-]+\][+-]?/u
/** A container directive opening (Docusaurus, remark-directive, markdown-it-container, VitePress): `:::tip Title`, `:::note[Title]{#id}`, `::: warning`. */
const DIRECTIVE = /^:{3,}[ \t]*[A-Za-z][\w-]*/
const DIRECTIVE_END = /^:{3,}[ \t]*$/

/** The title of a marker line, as [start, end) in it (empty when it has none); undefined when the line is no marker. */
function markerTitle (line: string, alert: boolean): [number, number] | undefined {
  const admonition = ADMONITION.exec(line) ?? CONTENT_TAB.exec(line)
  if (admonition) return admonition.indices!.groups!.title ?? [line.length, line.length]
  if (DIRECTIVE_END.test(line)) return [line.length, line.length]
  const head = (alert ? ALERT.exec(line) : null) ?? DIRECTIVE.exec(line)
  if (!head) return undefined
  const after = head[0].length
  // a directive's label in brackets, or its attributes in braces right after its name
  if (line[after] === '[' && head[0].startsWith(':')) {
    const close = line.lastIndexOf(']')
    if (close > after) return [after + 1, close]
  }
  if (line[after] === '{' && head[0].startsWith(':')) return [line.length, line.length]
  return [after, line.length]
}

/**
 * The container markers of a paragraph's text node, as [start, end) in it: every line that is
 * one (`!!! note "Title"`, `=== "Tab"`, `:::tip Title`, `:::`, a quote's opening `[!NOTE]`) but
 * its title, each with its line end, so the title and the text after are sentences of their own
 * and the marker stays verbatim.
 */
function containerMarkers (text: string, lines: MarkerLines): Array<[number, number]> {
  const markers: Array<[number, number]> = []
  const lineEnd = /\r\n|\n|\r/g
  for (let start = 0, whole = lines.first; ; whole = true) {
    const m = lineEnd.exec(text)
    const end = m ? m.index : text.length
    const after = m ? end + m[0].length : end
    const line = text.slice(start, end)
    const title = whole && (m !== null || lines.last) ? markerTitle(line, lines.alert && start === 0) : undefined
    if (title) {
      const words = line.slice(...title)
      const from = start + title[0] + words.length - words.trimStart().length
      const to = start + title[0] + words.trimEnd().length
      if (from < to) markers.push([start, from], [to, after])
      else markers.push([start, after])
    }
    if (!m) return markers.filter(([from, to]) => from < to)
    start = after
  }
}

/** Ranges sorted, each that overlaps one before it left out. */
function disjoint (ranges: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = []
  for (const range of ranges.sort((a, b) => a[0] - b[0])) {
    if (out.length === 0 || range[0] >= out.at(-1)![1]) out.push(range)
  }
  return out
}

function span (node: Nodes): { start: number, end: number } | undefined {
  const start = node.position?.start.offset
  const end = node.position?.end.offset
  return start === undefined || end === undefined ? undefined : { start, end }
}

/** Offset of the `]` closing the `[` at `open`, skipping escapes and nested brackets. */
function closingBracket (source: string, open: number, limit: number): number {
  let depth = 0
  for (let i = open; i < limit; i++) {
    const c = source[i]
    if (c === '\\') i++
    else if (c === '[') depth++
    else if (c === ']' && --depth === 0) return i
  }
  return -1
}

const OPEN_TAG = /^<([A-Za-z][\w-]*)(?:\s[^>]*)?>$/
const CLOSE_TAG = /^<\/([A-Za-z][\w-]*)\s*>$/

const BREAK_TAG = /^<br\s*\/?>$/i
const WORD_BREAK_TAG = /^<wbr\s*\/?>$/i

/** The lower-case name of an inline HTML node that is just an opening (or closing) tag. */
function tagName (node: PhrasingContent, pattern: RegExp): string | undefined {
  return node.type === 'html' ? pattern.exec(node.value)?.[1]?.toLowerCase() : undefined
}

/** Pairs the inline HTML open and close tags of sibling nodes, properly nested: open index -> close index. */
function htmlPairs (nodes: readonly PhrasingContent[]): Map<number, number> {
  const pairs = new Map<number, number>()
  const stack: Array<[string, number]> = []
  const opened = new Map<string, number>()
  nodes.forEach((node, i) => {
    const open = tagName(node, OPEN_TAG)
    if (open !== undefined && (INLINE.has(open) || OPAQUE.has(open))) {
      stack.push([open, i])
      opened.set(open, (opened.get(open) ?? 0) + 1)
      return
    }
    const close = tagName(node, CLOSE_TAG)
    if (close === undefined || (opened.get(close) ?? 0) === 0) return
    // tags left open inside this element stay single tokens
    for (let [name, at] = stack.pop()!; ; [name, at] = stack.pop()!) {
      opened.set(name, opened.get(name)! - 1)
      if (name === close) {
        pairs.set(at, i)
        break
      }
    }
  })
  return pairs
}

/** Walks a tree in document order; a work stack rather than recursion, for deep nesting. */
class Walker {
  readonly drafts: SegmentDraft[] = []
  /** A line's container prefix after a line end goes with it: never a token inside the sentence (`or > [link]`). */
  private readonly run = new RunBuilder((start, end) => /[\n\r]/.test(this.source[start - 1] ?? '') && /^[ \t>]*$/.test(this.source.slice(start, end)))
  private readonly work: Array<() => void> = []

  private readonly strict = markdownText(true)
  private loose = this.strict
  /** Whether the run being read holds a link's or an image's text, where brackets are the link's. */
  private linked = false

  constructor (private readonly source: string, private readonly locale: string) {}

  walk (root: Root): void {
    if (!definesLabels(root)) this.loose = markdownText(false)
    this.work.push(() => this.block(root))
    for (let next = this.work.pop(); next !== undefined; next = this.work.pop()) next()
  }

  /** Schedules steps to run next, in order, before anything already scheduled. */
  schedule (steps: Array<() => void>): void {
    for (let i = steps.length - 1; i >= 0; i--) this.work.push(steps[i]!)
  }

  /** `opensQuote`: the node is a blockquote's first child, where an alert's `[!NOTE]` goes. */
  block (node: Nodes, opensQuote = false): void {
    switch (node.type) {
      case 'paragraph':
      case 'heading':
      case 'tableCell':
        this.phrasing(node.children, () => {
          this.drafts.push(...segmentRun(this.run.take(), this.linked ? this.strict : this.loose, this.locale))
          this.linked = false
        }, node.type === 'paragraph' ? { alert: opensQuote } : undefined)
        return
      case 'blockquote':
        this.schedule(node.children.map((child, i) => () => this.block(child, i === 0)))
        return
      case 'root':
      case 'list':
      case 'listItem':
      case 'table':
      case 'tableRow':
      case 'footnoteDefinition':
        this.schedule(node.children.map(child => () => this.block(child)))
    }
  }

  /**
   * Schedules inline nodes, then `after`. Raw HTML tags come one node each: an inline element's
   * open and close tags become a `<g>` pair around what lies between, an opaque one
   * (`<kbd>…</kbd>`) one token. `paragraph`: the nodes are a paragraph's, whose lines may be
   * container markers.
   */
  phrasing (nodes: PhrasingContent[], after: () => void, paragraph?: { alert: boolean }): void {
    const pairs = htmlPairs(nodes)
    const closes = new Set<number>()
    const steps: Array<() => void> = []
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!
      const at = span(node)
      const close = pairs.get(i)
      const end = close === undefined ? undefined : span(nodes[close]!)
      if (at && end && OPAQUE.has(tagName(node, OPEN_TAG)!)) {
        steps.push(() => this.run.push({ kind: 'token', start: at.start, end: end.end, weak: false, breaks: false }))
        i = close!
      } else if (at && end) {
        steps.push(() => this.run.push({ kind: 'open', ...at }))
        closes.add(close!)
      } else if (at && closes.has(i)) {
        steps.push(() => this.run.push({ kind: 'close', ...at }))
      } else if (at && paragraph && node.type === 'text') {
        const lines = { first: i === 0 || nodes[i - 1]!.type === 'break', last: i === nodes.length - 1 || nodes[i + 1]!.type === 'break', alert: paragraph.alert && i === 0 }
        steps.push(() => this.text(node.value, at, lines))
      } else {
        steps.push(() => this.inline(node))
      }
    }
    steps.push(after)
    this.schedule(steps)
  }

  inline (node: PhrasingContent): void {
    const at = span(node)
    if (!at) return
    const token = (weak: boolean): void => this.run.push({ kind: 'token', ...at, weak, breaks: weak })
    switch (node.type) {
      case 'text':
        return this.text(node.value, at)
      case 'emphasis':
      case 'strong':
      case 'delete':
        return this.wrap(node.children, at)
      case 'link':
        // autolinks (<https://…>, bare www. and https:// with GFM) are their own URL
        if (this.source[at.start] !== '[') return token(false)
        this.linked = true
        return this.wrap(node.children, at)
      case 'linkReference':
        // [text][] and [text] name their definition by their text, which must not change
        if (node.referenceType !== 'full') return token(false)
        this.linked = true
        return this.wrap(node.children, at)
      case 'image':
        this.alt(node.alt ?? '', at)
        return token(false)
      case 'break':
        return token(true)
      case 'html':
        // a `<br>` ends its line as a hard break does (and as in text/html); `<wbr>` is weak without breaking
        if (BREAK_TAG.test(node.value)) return token(true)
        if (WORD_BREAK_TAG.test(node.value)) return this.run.push({ kind: 'token', ...at, weak: true, breaks: false })
        return token(false)
      default:
        return token(false)
    }
  }

  /**
   * A text node; an attribute block ending one of its lines, and a paragraph's container marker
   * (`lines`: where its lines are whole), is markup, a breaking token left out of the sentence.
   */
  text (value: string, at: { start: number, end: number }, lines?: MarkerLines): void {
    const item: TextItem = { kind: 'text', ...at, text: value, offsets: alignText(value, this.source, at.start, at.end, { escapes: true }) }
    const offsets = item.offsets
    const markup = offsets === null ? [] : [...(value.includes('}') ? attributeBlocks(value) : []), ...(lines ? containerMarkers(value, lines) : [])]
    let from = 0
    for (const [start, end] of markup.length > 1 ? disjoint(markup) : markup) {
      if (start > from) this.run.push(sliceText(item, from, start))
      this.run.push({ kind: 'token', start: offsets!.starts[start]!, end: offsets!.ends[end - 1]!, weak: true, breaks: true })
      from = end
    }
    if (from < value.length) this.run.push(from === 0 ? item : sliceText(item, from, value.length))
  }

  /** An inline element: its markup before and after the children becomes a `<g>` pair. */
  wrap (children: PhrasingContent[], at: { start: number, end: number }): void {
    const first = children[0] && span(children[0])
    const last = children.at(-1) && span(children.at(-1)!)
    if (!first || !last) {
      this.run.push({ kind: 'token', ...at, weak: false, breaks: false })
      return
    }
    this.run.push({ kind: 'open', start: at.start, end: first.start })
    this.phrasing(children, () => this.run.push({ kind: 'close', start: last.end, end: at.end }))
  }

  /** An image's alt text, a run of its own inside the image token. */
  alt (alt: string, at: { start: number, end: number }): void {
    const close = closingBracket(this.source, at.start + 1, at.end)
    if (alt === '' || close === -1) return
    const offsets = alignText(alt, this.source, at.start + 2, close, { escapes: true })
    if (!offsets) return
    // the slot spans the whole bracket content, so markup inside the alt text goes with it
    const item = { kind: 'text' as const, start: at.start + 2, end: close, text: alt, offsets }
    this.drafts.push(...segmentRun([item], this.strict, this.locale))
  }
}

/** The segment drafts of a Markdown document; `path` (called only for an error) is where it is in the request. */
export function markdownDrafts (source: string, locale: string, path: () => FieldPath): SegmentDraft[] {
  const walker = new Walker(source, locale)
  walker.walk(markdownTree(source, path))
  return walker.drafts
}
