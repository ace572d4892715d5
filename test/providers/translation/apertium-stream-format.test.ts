import { describe, expect, it } from 'vitest'
import { parseTagged, serializeTagged } from '../../../src/core/tagged.js'
import { decodeSegment } from '../../../src/providers/apertium/stream/decode.js'
import { encodeSegment, escapeStream } from '../../../src/providers/apertium/stream/encode.js'
import { tidy } from '../../../src/providers/apertium/tidy.js'

const encode = (tagged: string): string => encodeSegment(parseTagged(tagged))
const decode = (answer: string, sourceTagged: string): string => serializeTagged(decodeSegment(answer, parseTagged(sourceTagged)))
const tidied = (outputTagged: string, sourceTagged: string): string => serializeTagged(tidy(parseTagged(outputTagged), parseTagged(sourceTagged)))

describe('encoding tagged segments for Apertium', () => {
  it('escapes every character the stream format reserves', () => {
    expect(escapeStream('\\ [ ] ^ $ / < > @ { }')).toBe('\\\\ \\[ \\] \\^ \\$ \\/ \\< \\> \\@ \\{ \\}')
    expect(encode('a &lt;b&gt; &amp; {c} @d')).toBe('a \\<b\\> & \\{c\\} \\@d.[]')
  })

  it('ends a segment with .[] and every line break with a sentence end and a superblank', () => {
    expect(encode('one')).toBe('one.[]')
    expect(encode('one\ntwo')).toBe('one.[][\n]two.[]')
    expect(encode('one\n\n  two')).toBe('one.[][\n\n  ]two.[]')
    expect(encode('a\tb')).toBe('a.[][\t]b.[]')
  })

  it('puts ~ and control characters in superblanks, and drops NUL', () => {
    expect(encode('a ~ b')).toBe('a[ ~ ]b.[]')
    expect(encode('a\u0001b\u0000c')).toBe('a[\u0001]bc.[]')
  })

  it('turns <g> into word-bound blanks on its words, naming only the innermost group', () => {
    expect(encode('The <g id="1">red</g> car')).toBe('The [[t:g:1]]red[[/]] car.[]')
    // the groups around it follow from the source's nesting when the answer is read
    expect(encode('<g id="1">very <g id="2">big</g> </g>house')).toBe('[[t:g:1]]very[[/]] [[t:g:2]]big[[/]] house.[]')
  })

  it('widens a group that starts or ends inside a word to the whole word', () => {
    expect(encode('an un<g id="1">believ</g>able story')).toBe('an [[t:g:1]]unbelievable[[/]] story.[]')
  })

  it('turns protected tokens and empty groups into an unknown word in a word-bound blank', () => {
    expect(encode('Hello <x id="3"/>!')).toBe('Hello [[t:x:3]]Zxqv[[/]]!.[]')
    expect(encode('<g id="1">to <x id="2"/></g>')).toBe('[[t:g:1]]to[[/]] [[t:g:1;t:x:2]]Zxqv[[/]].[]')
    expect(encode('Click <g id="4"> </g>here')).toBe('Click [[t:e:4]]Zxqv[[/]] here.[]')
  })

  it('gives tokens a longer word when the text contains the token word, in any case', () => {
    expect(encode('Hello zxqv <x id="1"/>')).toBe('Hello zxqv [[t:x:1]]Zxqvx[[/]].[]')
    expect(encode('ZXQVXX and zxqvx <x id="1"/>')).toBe('ZXQVXX and zxqvx [[t:x:1]]Zxqvxxx[[/]].[]')
    // text on both sides of a tag forms one word once the tag is gone
    expect(encode('zx<g id="1">qv</g> <x id="2"/>')).toBe('[[t:g:1]]zxqv[[/]] [[t:x:2]]Zxqvx[[/]].[]')
  })
})

