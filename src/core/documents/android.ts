/**
 * application/vnd.android.strings+xml (Android string resources, res/values/strings.xml): the
 * text of each `<string>`, each `<item>` of a `<string-array>` and of a `<plurals>` is translated
 * in place; everything else is copied byte for byte (the XML declaration, comments, attributes,
 * white space between elements, other resources).
 *
 * The file is read with saxes, a strict XML parser that gives each tag's position: what it
 * refuses, and a root that is not `<resources>` or a `<plurals>` `<item>` without a valid
 * `quantity`, is a 400 naming the line. Translated text is spliced into the source, never
 * re-serialised.
 *
 * - Kept as they are: any element marked `translatable="false"` (a string, plurals or
 *   string-array), and a string or item whose text is a resource reference (`@string/name`,
 *   `?attr/name`).
 * - Format specifiers (`%1$s`, `%d`, `%.2f`, `%%`, `%n`) are always tokens, whatever
 *   `preserve_placeholders` says; so are the escapes `\n` and a backslash before a line break
 *   (aapt2 keeps the line break; both end a sentence), `\t`, `\\` and `\uXXXX`. `\'`, `\"`, `\@`,
 *   `\?` and any other escaped character are the text's own (aapt2 drops the backslash): the
 *   engine reads them as `'`, `"`, `@`, `?`, and translated text is escaped as Android needs
 *   (`'` -> `\'`, `"` -> `\"`, `\` -> `\\`, `&` and `<` as references, and an `@` or `?` that
 *   starts a string -> `\@`, `\?`). Unescaped double quotes (Android's quoting) stay where they are.
 * - Inline markup (`<b>`, `<i>`, `<u>`, `<font>`, `<a>`, `<annotation>`…) travels as tags do in
 *   HTML; an `<xliff:g>` element is one token, its content never translated.
 * - Entities a DOCTYPE declares (`<!ENTITY app_name "Termux">`, which aapt2 accepts): each
 *   reference (`&app_name;`) is a token kept as written and never expanded, so no declaration can
 *   grow the file; an external one (SYSTEM, PUBLIC) is kept the same way and never read. saxes
 *   reads no DTD, so the declared names are made known to it; any other reference is a 400.
 * - ICU messages (`{count, plural, one {# file} other {# files}}`): each sub-message is translated,
 *   the syntax kept (icu.ts).
 * - CDATA sections (HTML for `Html.fromHtml`): their elements are read as text/html reads them
 *   (elements.ts): a block (`<p>`, `<li>`, any element not inline) ends a run, so each is a
 *   segment and the white space between blocks stays as written; inline elements are tags,
 *   opaque ones tokens, and `<br>` ends a sentence; `<script>`, `<style>`, `<pre>`... and an
 *   element marked `translate="no"` or class `notranslate` are kept whole, and tags take HTML's
 *   attributes (`<font color=red>`, `<input disabled>`). The `<![CDATA[` and `]]>` markers stay, and
 *   translated text in them is escaped the same way (a reference for `<` and `&`, so `]]>` can
 *   never be written).
 * - Plurals: every item is a segment. Translated into a language (translate, bulk), the items are
 *   written for the target's CLDR plural categories (Intl.PluralRules(target)
 *   .resolvedOptions().pluralCategories, in the order zero, one, two, few, many, other): each
 *   category takes the translation of the source item of the same quantity, else of its `other`
 *   item (else its last); so from English `one` and `other`, Russian gets `one` from `one` and
 *   `few`, `many`, `other` from `other`, and Japanese `other` only. The new items are written
 *   with the source items' markup and the space between its first two items; what lay between
 *   the source's items (comments) is dropped then. When the target's categories are the source's,
 *   or for a language Intl does not know, or without a target (substitute, edit), the items are
 *   rebuilt in place.
 */
