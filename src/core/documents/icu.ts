/**
 * ICU MessageFormat in a run (`{count, plural, one {# file} other {# files}}`, `select`,
 * `selectordinal`, nested): the syntax of each plural or select argument stays in the skeleton
 * and each sub-message is a run of its own, translated on its own; a plural's `#` is a token.
 * Simple arguments (`{name}`, `{n, number}`) stay in their text, where placeholder protection
 * finds them. Text that is not a well-formed message (or nests deeper than MAX_DEPTH) is left
 * as one run.
 *
 * The scanner is linear (each character read once) and its recursion bounded by MAX_DEPTH.
 * A well-kept parser (@formatjs/icu-messageformat-parser, with `captureLocation`) could replace
 * it; it is not a dependency of this project yet.
 */
import { TOKEN_CHAR } from './protect.js'
import type { Item, TextFormat } from './run.js'
import { segmentRun, type SegmentDraft } from './segment-run.js'

/** How deep plural and select arguments may nest (real catalogs nest two or three). */
export const MAX_DEPTH = 8

const COMPLEX = new Set(['plural', 'select', 'selectordinal'])
const SPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v', '\u0085', '\u200e', '\u200f', '\u2028', '\u2029'])
/** Characters that end an argument's name or a selector. */
const NAME_END = new Set(['{', '}', ',', "'", '#', TOKEN_CHAR])

/** What of a message's text is ICU syntax, and where a plural's `#` stands. */
export interface MessageSyntax {
  /** [start, end) ranges of syntax, ascending and disjoint. */
  syntax: Array<[number, number]>
  /** Offsets of each `#` inside a plural's sub-message. */
  hashes: number[]
  /** [start, end) of each quoted literal in a message's text (`'{'`, `'{name}'`), quotes included. */
  quoted: Array<[number, number]>
  /** Offsets of each doubled apostrophe (`''`, one apostrophe) in a message's text, outside quoted literals. */
  doubled: number[]
}

class Scanner {
  i = 0
  readonly syntax: Array<[number, number]> = []
  readonly hashes: number[] = []
  readonly quoted: Array<[number, number]> = []
  readonly doubled: number[] = []
  constructor (readonly text: string) {}

  private space (): void {
    while (this.i < this.text.length && SPACE.has(this.text[this.i]!)) this.i++
  }

  private word (): string {
    const from = this.i
    while (this.i < this.text.length && !SPACE.has(this.text[this.i]!) && !NAME_END.has(this.text[this.i]!)) this.i++
    return this.text.slice(from, this.i)
  }

  private mark (start: number, end: number): void {
    const last = this.syntax.at(-1)
    if (last !== undefined && last[1] === start) last[1] = end
    else this.syntax.push([start, end])
  }

  /** ICU's apostrophe (DOUBLE_OPTIONAL): `''` is one; before `{`, `}`, `|` (or `#` in a plural) it quotes up to the next lone one. */
  private quote (plural: boolean): void {
    const next = this.text[this.i + 1]
    if (next === "'") {
      this.i += 2
      return
    }
    if (next !== '{' && next !== '}' && next !== '|' && !(plural && next === '#')) {
      this.i++
      return
    }
    let j = this.i + 1
    while (j < this.text.length) {
      if (this.text[j] !== "'") j++
      else if (this.text[j + 1] === "'") j += 2
      else break
    }
    this.i = j + 1
  }

  /** A message up to the `}` that closes it (left unread), or to the end at the top; false when it is not ICU. */
  message (depth: number, plural: boolean): boolean {
    const t = this.text
    while (this.i < t.length) {
      const c = t[this.i]
      if (c === "'") {
        const from = this.i
        this.quote(plural)
        if (this.i - from === 2 && t[from + 1] === "'") this.doubled.push(from)
        else if (this.i - from > 1) this.quoted.push([from, Math.min(this.i, t.length)])
      } else if (c === '{') {
        if (!this.argument(depth, plural)) return false
      } else if (c === '}') return depth > 0
      else {
        if (c === '#' && plural) this.hashes.push(this.i)
        this.i++
      }
    }
    return depth === 0
  }

