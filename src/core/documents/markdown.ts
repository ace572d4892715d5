/**
 * text/markdown (CommonMark + GFM + front matter): paragraphs, headings and table cells are
 * runs; emphasis, strong, strikethrough and links with their own text stay inside the sentence
 * as `<g>` pairs; inline code, images, inline HTML, autolinks, footnote and short references
 * become `<x/>` tokens. Code blocks, HTML blocks, front matter, definitions and every URL are
 * copied byte for byte. A translated sentence is written on one line, escaped for Markdown.
 */
import type { Nodes, PhrasingContent, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { frontmatter } from 'micromark-extension-frontmatter'
import { gfm } from 'micromark-extension-gfm'
import { alignText } from './align.js'
import { INLINE, OPAQUE } from './elements.js'
import { RunBuilder, type TextFormat } from './run.js'
import { segmentRun, type SegmentDraft } from './segment-run.js'

const markdownText: TextFormat = {
  escape: (text, atStart) => {
    let out = text.replace(/\s*\n\s*/g, ' ')
      .replace(/[\\`*_[\]<>|~]/g, '\\$&')
      .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
    // what would open a block at the start of a line
    if (atStart) out = out.replace(/^[#>+=-]/, '\\$&').replace(/^(\d{1,9})([.)])/, '$1\\$2')
    return out
  },
  collapse: /[ \t]*\n[ \t]*/g
}

function parseMarkdown (source: string): Root {
  return fromMarkdown(source, {
    extensions: [gfm(), frontmatter(['yaml', 'toml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml'])]
  })
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

/** The lower-case name of an inline HTML node that is just an opening (or closing) tag. */
function tagName (node: PhrasingContent, pattern: RegExp): string | undefined {
  return node.type === 'html' ? pattern.exec(node.value)?.[1]?.toLowerCase() : undefined
}

/** Index of the html node closing the tag `name` opened at `from`, at the same nesting, or -1. */
function closingTag (nodes: PhrasingContent[], from: number, name: string): number {
  let depth = 0
  for (let i = from; i < nodes.length; i++) {
    if (tagName(nodes[i]!, OPEN_TAG) === name) depth++
    else if (tagName(nodes[i]!, CLOSE_TAG) === name && --depth === 0) return i
  }
  return -1
}

class Walker {
  readonly drafts: SegmentDraft[] = []
  private readonly run = new RunBuilder()

  constructor (private readonly source: string, private readonly locale: string) {}

  block (node: Nodes): void {
    switch (node.type) {
      case 'paragraph':
      case 'heading':
      case 'tableCell':
        this.phrasing(node.children)
        this.drafts.push(...segmentRun(this.run.take(), markdownText, this.locale))
        return
      case 'root':
      case 'blockquote':
      case 'list':
      case 'listItem':
      case 'table':
      case 'tableRow':
      case 'footnoteDefinition':
        for (const child of node.children) this.block(child)
    }
  }

  /**
   * Inline nodes in order. Raw HTML tags come one node each: an inline element's open and close
   * tags become a `<g>` pair around what lies between, an opaque one (`<kbd>…</kbd>`) one token.
   */
  phrasing (nodes: PhrasingContent[]): void {
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!
      const name = tagName(node, OPEN_TAG)
      const close = name === undefined ? -1 : closingTag(nodes, i, name)
      const open = span(node)
      const end = close === -1 ? undefined : span(nodes[close]!)
      if (!open || !end || !(INLINE.has(name!) || OPAQUE.has(name!))) {
        this.inline(node)
        continue
      }
      if (OPAQUE.has(name!)) {
        this.run.push({ kind: 'token', start: open.start, end: end.end, weak: false, breaks: false })
      } else {
        this.run.push({ kind: 'open', ...open })
        this.phrasing(nodes.slice(i + 1, close))
        this.run.push({ kind: 'close', ...end })
      }
      i = close
    }
  }

  inline (node: PhrasingContent): void {
    const at = span(node)
    if (!at) return
    const token = (weak: boolean): void => this.run.push({ kind: 'token', ...at, weak, breaks: weak })
    switch (node.type) {
      case 'text':
        this.run.push({ kind: 'text', ...at, text: node.value, offsets: alignText(node.value, this.source, at.start, at.end, { escapes: true }) })
        return
      case 'emphasis':
      case 'strong':
      case 'delete':
        return this.wrap(node.children, at)
      case 'html':
        return token(false)
      case 'link':
        // autolinks (<https://…>, bare www. and https:// with GFM) are their own URL
        return this.source[at.start] === '[' ? this.wrap(node.children, at) : token(false)
      case 'linkReference':
        // [text][] and [text] name their definition by their text, which must not change
        return node.referenceType === 'full' ? this.wrap(node.children, at) : token(false)
      case 'image':
        this.alt(node.alt ?? '', at)
        return token(false)
      case 'break':
        return token(true)
      default:
        return token(false)
    }
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
    this.phrasing(children)
    this.run.push({ kind: 'close', start: last.end, end: at.end })
  }

  /** An image's alt text, a run of its own inside the image token. */
  alt (alt: string, at: { start: number, end: number }): void {
    const close = closingBracket(this.source, at.start + 1, at.end)
    if (alt === '' || close === -1) return
    const offsets = alignText(alt, this.source, at.start + 2, close, { escapes: true })
    if (!offsets) return
    // the slot spans the whole bracket content, so markup inside the alt text goes with it
    const item = { kind: 'text' as const, start: at.start + 2, end: close, text: alt, offsets }
    this.drafts.push(...segmentRun([item], markdownText, this.locale))
  }
}

/** The segment drafts of a Markdown document. */
export function markdownDrafts (source: string, locale: string): SegmentDraft[] {
  const walker = new Walker(source, locale)
  walker.block(parseMarkdown(source))
  return walker.drafts
}
