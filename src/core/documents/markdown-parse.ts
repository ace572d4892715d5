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
