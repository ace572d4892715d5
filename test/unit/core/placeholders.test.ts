import { describe, expect, it } from 'vitest'
import { findPlaceholders, protectPlaceholders } from '../../../src/core/placeholders.js'
import { escapeText } from '../../../src/core/tagged.js'
import { dropTags, reverseWords, upper } from './documents/engines.js'

/** Protects plain text (as a segment) and runs the engine over it, returning the restored plain segment. */
function roundTrip (text: string, engine: (segment: string) => string): { sent: string, back: string } {
  const p = protectPlaceholders(escapeText(text))
  return { sent: p.segment, back: p.restore(engine(p.segment)) }
}

const spans = (text: string): string[] => {
  const { tokens, pairs } = findPlaceholders(text)
  return [...tokens.map(t => t.text), ...pairs.map(p => `${p.open.text}…${p.close.text}`)]
}

describe('placeholders', () => {
  it('finds every style', () => {
    // eslint-disable-next-line no-template-curly-in-string -- a JavaScript template placeholder, as text
    expect(spans('Hi {name}, {0} and {{user.name}} or ${total} or %{count}')).toEqual(['{name}', '{0}', '{{user.name}}', '${total}', '%{count}'])
    expect(spans('%s %d %i %f %.2f %1$s %2$d %-5d %05.1f %x %@ %% %lu')).toEqual(['%s', '%d', '%i', '%f', '%.2f', '%1$s', '%2$d', '%-5d', '%05.1f', '%x', '%@', '%%', '%lu'])
    expect(spans('%(name)s has %(count)d items')).toEqual(['%(name)s', '%(count)d'])
    expect(spans('Click <0>here</0> or <1/> and <bold>now</bold>')).toEqual(['<1/>', '<0>…</0>', '<bold>…</bold>'])
  })

  it('finds the $NAME$ of WebExtension messages and the :name of Laravel', () => {
    expect(spans('Hello $USER$, you have $COUNT$ unread emails from $sender_1$.')).toEqual(['$USER$', '$COUNT$', '$sender_1$'])
    expect(spans('$A$$B$ and ($C$)')).toEqual(['$A$', '$B$', '$C$'])
    expect(spans(':count items from :user_name? Delete :name.')).toEqual([':count', ':user_name', ':name'])
    expect(roundTrip('Hello $USER$, you have $COUNT$ unread emails.', upper).back).toBe('HELLO $USER$, YOU HAVE $COUNT$ UNREAD EMAILS.')
  })

  it("takes i18next's nesting whole, its options and formatters too, to its balanced parenthesis", () => {
    // i18next's own test resources (test/runtime/i18next.translation.formatting.test.js)
    expect(spans('They have {{girls}} $t(girl, lowercase) and {{boys}} $t(boy, lowercase)')).toEqual(['{{girls}}', '$t(girl, lowercase)', '{{boys}}', '$t(boy, lowercase)'])
    expect(spans('in $t(park, { "count": {{parkCount}} }, title case, underscore)')).toEqual(['$t(park, { "count": {{parkCount}} }, title case, underscore)'])
    expect(spans('See $t(look.deep) and $t(ns:key, { "x": "(a)" }) (twice).')).toEqual(['$t(look.deep)', '$t(ns:key, { "x": "(a)" })'])
    expect(spans('a $t( ) b, $t(unclosed, c, $t, $tea (d)')).toEqual([])
  })

  it("takes vue-i18n's linked messages, modifier and key, without their sentence's full stop", () => {
    expect(spans('@:message.dio @:message.the_world !!!!')).toEqual(['@:message.dio', '@:message.the_world'])
    expect(spans('Please provide @.lower:message.homeAddress.')).toEqual(['@.lower:message.homeAddress'])
    expect(spans("See @:(message.a-b) and @.capitalize:{'nested.key'}, café @:clé")).toEqual(['@:(message.a-b)', "@.capitalize:{'nested.key'}", '@:clé'])
    expect(spans('Mail me @ home, @bob: hi, @: or @.lower alone')).toEqual([])
  })

  it('takes an ICU plural or select as one token, nested bodies included', () => {
    expect(spans('You have {count, plural, =0 {no messages} one {# message} other {# messages}} from {gender, select, female {her} other {them}}.'))
      .toEqual(['{count, plural, =0 {no messages} one {# message} other {# messages}}', '{gender, select, female {her} other {them}}'])
  })

  it('leaves prose alone', () => {
    expect(spans('50% off, 100% sure, 3 < 4 and 5 > 2, a {} b, an { unclosed brace')).toEqual([])
    expect(spans('Save 20 % today')).toEqual([])
    expect(spans('It costs $5 or $10, US$ 3, $ 5$, $a b$ and $')).toEqual([])
    expect(spans('Note:this, Note: this, at 10:30, ratio 1 :2, :) :p :D, a::b, std::vector, http://x, :countDown, :café')).toEqual([])
  })

  it('stays linear on hostile input', () => {
    for (const text of ['$t('.repeat(50_000), '$t(a)'.repeat(20_000), '@.a'.repeat(50_000), '@:(a'.repeat(30_000), '@:{a'.repeat(30_000), '$a'.repeat(50_000), '$'.repeat(100_000), '$' + 'a'.repeat(100_000), ' :a'.repeat(30_000), ' :' + 'a'.repeat(100_000) + 'B', ' :'.repeat(50_000)]) {
      const started = performance.now()
      findPlaceholders(text)
      expect(performance.now() - started, text.slice(0, 10)).toBeLessThan(1000)
    }
  })

  it('protects placeholders as tokens and restores them exactly through an engine', () => {
    const { sent, back } = roundTrip('Hello {name}, you have %d new messages (%(count)s) from {{sender}}.', upper)
    expect(sent).toBe('Hello <x id="1"/>, you have <x id="2"/> new messages (<x id="3"/>) from <x id="4"/>.')
    expect(back).toBe('HELLO {name}, YOU HAVE %d NEW MESSAGES (%(count)s) FROM {{sender}}.')
  })

  it('keeps message references byte for byte through an engine that changes every word', () => {
    const text = 'They have {{girls}} $t(girl, lowercase) in $t(park, { "count": {{parkCount}} }, title case, underscore); please provide @.lower:message.homeAddress or @:(message.dio).'
    const { sent, back } = roundTrip(text, upper)
    expect(sent).toBe('They have <x id="1"/> <x id="2"/> in <x id="3"/>; please provide <x id="4"/> or <x id="5"/>.')
    expect(back).toBe('THEY HAVE {{girls}} $t(girl, lowercase) IN $t(park, { "count": {{parkCount}} }, title case, underscore); PLEASE PROVIDE @.lower:message.homeAddress OR @:(message.dio).')
  })

  it('keeps tag tokens and translates the text between them, following the words', () => {
    const { sent, back } = roundTrip('Go to <0>checkout</0> now <1/>', reverseWords)
    expect(sent).toBe('Go to <g id="1">checkout</g> now <x id="2"/>')
    expect(back).toBe('&lt;1/&gt; now &lt;0&gt;checkout&lt;/0&gt; to Go')
  })

  it('numbers its tokens above the ids the segment already has', () => {
    const p = protectPlaceholders('Dear <g id="1">{name}</g>, see <x id="2"/> for %s.')
    expect(p.segment).toBe('Dear <g id="1"><x id="3"/></g>, see <x id="2"/> for <x id="4"/>.')
    expect(p.restore('Estimado <g id="1"><x id="3"/></g>, ver <x id="2"/> para <x id="4"/>.'))
      .toBe('Estimado <g id="1">{name}</g>, ver <x id="2"/> para %s.')
  })

  it('does not pair tag tokens across the segment\'s own tags', () => {
    const p = protectPlaceholders('A <g id="1">b &lt;0&gt;c</g> d&lt;/0&gt; e')
    expect(p.segment).toBe('A <g id="1">b <x id="2"/>c</g> d<x id="3"/> e')
  })

  it('brings back placeholders the engine lost, and drops ones it invented', () => {
    const p = protectPlaceholders(escapeText('Hello {name}, welcome!'))
    expect(p.restore(dropTags(p.segment))).toBe('Hello , welcome! {name}')
    expect(p.restore('Hola <x id="1"/> <x id="1"/> <x id="9"/>')).toBe('Hola {name}  ')
  })

  it('leaves a segment without placeholders as it is', () => {
    const p = protectPlaceholders('The <g id="1">red</g> car.')
    expect(p.segment).toBe('The <g id="1">red</g> car.')
    expect(p.restore('El coche <g id="1">rojo</g>.')).toBe('El coche <g id="1">rojo</g>.')
  })

  it('protects a placeholder in a segment that already holds more tags than a call can take as arguments', () => {
    const tags = 200_000
    const segment = Array.from({ length: tags }, (_, i) => `a<x id="${i + 1}"/>`).join('') + ' {0}'
    const p = protectPlaceholders(segment)
    expect(p.segment.endsWith(` <x id="${tags + 1}"/>`)).toBe(true)
    expect(p.restore(p.segment)).toBe(segment)
  })
})