  /** An argument from its `{` through its `}`. */
  private argument (depth: number, plural: boolean): boolean {
    const t = this.text
    const open = this.i++
    this.space()
    if (this.word() === '') return false
    this.space()
    if (t[this.i] === '}') {
      this.i++
      return true
    }
    if (t[this.i] !== ',') return false
    this.i++
    this.space()
    const type = this.word()
    this.space()
    if (!COMPLEX.has(type)) return this.simpleStyle()
    if (t[this.i] !== ',' || depth + 1 > MAX_DEPTH) return false
    this.i++
    let syntaxStart = open
    let cases = 0
    for (;;) {
      this.space()
      if (t[this.i] === '}') {
        if (cases === 0) return false
        this.mark(syntaxStart, ++this.i)
        return true
      }
      const selector = this.word()
      if (selector === '') return false
      this.space()
      // a plural's `offset:1` comes before its first selector
      if (selector.startsWith('offset:') && cases === 0 && t[this.i] !== '{') continue
      if (t[this.i] !== '{') return false
      this.mark(syntaxStart, ++this.i)
      if (!this.message(depth + 1, plural || type !== 'select')) return false
      syntaxStart = this.i++
      cases++
    }
  }

  /** After a simple argument's type: `}` or `, style}` (a style's braces balanced, quotes honoured). */
  private simpleStyle (): boolean {
    const t = this.text
    if (t[this.i] === '}') {
      this.i++
      return true
    }
    if (t[this.i] !== ',') return false
    let level = 0
    for (this.i++; this.i < t.length; this.i++) {
      const c = t[this.i]
      if (c === "'") {
        this.quote(false)
        this.i--
      } else if (c === '{') {
        if (++level > MAX_DEPTH) return false
      } else if (c === '}' && level-- === 0) {
        this.i++
        return true
      }
    }
    return false
  }
}

/** The ICU syntax of `text`, or undefined when it holds no plural or select argument or is not a well-formed message. */
export function messageSyntax (text: string): MessageSyntax | undefined {
  if (!text.includes('{')) return undefined
  const scanner = new Scanner(text)
  if (!scanner.message(0, false) || scanner.i < text.length || scanner.syntax.length === 0) return undefined
  return { syntax: scanner.syntax, hashes: scanner.hashes, quoted: scanner.quoted, doubled: scanner.doubled }
}

type TextItem = Extract<Item, { kind: 'text' }>

/** Characters [a, b) of a text item as an item of their own. */
function sliceText (item: TextItem, a: number, b: number): TextItem {
  if (a === 0 && b === item.text.length) return item
  const o = item.offsets!
  return { kind: 'text', text: item.text.slice(a, b), start: o.starts[a]!, end: o.ends[b - 1]!, offsets: { starts: o.starts.subarray(a, b), ends: o.ends.subarray(a, b) } }
}

/** A run's tags that lost their partner to the skeleton become weak tokens (copied where they stand). */
function balance (run: Item[]): Item[] {
  const open: number[] = []
  const unpaired = new Set<number>()
  run.forEach((item, k) => {
    if (item.kind === 'open') open.push(k)
    else if (item.kind === 'close') {
      if (open.length === 0) unpaired.add(k)
      else open.pop()
    }
  })
  for (const k of open) unpaired.add(k)
  return run.map((item, k) => unpaired.has(k) ? { kind: 'token', start: item.start, end: item.end, weak: true, breaks: false } : item)
}

/**
 * The runs of a run that holds ICU messages: its sub-messages' text, each `#` of a plural and each
 * quoted literal (`'{'`) a token, a doubled apostrophe sent as one, the syntax between them left
 * out (to the skeleton). The run itself when it holds none.
 */
export function messageRuns (items: readonly Item[]): Item[][] {
  return messageParts(items)?.runs ?? [items.slice()]
}

