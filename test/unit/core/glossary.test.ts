import { describe, expect, it } from 'vitest'
import {
  appliedSubstitutions, compileGlossary, findPhrases, mergeApplied, protectPhrases, rulesForLanguage, rulesForPair,
  type Substitution
} from '../../../src/core/glossary.js'

/** The text with every match replaced by its substitution, as /substitute does on plain text. */
function apply (text: string, rules: Substitution[], caseSensitive = false): string {
  const glossary = compileGlossary(rules, { caseSensitive })
  let out = ''
  let at = 0
  for (const m of findPhrases(glossary, text)) {
    out += text.slice(at, m.start) + rules[m.rule]!.substitution
    at = m.end
  }
  return out + text.slice(at)
}

const rule = (text: string, substitution: string, extra: Partial<Substitution> = {}): Substitution => ({ text, substitution, ...extra })

describe('glossary matching', () => {
  it('takes phrases literally, never as patterns', () => {
    expect(apply('Use .* or a.b here, not aXb.', [rule('.*', 'ANY'), rule('a.b', 'A-DOT-B')])).toBe('Use ANY or A-DOT-B here, not aXb.')
    expect(apply('Copyright (c) 2024, $5 off, C++ and C# rock.', [rule('(c)', '©'), rule('$5', 'five dollars'), rule('C++', 'CPP'), rule('C#', 'CSHARP')]))
      .toBe('Copyright © 2024, five dollars off, CPP and CSHARP rock.')
    expect(apply('x123 and \\d+', [rule('\\d+', 'DIGITS')])).toBe('x123 and DIGITS')
  })

  it('matches whole words only', () => {
    const rules = [rule('cat', 'gato')]
    expect(apply('cat, cats, concat, Cat. (cat) cat_x cat-like', rules)).toBe('gato, cats, concat, gato. (gato) cat_x gato-like')
    expect(apply('Visit Apple.com, Apple\'s store or apple. Then 3.5 and 3', [rule('apple', 'Acme'), rule('3', 'three')]))
      .toBe('Visit Apple.com, Acme\'s store or Acme. Then 3.5 and three')
    expect(apply('1,000 and 1', [rule('1', 'one')])).toBe('1,000 and one')
  })

  it('needs a word edge only where the phrase itself has a word character at that end', () => {
    expect(apply('C++11, xC++ and (C++)', [rule('C++', 'CPP')])).toBe('CPP11, xC++ and (CPP)')
    expect(apply('Foo(c) and (c)bar', [rule('(c)', '©')])).toBe('Foo© and ©bar')
  })

  it('matches inside words of scripts written without spaces', () => {
    expect(apply('我爱北京天安门', [rule('北京', 'Beijing')])).toBe('我爱Beijing天安门')
    expect(apply('東京タワーに行く', [rule('東京', 'Tokyo')])).toBe('Tokyoタワーに行く')
  })

  it('is case-insensitive by default and case-sensitive on request', () => {
    expect(apply('ACME, Acme and acme', [rule('acme', 'Acme Inc.')])).toBe('Acme Inc., Acme Inc. and Acme Inc.')
    expect(apply('ACME, Acme and acme', [rule('Acme', 'Acme Inc.')], true)).toBe('ACME, Acme Inc. and acme')
    expect(apply('STRASSE and ΟΔΟΣ', [rule('straße', 'street'), rule('οδος', 'road')])).toBe('street and road')
    // Turkish İ is i (a probe's "İstanbul" was left while "istanbul" and "ISTANBUL" matched); a phrase written with it too
    expect(apply('İstanbul and istanbul and ISTANBUL.', [rule('istanbul', 'Constantinople')])).toBe('Constantinople and Constantinople and Constantinople.')
    expect(apply('Istanbul, İZMİR', [rule('İstanbul', 'X'), rule('izmir', 'Y')])).toBe('X, Y')
  })

  it('matches after NFC normalisation of phrase and text', () => {
    const decomposed = 'Cafe\u0301 de Flore'
    expect(apply(decomposed, [rule('Café', 'Coffee')])).toBe('Coffee de Flore')
    expect(apply('Café de Flore', [rule('Cafe\u0301', 'Coffee')])).toBe('Coffee de Flore')
    expect(apply('un cafe\u0301 noir', [rule('noir', 'black')])).toBe('un cafe\u0301 black')
  })

  it('treats any run of white space as one space', () => {
    expect(apply('New  York and New\nYork and New\u00a0York', [rule('new york', 'NYC')])).toBe('NYC and NYC and NYC')
  })

  it('prefers the longest match, never overlaps, and never rescans a replacement', () => {
    const rules = [rule('New', 'Nuevo'), rule('New York', 'Nueva York'), rule('York City', 'YC')]
    expect(apply('New York City is new.', rules)).toBe('Nueva York City is Nuevo.')
    expect(apply('cat and dog', [rule('cat', 'dog'), rule('dog', 'cat')])).toBe('dog and cat')
    expect(apply('a b a b', [rule('a', 'a b'), rule('a b', 'X')])).toBe('X X')
  })

  it('gives a phrase to its first rule when two share it', () => {
    expect(apply('colour', [rule('colour', 'first'), rule('COLOUR', 'second')])).toBe('first')
  })

  it('skips rules with an empty phrase or substitution', () => {
    expect(apply('a  b', [rule('  ', 'X'), rule('b', '')])).toBe('a  b')
  })

  it('is not quadratic: a thousand rules over a long text finish quickly', () => {
    const rules = Array.from({ length: 1000 }, (_, i) => rule(`term${i} alpha`, `T${i}`))
    const text = 'Here we mention term7 alpha and term999 alpha among many ordinary words. '.repeat(1400)
    const started = performance.now()
    const matches = findPhrases(compileGlossary(rules, { caseSensitive: false }), text)
    // a generous bound (one scan per rule would take far longer); the figure itself is printed by bench/glossary.ts
    expect(performance.now() - started).toBeLessThan(5000)
    expect(matches).toHaveLength(2800)
  })
})

