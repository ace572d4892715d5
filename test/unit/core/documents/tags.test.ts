import { describe, expect, it } from 'vitest'
import { pairSpans, resolveTags, tagKinds } from '../../../../src/core/documents/tags.js'
import { parseTagged, serializeTagged } from '../../../../src/core/tagged.js'

/** The engine's answer for `source` resolved against the source's tags, as tagged text. */
const resolve = (source: string, answer: string, spans = true): string => {
  const parts = parseTagged(source)
  return serializeTagged(resolveTags(parseTagged(answer), tagKinds(parts), spans ? pairSpans(parts) : undefined))
}

describe('resolveTags: pairs that were siblings in the source', () => {
  const footer = '<g id="1">unsubscribe from this list</g> | <g id="2">update subscription preferences</g>'

  it('closes the outer pair before its sibling opens and reopens it at its next words (Apertium on a footer)', () => {
    expect(resolve(footer, '<g id="1">unsubscribe De estas <g id="2">preferencias | de suscripción de actualización</g> de lista</g>'))
      .toBe('<g id="1">unsubscribe De estas </g><g id="2">preferencias | de suscripción de actualización</g> <g id="1">de lista</g>')
  })

  it('never splits a whole pair: the sibling the answer opened inside it stays there', () => {
    const parts = parseTagged(footer)
    const answer = '<g id="2">preferencias <g id="1">unsubscribe</g> de suscripción</g>'
    expect(serializeTagged(resolveTags(parseTagged(answer), tagKinds(parts), pairSpans(parts), new Set([2])))).toBe(answer)
  })

  it('keeps three siblings apart however deep the answer nests them', () => {
    const source = '<g id="1">follow on Twitter</g> | <g id="2">friend on Facebook</g> | <g id="3">forward to a friend</g>'
    expect(resolve(source, '<g id="1">a <g id="2">b <g id="3">c</g> d</g> e</g>'))
      .toBe('<g id="1">a </g><g id="2">b </g><g id="3">c</g> <g id="2">d</g> <g id="1">e</g>')
  })

  it('reopens nothing when no words follow, and keeps a parent around its children', () => {
    expect(resolve(footer, '<g id="1">a <g id="2">b</g></g>')).toBe('<g id="1">a </g><g id="2">b</g>')
    const source = '<g id="1">x <g id="2">y</g> <g id="3">z</g></g>'
    expect(resolve(source, '<g id="1">X <g id="2">Y <g id="3">Z</g> W</g></g>'))
      .toBe('<g id="1">X <g id="2">Y </g><g id="3">Z</g> <g id="2">W</g></g>')
  })

  it('still follows an engine that swaps a parent and its child', () => {
    expect(resolve('<g id="1">Very <g id="2">important</g></g> note.', '<g id="2">Nota <g id="1">muy</g> importante</g>.'))
      .toBe('<g id="2">Nota <g id="1">muy</g> importante</g>.')
  })

  it('splits pairs inside pairs that are split themselves, each word still in the pair the engine put it in', () => {
    const source = '<g id="1">a</g> <g id="2">b <g id="3">c</g></g> <g id="4">d</g>'
    expect(resolve(source, '<g id="2">B <g id="1">A <g id="3">C <g id="4">D</g> E</g> F</g> G</g>'))
      .toBe('<g id="2">B </g><g id="1">A </g><g id="3">C </g><g id="4">D</g> <g id="3">E</g> <g id="1">F</g> <g id="2">G</g>')
  })

  it('leaves the answer\'s nesting alone without the source\'s spans', () => {
    const answer = '<g id="1">a <g id="2">b</g> c</g>'
    expect(resolve(footer, answer, false)).toBe(answer)
  })

  it('stays linear in the answer\'s length when every pair comes back inside its siblings', () => {
    const n = 4000
    const ids = Array.from({ length: n }, (_, i) => i + 1)
    const source = ids.map(id => `<g id="${id}">w</g>`).join(' ')
    const answer = ids.map(id => `<g id="${id}">w `).join('') + 'end' + '</g>'.repeat(n)
    const started = performance.now()
    const out = parseTagged(resolve(source, answer))
    expect(performance.now() - started).toBeLessThan(2000)
    // balanced, and no pair ever opens inside another
    let depth = 0
    for (const p of out) {
      if (p.type === 'open') expect(++depth).toBe(1)
      if (p.type === 'close') depth--
    }
    expect(depth).toBe(0)
  })
})
