/**
 * Markdown source to mdast (CommonMark + GFM + front matter), parsed where the document is
 * segmented: inline for a small document, else on the document runner's thread, which is stopped
 * when its request's budget runs out (micromark is super-linear on some inputs).
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Nodes, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { frontmatter } from 'micromark-extension-frontmatter'
import { attention } from 'micromark-core-commonmark'
import { gfm } from 'micromark-extension-gfm'
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough'
import type { Construct, Event, Extension, Resolver } from 'micromark-util-types'
import { invalidField, type FieldPath } from '../../errors.js'

/**
 * Deeper trees are refused (a 400): a source nesting thousands of levels deep is turned away
 * before it is parsed (containerDepth), rather than spending its request's budget or the
 * parser's stack.
 */
export const MAX_TREE_DEPTH = 500

/**
 * The most emphasis markers that may close one (runs of `*`, `_`, `~`) one paragraph, heading or
 * table cell may hold. micromark pairs each closing run with an opening one by scanning back
 * over what came before it in the paragraph, and cuts the paragraph's events anew at each pair:
 * time quadratic in their number (90,000 characters of `*a_` took 85 s). A real paragraph holds
 * a few dozen; at this bound one costs ~10 ms at most, and 100,000 characters of such
 * paragraphs ~1 s, as an ordinary document of that size.
 */
export const MAX_EMPHASIS_RUNS = 500

/** Thrown by the guarded resolvers: the paragraph at `line` holds too many emphasis markers. */
class TooManyEmphasisMarkers extends Error {
  constructor (readonly line: number) {
    super(`more than ${MAX_EMPHASIS_RUNS} emphasis markers in the paragraph at line ${line}`)
  }
}

/**
 * `construct` whose resolver first counts the runs of `sequence` that may close one in what it
 * is given (micromark gives it one paragraph, heading or cell at a time: exactly what the pairing
 * scans), and refuses more than MAX_EMPHASIS_RUNS before pairing them.
 */
function guarded (construct: Construct, sequence: string): Construct {
  const resolve = construct.resolveAll!
  return {
    ...construct,
    name: `${construct.name!}Guarded`,
    resolveAll: (events, context) => {
      let closing = 0
      for (const [kind, token] of events) {
        if (kind === 'enter' && token.type === sequence && token._close === true && ++closing > MAX_EMPHASIS_RUNS) throw new TooManyEmphasisMarkers(token.start.line)
      }
      return resolve(events, context)
    }
  }
}

/**
 * The most `]` that close no link (nor image, nor footnote reference) one paragraph, heading or
 * table cell may hold in a document that defines footnotes: for each, GFM's footnote syntax looks
 * back over the paragraph for an image's `![` (20,000 of them took 11 s). A real paragraph holds a
 * few (`[p. 30]`, `[@smith04]`); a paragraph of 100,000 characters and this many parses in ~0.5 s.
 */
export const MAX_OPEN_LABEL_ENDS = 1000

/** Thrown by the guarded footnote syntax: the paragraph at `line` holds too many `]` that close nothing. */
class TooManyLabelEnds extends Error {
  constructor (readonly line: number) {
    super(`more than ${MAX_OPEN_LABEL_ENDS} \`]\` that close no link in the paragraph at line ${line}`)
  }
}

/** The `]` counted in each paragraph's tokenizer: how many, and the offset of the last (one tried again is not counted again). */
const labelEnds = new WeakMap<object, { count: number, offset: number }>()

const POTENTIAL_FOOTNOTE_CALL = ([gfm().text![93]].flat() as Construct[]).find(c => c.name === 'gfmPotentialFootnoteCall')!
/**
 * GFM's footnote reference after an image's `![` (`![^1]`), tried at each `]` that closes no
 * link: not looked for where the document defines no footnote (it could name none), and refused
 * past MAX_OPEN_LABEL_ENDS in a paragraph where it does.
 */
const GUARDED_POTENTIAL_FOOTNOTE_CALL: Construct = {
  ...POTENTIAL_FOOTNOTE_CALL,
  name: 'gfmPotentialFootnoteCallGuarded',
  tokenize (effects, ok, nok) {
    const footnotes = (this.parser as { gfmFootnotes?: string[] }).gfmFootnotes
    if (footnotes === undefined || footnotes.length === 0) return nok
    const { offset, line } = this.now()
    // a reference found after `![` looked back to it only; each `]` found none is counted
    return POTENTIAL_FOOTNOTE_CALL.tokenize.call(this, effects, ok, code => {
      const seen = labelEnds.get(this) ?? { count: 0, offset: -1 }
      if (offset > seen.offset && ++seen.count > MAX_OPEN_LABEL_ENDS) throw new TooManyLabelEnds(line)
      labelEnds.set(this, { count: seen.count, offset: Math.max(offset, seen.offset) })
      return nok(code)
    })
  }
}

/**
 * The footnote labels a document defines, as GFM's footnote syntax keeps them (an array it
 * pushes to and searches, for every definition and every reference: time quadratic in their
 * number, 5.4 s of 40,000 footnotes' 13 s), searched in a set.
 */