describe('rule selection by language', () => {
  const rules: Substitution[] = [
    rule('color', 'colour', { source: 'en', target: 'en-GB' }),
    rule('Acme', 'ACME'),
    rule('car', 'coche', { source: 'en', target: 'es' }),
    rule('car', 'carro', { source: 'en', target: 'es-MX' }),
    rule('bonjour', 'hello', { source: 'fr' }),
    rule('truck', 'camión', { target: 'es' })
  ]

  it('keeps rules whose source and target fit the pair, a rule\'s base language matching regional ones (not the other way)', () => {
    // the es-MX rule is for Mexican Spanish: not for a translation into Spanish at large (issue 25 item 14)
    expect(rulesForPair(rules, 'en', 'es').map(r => r.substitution)).toEqual(['coche', 'camión', 'ACME'])
    expect(rulesForPair(rules, 'en-US', 'es-ES').map(r => r.substitution)).toEqual(['coche', 'camión', 'ACME'])
    expect(rulesForPair(rules, 'fr-CA', 'de').map(r => r.substitution)).toEqual(['hello', 'ACME'])
  })

  it('puts the most specific rule first, so it wins a shared phrase', () => {
    const forMexico = rulesForPair(rules, 'EN', 'es-mx')
    expect(forMexico.map(r => r.substitution)).toEqual(['carro', 'coche', 'camión', 'ACME'])
    expect(apply('my car', forMexico)).toBe('my carro')
  })

  it('keeps only same-language rules for /substitute', () => {
    expect(rulesForLanguage(rules, 'en-GB').map(r => r.substitution)).toEqual(['colour', 'ACME'])
    // an en-GB rule is not applied to a text said to be only "en"
    expect(rulesForLanguage(rules, 'en').map(r => r.substitution)).toEqual(['ACME'])
    expect(rulesForLanguage(rules, 'en-US').map(r => r.substitution)).toEqual(['ACME'])
    expect(rulesForLanguage(rules, 'fr').map(r => r.substitution)).toEqual(['hello', 'ACME'])
  })
})

describe('glossary protection in tagged segments', () => {
  const glossary = compileGlossary([rule('Acme Tools', 'ACME Tools®'), rule('red', 'rouge'), rule('x < y', 'x≺y')], { caseSensitive: false })

  it('protects phrases as tokens whose restore writes the substitution, and counts them', () => {
    const p = protectPhrases('Buy <g id="1">Acme Tools</g> now, acme tools are <x id="2"/> red.', glossary)
    expect(p.segment).toBe('Buy <g id="1"><x id="3"/></g> now, <x id="4"/> are <x id="2"/> <x id="5"/>.')
    expect(p.restore('Compre <g id="1"><x id="3"/></g> ya, <x id="4"/> son <x id="5"/> <x id="2"/>.'))
      .toBe('Compre <g id="1">ACME Tools®</g> ya, ACME Tools® son rouge <x id="2"/>.')
    expect(appliedSubstitutions(glossary, p.marks)).toEqual([
      { text: 'Acme Tools', substitution: 'ACME Tools®', count: 2 },
      { text: 'red', substitution: 'rouge', count: 1 }
    ])
  })

  it('never matches across a tag, but still finds a shorter phrase inside', () => {
    const p = protectPhrases('Acme <g id="1">Tools</g> and <g id="2">red</g>', glossary)
    expect(p.segment).toBe('Acme <g id="1">Tools</g> and <g id="2"><x id="3"/></g>')
  })

  it('matches escaped text as text', () => {
    const p = protectPhrases('if x &lt; y then', glossary)
    expect(p.segment).toBe('if <x id="1"/> then')
    expect(p.restore(p.segment)).toBe('if x≺y then')
  })

  it('sums applied lists', () => {
    expect(mergeApplied([
      [{ text: 'a', substitution: 'b', count: 1 }],
      [{ text: 'c', substitution: 'd', count: 2 }, { text: 'a', substitution: 'b', count: 3 }]
    ])).toEqual([{ text: 'a', substitution: 'b', count: 4 }, { text: 'c', substitution: 'd', count: 2 }])
  })
})