function messageParts (items: readonly Item[]): { runs: Item[][], doubles: boolean } | undefined {
  let flat = ''
  const at: number[] = []
  for (const item of items) {
    at.push(flat.length)
    if (item.kind === 'text') flat += item.text
    else if (item.kind === 'token') flat += TOKEN_CHAR
  }
  const found = messageSyntax(flat)
  if (found === undefined) return undefined
  const { syntax, doubled } = found
  // the tokens: each `#` and each quoted literal, ascending
  const tokens: Array<[number, number]> = [...found.hashes.map((h): [number, number] => [h, h + 1]), ...found.quoted].sort((a, b) => a[0] - b[0])
  // what is cut or changed must lie in one text item the parser aligned, else the run stays whole
  const itemAt = (offset: number): number => {
    // the last item starting at or before `offset` (binary search: `at` ascends)
    let lo = 0
    let hi = at.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (at[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }
  const inAlignedText = (from: number, to: number): boolean => {
    const k = itemAt(from)
    const item = items[k]!
    return item.kind === 'text' && item.offsets !== null && to <= at[k]! + item.text.length
  }
  if (!tokens.every(([a, b]) => inAlignedText(a, b)) || !doubled.every(d => inAlignedText(d, d + 2))) return undefined
  let s = 0
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!
    if (item.kind !== 'text' || item.offsets !== null) continue
    const from = at[k]!
    while (s < syntax.length && syntax[s]![1] <= from) s++
    if (s < syntax.length && syntax[s]![0] < from + item.text.length) return undefined
  }

  /** Characters [a, b) of a text item (at p in the flat text), each doubled apostrophe in them as one. */
  let d = 0
  const piece = (item: TextItem, p: number, a: number, b: number): TextItem => {
    while (d < doubled.length && doubled[d]! < p + a) d++
    if (d === doubled.length || doubled[d]! >= p + b) return sliceText(item, a, b)
    const o = item.offsets!
    let text = ''
    const starts: number[] = []
    const ends: number[] = []
    for (let j = a; j < b; j++) {
      text += item.text[j]!
      starts.push(o.starts[j]!)
      if (d < doubled.length && doubled[d] === p + j && j + 1 < b) {
        ends.push(o.ends[++j]!)
        d++
      } else ends.push(o.ends[j]!)
    }
    return { kind: 'text', text, start: starts[0]!, end: ends.at(-1)!, offsets: { starts: Int32Array.from(starts), ends: Int32Array.from(ends) } }
  }

  const runs: Item[][] = [[]]
  const endRun = (): void => {
    if (runs.at(-1)!.length > 0) runs.push([])
  }
  let r = 0
  let h = 0
  items.forEach((item, k) => {
    const p = at[k]!
    if (item.kind !== 'text') {
      const width = item.kind === 'token' ? 1 : 0
      while (r < syntax.length && syntax[r]![1] <= p) r++
      const s = syntax[r]
      // inside the syntax (a tag at its very edge belongs to the text beside it)
      if (s !== undefined && s[0] <= p && (width === 1 || s[0] < p)) return
      runs.at(-1)!.push(item)
      return
    }
    const end = p + item.text.length
    let q = p
    while (q < end) {
      while (r < syntax.length && syntax[r]![1] <= q) r++
      const s = syntax[r]
      if (s !== undefined && s[0] <= q) {
        endRun()
        q = Math.min(s[1], end)
        continue
      }
      const stop = s === undefined ? end : Math.min(s[0], end)
      while (h < tokens.length && tokens[h]![0] < q) h++
      for (; h < tokens.length && tokens[h]![0] < stop; h++) {
        const [from, to] = tokens[h]!
        if (from > q) runs.at(-1)!.push(piece(item, p, q - p, from - p))
        const o = item.offsets!
        runs.at(-1)!.push({ kind: 'token', start: o.starts[from - p]!, end: o.ends[to - 1 - p]!, weak: false, breaks: false })
        q = to
      }
      if (stop > q) runs.at(-1)!.push(piece(item, p, q - p, stop - p))
      q = stop
    }
  })
  return { runs: runs.filter(run => run.length > 0).map(balance), doubles: doubled.length > 0 }
}

/**
 * A format's escaping for translated text inside an ICU message: an apostrophe is doubled where a
 * lone one would start a quoted literal (before `{`, `}`, `#`, `|` or another apostrophe, or at the
 * end of a piece, which a token or the syntax follows), and everywhere when the message doubled its
 * own (`can''t`), so that its style is kept.
 */
function icuFormat (format: TextFormat, doubles: boolean): TextFormat {
  const apostrophe = doubles ? /'/g : /'(?=[{}#|']|$)/g
  return { ...format, escape: (text, atStart) => format.escape(text.replace(apostrophe, "''"), atStart) }
}

/** The sentence segments of a run whose text may be ICU messages: each sub-message's on its own. */
export function segmentMessageRun (items: Item[], format: TextFormat, locale: string): SegmentDraft[] {
  const parts = messageParts(items)
  if (parts === undefined) return segmentRun(items, format, locale)
  const inMessage = icuFormat(format, parts.doubles)
  return parts.runs.flatMap(run => segmentRun(run, inMessage, locale))
}
