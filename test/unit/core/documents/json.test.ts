import { describe, expect, it } from 'vitest'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import { ValidationError } from '../../../../src/errors.js'
import { fixture, upper } from './engines.js'

function validationError (fn: () => unknown): ValidationError {
  try {
    fn()
  } catch (err) {
    if (err instanceof ValidationError) return err
    throw err
  }
  throw new Error('no error thrown')
}

describe('application/json given as JSON text', () => {
  const source = fixture('i18n.json')

  it('translates string values only and keeps every other byte', () => {
    const doc = segmentDocument(source, 'application/json')
    expect(doc.segments).toEqual([
      'Acme Tools',
      'Welcome back, {{name}}!',
      'You have {{count}} new messages.',
      // an ICU message: each sub-message on its own, `#` a token (core/documents/icu.ts)
      '<x id="1"/> item',
      '<x id="1"/> items',
      'in your cart',
      'Total: %s',
      'Go to &lt;0&gt;checkout&lt;/0&gt; when you are ready.',
      'Something went wrong.',
      'Please try again.',
      'The file "%(filename)s" is too large.',
      'Network error: %1$s (code %2$d)',
      'Integer-like keys keep their place in JSON text.'
    ])
    expect(doc.rebuild(doc.segments)).toBe(source)
    const out = doc.rebuild(doc.segments.map(upper)) as string
    expect(typeof out).toBe('string')
    const parsed = JSON.parse(out) as Record<string, Record<string, unknown>>
    expect(parsed.app).toEqual({ title: 'ACME TOOLS', welcome: 'WELCOME BACK, {{NAME}}! YOU HAVE {{COUNT}} NEW MESSAGES.', version: 3, beta: true, released: null })
    expect(parsed.errors).toEqual(['SOMETHING WENT WRONG. PLEASE TRY AGAIN.', 'THE FILE "%(FILENAME)S" IS TOO LARGE.', 'NETWORK ERROR: %1$S (CODE %2$D)'])
    // the same text around the strings, and the same keys in the same order
    const LITERAL = /"(?:[^"\\]|\\.)*"/g
    expect(out.replace(LITERAL, '""')).toBe(source.replace(LITERAL, '""'))
    const KEY = /("(?:[^"\\]|\\.)*")\s*:/g
    expect([...out.matchAll(KEY)].map(m => m[1])).toEqual([...source.matchAll(KEY)].map(m => m[1]))
    expect(out).toContain('    "title": "ACME TOOLS",\n')
    expect(out).toContain('"THE FILE \\"%(FILENAME)S\\" IS TOO LARGE."')
  })

  it('keeps the order of keys that are whole numbers, which an object value cannot ("200" before "title")', () => {
    const text = '{"title": "Errors", "404": "Not found", "200": "All fine", "1e3": 1000.0}'
    const doc = segmentDocument(text, 'application/json')
    expect(doc.rebuild(doc.segments.map(upper))).toBe('{"title": "ERRORS", "404": "NOT FOUND", "200": "ALL FINE", "1e3": 1000.0}')
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['200', '404', 'title', '1e3'])
  })

  it('answers a 400 at the path for invalid JSON', () => {
    const err = validationError(() => segmentDocument('{"a": "b",}', 'application/json', { path: ['documents', 3, 'value'] }))
    expect(err.status).toBe(400)
    expect(err.errors).toEqual([{ path: ['documents', 3, 'value'], message: expect.stringMatching(/^is not valid JSON: /) as string }])
  })

  it('passes JSON without strings through unchanged', () => {
    const doc = segmentDocument('[1, 2.5, true, null]', 'application/json')
    expect(doc.segments).toEqual([])
    expect(doc.rebuild([])).toBe('[1, 2.5, true, null]')
  })
})

