/**
 * XML fragments for DeepL's `tag_handling: "xml"`: each one's markup as saxes (a parser the project
 * did not write) reads it, and seeded random nestings of inline elements, HTML's `<a>` and void
 * ones among them, whose HTML reading differs from XML's.
 */
import fc from 'fast-check'
import { SaxesParser } from 'saxes'

/**
 * The elements of an XML fragment, nested as it nests them, each with its attributes in order
 * (`<a href="/1">…</a>`, `<br/>`) and the elements it holds sorted (a translation moves words, and
 * the elements holding them, about a sentence); its text left out. An element holding no text
 * (`<br/>`, `<a id="x"></a>`) is a token of its sentence, which a translation may move anywhere
 * in it: such ones are listed apart, last. A well-formedness error throws, naming the fragment.
 */
export function xmlElements (fragment: string): string {
  const open: Array<{ held: string[], text: boolean }> = [{ held: [], text: true }]
  const tokens: string[] = []
  const parser = new SaxesParser({ xmlns: false, fragment: true })
  parser.on('opentag', () => open.push({ held: [], text: false }))
  parser.on('text', t => { if (t.trim() !== '') for (const element of open) element.text = true })
  parser.on('closetag', t => {
    const attributes = Object.entries(t.attributes).map(([name, value]) => ` ${name}="${String(value)}"`).join('')
    const { held, text } = open.pop()!
    const element = t.isSelfClosing ? `<${t.name}${attributes}/>` : `<${t.name}${attributes}>${held.sort().join('')}</${t.name}>`
    if (text) open[open.length - 1]!.held.push(element)
    else tokens.push(element)
  })
  parser.on('error', e => { throw new Error(`${e.message} in ${fragment}`) })
  parser.write(fragment).close()
  return `${open[0]!.held.sort().join('')} tokens: ${tokens.sort().join('')}`
}

/**
 * The start tags of a well-formed XML fragment as written, each with its attributes in order
 * (`<a href="/1">`, `<br/>`), once each, sorted: what a translation keeps of its markup whatever
 * it moves (and wherever it splits an element around words it moved). Ill-formed, it throws.
 */
export function xmlStartTags (fragment: string): string[] {
  const tags = new Set<string>()
  const parser = new SaxesParser({ xmlns: false, fragment: true })
  parser.on('opentag', t => {
    const attributes = Object.entries(t.attributes).map(([name, value]) => ` ${name}="${String(value)}"`).join('')
    tags.add(`<${t.name}${attributes}${t.isSelfClosing ? '/' : ''}>`)
  })
  parser.on('error', e => { throw new Error(`${e.message} in ${fragment}`) })
  parser.write(fragment).close()
  return [...tags].sort()
}

/** Phrases an English-Spanish engine reorders (adjective and noun). */
const PHRASES = ['The big ', 'red dog ', 'runs fast ', 'the small house ', 'near the green car ', 'is old. ']
const NAMES = ['a', 'b', 'span', 'input', 'br', 'p'] as const
const ATTRIBUTES = ['', ' href="/1"', ' id="x"', ' class="k" title="t"']

/** Well-formed fragments nesting a, b, span, input, br and p (self-closing or holding content), a few levels deep. */
export const nestedInline: fc.Arbitrary<string> = fc.letrec<{ content: string, element: string }>(tie => ({
  content: fc.array(fc.oneof({ depthIdentifier: 'inline', maxDepth: 4 }, fc.constantFrom(...PHRASES), { arbitrary: tie('element'), weight: 2 }), { maxLength: 4 }).map(parts => parts.join('')),
  element: fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...ATTRIBUTES), fc.nat(3), tie('content'))
    .map(([name, attributes, shape, content]) => shape === 0 ? `<${name}${attributes}/>` : `<${name}${attributes}>${content}</${name}>`)
})).content.filter(text => text.includes('<'))
