import { describe, expect, it } from 'vitest'
import { MAX_DEPTH, messageRuns, messageSyntax } from '../../../../src/core/documents/icu.js'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import type { Item } from '../../../../src/core/documents/run.js'
import { upper } from './engines.js'

/** The text of `text` outside its ICU syntax, piece by piece. */
const pieces = (text: string): string[] => {
  const found = messageSyntax(text)
  if (found === undefined) return [text]
  const out: string[] = []
  let at = 0
  for (const [start, end] of found.syntax) {
    if (start > at) out.push(text.slice(at, start))
    at = end
  }
  if (at < text.length) out.push(text.slice(at))
  return out
}

const plain = (text: string): { segments: string[], out: string } => {
  const doc = segmentDocument(text, 'text/plain')
  return { segments: doc.segments, out: doc.rebuild(doc.segments.map(upper)) as string }
}

describe('messageSyntax', () => {
  it("reads FormatJS's and Angular's examples: sub-messages apart, syntax kept", () => {
    expect(pieces('You have {numPhotos, plural, =0 {no photos.} =1 {one photo.} other {# photos.}}'))
      .toEqual(['You have ', 'no photos.', 'one photo.', '# photos.'])
    expect(pieces('{VAR_PLURAL, plural, =0 {just now} =1 {one minute ago} other {\uFFFC minutes ago by {VAR_SELECT, select, male {male} female {female} other {other} }} }'))
      .toEqual(['just now', 'one minute ago', '\uFFFC minutes ago by ', 'male', 'female', 'other'])
    const files = '{n, plural, one {# file} other {# files}}'
    expect(messageSyntax(files)!.hashes).toEqual([files.indexOf('#'), files.lastIndexOf('#')])
  })

  it('takes offset:, selectordinal and simple arguments with styles; # only in a plural', () => {
    expect(pieces('{n, plural, offset:1 =0 {nobody} one {{who} and # other} other {{who} and # others}}'))
      .toEqual(['nobody', '{who} and # other', '{who} and # others'])
    expect(messageSyntax('{g, select, a {# no} other {x}}')!.hashes).toEqual([])
    const ordinal = '{n, selectordinal, one {#st} other {#th}}'
    expect(messageSyntax(ordinal)!.hashes).toEqual([ordinal.indexOf('#'), ordinal.lastIndexOf('#')])
    expect(pieces('{t, select, yes {Tax {rate, number, ::percent} due.} other {None.}}')).toEqual(['Tax {rate, number, ::percent} due.', 'None.'])
  })

  it("honours ICU's apostrophe: '{' and '#' quoted, '' one apostrophe", () => {
    const quoted = "{n, plural, one {It''s '{'#'}' '#' #} other {x}}"
    expect(pieces(quoted)).toEqual(["It''s '{'#'}' '#' #", 'x'])
    // '{' and '}' are quoted braces, the # between them is the number; '#' is a quoted #
    expect(messageSyntax(quoted)!.hashes).toEqual([quoted.indexOf("'{'#") + 3, quoted.lastIndexOf('#')])
    expect(pieces("Don't {g, select, a {b} other {c}}")).toEqual(["Don't ", 'b', 'c'])
  })

  it('is undefined for text that holds no plural or select, or is not a message', () => {
    for (const text of ['Hello {name}', 'Plain text', 'a { b', 'a } b', '{"json": 1}', '{n, plural, one {x}', '{n, plural, }', '{n, plural one {x}}', '{n, plural, one x}', '{, plural, one {x}}']) {
      expect(messageSyntax(text), text).toBeUndefined()
    }
  })

  it('bounds nesting at MAX_DEPTH and reads adversarial text in linear time', () => {
    const nest = (depth: number): string => depth === 0 ? 'x' : `{a, select, b {${nest(depth - 1)}} other {y}}`
    expect(messageSyntax(nest(MAX_DEPTH))).toBeDefined()
    expect(messageSyntax(nest(MAX_DEPTH + 1))).toBeUndefined()
    const cases = [
      `{a, select, ${'k {x {n} y} '.repeat(30_000)}other {y}}`,
      `{a, plural, ${'=1 {# {b, select, c {d} other {e}}} '.repeat(20_000)}other {y}}`,
      "'{".repeat(200_000),
      '{a, plural, one {'.repeat(100_000),
      '{'.repeat(300_000)
    ]
    const small = performance.now()
    for (const text of cases) messageSyntax(text.slice(0, 10_000))
    const smallTime = performance.now() - small
    const large = performance.now()
    for (const text of cases) messageSyntax(text)
    const largeTime = performance.now() - large
    // 30x the text: linear is ~30x the time; quadratic would be ~900x
    expect(largeTime).toBeLessThan(Math.max(smallTime, 1) * 200)
  })
})