/** `<g id="1">a</g> <g id="2">a</g> … car.` with n groups, encoded, and its answer on eng-spa (`un`, `coche`). */
function manyGroups (n: number): { source: string, encoded: string, answer: string, translated: string } {
  const ids = Array.from({ length: n }, (_, i) => i + 1)
  return {
    source: ids.map(id => `<g id="${id}">a</g> `).join('') + 'car.',
    encoded: ids.map(id => `[[t:g:${id}]]a[[/]] `).join('') + 'car..[]',
    answer: ids.map(id => `[[t:g:${id}]]un[[/]] `).join('') + 'coche..[]',
    translated: ids.map(id => `<g id="${id}">un</g> `).join('') + 'coche.'
  }
}

// Each of these took 18-53 s with the quadratic code this replaced (its run time grew with the
// square of the input); the 10 s limits only catch that, the linear code takes well under 1 s.
describe('large segments in linear time', () => {
  it('encodes and decodes 60,000 groups', { timeout: 10_000 }, () => {
    const { source, encoded, answer, translated } = manyGroups(60_000)
    expect(encode(source)).toBe(encoded)
    expect(decode(answer, source)).toBe(translated)
  })

  it('encodes a long run of spaces, inside a group or not', { timeout: 10_000 }, () => {
    const spaces = ' '.repeat(200_000)
    expect(encode(`a${spaces}b`)).toBe(`a${spaces}b.[]`)
    expect(encode(`<g id="1">a${spaces}b</g>`)).toBe(`[[t:g:1]]a${spaces}b[[/]].[]`)
    expect(encode(`<g id="1">a</g>${spaces}~`)).toBe(`[[t:g:1]]a[[/]][${spaces}~].[]`)
  })

  it('encodes a long word next to a group', { timeout: 10_000 }, () => {
    const word = 'a'.repeat(200_000)
    expect(encode(`${word}.<g id="1">b</g>`)).toBe(`${word}.[[t:g:1]]b[[/]].[]`)
    expect(encode(`${word}<g id="1">b</g>`)).toBe(`[[t:g:1]]${word}b[[/]].[]`)
  })
})

