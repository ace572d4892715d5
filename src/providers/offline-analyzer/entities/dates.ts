import { PRIORITY, span, type Span } from './spans.js'
import { baseLanguage, fold } from './text.js'
import type { Token } from './tokens.js'

interface MonthNames {
  /** Full names, folded, to month number (1-12). */
  long: Map<string, number>
  /** Abbreviations without their point ("janv", "mrt"), which need a day or a year beside them. */
  short: Map<string, number>
}

const monthCache = new Map<string, MonthNames>()

/** The month names of a language, from the platform's locale data (no hand-written lists). */
export function monthNames (language: string): MonthNames {
  let names = monthCache.get(language)
  if (names !== undefined) return names
  names = { long: new Map(), short: new Map() }
  for (let month = 0; month < 12; month++) {
    const date = new Date(Date.UTC(2020, month, 15))
    for (const [style, map] of [['long', names.long], ['short', names.short]] as const) {
      const written = new Intl.DateTimeFormat(language, { month: style, timeZone: 'UTC' }).format(date)
      const key = fold(written.replace(/\.$/, ''))
      if (key.length >= 3 && !names.long.has(key)) map.set(key, month + 1)
    }
  }
  monthCache.set(language, names)
  return names
}

/** Weekday names of a language, folded (so "Montag" is not taken for a name). */
export function weekdayNames (language: string): Set<string> {
  const names = new Set<string>()
  for (let day = 0; day < 7; day++) {
    const date = new Date(Date.UTC(2020, 5, 1 + day))
    for (const style of ['long', 'short'] as const) {
      names.add(fold(new Intl.DateTimeFormat(language, { weekday: style, timeZone: 'UTC' }).format(date).replace(/\.$/, '')))
    }
  }
  return names
}

const orderCache = new Map<string, boolean>()
const APRIL_3 = new Date(Date.UTC(2024, 3, 3))

/** Whether `month` comes before `day` in the parts of a date written by `format`. */
function monthBeforeDay (format: Intl.DateTimeFormat): boolean | undefined {
  const order = format.formatToParts(APRIL_3).map(part => part.type)
  const month = order.indexOf('month')
  const day = order.indexOf('day')
  return order.indexOf('year') === 0 ? undefined : month < day
}

/**
 * Whether numeric dates of `language` (a tag) put the month first, as CLDR's short date of the
 * tag does: en-US, en-PH yes; en-GB, en-AU, en-IN, fr, de no. A bare "en" is American English in
 * CLDR, month first. Where the short date starts with the year (en-CA, en-ZA: "2024-04-03"), a
 * date with the month's name decides ("Apr 3, 2024" in en-CA, "03 Apr 2024" in en-ZA).
 */
export function monthFirst (language: string): boolean {
  let first = orderCache.get(language)
  if (first !== undefined) return first
  let numeric: Intl.DateTimeFormat
  try {
    numeric = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'numeric', day: 'numeric', timeZone: 'UTC' })
  } catch {
    // not a tag Intl reads ("en_GB"): its base language's order, else day first
    const base = baseLanguage(language)
    return base !== language && monthFirst(base)
  }
  first = monthBeforeDay(numeric) ?? monthBeforeDay(new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' })) ?? false
  orderCache.set(language, first)
  return first
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** An ISO date ("2024-03-03") or month ("2024-03") when the parts make one. */
function isoDate (year: number | undefined, month: number, day: number | undefined): string | undefined {
  if (year === undefined || year < 1000 || year > 2999 || month < 1 || month > 12) return undefined
  if (day === undefined) return `${year}-${pad(month)}`
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1) return undefined
  return `${year}-${pad(month)}-${pad(day)}`
}

/**
 * A numeric date starting at `at`: "12.05.2024", "12/05/2024", "2024-05-12" (day first unless
 * `monthFirst`, as in American English). Returns its end and ISO value.
 */
