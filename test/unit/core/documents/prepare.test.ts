import { describe, expect, it } from 'vitest'
import { rulesForPair, type Substitution } from '../../../../src/core/glossary.js'
import type { MimeType } from '../../../../src/core/documents/mime.js'
import { prepareForTranslation } from '../../../../src/core/documents/prepare.js'
import { ValidationError } from '../../../../src/errors.js'
import { dropTags, fixture, recorded, reverseWords, upper } from './engines.js'

const defaults = { placeholders: true, rules: [] as Substitution[], caseSensitive: false }

describe('prepareForTranslation', () => {
  it('protects placeholders and glossary phrases for the engine and restores them in the document', () => {
    const rules = rulesForPair([
      { text: 'Acme Tools', substitution: 'Acme Tools®' },
      { source: 'en', target: 'es', text: 'cart', substitution: 'carrito' },
      { source: 'en', target: 'fr', text: 'cart', substitution: 'panier' }
    ], 'en', 'es')
    const value = '<p>Welcome to <b>Acme Tools</b>, {name}! Your cart has %d items.</p>'
    const prepared = prepareForTranslation(value, 'text/html', { ...defaults, rules })
    expect(prepared.segments).toEqual([
      'Welcome to <g id="1"><x id="3"/></g>, <x id="2"/>!',
      'Your <x id="2"/> has <x id="1"/> items.'
    ])
    const { value: out, applied } = prepared.finish(prepared.segments.map(upper))
    expect(out).toBe('<p>WELCOME TO <b>Acme Tools®</b>, {name}! YOUR carrito HAS %d ITEMS.</p>')
    // in the order of the rules given: rulesForPair put the more specific one first
    expect(applied).toEqual([
      { text: 'cart', substitution: 'carrito', count: 1 },
      { text: 'Acme Tools', substitution: 'Acme Tools®', count: 1 }
    ])
  })

  it('makes an inline tag follow its word through a real answer', () => {
    const prepared = prepareForTranslation('<p>The <b>red</b> car.</p>', 'text/html', defaults)
    const engine = recorded({ 'The <g id="1">red</g> car.': 'El coche <g id="1">rojo</g>.' })
    expect(prepared.finish(prepared.segments.map(engine)).value).toBe('<p>El coche <b>rojo</b>.</p>')
  })

  it('keeps i18n files intact: placeholders, ICU, tag tokens, keys and non-strings', () => {
    const source = fixture('i18n.json')
    const prepared = prepareForTranslation(source, 'application/json', defaults)
    // an ICU plural: each sub-message its own segment, `#` a token (core/documents/icu.ts)
    expect(prepared.segments).toEqual(expect.arrayContaining(['<x id="1"/> item', '<x id="1"/> items', 'in your cart']))
    expect(prepared.segments).toContain('Go to <g id="1">checkout</g> when you are ready.')
    const out = JSON.parse(prepared.finish(prepared.segments.map(reverseWords)).value as string) as Record<string, Record<string, unknown>>
    expect(out.app).toEqual({ title: 'Tools Acme', welcome: '! {{name}} back, Welcome messages. new {{count}} have You', version: 3, beta: true, released: null })
    expect(out.cart).toEqual({
      items: '{count, plural, one {item #} other {items #}} cart your in',
      total: '%s Total:',
      checkout: 'ready. are you when <0>checkout</0> to Go',
      empty: ''
    })
    expect(out.errors).toEqual(['wrong. went Something again. try Please', 'large. too is " %(filename)s " file The', ') %2$d (code %1$s error: Network'])
  })

  it('does not send segments left with nothing to translate, but still substitutes them', () => {
    const rules = [{ text: 'Acme', substitution: 'ACME' }]
    const prepared = prepareForTranslation({ a: '{{count}}', b: '%s: %d', c: 'Acme', d: 'Hello' }, 'text/plain', { ...defaults, rules })
    expect(prepared.segments).toEqual(['Hello'])
    expect(prepared.finish(['Hola'])).toEqual({
      value: { a: '{{count}}', b: '%s: %d', c: 'ACME', d: 'Hola' },
      applied: [{ text: 'Acme', substitution: 'ACME', count: 1 }]
    })
  })

  it('sends placeholders as text when asked not to preserve them', () => {
    const prepared = prepareForTranslation('Hello {name}, %s.', 'text/plain', { ...defaults, placeholders: false })
    expect(prepared.segments).toEqual(['Hello {name}, %s.'])
    expect(prepared.finish(prepared.segments.map(upper)).value).toBe('HELLO {NAME}, %S.')
  })

  it('always protects URLs, e-mail addresses, paths, code and control characters, placeholders or not', () => {
    const value = 'Visit https://example.com/faq?Topic=Houses or {name}@example.com, run ./build.sh --dry-run and\u0000go.'
    for (const placeholders of [true, false]) {
      const prepared = prepareForTranslation(value, 'text/plain', { ...defaults, placeholders })
      // one sentence: the "?" inside the URL does not end it
      expect(prepared.segments).toEqual([placeholders
        ? 'Visit <x id="1"/> or <x id="2"/>@<x id="3"/>, run <x id="4"/> <x id="5"/> and<x id="6"/>go.'
        : 'Visit <x id="1"/> or {name}@<x id="2"/>, run <x id="3"/> <x id="4"/> and<x id="5"/>go.'])
      expect(prepared.finish(prepared.segments.map(upper)).value).toBe(placeholders
        ? 'VISIT https://example.com/faq?Topic=Houses OR {name}@example.com, RUN ./build.sh --dry-run AND\u0000GO.'
        : 'VISIT https://example.com/faq?Topic=Houses OR {NAME}@example.com, RUN ./build.sh --dry-run AND\u0000GO.')
    }
  })

  it('keeps NUL and the other control characters where they were, in every format', () => {
    const cases: Array<[unknown, MimeType, unknown]> = [
      ['nul\u0000byte and\u0001 the car.', 'text/plain', 'NUL\u0000BYTE AND\u0001 THE CAR.'],
      ['<p title="a\u0000b car">nul\u0000byte and\u0001 the <b>car</b>.</p>', 'text/html', '<p title="A\u0000B CAR">NUL\u0000BYTE AND\u0001 THE <b>CAR</b>.</p>'],
      ['# Nul\u0000byte\n\nand\u0001 the *car*.', 'text/markdown', '# NUL\u0000BYTE\n\nAND\u0001 THE *CAR*.'],
      [{ a: 'nul\u0000byte', b: ['the\u001bcar'] }, 'application/json', { a: 'NUL\u0000BYTE', b: ['THE\u001bCAR'] }],
      ['{"a": "nul\\u0000byte"}', 'application/json', '{"a": "NUL\\u0000BYTE"}']
    ]
    for (const [value, mimeType, expected] of cases) {
      const prepared = prepareForTranslation(value, mimeType, defaults)
      // what the engine sees has no control character, nor the replacement character a parser makes of NUL
      for (const segment of prepared.segments) expect([...segment].filter(c => c < ' ' || c === '\uFFFD'), mimeType).toEqual([])
      expect(prepared.finish(prepared.segments.map(upper)).value, mimeType).toEqual(expected)
      // untranslated, the document comes back byte for byte
      expect(prepared.finish(prepared.segments).value, mimeType).toEqual(value)
    }
  })

  it('takes a placeholder inside a verbatim span, or one around it, as one token', () => {
    const prepared = prepareForTranslation('See https://example.com/users/{id}/edit, hello {user_name} and <0>https://example.com</0>.', 'text/plain', defaults)
    expect(prepared.segments).toEqual(['See <x id="1"/>, hello <x id="2"/> and <g id="3"><x id="4"/></g>.'])
    expect(prepared.finish(prepared.segments.map(upper)).value).toBe('SEE https://example.com/users/{id}/edit, HELLO {user_name} AND <0>https://example.com</0>.')
    // a tag pair cut by a verbatim span is protected as two tokens
    const cut = prepareForTranslation('Type `<b>` then the text</b>.', 'text/plain', defaults)
    expect(cut.segments).toEqual(['Type <x id="1"/> then the text<x id="2"/>.'])
  })

  it('honours case-sensitive substitutions', () => {
    const rules = [{ text: 'Go', substitution: 'Golang' }]
    const run = (caseSensitive: boolean): unknown => {
      const p = prepareForTranslation('Go is fun. I go home.', 'text/plain', { ...defaults, rules, caseSensitive })
      return p.finish(p.segments).value
    }
    expect(run(true)).toBe('Golang is fun. I go home.')
    expect(run(false)).toBe('Golang is fun. I Golang home.')
  })

  it('lets bulk translation send many documents in one call and give each its slice', () => {
    const documents = ['<p>One. <i>Two</i>.</p>', '# Three\n\nFour *five*.', { six: 'Six.', n: 7 }]
    const types = ['text/html', 'text/markdown', 'application/json'] as const
    const prepared = documents.map((value, i) => prepareForTranslation(value, types[i]!, defaults))
    const batch = prepared.flatMap(p => p.segments)
    expect(batch).toEqual(['One.', '<g id="1">Two</g>.', 'Three', 'Four <g id="1">five</g>.', 'Six.'])
    const answers = batch.map(upper)
    let at = 0
    const results = prepared.map(p => {
      const slice = answers.slice(at, at + p.segments.length)
      at += p.segments.length
      return p.finish(slice).value
    })
    expect(results).toEqual(['<p>ONE. <i>TWO</i>.</p>', '# THREE\n\nFOUR *FIVE*.', { six: 'SIX.', n: 7 }])
  })

  it('survives an engine that drops every tag', () => {
    const prepared = prepareForTranslation('<p>Hi {name}, see <a href="/x">this</a>.</p>', 'text/html', defaults)
    expect(prepared.finish(prepared.segments.map(dropTags)).value).toBe('<p>Hi , see this. {name}</p>')
  })

  it('rejects an answer of the wrong length and reports bad input at its path', () => {
    const prepared = prepareForTranslation('One. Two.', 'text/plain', defaults)
    expect(() => prepared.finish(['Uno.'])).toThrow(/expected 2 translated segments, got 1/)
    expect(() => prepareForTranslation('{"a": }', 'application/json', { ...defaults, path: ['documents', 1, 'value'] }))
      .toThrow(ValidationError)
  })
})
