/** How HTML elements take part in a sentence (shared by HTML documents and HTML inside Markdown). */

/** Inline elements whose text is translated with the sentence around them, as `<g>` pairs. */
export const INLINE = new Set([
  'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'cite', 'data', 'del', 'dfn', 'em', 'font', 'i',
  'ins', 'label', 'mark', 'nobr', 'output', 'q', 's', 'small', 'span', 'strike', 'strong', 'sub',
  'sup', 'time', 'tt', 'u', 'var'
])

/** Inline elements kept whole, content included, as one `<x/>` token. */
export const OPAQUE = new Set([
  'audio', 'br', 'canvas', 'code', 'embed', 'iframe', 'img', 'input', 'kbd', 'math', 'meter',
  'object', 'picture', 'progress', 'ruby', 'samp', 'svg', 'video', 'wbr'
])
