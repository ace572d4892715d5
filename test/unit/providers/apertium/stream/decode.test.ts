import { describe, expect, it } from 'vitest'
import { parseTagged, serializeTagged } from '../../../../../src/core/tagged.js'
import { decodeSegment } from '../../../../../src/providers/apertium/stream/decode.js'

const decode = (answer: string, sourceTagged: string): string => serializeTagged(decodeSegment(answer, parseTagged(sourceTagged)))

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
    // the sentence end written twice (.[].[]): each empty blank takes the full stop before it, where the engine kept it
    expect(decode('El coche rojo.[].[]', 'The red car')).toBe('El coche rojo')
    expect(decode('Señor[].[]', 'Mr')).toBe('Señor')
    expect(decode('Sep.[].[]', 'Sep')).toBe('Sep')
    expect(decode('Etc..[].[]', 'etc.')).toBe('Etc.')
    expect(decode('Hola..[].[][\n\n]Mundo.[].[]', 'Hello.\n\nWorld')).toBe('Hola.\n\nMundo')
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