export function numericDateAt (text: string, at: number, monthIsFirst: boolean): { end: number, value: string | undefined } | undefined {
  const parts: number[] = []
  const widths: number[] = []
  let separator = ''
  let i = at
  for (let part = 0; part < 3; part++) {
    const from = i
    while (i < text.length && i - from < 4 && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++
    if (i === from) return undefined
    parts.push(Number(text.slice(from, i)))
    widths.push(i - from)
    if (part < 2) {
      const sep = text[i]
      if (sep !== '.' && sep !== '/' && sep !== '-') return undefined
      if (separator !== '' && sep !== separator) return undefined
      separator = sep
      i++
    }
  }
  if (i < text.length && /[\p{L}\p{N}]/u.test(text[i]!)) return undefined
  const [a, b, c] = parts as [number, number, number]
  const [wa, wb, wc] = widths as [number, number, number]
  if (wa === 4 && wb <= 2 && wc <= 2) {
    const value = isoDate(a, b, c)
    return value === undefined ? undefined : { end: i, value }
  }
  if (wa > 2 || wb > 2 || (wc !== 4 && wc !== 2) || (separator === '-' && wc === 2)) return undefined
  const year = wc === 4 ? c : undefined
  let [day, month] = monthIsFirst ? [b, a] : [a, b]
  // an impossible month with a possible day the other way round ("12/31/2024" in a day-first text)
  if (month > 12 && day <= 12) [day, month] = [month, day]
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined
  return { end: i, value: year === undefined ? undefined : isoDate(year, month, day) }
}

// words allowed between day, month and year ("3 de marzo de 2024", "1er mars")
const DATE_JOINERS = new Set(['de', 'del', 'di', 'do', 'da', 'of', 'the'])

const isYear = (t: Token | undefined): t is Token => t !== undefined && t.kind === 'number' && /^[12][0-9]{3}$/.test(t.text)
const isDay = (t: Token | undefined): t is Token => t !== undefined && t.kind === 'number' && /^[0-9]{1,2}$/.test(t.text) && Number(t.text) >= 1 && Number(t.text) <= 31

/** The month a word names in `language` (long names always, abbreviations only when `short`). */
function monthOf (names: MonthNames, token: Token | undefined, short: boolean): number | undefined {
  if (token === undefined || token.kind !== 'word') return undefined
  return names.long.get(token.folded) ?? (short ? names.short.get(token.folded) : undefined)
}

/** Whether only spaces, a point after a day ("3. März"), a comma or an ordinal ending separate two date parts: never a line break (a piece of its own). */
const near = (text: string, left: Token, right: Token): boolean => {
  const between = text.slice(left.end, right.start)
  return /^[\s\u00a0.,º°]{0,3}$/.test(between) && !/[\n\r\u2028\u2029]/.test(between)
}

// words after which German writes a day and month alone ("am 24.12.", "bis zum 6.1.", "Berlin, den 3.5.")
const DAY_MONTH_CUES = new Set(['am', 'vom', 'bis', 'zum', 'ab', 'seit', 'den', 'dem'])
// words that go on with another day and month ("am 24.12. und 26.12.")
const DAY_MONTH_LISTS = new Set(['und', 'oder', 'bis'])
const DAY_MONTH = /^([0-9]{1,2})\.([0-9]{1,2})$/
// a time after the date ("um 18 Uhr", "18:30", "20.15 Uhr"), or the dash to another day and month ("24.12.–26.12.")
const AFTER_DAY_MONTH = /^[ \u00a0]*(?:,?[ \u00a0]*(?:(?:um|ab|gegen)[ \u00a0]+[0-9]{1,2}\b|[0-9]{1,2}(?::[0-9]{2}\b|[ \u00a0]*Uhr\b|\.[0-9]{2}[ \u00a0]*Uhr\b))|[-–][ \u00a0]*[0-9]{1,2}\.[0-9]{1,2}\.)/

/**
 * The end of a German day and month without a year at token `i` ("24.12.", the closing point
 * included), where a word that takes a date, a weekday or an earlier such date comes before it or
 * a time or a later one after it: "am 24.12.", "Montag, 3.5.", "24.12. um 18 Uhr", "24.12.–26.12.".
 * A decimal ("2.5 Prozent") has no closing point, and a version ("Version 3.1.") none of these
 * around it.
 */
function dayMonthEnd (text: string, tokens: Token[], i: number, weekdays: ReadonlySet<string>, previous: Span | undefined): number | undefined {
  const token = tokens[i]!
  const parts = DAY_MONTH.exec(token.text)
  if (parts === null || text[token.end] !== '.' || /[\p{L}\p{N}]/u.test(text[token.end + 1] ?? '')) return undefined
  const ranged = previous !== undefined && /^[ \u00a0]*[-–][ \u00a0]*$/.test(text.slice(previous.end, token.start))
  if (!ranged && token.start > 0 && /[\p{L}\p{N}.,/-]/u.test(text[token.start - 1]!)) return undefined
  const [day, month] = [Number(parts[1]), Number(parts[2])]
  if (month < 1 || month > 12 || day < 1 || new Date(Date.UTC(2024, month - 1, day)).getUTCMonth() !== month - 1) return undefined
  const end = token.end + 1
  const before = tokens[i - 1]
  const gapBefore = before === undefined ? '' : text.slice(before.end, token.start)
  const cued = before !== undefined && before.kind === 'word' && (
    (DAY_MONTH_CUES.has(before.folded) && /^[ \u00a0]+$/.test(gapBefore)) ||
    (weekdays.has(before.folded) && /^\.?,?[ \u00a0]+$/.test(gapBefore)) ||
    (DAY_MONTH_LISTS.has(before.folded) && previous !== undefined && /^[ \u00a0]+$/.test(gapBefore) && /^[ \u00a0]+$/.test(text.slice(previous.end, before.start))))
  return cued || ranged || AFTER_DAY_MONTH.test(text.slice(end)) ? end : undefined
}

/**
 * Dates written with month names in `language` ("3 mars 2024", "3. März 2024", "3 de marzo de 2024",
 * "März 2024", "March 3, 2024") and numeric dates, ordered as `tag` orders them ("fr-CA", "en-GB"),
 * with an ISO value when the year is given; in German also a day and month alone ("am 24.12.").
 */
export function findDates (text: string, tokens: Token[], language: string, tag = language): Span[] {
  const names = monthNames(language)
  const monthIsFirst = monthFirst(tag)
  const weekdays = language === 'de' ? weekdayNames(language) : undefined
  const found: Span[] = []
  let i = 0
  while (i < tokens.length) {
    const token = tokens[i]!
    if (token.kind === 'number') {
      const numeric = numericDateAt(text, token.start, monthIsFirst)
      const before = token.start > 0 ? text[token.start - 1]! : ''
      if (numeric !== undefined && !/[\p{L}\p{N}.,/-]/u.test(before)) {
        found.push(span('DATE', token.start, numeric.end, PRIORITY.DATE, numeric.value))
        while (i < tokens.length && tokens[i]!.start < numeric.end) i++
        continue
      }
      const dayMonth = weekdays === undefined ? undefined : dayMonthEnd(text, tokens, i, weekdays, found.at(-1))
      if (dayMonth !== undefined) {
        found.push(span('DATE', token.start, dayMonth, PRIORITY.DATE))
        i++
        continue
      }
    }
    const date = monthNameDate(text, tokens, i, names)
    if (date !== undefined) {
      found.push(span('DATE', tokens[i]!.start, tokens[date.last]!.end, PRIORITY.DATE, date.value))
      i = date.last + 1
      continue
    }
    i++
  }
  return found
}

/** A date with a month name starting at token `i`: its last token and value. */
function monthNameDate (text: string, tokens: Token[], i: number, names: MonthNames): { last: number, value: string | undefined } | undefined {
  const first = tokens[i]!
  let j = i
  let day: number | undefined
  if (isDay(first)) {
    day = Number(first.text)
    j++
    // "1er", "1st", "3rd", "3rd of": ordinal endings stuck to the day, or after its point as Spanish writes them ("1.º")
    const next = tokens[j]
    if (next !== undefined && (next.start === first.end || (text[first.end] === '.' && next.start === first.end + 1 && /^[ºª]$/.test(next.text))) &&
      /^(?:er|re|st|nd|rd|th|º|ª|°|o|a)$/.test(next.folded)) j++
    if (tokens[j] !== undefined && DATE_JOINERS.has(tokens[j]!.folded) && near(text, tokens[j - 1]!, tokens[j]!) && monthOf(names, tokens[j + 1], true) !== undefined) j++
  }
  const monthToken = tokens[j]
  const month = monthOf(names, monthToken, day !== undefined)
  if (monthToken === undefined || month === undefined) return undefined
  if (j > i && !near(text, tokens[j - 1]!, monthToken)) return undefined
  let last = j
  // "March 3" (English order)
  if (day === undefined && isDay(tokens[j + 1]) && near(text, monthToken, tokens[j + 1]!) && !isYear(tokens[j + 1])) {
    day = Number(tokens[j + 1]!.text)
    last = j + 1
    const suffix = tokens[last + 1]
    if (suffix !== undefined && suffix.start === tokens[last]!.end && /^(?:st|nd|rd|th)$/.test(suffix.folded)) last++
  }
  // the year, maybe after "de" or a comma
  let k = last + 1
  if (tokens[k] !== undefined && DATE_JOINERS.has(tokens[k]!.folded) && near(text, tokens[last]!, tokens[k]!) && isYear(tokens[k + 1])) k++
  let year: number | undefined
  if (isYear(tokens[k]) && near(text, tokens[k - 1]!, tokens[k]!)) {
    year = Number(tokens[k]!.text)
    last = k
  }
  // a month name alone ("mars", "Mai") is too often something else
  if (day === undefined && year === undefined) return undefined
  return { last, value: isoDate(year, month, day) }
}

/**
 * The ISO value of a date written in `language`, a tag whose region orders numeric dates
 * ("March 3, 2024" → "2024-03-03", "03/04/2024" in en-GB → "2024-04-03"), when the text holds a full one.
 */
export function dateValue (written: string, language: string): string | undefined {
  const tokens: Token[] = []
  for (const match of written.matchAll(/[0-9]+|[\p{L}]+/gu)) {
    const kind = /^[0-9]/.test(match[0]) ? 'number' : 'word'
    tokens.push({ start: match.index, end: match.index + match[0].length, text: match[0], folded: fold(match[0]), kind, cap: false, sentenceStart: false })
  }
  const names = monthNames(baseLanguage(language))
  const monthIsFirst = monthFirst(language)
  for (let i = 0; i < tokens.length; i++) {
    const numeric = tokens[i]!.kind === 'number' ? numericDateAt(written, tokens[i]!.start, monthIsFirst) : undefined
    if (numeric !== undefined) return numeric.value
    const date = monthNameDate(written, tokens, i, names)
    if (date !== undefined) return date.value
  }
  return undefined
}
