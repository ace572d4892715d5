import { PRIORITY, span, type Span } from './spans.js'

// hand-written scanners instead of regular expressions: each character is visited a bounded number of times
const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
const isLocal = (c: number): boolean => isAlnum(c) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45 // . _ % + -
const isDomain = (c: number): boolean => isAlnum(c) || c === 46 || c === 45 // . -

/** Whether `host` is a dotted host name ending in a top-level domain of letters. */
function isHostName (host: string): boolean {
  const labels = host.split('.')
  if (labels.length < 2) return false
  const tld = labels.at(-1)!
  if (!/^[a-z]{2,24}$/i.test(tld)) return false
  return labels.every(label => label.length > 0 && label.length <= 63 && label[0] !== '-' && label.at(-1) !== '-')
}

/** E-mail addresses ("jane.doe@example.com"). */
export function findEmails (text: string): Span[] {
  const found: Span[] = []
  let floor = 0
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at
    while (start > floor && at - start < 64 && isLocal(text.charCodeAt(start - 1))) start--
    while (start < at && text[start] === '.') start++
    let end = at + 1
    while (end < text.length && end - at <= 253 && isDomain(text.charCodeAt(end))) end++
    while (end > at + 1 && (text[end - 1] === '.' || text[end - 1] === '-')) end--
    floor = at + 1
    if (start === at || (start > 0 && isLocal(text.charCodeAt(start - 1)))) continue
    if (!isHostName(text.slice(at + 1, end))) continue
    found.push(span('EMAIL', start, end, PRIORITY.EMAIL, text.slice(start, end).toLowerCase()))
    floor = end
  }
  return found
}

const SCHEME = /\b(?:https?:\/\/|ftp:\/\/|www\.)/gi
// what may follow the host in a URL; spaces, quotes and angle brackets end it
const isUrlChar = (c: number): boolean => c > 32 && c !== 34 && c !== 39 && c !== 60 && c !== 62 && c !== 96 && c !== 0x7f &&
  !(c >= 0x80 && c <= 0xa0) && c !== 0x3000 && c !== 0x201c && c !== 0x201d && c !== 0xab && c !== 0xbb
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', '*'])

/** The end of a URL-like run starting at `from`, without punctuation that closes the sentence. */
function urlEnd (text: string, from: number): number {
  let end = from
  while (end < text.length && end - from < 2048 && isUrlChar(text.charCodeAt(end))) end++
  let open = 0
  let close = 0
  for (let i = from; i < end; i++) {
    if (text[i] === '(') open++
    else if (text[i] === ')') close++
  }
  while (end > from && TRAILING.has(text[end - 1]!)) {
    // keep a closing bracket that belongs to the URL ("wiki/Foo_(bar)")
    if (text[end - 1] === ')') {
      if (open >= close) break
      close--
    }
    end--
  }
  return end
}

// bare host names are URLs only with a well-known top-level domain ("example.com", not "e.g" or "Node.js")
const BARE_TLDS = new Set(['com', 'org', 'net', 'edu', 'gov', 'int', 'mil', 'io', 'co', 'info', 'biz', 'app', 'dev', 'eu',
  'uk', 'us', 'ca', 'au', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'be', 'ch', 'at', 'br', 'mx', 'ar', 'jp', 'cn', 'ru', 'pl',
  'se', 'no', 'dk', 'fi', 'ie', 'lu', 'cz'])

/** URLs with a scheme or "www.", and bare host names with a well-known top-level domain ("example.org/path"). */
export function findUrls (text: string): Span[] {
  const found: Span[] = []
  let after = 0
  for (const match of text.matchAll(SCHEME)) {
    if (match.index < after) continue
    const end = urlEnd(text, match.index)
    const host = text.slice(match.index + match[0].length, end).split(/[/?#:]/, 1)[0] ?? ''
    after = end
    if (!isHostName(match[0].toLowerCase() === 'www.' ? 'www.' + host : host)) continue
    found.push(span('URL', match.index, end, PRIORITY.URL))
  }
  // maximal runs of host characters, each looked at once
  let i = 0
  while (i < text.length) {
    if (!isAlnum(text.charCodeAt(i))) { i++; continue }
    const start = i
    while (i < text.length && isDomain(text.charCodeAt(i))) i++
    let hostEnd = i
    while (hostEnd > start && (text[hostEnd - 1] === '.' || text[hostEnd - 1] === '-')) hostEnd--
    const before = start > 0 ? text[start - 1]! : ''
    // part of an address, a URL with a scheme or a longer word
    if (before === '@' || before === '/' || before === ':' || /[\p{L}\p{N}_]/u.test(before)) continue
    const host = text.slice(start, hostEnd)
    const tld = host.slice(host.lastIndexOf('.') + 1).toLowerCase()
    if (!BARE_TLDS.has(tld) || !isHostName(host) || /^[\d.]+$/.test(host)) continue
    const next = text[hostEnd]
    if (next === '@' || (next !== undefined && /[\p{L}\p{N}_]/u.test(next))) continue
    const end = next === '/' ? urlEnd(text, hostEnd) : hostEnd
    found.push(span('URL', start, end, PRIORITY.URL))
    i = Math.max(i, end)
  }
  return found
}
