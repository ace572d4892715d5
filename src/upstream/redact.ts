/**
 * What of an outside engine's own words may be logged: its error message or body with every
 * configured secret replaced (as sent and as engines echo it: base64, base64url, hex, URL-encoded,
 * spaced out letter by letter) and the texts of that call replaced, cut short. The one place
 * adapters redact; clients never get an engine's words at all (see UpstreamError.engineMessage).
 */
import { own } from '../lib/own.js'

/** What a secret becomes. */
export const REDACTED = '[redacted]'
/** What a client's text becomes. */
export const TEXT = '[text]'
/** Characters of an engine's words kept for the log. */
export const MAX_LOGGED = 500
/** Characters of a body looked at; a longer body is cut first. */
const MAX_READ = 4096
/** A body parsed as JSON (to read its strings unescaped) up to this size. */
const MAX_PARSED = 64 * 1024
/** Secrets shorter than this are only replaced as they are (a spaced-out short key would match ordinary text). */
const MIN_SPACED = 8
/** Texts shorter than this are replaced only where they stand as a word of their own. */
const MIN_ANYWHERE = 4
/** A text quoted only in part is caught when the quote holds its first this many characters. */
const PREFIX = 16

/** Credentials of well-known shapes, configured or not: OpenAI keys, Google API keys, bearer tokens. */
const SHAPES = /\bsk-[A-Za-z0-9_*.-]{4,}|\bAIza[0-9A-Za-z_-]{20,}|(?<=\bBearer\s+)[^\s"'<>]+/gi

/** Replaces secrets and client texts in an engine's words. */
export interface Redactor {
  /** `text` with every secret, every shaped credential and every one of `texts` (the call's client texts) replaced. */
  redact: (text: string, texts?: readonly string[]) => string
  /** An engine's error message or body for the log: made readable (JSON unescaped, HTML as its text), redacted, cut to MAX_LOGGED. */
  engineMessage: (body: string, texts?: readonly string[]) => string | undefined
}

/** A Redactor of these secrets (API keys and the like; undefined and empty ones are skipped). */
export function createRedactor (secrets: ReadonlyArray<string | undefined>): Redactor {
  const known = secrets.filter((s): s is string => s !== undefined && s.length >= 4)
  const pattern = secretPattern(known)
  // the longest form a secret takes (spaced out: up to four characters for each)
  const longest = Math.max(PREFIX, ...known.map(s => Buffer.byteLength(s) * 4))
  const redact = (text: string, texts: readonly string[] = []): string => {
    let out = pattern === undefined ? text : text.replace(pattern, REDACTED)
    out = out.replace(SHAPES, REDACTED)
    return texts.length === 0 ? out : redactTexts(out, texts)
  }
  return {
    redact,
    engineMessage (body, texts = []) {
      const readable = readableBody(body)
      if (readable === '') return undefined
      const cut = readable.length > MAX_READ
      let out = redact(cut ? readable.slice(0, MAX_READ) : readable, texts)
      // a secret or text cut in two at MAX_READ was not recognised: its piece is at the very end
      if (cut) out = out.slice(0, Math.max(0, out.length - longest))
      return out.length > MAX_LOGGED ? out.slice(0, MAX_LOGGED) + '...' : out + (cut ? '...' : '')
    }
  }
}

/** One pattern for every form of every secret, the longest forms first. */
function secretPattern (secrets: readonly string[]): RegExp | undefined {
  if (secrets.length === 0) return undefined
  const forms = new Set<string>()
  const spaced: string[] = []
  for (const secret of secrets) {
    const bytes = Buffer.from(secret)
    forms.add(secret)
    forms.add(encodeURIComponent(secret))
    forms.add(JSON.stringify(secret).slice(1, -1))
    forms.add(bytes.toString('hex'))
    forms.add(bytes.toString('hex').toUpperCase())
    for (const encoding of ['base64', 'base64url'] as const) {
      forms.add(bytes.toString(encoding))
      // inside a longer base64 text (an encoded "Bearer <key>" or "user:<key>") the key's bytes
      // start at any offset mod 3: the characters that depend on its bytes alone, for each offset
      for (let shift = 0; shift < 3; shift++) {
        const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString(encoding)
        const core = encoded.slice(Math.ceil(shift * 8 / 6), Math.floor((shift + bytes.length) * 8 / 6))
        if (core.length >= 6) forms.add(core)
      }
    }
    // letter by letter with up to three separators between them ("s k - a b c", "s.k.-.a.b.c")
    if (secret.length >= MIN_SPACED) spaced.push(Array.from(secret, escapeRegExp).join('[^\\p{L}\\p{N}]{0,3}'))
  }
  const exact = [...forms].filter(f => f.length >= 4).sort((a, b) => b.length - a.length).map(escapeRegExp)
  return new RegExp([...exact, ...spaced].join('|'), 'gu')
}

/** The body as text to redact: JSON re-serialised (its strings unescaped), HTML as its visible text. */
function readableBody (body: string): string {
  const text = body.trim()
  if (text.length <= MAX_PARSED && (text.startsWith('{') || text.startsWith('[') || text.startsWith('"'))) {
    try {
      const json: unknown = JSON.parse(text)
      return typeof json === 'string' ? json : JSON.stringify(json)
    } catch {
      // not JSON after all
    }
  }
  if (text.startsWith('<')) return htmlText(text.slice(0, MAX_PARSED))
  return text
}

/** The visible text of an HTML page (scripts and styles dropped, entities decoded, spaces collapsed). */
function htmlText (html: string): string {
  return decodeEntities(html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim()
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

function decodeEntities (text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] !== '#') return own(ENTITIES, name.toLowerCase()) ?? whole
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

/**
 * `text` with every client text replaced: each text and each run of it between markup tags, as it
 * is and as JSON or HTML escape it; the longest first; short ones only as words of their own; and a
 * quote of a long one cut short (its first PREFIX characters and on) as well.
 */
function redactTexts (text: string, texts: readonly string[]): string {
  const candidates = new Set<string>()
  for (const t of texts) {
    for (const piece of [t, ...t.split(/<[^>]*>/)]) {
      const trimmed = piece.trim()
      if (!/[\p{L}\p{N}]/u.test(trimmed)) continue
      candidates.add(trimmed)
      candidates.add(JSON.stringify(trimmed).slice(1, -1))
      candidates.add(asciiJson(trimmed))
      candidates.add(escapeHtml(trimmed))
    }
  }
  const sorted = [...candidates].sort((a, b) => b.length - a.length)
  const long = sorted.filter(c => c.length >= MIN_ANYWHERE)
  let out = text
  for (const candidate of long) if (out.includes(candidate)) out = out.split(candidate).join(TEXT)
  // once every whole text is gone; each place gets the longest quote of any text that starts there (texts may start alike)
  out = redactRanges(out, long.filter(c => c.length > PREFIX).flatMap(c => quotedStarts(out, c)))
  const short = sorted.filter(c => c.length < MIN_ANYWHERE)
  if (short.length > 0) {
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])(?:${short.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'gu'), TEXT)
  }
  return out
}