describe('messageRuns', () => {
  it('a tag beside the syntax goes with the text beside it; a tag cut from its partner is a weak token', () => {
    // XLIFF: <g>{n, plural, one {<g>x</g>} other {y}}</g>, the flat text's tags zero-width
    const text = (start: number, value: string): Item => ({ kind: 'text', start, end: start + value.length, text: value, offsets: { starts: Int32Array.from(value, (_, j) => start + j), ends: Int32Array.from(value, (_, j) => start + j + 1) } })
    const items: Item[] = [
      { kind: 'open', start: 0, end: 3 },
      text(3, '{n, plural, one {'),
      { kind: 'open', start: 20, end: 23 },
      text(23, 'x'),
      { kind: 'close', start: 24, end: 28 },
      text(28, '} other {y}}'),
      { kind: 'close', start: 40, end: 44 }
    ]
    const runs = messageRuns(items)
    expect(runs.map(run => run.map(item => item.kind))).toEqual([['token'], ['open', 'text', 'close'], ['text'], ['token']])
    expect(runs[1]![1]).toMatchObject({ start: 23, end: 24, text: 'x' })
    expect(runs[2]![0]).toMatchObject({ start: 37, end: 38, text: 'y' })
  })
})

describe('ICU messages in plain text', () => {
  it('translates each sub-message; the syntax, # and arguments come back as they were', () => {
    const { segments, out } = plain("It's my cat's {year, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} birthday!")
    expect(segments).toEqual(["It's my cat's", '<x id="1"/>st', '<x id="1"/>nd', '<x id="1"/>rd', '<x id="1"/>th', 'birthday!'])
    expect(out).toBe("IT'S MY CAT'S {year, selectordinal, one {#ST} two {#ND} few {#RD} other {#TH}} BIRTHDAY!")
  })

  it('leaves text that is not a message as it was segmented before', () => {
    expect(plain('Press { to open. Then go.').segments).toEqual(['Press { to open.', 'Then go.'])
    // without a plural or select it is not taken for ICU: '' stays two apostrophes (wiki markup, LaTeX quotes)
    expect(plain("An ''italic'' word, can''t.").segments).toEqual(["An ''italic'' word, can''t."])
  })

  it("sends a doubled apostrophe as one and writes the translation's back doubled, as the message did", () => {
    const { segments, out } = plain("{n, plural, one {I can''t see # car.} other {I can''t see # cars.}}")
    expect(segments).toEqual(["I can't see <x id=\"1\"/> car.", "I can't see <x id=\"1\"/> cars."])
    expect(out).toBe("{n, plural, one {I CAN''T SEE # CAR.} other {I CAN''T SEE # CARS.}}")
    // a message whose apostrophes are single keeps them single, but where one would quote
    const doc = segmentDocument("{n, plural, one {It's # car} other {It's # cars}}", 'text/plain')
    expect(doc.segments).toEqual(["It's <x id=\"1\"/> car", "It's <x id=\"1\"/> cars"])
    expect(doc.rebuild(["C'est <x id=\"1\"/> l'", "C'est <x id=\"1\"/> l'|"])).toBe("{n, plural, one {C'est # l''} other {C'est # l''|}}")
  })

  it('keeps a quoted literal as it was, never sent: its quotes are syntax', () => {
    const { segments, out } = plain("{n, plural, one {Type '{'# here} other {Type '{name}' and #}}")
    expect(segments).toEqual(['Type <x id="1"/><x id="2"/> here', 'Type <x id="1"/> and <x id="2"/>'])
    expect(out).toBe("{n, plural, one {TYPE '{'# HERE} other {TYPE '{name}' AND #}}")
  })
})