import { decodeHTMLStrict } from 'entities'
import { SaxesParser, type SaxesTag } from 'saxes'
import { invalidField, type FieldPath } from '../../errors.js'
import { alignText } from './align.js'
import { INLINE, OPAQUE, SKIP, untranslatable } from './elements.js'
import { RunBuilder, type TextFormat } from './run.js'
import { segmentMessageRun } from './icu.js'
import type { SegmentDraft } from './segment-run.js'
import { stringDocument, type StringDocument } from './skeleton.js'
import { xmlErrorAt } from './xml-error.js'
import { xmlChars } from './office/xml.js'

const COLLAPSE = /[ \t\n\r]+/g

function escapeAndroid (text: string): string {
  return xmlChars(text).replace(COLLAPSE, ' ').replace(/[\\'"&<>]/g, c => c === '\\' ? '\\\\' : c === "'" ? "\\'" : c === '"' ? '\\"' : c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')
}
const androidText: TextFormat = { escape: escapeAndroid, collapse: COLLAPSE }
/** For a segment that opens its string: a leading `@` or `?` would make it a reference. */
const androidTextAtStart: TextFormat = {
  escape: (text, atStart) => {
    const escaped = escapeAndroid(text)
    return atStart && /^[@?]/.test(escaped) ? '\\' + escaped : escaped
  },
  collapse: COLLAPSE
}

/**
 * Markup and tokens of a string's content: CDATA markers, comments, processing instructions,
 * tags, escapes, format specifiers, entity references, unescaped quotes. Tags take HTML's
 * attributes (unquoted values, no value): saxes has already held the XML outside CDATA sections
 * to quoted ones, and in a CDATA section `Html.fromHtml` reads `<font color=red>` as a tag.
 * Attribute names and unquoted values hold no `<`, so a tag is never looked for past the next one.
 */
const CONTENT = new RegExp([
  String.raw`(?<cdataOpen><!\[CDATA\[)`,
  String.raw`(?<cdataClose>\]\]>)`,
  String.raw`(?<comment><!--[\s\S]*?-->|<\?[\s\S]*?\?>)`,
  String.raw`(?<tag><(?<slash>\/?)(?<name>[A-Za-z_][\w:.-]*)(?<attributes>(?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>\x60]+))?)*)\s*(?<self>\/?)>)`,
  String.raw`(?<token>\\(?:u[0-9a-fA-F]{4}|[nt\\]|\r\n?|\n)|%(?:%|n|(?:\d+\$)?[-#+0,(<]*\d*(?:\.\d+)?[a-zA-Z]))`,
  String.raw`(?<escaped>\\[\s\S])`,
  String.raw`(?<entity>&[A-Za-z_:][\w:.-]*;)`,
  String.raw`(?<quote>")`
].join('|'), 'g')

/** An escape that is a line break: `\n`, and a backslash before a line break (aapt2 keeps the character after an unknown escape). */
const LINE_BREAK = /^\\[n\r\n]/

/** Elements of HTML without content, kept as one token in a CDATA section. */
const VOID = new Set(['br', 'embed', 'img', 'input', 'wbr'])

/** One attribute of a tag's `attributes` group: its name and its value, quoted or not (none: no value). */
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>`]+)))?/g

/** The value of a tag's attribute `name` (lower case), as written. */
function attributeOf (attributes: string, name: string): string | undefined {
  for (const m of attributes.matchAll(ATTRIBUTE)) if (m[1]!.toLowerCase() === name) return m[2] ?? m[3] ?? m[4] ?? ''
  return undefined
}

/** A character reference, numeric or by name. */
const REFERENCE = /&(?:#[xX][0-9a-fA-F]{1,8}|#\d{1,8}|[A-Za-z][A-Za-z0-9]{1,31});/g

/** Elements whose content is raw text in HTML: no tag in it, of their name or not, is one. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'xmp', 'plaintext', 'noembed', 'noframes'])

/**
 * Where an element whose start tag ends at `from` ends, in a CDATA section that ends at `limit`:
 * after its end tag (the elements of its name inside it counted, except in raw text such as a
 * script's), else at `limit`, as a parser reads an unclosed `<script>`.
 */
function elementEnd (source: string, name: string, from: number, limit: number): number {
  const tags = new RegExp(`<(/?)${name.replace(/\./g, '\\.')}(?![\\w:.-])`, 'gi')
  tags.lastIndex = from
  let depth = 1
  for (let m = tags.exec(source); m !== null && m.index < limit; m = tags.exec(source)) {
    if (m[1] === '') {
      if (!RAW_TEXT.has(name)) depth++
    } else if (--depth === 0) {
      const end = source.indexOf('>', m.index)
      return end === -1 || end >= limit ? limit : end + 1
    }
  }
  return limit
}

/**
 * Item-level pieces of a content string, before pairing tags. In a CDATA section (HTML for
 * `Html.fromHtml`), elements are read as text/html reads them (elements.ts): an inline one is a
 * tag, an opaque one a token with its content, and any other (`<p>`, `<li>`, `<div>`) a block
 * that ends the run. As text/html keeps them, a `<script>`, `<style>`, `<pre>`... and an element
 * marked `translate="no"` or class `notranslate` are kept whole: a block left out, or a token
 * when inline.
 */
interface Mark {
  start: number
  end: number
  kind: 'weak' | 'token' | 'break' | 'tag' | 'block'
  name?: string
  closing?: boolean
  /** An opaque element's tag in a CDATA section: paired, the whole element is one token. */
  opaque?: boolean
}

/** The segment drafts of a string's content `source` (offsets from 0); `entities`: those the file's DOCTYPE declares. */
function contentDrafts (source: string, locale: string, entities: ReadonlySet<string>): SegmentDraft[] {
  const marks: Mark[] = []
  const pattern = new RegExp(CONTENT.source, 'g')
  const lower = source.toLowerCase()
  let cdata = false
  // where the CDATA section being read ends
  let cdataEnd = source.length
  for (let m = pattern.exec(source); m !== null; m = pattern.exec(source)) {
    const g = m.groups!
    const range = { start: m.index, end: m.index + m[0].length }
    if (g.tag !== undefined) {
      const name = g.name!.toLowerCase()
      if (name === 'xliff:g' && g.slash === '' && g.self === '') {
        // the whole element, content never translated
        const close = lower.indexOf('</xliff:g', range.end)
        const end = close === -1 ? -1 : source.indexOf('>', close)
        marks.push({ kind: 'token', start: range.start, end: end === -1 ? range.end : end + 1 })
        pattern.lastIndex = end === -1 ? range.end : end + 1
      } else if (cdata && g.slash === '' && g.self === '' && !VOID.has(name) && (SKIP.has(name) || untranslatable(a => attributeOf(g.attributes!, a)))) {
        const end = elementEnd(source, name, range.end, cdataEnd)
        marks.push({ kind: INLINE.has(name) || OPAQUE.has(name) ? 'token' : 'block', start: range.start, end })
        pattern.lastIndex = end
      } else if (cdata && !INLINE.has(name) && !OPAQUE.has(name)) marks.push({ kind: 'block', ...range })
      else if (cdata && VOID.has(name)) marks.push({ kind: name === 'br' ? 'break' : name === 'wbr' ? 'weak' : 'token', ...range })
      else if (g.self !== '') marks.push({ kind: 'token', ...range })
      else marks.push({ kind: 'tag', ...range, name, closing: g.slash === '/', opaque: cdata && OPAQUE.has(name) })
    } else if (g.escaped !== undefined) continue
    else if (g.entity !== undefined) {
      // a declared entity's reference is a token, kept as written (never expanded); `&amp;` and the like are text
      if (entities.has(m[0].slice(1, -1))) marks.push({ kind: 'token', ...range })
    } else if (g.token !== undefined) marks.push({ kind: LINE_BREAK.test(m[0]) ? 'break' : 'token', ...range })
    else {
      if (g.cdataOpen !== undefined || g.cdataClose !== undefined) cdata = g.cdataOpen !== undefined
      if (g.cdataOpen !== undefined) {
        const close = source.indexOf(']]>', range.end)
        cdataEnd = close === -1 ? source.length : close
      }
      marks.push({ kind: 'weak', ...range })
    }
  }
  // pairs open tags with their close by name, within a block; the rest are weak tokens. A count
  // of the open tags of each name: a close with none open is never looked for in the stack
  const pairOf = new Map<number, number>()
  const stack: Array<[string, number]> = []
  const opened = new Map<string, number>()
  marks.forEach((mark, k) => {
    if (mark.kind === 'block') {
      stack.length = 0
      opened.clear()
    }
    if (mark.kind !== 'tag') return
    if (mark.closing !== true) {
      stack.push([mark.name!, k])
      opened.set(mark.name!, (opened.get(mark.name!) ?? 0) + 1)
      return
    }
    if ((opened.get(mark.name!) ?? 0) === 0) return
    // tags left open inside this element stay single tokens
    for (let [name, at] = stack.pop()!; ; [name, at] = stack.pop()!) {
      opened.set(name, opened.get(name)! - 1)
      if (name === mark.name) {
        pairOf.set(at, k)
        break
      }
    }
  })
  const closes = new Set(pairOf.values())
  const run = new RunBuilder()
  const text = (start: number, end: number): void => {
    if (end <= start) return
    const raw = source.slice(start, end)
    // XML's references, and in a CDATA section HTML's (`&nbsp;`, `&copy;`: Html.fromHtml reads them; XML outside one refuses them unless declared, and a declared one is a token)
    const decoded = raw.replace(REFERENCE, reference => decodeHTMLStrict(reference)).replace(/\\(.)/g, '$1')
    run.push({ kind: 'text', start, end, text: decoded, offsets: alignText(decoded, source, start, end, { escapes: true }) })
  }
  let at = 0
  // where the string's first visible character is: a segment starting there opens the string
  let firstVisible = -1
  const visible = (start: number, end: number): void => {
    if (firstVisible !== -1 || end <= start) return
    const lead = /\S/.exec(source.slice(start, end))
    if (lead !== null) firstVisible = start + lead.index
  }
  const drafts: SegmentDraft[] = []
  const flush = (): void => { drafts.push(...segmentMessageRun(run.take(), androidText, locale)) }
  for (let k = 0; k < marks.length; k++) {
    const mark = marks[k]!
    visible(at, mark.start)
    text(at, mark.start)
    const close = pairOf.get(k)
    if (mark.kind === 'block') flush()
    else if (mark.opaque === true && close !== undefined) {
      run.push({ kind: 'token', start: mark.start, end: marks[close]!.end, weak: false, breaks: false })
      k = close
    } else if (close !== undefined) run.push({ kind: 'open', start: mark.start, end: mark.end })
    else if (closes.has(k)) run.push({ kind: 'close', start: mark.start, end: mark.end })
    else run.push({ kind: 'token', start: mark.start, end: mark.end, weak: mark.kind !== 'token', breaks: mark.kind === 'break' })
    at = marks[k]!.end
  }
  visible(at, source.length)
  text(at, source.length)
  flush()
  // a segment with no visible text before it opens the string: its leading @ or ? is escaped
  return drafts.map(d => d.start <= firstVisible ? { ...d, format: androidTextAtStart } : d)
}

/** A range of the file translated on its own, and how its translation is written. */
interface Part {
  start: number
  end: number
  segments: string[]
  rebuild: (translated: readonly string[], target: string | undefined) => string
}

interface Element {
  name: string
  attributes: Record<string, string>
  /** Where its start tag begins and its end tag ends. */
  start: number
  end: number
  /** Its content. */
  contentStart: number
  contentEnd: number
  line: number
  children: Element[]
}

const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other']
const QUANTITY = /(\squantity\s*=\s*)(["'])[^"']*\2/

/** The CLDR plural categories of a language, or undefined when Intl does not know it. */
function categoriesOf (tag: string): string[] | undefined {
  try {
    if (Intl.PluralRules.supportedLocalesOf(tag).length === 0) return undefined
    const own = new Intl.PluralRules(tag).resolvedOptions().pluralCategories as string[]
    return CATEGORIES.filter(c => own.includes(c))
  } catch {
    return undefined
  }
}

/** A document over the content of one element. */
function contentDocument (source: string, element: Element, locale: string, entities: ReadonlySet<string>): StringDocument {
  return stringDocument(source.slice(element.contentStart, element.contentEnd), contentDrafts(source.slice(element.contentStart, element.contentEnd), locale, entities))
}

function stringPart (source: string, element: Element, locale: string, entities: ReadonlySet<string>): Part {
  const doc = contentDocument(source, element, locale, entities)
  return { start: element.contentStart, end: element.contentEnd, segments: doc.segments, rebuild: translated => doc.rebuild(translated) }
}

function pluralsPart (source: string, items: Element[], locale: string, entities: ReadonlySet<string>): Part {
  const docs = items.map(item => contentDocument(source, item, locale, entities))
  const start = items[0]!.start
  const end = items.at(-1)!.end
  const quantities = items.map(item => item.attributes.quantity!)
  const between = items.length > 1 ? source.slice(items[0]!.end, items[1]!.start) : ''
  return {
    start,
    end,
    segments: docs.flatMap(d => d.segments),
    rebuild: (translated, target) => {
      let k = 0
      const texts = docs.map(doc => {
        const own = translated.slice(k, k + doc.segments.length)
        k += own.length
        return doc.rebuild(own)
      })
      // an item with its content written
      const written = (i: number, quantity?: string): string => {
        const item = items[i]!
        let open = source.slice(item.start, item.contentStart)
        if (quantity !== undefined) open = open.replace(QUANTITY, (_, lead: string, q: string) => `${lead}${q}${quantity}${q}`)
        return open + texts[i] + source.slice(item.contentEnd, item.end)
      }
      const categories = target === undefined ? undefined : categoriesOf(target)
      if (categories === undefined || (categories.length === quantities.length && categories.every(c => quantities.includes(c)))) {
        let out = ''
        let at = start
        items.forEach((item, i) => {
          out += source.slice(at, item.start) + written(i)
          at = item.end
        })
        return out + source.slice(at, end)
      }
      const fallback = quantities.includes('other') ? quantities.indexOf('other') : items.length - 1
      return categories.map(c => written(quantities.includes(c) ? quantities.indexOf(c) : fallback, c)).join(between === '' ? '' : between)
    }
  }
}

/** An entity declaration and its name; a parameter entity (`<!ENTITY % …>`) is not a general one. No two quantifiers share the blanks: linear. */
const DECLARATION = /<!ENTITY\s+(%\s+)?([^\s%"'<>]+)/g

/** A DTD without its comments (an unclosed one runs to the end), found with indexOf: linear however many `<!--` it holds. */
function withoutComments (dtd: string): string {
  let out = ''
  let at = 0
  for (let open = dtd.indexOf('<!--'); open >= 0; open = dtd.indexOf('<!--', at)) {
    out += dtd.slice(at, open)
    const close = dtd.indexOf('-->', open + 4)
    if (close < 0) return out
    at = close + 3
  }
  return out + dtd.slice(at)
}

/** The general entities a DOCTYPE's internal subset declares, internal or external alike. */
function declaredEntities (doctype: string): string[] {
  const names: string[] = []
  for (const m of withoutComments(doctype).matchAll(DECLARATION)) if (m[1] === undefined) names.push(m[2]!)
  return names
}

/** Reads the file: its elements as a tree and the entities its DOCTYPE declares, or a 400 naming the line. */
function readTree (source: string, path: () => FieldPath): { root: Element, entities: Set<string> } {
  const parser = new SaxesParser({ position: true, xmlns: false })
  const entities = new Set<string>()
  // saxes reads no DTD: a declared entity is made known to it (its references are kept as written, never expanded)
  parser.on('doctype', doctype => {
    for (const name of declaredEntities(doctype)) {
      if (name in parser.ENTITIES) continue
      entities.add(name)
      parser.ENTITIES[name] = ''
    }
  })
  const stack: Element[] = []
  let root: Element | undefined
  let failure: Error | undefined
  parser.on('error', err => {
    const at = xmlErrorAt(err.message)
    failure ??= invalidField(path(), at === undefined ? err.message : `line ${at.line}: ${at.reason} (not well-formed XML)`)
    throw failure
  })
  parser.on('opentag', (tag: SaxesTag) => {
    const end = parser.position
    const start = source.lastIndexOf('<', end - 1)
    const element: Element = { name: tag.name, attributes: tag.attributes as Record<string, string>, start, end, contentStart: end, contentEnd: end, line: parser.line, children: [] }
    if (stack.length === 0) root = element
    else stack.at(-1)!.children.push(element)
    if (tag.isSelfClosing) return
    stack.push(element)
  })
  parser.on('closetag', (tag: SaxesTag) => {
    if (tag.isSelfClosing) return
    const element = stack.pop()!
    element.end = parser.position
    element.contentEnd = source.lastIndexOf('<', parser.position - 1)
  })
  try {
    parser.write(source).close()
  } catch (err) {
    throw failure ?? err
  }
  if (root === undefined) throw invalidField(path(), 'line 1: expected a <resources> element')
  if (root.name !== 'resources') throw invalidField(path(), `line ${root.line}: the root element must be <resources>, not <${root.name}>`)
  return { root, entities }
}

/** Whether an element's text is a resource reference rather than text. */
function isReference (source: string, element: Element): boolean {
  return /^\s*"?\s*[@?][\w:.]*\/?[\w.]+\s*"?\s*$/.test(source.slice(element.contentStart, element.contentEnd))
}

/** An Android strings.xml file as a string document; a 400 naming the line where it is not one. */
export function androidDocument (source: string, locale: string, path: () => FieldPath): StringDocument {
  const { root, entities } = readTree(source, path)
  const parts: Part[] = []
  for (const element of root.children) {
    if (element.attributes.translatable === 'false') continue
    if (element.name === 'string') {
      if (element.contentEnd > element.contentStart && !isReference(source, element)) parts.push(stringPart(source, element, locale, entities))
    } else if (element.name === 'string-array') {
      for (const item of element.children) {
        if (item.name === 'item' && item.contentEnd > item.contentStart && !isReference(source, item)) parts.push(stringPart(source, item, locale, entities))
      }
    } else if (element.name === 'plurals') {
      const items = element.children.filter(c => c.name === 'item')
      for (const item of items) {
        if (!CATEGORIES.includes(item.attributes.quantity ?? '')) {
          throw invalidField(path(), `line ${item.line}: a <plurals> <item> needs quantity="zero|one|two|few|many|other"`)
        }
      }
      if (items.length > 0 && new Set(items.map(i => i.attributes.quantity)).size === items.length) parts.push(pluralsPart(source, items, locale, entities))
      else if (items.length > 0) throw invalidField(path(), `line ${element.line}: a <plurals> element has one <item> per quantity`)
    }
  }
  const segments = parts.flatMap(p => p.segments)
  return {
    segments,
    rebuild: (translated, target) => {
      if (translated.length !== segments.length) throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
      let out = ''
      let at = 0
      let k = 0
      for (const part of parts) {
        const own = translated.slice(k, k + part.segments.length)
        k += own.length
        out += source.slice(at, part.start) + part.rebuild(own, target)
        at = part.end
      }
      return out + source.slice(at)
    }
  }
}