/** Where `text` quotes the start of `candidate` (PREFIX characters or more of it), as [start, end) ranges. */
function quotedStarts (text: string, candidate: string): Array<[number, number]> {
  const head = candidate.slice(0, PREFIX)
  const ranges: Array<[number, number]> = []
  for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, at + 1)) {
    let end = at + PREFIX
    while (end < text.length && end - at < candidate.length && text[end] === candidate[end - at]) end++
    ranges.push([at, end])
  }
  return ranges
}

/** `text` with each of `ranges` (overlapping ones merged) replaced by TEXT. */
function redactRanges (text: string, ranges: Array<[number, number]>): string {
  if (ranges.length === 0) return text
  ranges.sort((a, b) => a[0] - b[0])
  let out = ''
  let kept = 0
  let [start, end] = ranges[0]!
  for (const [from, to] of ranges.slice(1)) {
    if (from <= end) {
      end = Math.max(end, to)
      continue
    }
    out += text.slice(kept, start) + TEXT
    kept = end
    start = from
    end = to
  }
  return out + text.slice(kept, start) + TEXT + text.slice(end)
}

/** JSON's escaping with every non-ASCII character as \uXXXX (as Python's json.dumps writes it). */
function asciiJson (text: string): string {
  return JSON.stringify(text).slice(1, -1).replace(/[\u0080-\uffff]/g, c => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

function escapeHtml (text: string): string {
  return text.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

function escapeRegExp (text: string): string {
  // the characters the `u` flag lets be escaped ("-" is not among them)
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
