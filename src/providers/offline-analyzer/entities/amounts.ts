import { currencyOf, numberValue, parseDigits, parseEnglishNumber, scaleOf, SIGN_PREFIXES } from './numbers.js'
import { PRIORITY, span, type Span } from './spans.js'
import { fold } from './text.js'
import type { Token } from './tokens.js'
import { own } from '../../../lib/own.js'

const SPACE = /^[ \u00a0\u202f]?$/
const SCALE_GAP = /^\.?[ \u00a0\u202f]?$/
// words between an amount and its currency ("millions d'euros", "millones de dólares", "milioni di euro")
const CONNECTORS = new Set(['de', 'd', 'di', 'of'])
const CONNECTOR_GAP = /^(?:[ \u00a0]|['’])$/
const GROUP_GAP = /^[ \u00a0\u202f]$/

/** A currency at token k: its code (null: unclear), or undefined when token k names none. */
function currencyAt (tokens: Token[], k: number): string | null | undefined {
  const t = tokens[k]
  if (t === undefined || t.kind === 'number') return undefined
  return currencyOf(t.text, t.folded)
}

/**
 * Numbers and prices written in `language`: "1.234,56 €", "€ 12", "12 euros", "1,5 Mio. Euro",
 * "3 millions d'habitants", "20 %". A price's value is its amount and ISO currency ("1500000 EUR").
 */
export function findAmounts (text: string, tokens: Token[], language: string): Span[] {
  const found: Span[] = []
  const decimalComma = language !== 'en'
  // the end of the last amount, whose currency sign is not the next one's
  let taken = 0
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.kind !== 'number') continue
    // "12 300 000": groups of three after a space, as French writes thousands
    let last = i
    if (decimalComma && /^[0-9]{1,3}$/.test(tokens[i]!.text)) {
      while (tokens[last + 1] !== undefined && tokens[last + 1]!.kind === 'number' && GROUP_GAP.test(text.slice(tokens[last]!.end, tokens[last + 1]!.start)) &&
        /^[0-9]{3}(?:,[0-9]+)?$/.test(tokens[last + 1]!.text) && !tokens[last]!.text.includes(',')) last++
    }
    const start = tokens[i]!.start
    let amount = parseDigits(text.slice(start, tokens[last]!.end), decimalComma)
    if (amount === undefined) { i = last; continue }
    let first = i
    let end = tokens[last]!.end
    let currency: string | null | undefined
    // a currency before: "€ 12", "US$ 5", "EUR 12", "R$ 10"
    const before = tokens[i - 1]
    if (before !== undefined && before.start >= taken && SPACE.test(text.slice(before.end, start))) {
      currency = currencyAt(tokens, i - 1)
      if (currency !== undefined) {
        first = i - 1
        const prefix = tokens[i - 2]
        if (before.text === '$' && prefix !== undefined && prefix.end === before.start && Object.hasOwn(SIGN_PREFIXES, prefix.folded)) {
          currency = own(SIGN_PREFIXES, prefix.folded)!
          first = i - 2
        }
      }
    }
    // scale words after: "1,5 Mio.", "3 millions", "mil millones"
    let k = last + 1
    while (tokens[k] !== undefined && k - last <= 2) {
      const factor = scaleOf(language, tokens[k]!.folded)
      if (factor === undefined || tokens[k]!.kind !== 'word' || !(k === last + 1 ? SPACE : SCALE_GAP).test(text.slice(tokens[k - 1]!.end, tokens[k]!.start))) break
      // "5 m" is five metres; "5 M€" five million euros
      if (tokens[k]!.text.length === 1 && (currencyAt(tokens, k + 1) === undefined || tokens[k + 1]!.start !== tokens[k]!.end)) break
      amount *= factor
      end = tokens[k]!.end + (text[tokens[k]!.end] === '.' && tokens[k]!.text.length <= 4 ? 1 : 0)
      k++
    }
    // a currency after: "12 €", "12 euros", "1,5 Mio. Euro", "3 millions d'euros"
    if (currency === undefined && tokens[k] !== undefined) {
      let c = k
      const scaled = k > last + 1
      if (scaled && CONNECTORS.has(tokens[c]!.folded) && SPACE.test(text.slice(tokens[c - 1]!.end, tokens[c]!.start))) c++
      const after = tokens[c]
      const between = after === undefined ? '' : text.slice(tokens[c - 1]!.end, after.start)
      if (after !== undefined && (c > k ? CONNECTOR_GAP : scaled ? SCALE_GAP : SPACE).test(between)) {
        currency = currencyAt(tokens, c)
        if (currency !== undefined) end = after.end
      }
    }
    if (currency !== undefined) {
      found.push(span('PRICE', tokens[first]!.start, end, PRIORITY.PRICE, currency === null ? numberValue(amount) : `${numberValue(amount)} ${currency}`))
      taken = end
    } else {
      // "20 %" and "20%" are numbers with their sign
      const sign = text.slice(end).match(/^[ \u00a0\u202f]?%/)
      found.push(span('NUMBER', start, end + (sign?.[0].length ?? 0), PRIORITY.NUMBER, numberValue(amount)))
    }
    i = Math.max(last, k - 1)
  }
  return found
}

/** The value of an amount of money written in English ("$1 billion" → "1000000000 USD"). */
export function englishMoneyValue (written: string): string | undefined {
  let currency: string | null | undefined
  const words: string[] = []
  for (const match of written.matchAll(/[0-9][0-9,.]*|\p{L}+|\p{Sc}/gu)) {
    const part = match[0]
    const named = currency === undefined ? currencyOf(part, fold(part)) : undefined
    if (named !== undefined && !/^[0-9]/.test(part)) { currency = named; continue }
    const prefix = own(SIGN_PREFIXES, part.toLowerCase())
    if (prefix !== undefined && written[match.index + part.length] === '$') { currency = prefix; continue }
    words.push(part)
  }
  const amount = parseEnglishNumber(words.join(' '))
  if (amount === undefined) return undefined
  return currency === undefined || currency === null ? numberValue(amount) : `${numberValue(amount)} ${currency}`
}
