/**
 * Markdown source to mdast (CommonMark + GFM + front matter), parsed where the document is
 * segmented: inline for a small document, else on the document runner's thread, which is stopped
 * when its request's budget runs out (micromark is super-linear on some inputs).
 */
import type { Nodes, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { frontmatter } from 'micromark-extension-frontmatter'
import { attention } from 'micromark-core-commonmark'
import { gfm } from 'micromark-extension-gfm'
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough'
import type { Construct, Extension } from 'micromark-util-types'
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

const STRIKETHROUGH = gfmStrikethrough().text![126] as Construct
const GUARDED_ATTENTION = guarded(attention, 'attentionSequence')
const GUARDED_STRIKETHROUGH = guarded(STRIKETHROUGH, 'strikethroughSequenceTemporary')
/** Emphasis (`*`, `_`) and GFM's strikethrough (`~`) in place of micromark's own, guarded. */
const GUARDED: Extension = {
  disable: { null: [attention.name!, STRIKETHROUGH.name!] },
  text: { 42: GUARDED_ATTENTION, 95: GUARDED_ATTENTION, 126: GUARDED_STRIKETHROUGH },
  insideSpan: { null: [GUARDED_ATTENTION, GUARDED_STRIKETHROUGH] }
}

/** The mdast tree of a Markdown source, with positions; a paragraph of more than MAX_EMPHASIS_RUNS closing emphasis markers throws TooManyEmphasisMarkers. */
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
    if (err instanceof TooManyEmphasisMarkers) throw tooDeep(path(), `a paragraph holds more than ${MAX_EMPHASIS_RUNS} emphasis markers (*, _ or ~) that may close one, the last at line ${err.line}`)
    if (err instanceof RangeError) throw tooDeep(path(), 'it nests too deeply')
    throw err
  }
  if (treeDepth(tree) > MAX_TREE_DEPTH) throw tooDeep(path(), tooMany)
  placeAutolinks(tree, source)
  return tree
}