class FootnoteLabels extends Array<string> {
  private readonly labels = new Set<string>()

  override push (...labels: string[]): number {
    for (const label of labels) this.labels.add(label)
    return super.push(...labels)
  }

  override includes (label: string): boolean {
    return this.labels.has(label)
  }
}

const FOOTNOTE_DEFINITION = ([gfm().document![91]].flat() as Construct[]).find(c => c.name === 'gfmFootnoteDefinition')!
/** GFM's footnote definition, its document's labels kept in FootnoteLabels. */
const INDEXED_FOOTNOTE_DEFINITION: Construct = {
  ...FOOTNOTE_DEFINITION,
  name: 'gfmFootnoteDefinitionIndexed',
  tokenize (effects, ok, nok) {
    (this.parser as { gfmFootnotes?: string[] }).gfmFootnotes ??= new FootnoteLabels()
    return FOOTNOTE_DEFINITION.tokenize.call(this, effects, ok, nok)
  }
}

const STRIKETHROUGH = gfmStrikethrough().text![126] as Construct
const GUARDED_ATTENTION = guarded(attention, 'attentionSequence')
const GUARDED_STRIKETHROUGH = guarded(STRIKETHROUGH, 'strikethroughSequenceTemporary')
/**
 * Emphasis (`*`, `_`), GFM's strikethrough (`~`) and its footnote reference after `![` in place of
 * micromark's own, guarded; its footnote definitions with their labels in a set.
 */
const GUARDED: Extension = {
  disable: { null: [attention.name!, STRIKETHROUGH.name!, POTENTIAL_FOOTNOTE_CALL.name!, FOOTNOTE_DEFINITION.name!] },
  document: { 91: INDEXED_FOOTNOTE_DEFINITION },
  text: { 42: GUARDED_ATTENTION, 93: GUARDED_POTENTIAL_FOOTNOTE_CALL, 95: GUARDED_ATTENTION, 126: GUARDED_STRIKETHROUGH },
  insideSpan: { null: [GUARDED_ATTENTION, GUARDED_STRIKETHROUGH] }
}

/**
 * Each run of adjacent `data` tokens merged into its first, as micromark's text resolver merges
 * them, in one pass and in place (its callers hold the array): micromark splices each run out
 * where it is, moving every event after it, which is time quadratic in the paragraph's tokens (a
 * paragraph of 64,000 lines took 15 s; brackets, code spans, escapes, references and inline HTML
 * between words alike).
 */
function mergeData (events: Event[]): Event[] {
  let kept = 0
  for (let i = 0; i < events.length;) {
    const event = events[i]!
    if (event[1].type !== 'data' || i + 1 === events.length) {
      events[kept++] = event
      i++
      continue
    }
    // an enter and its exit, then whatever data follows
    let end = i + 2
    while (end < events.length && events[end]![1].type === 'data') end++
    if (end > i + 2) event[1].end = events[end - 1]![1].end
    events[kept++] = event
    events[kept++] = events[i + 1]!
    i = end
  }
  events.length = kept
  return events
}

/**
 * micromark's text, string and inside-a-link resolvers (shared objects of its text initializer,
 * which no extension can replace) given their runs merged already, so that their own splices
 * find nothing to do; what they do after (line suffixes, hard breaks) is theirs still.
 */
function mergeDataFirst (): void {
  let initializers: Record<'resolver' | 'string' | 'text', { resolveAll: Resolver & { linear?: true } }>
  try {
    initializers = createRequire(import.meta.url)(join(dirname(createRequire(import.meta.url).resolve('micromark')), 'lib/initialize/text.js')) as typeof initializers
  } catch {
    // another micromark's layout: its own merging, quadratic, within the budget (markdown-parse.test.ts's timing test says so)
    return
  }
  for (const initializer of [initializers.resolver, initializers.string, initializers.text]) {
    const resolve = initializer.resolveAll
    if (resolve.linear) continue
    initializer.resolveAll = Object.assign((events: Event[], context: Parameters<Resolver>[1]) => resolve(mergeData(events), context), { linear: true as const })
  }
}
mergeDataFirst()

/** The mdast tree of a Markdown source, with positions; a paragraph of more than MAX_EMPHASIS_RUNS closing emphasis markers throws TooManyEmphasisMarkers, of more than MAX_OPEN_LABEL_ENDS open `]` (with footnotes) TooManyLabelEnds. */
export function parseMarkdown (source: string): Root {
  return fromMarkdown(source, {
    extensions: [gfm(), frontmatter(['yaml', 'toml']), GUARDED],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml'])]
  })
}

/** The source text of a node the autolink transform made: a text's value, a link's (its one text child's). */
function literal (node: Nodes): string | undefined {
  if (node.type === 'text') return node.value
  if (node.type === 'link' && node.children.length === 1 && node.children[0]!.type === 'text') return node.children[0]!.value
  return undefined
}

const at = (offset: number): { offset: number, line: number, column: number } => ({ offset, line: 0, column: 0 })

