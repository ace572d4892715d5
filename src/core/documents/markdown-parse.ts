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
    if (err instanceof RangeError) throw tooDeep(path(), 'it nests too deeply')
    throw err
  }
  if (treeDepth(tree) > MAX_TREE_DEPTH) throw tooDeep(path(), tooMany)
  return tree
}
