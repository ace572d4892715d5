/**
 * Reads an Android strings.xml as Android would, with saxes (a strict XML parser): the text of
 * each string, string-array item and plurals item, with Android's escapes and quoting undone and
 * the internal entities of its DOCTYPE expanded (`<!ENTITY app_name "Termux">`, as aapt2 reads
 * them); and the content of each string's CDATA sections as written (the HTML `Html.fromHtml`
 * reads). Throws where the file is not well-formed XML.
 */
import { parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5'
import { SaxesParser } from 'saxes'

export interface AndroidStrings {
  strings: Record<string, string>
  arrays: Record<string, string[]>
  plurals: Record<string, Record<string, string>>
  /** A string's CDATA sections, their content joined. */
  cdata: Record<string, string>
}

/**
 * Android's reading of a resource's raw text (markup removed): quotes, escapes (aapt2 drops a
 * backslash before a character it does not know and keeps the character: `\` + line break is a
 * line break, `\a` an `a`), white space.
 */
export function androidValue (raw: string): string {
  let out = ''
  let quoted = false
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!
    if (c === '\\' && i + 1 < raw.length) {
      const n = raw[++i]!
      if (n === 'u') {
        out += String.fromCharCode(parseInt(raw.slice(i + 1, i + 5), 16))
        i += 4
      } else out += n === 'n' ? '\n' : n === 't' ? '\t' : n
    } else if (c === '"') quoted = !quoted
    else if (c === "'" && !quoted) throw new Error(`unescaped apostrophe in ${JSON.stringify(raw)}`)
    else if (/\s/.test(c) && !quoted) {
      if (!out.endsWith(' ')) out += ' '
    } else out += c
  }
  return out.trim()
}

export function readAndroidStrings (xml: string): AndroidStrings {
  const result: AndroidStrings = { strings: {}, arrays: {}, plurals: {}, cdata: {} }
  const parser = new SaxesParser({ xmlns: false })
  parser.on('doctype', doctype => {
    for (const m of doctype.matchAll(/<!ENTITY\s+([^\s%"'<>]+)\s+(?:"([^"]*)"|'([^']*)')/g)) parser.ENTITIES[m[1]!] = m[2] ?? m[3]!
  })
  const stack: Array<{ name: string, attributes: Record<string, string> }> = []
  let text = ''
  let cdata: string | undefined
  let depth = 0
  let xliff = 0
  parser.on('opentag', tag => {
    const attributes = tag.attributes as Record<string, string>
    stack.push({ name: tag.name, attributes })
    if (tag.name === 'xliff:g') xliff++
    if (stack.length === 2 || (stack.length === 3 && tag.name === 'item')) {
      text = ''
      cdata = undefined
      depth = stack.length
    }
  })
  parser.on('text', t => { if (stack.length >= depth) text += t })
  parser.on('cdata', t => {
    if (stack.length < depth) return
    text += t
    cdata = (cdata ?? '') + t
  })
  parser.on('closetag', tag => {
    const top = stack.pop()!
    if (tag.name === 'xliff:g') xliff--
    const parent = stack.at(-1)
    if (stack.length === 1 && top.name === 'string') {
      result.strings[top.attributes.name!] = androidValue(text)
      if (cdata !== undefined) result.cdata[top.attributes.name!] = cdata
    }
    if (stack.length === 2 && top.name === 'item' && parent?.name === 'string-array') (result.arrays[parent.attributes.name!] ??= []).push(androidValue(text))
    if (stack.length === 2 && top.name === 'item' && parent?.name === 'plurals') (result.plurals[parent.attributes.name!] ??= {})[top.attributes.quantity!] = androidValue(text)
  })
  parser.write(xml).close()
  if (xliff !== 0) throw new Error('unbalanced xliff:g')
  return result
}

export type ElementTree = Array<[string, ElementTree]>

/** The elements of the HTML in a CDATA section as an HTML parser (parse5) reads it, as Html.fromHtml would: each one's name and children. */
export function htmlElementTree (html: string): ElementTree {
  const walk = (node: T.ParentNode): ElementTree => node.childNodes.filter((n): n is T.Element => 'tagName' in n).map(e => [e.tagName, walk(e)])
  return walk(parseFragment(html))
}

/** The layout of HTML as written: each line's indentation and the tags on it. */
export function htmlLayout (html: string): Array<[string, string[]]> {
  return html.split('\n').map(line => [/^\s*/.exec(line)![0], line.match(/<\/?[A-Za-z][\w:-]*/g) ?? []])
}