/**
 * Positions for the nodes GFM's autolink transform makes without any: a URL found in text that
 * micromark's own autolinks did not take ("[the docs][https://…]") splits its text node into
 * text, link and text, none of them placed, and a paragraph of unplaced nodes would not be
 * translated at all. Each run of such siblings is what lies between its placed neighbours (or
 * its parent's edges): where their texts, joined, are found there as written, each is placed in
 * turn; elsewhere (escapes, references in the text) they stay unplaced, as before. Offsets only:
 * line and column are not read here.
 */
function placeAutolinks (root: Root, source: string): void {
  const stack: Nodes[] = [root]
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!('children' in node)) continue
    const children = node.children as Nodes[]
    stack.push(...children)
    for (let i = 0; i < children.length; i++) {
      if (children[i]!.position !== undefined) continue
      let j = i
      while (j < children.length && children[j]!.position === undefined) j++
      const run = children.slice(i, j)
      const texts = run.map(literal)
      const lo = i > 0 ? children[i - 1]!.position?.end.offset : node.position?.start.offset
      const hi = j < children.length ? children[j]!.position?.start.offset : node.position?.end.offset
      if (lo !== undefined && hi !== undefined && texts.every(t => t !== undefined)) {
        const joined = texts.join('')
        // searched within the run's bounds only (the runs of a tree do not overlap: linear in all)
        const found = source.slice(lo, hi).indexOf(joined)
        if (found !== -1) {
          let offset = lo + found
          run.forEach((child, k) => {
            const end = offset + texts[k]!.length
            child.position = { start: at(offset), end: at(end) }
            if (child.type === 'link') child.children[0]!.position = { start: at(offset), end: at(end) }
            offset = end
          })
        }
      }
      i = j
    }
  }
}

/** How many levels of nodes a tree has (a work stack rather than recursion, for deep trees). */
export function treeDepth (root: Root): number {
  let deepest = 0
  const stack: Array<[Nodes, number]> = [[root, 1]]
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next
    deepest = Math.max(deepest, depth)
    if ('children' in node) for (const child of node.children) stack.push([child, depth + 1])
  }
  return deepest
}

const CONTAINER_MARKER = /[ \t]*(?:(>)|[*+-](?=[ \t\r\n]|$)|\d{1,9}[.)](?=[ \t\r\n]|$))/y
/** A line that is a thematic break (`* * *`, `---`, `_ _ _`) rather than list markers. */
const THEMATIC_BREAK = /^[ \t]*([*_-])(?:[ \t]*\1){2,}[ \t]*\r?$/

/**
 * How deep the block containers (block quotes, list items) one line opens at its start nest the
 * tree, at least: a lower bound found in linear time without parsing, so that a source built to
 * nest thousands of levels deep is refused before it occupies a thread for seconds. A
 * list item counts two levels (list and item); a thematic break opens nothing.
 */
export function containerDepth (source: string): number {
  let deepest = 0
  for (let start = 0; start <= source.length;) {
    const end = source.indexOf('\n', start)
    const lineEnd = end === -1 ? source.length : end
    let depth = 0
    // a marker never spans a line end, so the matches stay within this line
    let at = start
    for (;;) {
      CONTAINER_MARKER.lastIndex = at
      const m = CONTAINER_MARKER.exec(source)
      if (m === null) break
      depth += m[1] === undefined ? 2 : 1
      at = CONTAINER_MARKER.lastIndex
    }
    if (depth > deepest && !THEMATIC_BREAK.test(source.slice(start, lineEnd))) deepest = depth
    start = lineEnd + 1
  }
  return deepest
}

/** The 400 for a Markdown source that cannot be parsed because of how deeply it nests. */
function tooDeep (path: FieldPath, why: string): Error {
  return invalidField(path, `this Markdown document could not be parsed (${why}); simplify it or send it as text/plain`)
}

/**
 * The mdast tree of the Markdown document at `path` (called only for an error): a source that
 * nests more than MAX_TREE_DEPTH levels, or too deeply for the parser's stack, is a 400 there,
 * never a crash.
 */
export function markdownTree (source: string, path: () => FieldPath): Root {
  const tooMany = `it nests more than ${MAX_TREE_DEPTH} levels deep`
  if (containerDepth(source) > MAX_TREE_DEPTH) throw tooDeep(path(), tooMany)
  let tree: Root
  try {
    tree = parseMarkdown(source)
  } catch (err) {
    if (err instanceof TooManyLabelEnds) throw tooDeep(path(), `a paragraph holds more than ${MAX_OPEN_LABEL_ENDS} \`]\` that close no link, in a document that defines footnotes, the last at line ${err.line}`)
    if (err instanceof TooManyEmphasisMarkers) throw tooDeep(path(), `a paragraph holds more than ${MAX_EMPHASIS_RUNS} emphasis markers (*, _ or ~) that may close one, the last at line ${err.line}`)
    if (err instanceof RangeError) throw tooDeep(path(), 'it nests too deeply')
    throw err
  }
  if (treeDepth(tree) > MAX_TREE_DEPTH) throw tooDeep(path(), tooMany)
  placeAutolinks(tree, source)
  return tree
}
