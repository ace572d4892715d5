/**
 * Elements kept whole through a text/html document (what DeepL's `tag_handling` and `ignore_tags`
 * ask, src/compat/deepl/): part of reading and rebuilding the document (./segment.ts), so it runs
 * where the rest of its work does (inline when cheap, else on the thread pool, within the request's
 * budget). Each element named in `ignore` (Weblate's placeholders `<x id="1"></x>`) and, with `xml`,
 * each self-closing element (`<ph/>`, which an HTML parser would read as an open element holding
 * the rest) is swapped for an opaque inline stand-in (`<img>` with the request's nonce), which the
 * HTML reading keeps whole inside its sentence; the rebuilt text gets the original bytes back in
 * its place, in one pass. Elements are found by parse5, the parser text/html is read with.
 */
import { randomBytes } from 'node:crypto'
import { parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5'
import { invalidField, type FieldPath } from '../../errors.js'

/** A tag name as `ignore_tags` may give it. */
export const TAG_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,99}$/

/** Elements one document may keep whole: each is a token of its sentence, and more only make work (SECURITY.md). */
export const MAX_KEPT_ELEMENTS = 10_000

/** Which elements of a text/html document are kept whole, as plain data (it travels to the pool's threads). */
export interface KeptElements {
  /** Self-closing elements are kept as written, and no HTML-only entity (`&nbsp;`) is written. */
  xml: boolean
  /** Lower-case names of elements kept with their content. */
  ignore: readonly string[]
  /** Marks the request's stand-ins: the same for its reading and its rebuilding, unknown to the client. */
  nonce: string
}

/** The kept elements of one request's documents. */
export function keptElements (xml: boolean, ignore: Iterable<string>): KeptElements {
  return { xml, ignore: [...new Set([...ignore].map(n => n.toLowerCase()))], nonce: randomBytes(6).toString('hex') }
}

interface Span { start: number, end: number }

/** The markup's elements, each with its place in the text. */
const parse = (text: string): T.DocumentFragment => parseFragment(text, { sourceCodeLocationInfo: true, scriptingEnabled: false })

/**
 * The spans `pick` selects among the elements of `root`, in document order: outermost only, unless
 * `within` (a start tag's span holds no other element: the parser's children of a self-closing one
 * are the elements after it). More than `max` is a 400 at `path`.
 */
function spans (root: T.DocumentFragment, pick: (el: T.Element) => Span | undefined, max: number, path: () => FieldPath, within = false): Span[] {
  const out: Span[] = []
  const work: T.Node[] = [...root.childNodes].reverse()
  while (work.length > 0) {
    const node = work.pop()!
    if (!('tagName' in node)) continue
    const el = node
    const span = el.sourceCodeLocation == null ? undefined : pick(el)
    if (span !== undefined) {
      if (out.length >= max) throw invalidField(path(), `holds more than ${MAX_KEPT_ELEMENTS.toLocaleString('en')} elements to keep whole (self-closing elements of XML, ignored elements); split it`)
      out.push(span)
      if (!within) continue
    }
    const children = el.tagName === 'template' ? (el as T.Template).content.childNodes : el.childNodes
    for (let i = children.length - 1; i >= 0; i--) work.push(children[i]!)
  }
  // a misnested element may be cloned by the parser with its original's location: keep each span once, none inside another
  out.sort((a, b) => a.start - b.start || b.end - a.end)
  return out.filter((s, i) => i === 0 || s.start >= out[i - 1]!.end)
}

export interface Protected {
  /** The text read as text/html. */
  text: string
  /** The rebuilt text with each stand-in replaced by what it stood for. */
  restore: (rebuilt: string) => string
}

/** Swaps the spans for stand-ins, recording what each stood for. */
function swap (text: string, found: Span[], nonce: string, kept: string[]): string {
  const parts: string[] = []
  let at = 0
  for (const { start, end } of found) {
    parts.push(text.slice(at, start), `<img data-deepl-keep="${nonce}-${kept.length}">`)
    kept.push(text.slice(start, end))
    at = end
  }
  parts.push(text.slice(at))
  return parts.join('')
}

/**
 * A text/html document's text with its kept elements swapped for stand-ins, and the restore that
 * puts them back. More than MAX_KEPT_ELEMENTS in all is a 400 at `path`.
 */
export function protectMarkup (text: string, kept: KeptElements, path: () => FieldPath = () => ['document', 'value']): Protected {
  const originals: string[] = []
  let work = text
  let root: T.DocumentFragment | undefined
  if (kept.xml) {
    root = parse(text)
    const selfClosing = spans(root, el => {
      const tag = el.sourceCodeLocation!.startTag
      return tag !== undefined && text.startsWith('/>', tag.endOffset - 2) ? { start: tag.startOffset, end: tag.endOffset } : undefined
    }, MAX_KEPT_ELEMENTS, path, true)
    work = swap(text, selfClosing, kept.nonce, originals)
    // read again only when the stand-ins changed the markup
    if (selfClosing.length > 0) root = undefined
  }
  if (kept.ignore.length > 0) {
    const names = new Set(kept.ignore)
    const ignored = spans(root ?? parse(work), el => names.has(el.tagName) ? { start: el.sourceCodeLocation!.startOffset, end: el.sourceCodeLocation!.endOffset } : undefined,
      MAX_KEPT_ELEMENTS - originals.length, path)
    work = swap(work, ignored, kept.nonce, originals)
  }
  if (originals.length === 0 && !kept.xml) return { text, restore: rebuilt => rebuilt }
  // the nonce is ours (hex), never the client's
  const standIn = new RegExp(`<img data-deepl-keep="${kept.nonce}-(\\d+)">`, 'g')
  // an ignored element's bytes may hold stand-ins of self-closing ones swapped before (lower numbers): each is expanded once
  const expanded: string[] = []
  for (const [i, original] of originals.entries()) expanded.push(original.replace(standIn, (m, n: string) => Number(n) < i ? expanded[Number(n)]! : m))
  return {
    text: work,
    restore (rebuilt) {
      // the kept elements' own bytes come back as written, entities included
      const out = kept.xml ? rebuilt.replaceAll('&nbsp;', '&#160;') : rebuilt
      return originals.length === 0 ? out : out.replace(standIn, (m, n: string) => expanded[Number(n)] ?? m)
    }
  }
}
