/**
 * Markdown source to mdast (CommonMark + GFM + front matter). This module imports packages only,
 * so the parser worker can load it from src (.ts) and from dist (.js) alike.
 */
import type { Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { frontmatter } from 'micromark-extension-frontmatter'
import { gfm } from 'micromark-extension-gfm'

/** The mdast tree of a Markdown source, with positions. */
export function parseMarkdown (source: string): Root {
  return fromMarkdown(source, {
    extensions: [gfm(), frontmatter(['yaml', 'toml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml'])]
  })
}