describe('application/json: a key starting with @ holds metadata, kept whole', () => {
  // Flutter's gen-l10n ARB: a message's `@key` (its description for translators, and placeholders
  // whose `type` is a Dart type and `format` a NumberFormat or DateFormat name) and `@@locale`
  const arb = '{\n  "@@locale": "en",\n  "helloWorld": "Hello {name}",\n  "@helloWorld": {\n    "description": "A greeting",\n' +
    '    "placeholders": {"name": {"type": "String", "example": "Bob"}}\n  },\n  "nWombats": "{count, plural, =0{no wombats} other{{count} wombats}}",\n' +
    '  "@nWombats": {"placeholders": {"count": {"type": "num", "format": "compact"}}},\n  "date": "On {when}",\n' +
    '  "@date": {"placeholders": {"when": {"type": "DateTime", "format": "EEE, M/d/y", "isCustomDateFormat": "true"}}},\n' +
    '  "@\\u0040escaped": ["kept"],\n  "@empty": null\n}\n'

  it('as JSON text: only the messages are sent, every byte of the metadata is kept', () => {
    const doc = segmentDocument(arb, 'application/json')
    expect(doc.segments).toEqual(['Hello {name}', 'no wombats', '{count} wombats', 'On {when}'])
    const out = doc.rebuild(doc.segments.map(upper)) as string
    const source = JSON.parse(arb) as Record<string, unknown>
    const parsed = JSON.parse(out) as Record<string, unknown>
    for (const key of Object.keys(source).filter(k => k.startsWith('@'))) expect(parsed[key], key).toEqual(source[key])
    expect(parsed.helloWorld).toBe('HELLO {NAME}')
    expect(parsed.date).toBe('ON {WHEN}')
    const metadata = /"@helloWorld": \{[\s\S]*?\n {2}\}/
    expect(metadata.exec(out)![0]).toBe(metadata.exec(arb)![0])
  })

  it('as an object value the same', () => {
    const value = JSON.parse(arb) as Record<string, unknown>
    const doc = segmentDocument(value, 'application/json')
    expect(doc.segments).toEqual(['Hello {name}', 'no wombats', '{count} wombats', 'On {when}'])
    const out = doc.rebuild(doc.segments.map(upper)) as Record<string, unknown>
    expect(Object.keys(out)).toEqual(Object.keys(value))
    for (const key of Object.keys(value).filter(k => k.startsWith('@'))) expect(out[key], key).toEqual(value[key])
    expect(out.nWombats).toBe('{count, plural, =0{NO WOMBATS} other{{COUNT} WOMBATS}}')
  })

  it('anywhere in the tree, and only in application/json', () => {
    const value = { a: [{ '@id': 'x', text: 'The house' }], b: { '@@locale': 'en', '@type': 'Person' } }
    expect(segmentDocument(value, 'application/json').segments).toEqual(['The house'])
    expect(segmentDocument(JSON.stringify(value), 'application/json').segments).toEqual(['The house'])
    expect(segmentDocument(value, 'text/plain').segments).toEqual(['x', 'The house', 'en', 'Person'])
  })
})

describe('object and array values', () => {
  it('keeps the shape: keys, numbers, booleans and null pass through', () => {
    const value = JSON.parse(fixture('i18n.json')) as unknown
    const doc = segmentDocument(value, 'application/json')
    const out = doc.rebuild(doc.segments.map(upper)) as Record<string, Record<string, unknown>>
    expect(Object.keys(out)).toEqual(['1', 'app', 'cart', 'errors'])
    expect(out.cart).toEqual({
      items: '{count, plural, one {# ITEM} other {# ITEMS}} IN YOUR CART',
      total: 'TOTAL: %S',
      checkout: 'GO TO <0>CHECKOUT</0> WHEN YOU ARE READY.',
      empty: ''
    })
    expect(out.app!.version).toBe(3)
    expect(out.app!.released).toBeNull()
    expect(doc.rebuild(doc.segments)).toEqual(value)
  })

  it('treats string leaves as documents of the mime type', () => {
    const doc = segmentDocument({ intro: '<p>The <b>red</b> car.</p>', list: ['Plain *md*?'] }, 'text/html')
    expect(doc.segments).toEqual(['The <g id="1">red</g> car.', 'Plain *md*?'])
    expect(doc.rebuild(doc.segments.map(upper))).toEqual({ intro: '<p>THE <b>RED</b> CAR.</p>', list: ['PLAIN *MD*?'] })
  })

  it('keeps a "__proto__" key as a key', () => {
    const value = JSON.parse('{"__proto__": "Hello there.", "x": ["Bye."]}') as object
    const out = segmentDocument(value, 'text/plain').rebuild(['Hola.', 'Adiós.']) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(JSON.stringify(out)).toBe('{"__proto__":"Hola.","x":["Adiós."]}')
  })

  it('keeps a string value a string for every text type', () => {
    const doc = segmentDocument('Hello.', 'text/markdown')
    expect(doc.rebuild(['Hola.'])).toBe('Hola.')
  })

  it('answers a 400 at the path for a value that is not a document', () => {
    for (const value of [42, true, null, undefined]) {
      const err = validationError(() => segmentDocument(value, 'text/plain', { path: ['document', 'value'] }))
      expect(err.errors![0]!.path).toEqual(['document', 'value'])
    }
    const err = validationError(() => segmentDocument({ a: [{ 'b/c~': () => 1 }] }, 'text/plain'))
    expect(err.errors![0]!.path).toEqual(['document', 'value', 'a', 0, 'b/c~'])
  })

  it('answers a 400 for values nested deeper than it walks', () => {
    let value: unknown = 'Hello.'
    for (let i = 0; i < 600; i++) value = [value]
    const err = validationError(() => segmentDocument(value, 'text/plain'))
    expect(err.errors![0]!.path).toEqual(['document', 'value', ...Array<number>(501).fill(0)])
    expect(err.errors![0]!.message).toBe('is nested deeper than 500 levels')
  })
})