describe('decoding Apertium answers', () => {
  it('moves a group with its word (measured on eng-spa)', () => {
    expect(decode('El coche [[t:g:1]]rojo[[/]] es rápidamente..[]', 'The <g id="1">red</g> car is fast.'))
      .toBe('El coche <g id="1">rojo</g> es rápidamente.')
  })

  it('joins the words of one group and rebuilds nesting from merged headers', () => {
    expect(decode('La casa [[t:g:1]]muy[[/]] [[t:g:1]]grande[[/]]..[]', 'The <g id="1">very big</g> house.'))
      .toBe('La casa <g id="1">muy grande</g>.')
    expect(decode('El coche [[t:g:1; t:g:2]]grande[[/]] [[t:g:1]]rojo[[/]]..[]', 'The <g id="1">red <g id="2">big</g></g> car.'))
      .toBe('El coche <g id="1"><g id="2">grande</g> rojo</g>.')
  })

  it('unescapes text and superblanks and drops the sentence marks it added', () => {
    expect(decode('a \\<b\\> & \\{c\\} \\@d \\\\.[]', 'x')).toBe('a &lt;b&gt; &amp; {c} @d \\')
    expect(decode('Hola..[][\n\n]Mundo.[]', 'Hello.\n\nWorld')).toBe('Hola.\n\nMundo')
    expect(decode('Hola..[]', 'Hello.')).toBe('Hola.')
    expect(decode('a[ ~ ]b.[]', 'a ~ b')).toBe('a ~ b')
  })

  it('gives each token back exactly once, taking it out of words merged into its blank', () => {
    const source = 'Are you sure you want to remove <x id="1"/> from <x id="2"/>?'
    expect(decode('Segur que vols eliminar [[t:x:1]]Zxqv[[/]] [[t:x:2]]de Zxqv[[/]]?.[]', source))
      .toBe('Segur que vols eliminar <x id="1"/> de <x id="2"/>?')
    // a duplicated token word is dropped, a lost one comes back at the end
    expect(decode('[[t:x:1]]Zxqv[[/]] y [[t:x:1]]Zxqv[[/]].[]', '<x id="1"/> and <x id="2"/>'))
      .toBe('<x id="1"/> y <x id="2"/>')
    // a token word that lost its blank takes the missing token's place
    expect(decode('Hola zxqv.[]', 'Hello <x id="7"/>')).toBe('Hola <x id="7"/>')
  })

  it('never takes the text\'s own token-like words for tokens', () => {
    expect(decode('Hola zxqv Mundo..[]', 'Hello zxqv world.')).toBe('Hola zxqv Mundo.')
    expect(decode('El ZXQV modelo..[]', 'The ZXQV model.')).toBe('El ZXQV modelo.')
    expect(decode('[[t:x:1]]Zxqvx[[/]] zxqv Zxqvfoo..[]', '<x id="1"/> zxqv Zxqvfoo.')).toBe('<x id="1"/> zxqv Zxqvfoo.')
    // a word merged into the token's blank is text, the token word is the token
    expect(decode('Hola [[t:x:1]]de zxqv Zxqvx[[/]].[]', 'Hello zxqv <x id="1"/>')).toBe('Hola de zxqv <x id="1"/>')
  })

  it('brings back empty groups and groups whose words were dropped', () => {
    expect(decode('Clic [[t:e:4]]Zxqv[[/]]aquí.[]', 'Click <g id="4"></g>here')).toBe('Clic <g id="4"></g>aquí')
    expect(decode(' Envío la carta..[]', '<g id="1">I</g> send the letter.')).toBe(' Envío la carta.<g id="1"></g>')
  })

  it('ignores ids the source does not have and keeps the result well nested', () => {
    expect(decode('[[t:g:9]]x[[/]] [[t:g:1]]a [[/]][[t:g:2]]b[[/]] [[t:g:1]]c[[/]].[]', '<g id="1">a <g id="2">b</g> c</g>'))
      .toBe('x <g id="1">a <g id="2">b</g> c</g>')
    // a group crossing the one it started in is cut where that one ends
    const crossing = decode('[[t:g:1]]a[[/]] [[t:g:2]]b[[/]] [[t:g:1]]c[[/]] [[t:g:2]]d[[/]].[]', '<g id="1">a c</g> <g id="2">b d</g>')
    expect(crossing).toBe('<g id="1">a <g id="2">b c</g></g> d')
  })
})

describe('tidying Apertium output', () => {
  it('drops the spaces left by dropped words unless the source has such spaces', () => {
    expect(tidied(' Tengo un perro.', 'I have a dog.')).toBe('Tengo un perro.')
    expect(tidied('Eres seguro  quieres', 'Are you sure you want')).toBe('Eres seguro quieres')
    expect(tidied('Hola.\n Mundo ', 'Hello.\nWorld')).toBe('Hola.\nMundo')
    expect(tidied(' a  b ', ' a  b ')).toBe(' a  b ')
  })

  it('lower-cases the first word when the source line starts in lower case', () => {
    expect(tidied('Salva cambios', 'save changes')).toBe('salva cambios')
    expect(tidied('<x id="1"/> Te ha invitado', '<x id="1"/> has invited you')).toBe('<x id="1"/> te ha invitado')
    expect(tidied('Uno\nDos', 'one\nTwo')).toBe('uno\nDos')
  })

  it('leaves capitals alone where the source has them, and one-letter words and acronyms', () => {
    expect(tidied('Salva cambios', 'Save changes')).toBe('Salva cambios')
    expect(tidied('I have', 'tengo')).toBe('I have')
    expect(tidied('USA es grande', 'usa is big')).toBe('USA es grande')
  })
})
