/**
 * Markdown source to mdast (CommonMark + GFM + front matter). This module imports packages only,
 * so the parser worker can load it from src (.ts) and from dist (.js) alike.
 */
import type { Nodes, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { frontmatter } from 'micromark-extension-frontmatter'
import { gfm } from 'micromark-extension-gfm'

/**
 * Deeper trees are refused: posting one from the parser worker (4 MB stack) back to the main
 * thread (under 1 MB) would overflow the main thread's stack. Sources small enough to parse
 * inline cannot nest this deep within the main thread's limits (1,000 block quotes parse there).
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
 * nest thousands of levels deep is refused before it occupies a parser thread for seconds. A
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
