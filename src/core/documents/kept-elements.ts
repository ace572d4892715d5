/**
 * Elements kept whole through a text/html translation (what DeepL's `tag_handling` and
 * `ignore_tags` ask, src/compat/deepl/), on top of core's text/html documents. Markup goes to
 * core as HTML (its text translated, everything else copied byte for byte). Before that, each
 * element named in `ignore_tags` (Weblate's placeholders `<x id="1"></x>`) and, for
 * `tag_handling: xml`, each self-closing element (`<ph/>`, which an HTML parser would read as an
 * open element holding the rest) is swapped for an opaque inline stand-in (`<img>` with a
 * per-request nonce), which core keeps whole inside its sentence; the answer gets the original
 * bytes back in its place. Elements are found by parse5, the parser core reads HTML with.
 */
import { randomBytes } from 'node:crypto'
import { parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5'

/** A tag name as `ignore_tags` may give it. */
export const TAG_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,99}$/

interface Span { start: number, end: number }

/**
 * The spans `pick` selects among the elements, in document order: outermost only, unless `within`
 * (a start tag's span holds no other element: the parser's children of a self-closing one are the
 * elements after it).
 */
function spans (text: string, pick: (el: T.Element, raw: (s: number, e: number) => string) => Span | undefined, within = false): Span[] {
  const out: Span[] = []
  const root = parseFragment(text, { sourceCodeLocationInfo: true, scriptingEnabled: false })
  const raw = (s: number, e: number): string => text.slice(s, e)
  const work: T.Node[] = [...root.childNodes].reverse()
  while (work.length > 0) {
    const node = work.pop()!
    if (!('tagName' in node)) continue
    const el = node
    const span = el.sourceCodeLocation == null ? undefined : pick(el, raw)
    if (span !== undefined) {
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
  /** The text core translates. */
  text: string
  /** The translated text with each stand-in replaced by what it stood for. */
  restore: (translated: string) => string
}

/** Swaps the spans for stand-ins, recording what each stood for. */
function swap (text: string, found: Span[], nonce: string, kept: Array<[string, string]>): string {
  let out = ''
  let at = 0
  for (const { start, end } of found) {
    const standIn = `<img data-deepl-keep="${nonce}-${kept.length}">`
    kept.push([standIn, text.slice(start, end)])
    out += text.slice(at, start) + standIn
    at = end
  }
  return out + text.slice(at)
}

/**
 * Markup ready for core's text/html: `ignore` names elements kept untouched with their content;
 * `xml` keeps self-closing elements as they are and writes no HTML-only entity (`&nbsp;`).
 */
export function protectMarkup (text: string, options: { xml: boolean, ignore: ReadonlySet<string> }): Protected {
  const nonce = randomBytes(6).toString('hex')
  const kept: Array<[string, string]> = []
  let work = text
  if (options.xml) {
    const selfClosing = spans(work, (el, raw) => {
      const tag = el.sourceCodeLocation!.startTag
      return tag !== undefined && raw(tag.startOffset, tag.endOffset).endsWith('/>') ? { start: tag.startOffset, end: tag.endOffset } : undefined
    }, true)
    work = swap(work, selfClosing, nonce, kept)
  }
  if (options.ignore.size > 0) {
    const ignored = spans(work, el => options.ignore.has(el.tagName) ? { start: el.sourceCodeLocation!.startOffset, end: el.sourceCodeLocation!.endOffset } : undefined)
    work = swap(work, ignored, nonce, kept)
  }
  return {
    text: work,
    restore (translated) {
      let out = translated
      // the last swapped first: an ignored element's bytes may hold a self-closing one's stand-in
      for (let i = kept.length - 1; i >= 0; i--) out = out.split(kept[i]![0]).join(kept[i]![1])
      return options.xml ? out.split('&nbsp;').join('&#160;') : out
    }
  }
}
