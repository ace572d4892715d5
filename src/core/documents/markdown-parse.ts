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
import { gfm } from 'micromark-extension-gfm'
import { invalidField, type FieldPath } from '../../errors.js'

/**
 * Deeper trees are refused (a 400): a source nesting thousands of levels deep is turned away
 * before it is parsed (containerDepth), rather than spending its request's budget or the
 * parser's stack.
 */
export const MAX_TREE_DEPTH = 500

/** The mdast tree of a Markdown source, with positions. */
export function parseMarkdown (source: string): Root {
  return fromMarkdown(source, {
    extensions: [gfm(), frontmatter(['yaml', 'toml'])],
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
export function placeAutolinks (root: Root, source: string): void {
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

/**
 * The most emphasis markers (runs of `*`, `_`, `~`) one paragraph may hold. micromark pairs each
 * closing run with an opening one by scanning back over the paragraph, so a paragraph of such
 * runs takes time quadratic in their number (90,000 characters of `*a_` took 85 s); a real
 * paragraph holds a few dozen. At this bound a paragraph costs ~10 ms at most, and 100,000 characters of them ~1.5 s (as much as an ordinary document of that size: 0.8-1.2 s).
 */
export const MAX_EMPHASIS_RUNS = 500

const QUOTE_MARKERS = /^(?: {0,3}>[ \t]?)*/
const FENCE = /^ {0,3}(`{3,}|~{3,})/
const BULLET = /^ {0,3}[-+*](?:[ \t]|$)/
const ORDERED = /^ {0,3}\d{1,9}[.)](?:[ \t]|$)/
const FIRST_ORDERED = /^ {0,3}0*1[.)](?:[ \t]|$)/
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/
const WORD_CHARACTER = /[\p{L}\p{N}]/u

/** The cells of a table row: split at each pipe no backslash escapes, an edge pipe opening or closing the row. */
function cellCount (row: string): number {
  const cells = row.trim().split(/(?<!\\)\|/)
  if (cells[0]!.trim() === '') cells.shift()
  if (cells.length > 0 && cells.at(-1)!.trim() === '') cells.pop()
  return cells.length
}

/** The runs of `*`, `_` and `~` in a line that may open or close emphasis (not escaped; a `_` not inside a word). */
function emphasisRuns (line: string): number {
  let runs = 0
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (c === '\\') { i++; continue }
    if (c !== '*' && c !== '_' && c !== '~') continue
    let end = i + 1
    while (line[end] === c) end++
    if (!(c === '_' && WORD_CHARACTER.test(line[i - 1] ?? '') && WORD_CHARACTER.test(line[end] ?? ''))) runs++
    i = end - 1
  }
  return runs
}

/**
 * The most emphasis runs in one paragraph, and the line it starts on, found in linear time without
 * parsing. Paragraphs are told apart as micromark does where it cannot be fooled: at blank lines,
 * headings, fences (whose code is not counted), list items (an ordered one within an ordered list
 * or numbered 1, as only those interrupt a paragraph) and the rows of a table; elsewhere lines run
 * on, so a count can only be too high, never too low.
 */
export function busiestParagraph (source: string): { runs: number, line: number } {
  const lines = source.split('\n')
  let most = { runs: 0, line: 1 }
  let runs = 0
  let start = 1
  let fence: string | undefined
  let ordered = false
  let table = false
  for (let n = 0; n < lines.length; n++) {
    const content = lines[n]!.replace(/\r$/, '').replace(QUOTE_MARKERS, '')
    if (fence !== undefined) {
      if (content.trimStart().startsWith(fence) && content.trim().replaceAll(fence[0]!, '') === '') fence = undefined
      continue
    }
    const opened = FENCE.exec(content)
    const blank = content.trim() === ''
    const isOrdered = ORDERED.test(content)
    const startsTable = !table && content.includes('|') && TABLE_DELIMITER.test(content) && n > 0 && cellCount(lines[n - 1]!.replace(QUOTE_MARKERS, '')) === cellCount(content)
    if (blank || opened !== null || table || startsTable || HEADING.test(content) || BULLET.test(content) || (isOrdered && (ordered || FIRST_ORDERED.test(content)))) {
      runs = 0
      // a blank line's paragraph starts after it
      start = blank ? n + 2 : n + 1
      if (!blank) ordered = isOrdered
    }
    if (blank) table = false
    else if (startsTable) table = true
    if (opened !== null) { fence = opened[1]!; continue }
    runs += emphasisRuns(content)
    if (runs > most.runs) most = { runs, line: start }
  }
  return most
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
  const busiest = busiestParagraph(source)
  if (busiest.runs > MAX_EMPHASIS_RUNS) throw tooDeep(path(), `the paragraph at line ${busiest.line} holds more than ${MAX_EMPHASIS_RUNS} emphasis markers (*, _ or ~)`)
  let tree: Root
  try {
    tree = parseMarkdown(source)
  } catch (err) {
    if (err instanceof RangeError) throw tooDeep(path(), 'it nests too deeply')
    throw err
  }
  if (treeDepth(tree) > MAX_TREE_DEPTH) throw tooDeep(path(), tooMany)
  placeAutolinks(tree, source)
  return tree
}
