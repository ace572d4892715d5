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

/**
 * Elements left untouched, content included, that also end a run; among them HTML's raw-text
 * elements, whose content no character reference or tag is read in (`noembed`'s and `noframes'`
 * translated text came back with `&lt;b&gt;` a browser shows as written).
 */
export const SKIP = new Set(['script', 'style', 'pre', 'template', 'textarea', 'xmp', 'plaintext', 'listing', 'noembed', 'noframes'])

/** Whether an element opts out of translation (`translate="no"`, class `notranslate`), given its attributes. */
export function untranslatable (attribute: (name: string) => string | undefined): boolean {
  return attribute('translate')?.trim().toLowerCase() === 'no' ||
    (attribute('class') ?? '').split(/\s+/).includes('notranslate')
}
