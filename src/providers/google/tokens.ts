/**
 * Tagged segments as plain text with numbered `[N]` tokens for Google Translate's free endpoint
 * (which has no markup mode), several segments per request, and back, verified.
 *
 * Why `[N]`: bracketed numbers read as citation marks, which Google keeps and moves with their
 * words; words-like tokens (`x1`, `__name__`, `%name%`) get translated, merged or re-spaced. What it
 * still does to them is accepted on the way back: spaces inside (`[ 9 ]`), full-width or lenticular
 * brackets in CJK output (`［9］`, `【9】`), and native digits (`[٩]`).
 *
 * Numbers are unique per request: they skip every number the text already has in brackets, so a
 * lookalike such as a footnote `[1]` stays text. Segments of one request are joined by a token of
 * the same numbering on a line of its own. The answer is rebuilt only when every token came back
 * exactly once, in its own segment, with `<g>` pairs still nested as sent; else it is an error.
 */
import { UpstreamError } from '../../errors.js'
import { parseTagged, serializeTagged, type TaggedPart } from '../../core/tagged.js'

/** Longest text one request carries: Google's own limit for one translation is 5,000 characters. */
export const MAX_REQUEST_CHARS = 5000

// at most 9 digits, so a longer bracketed number in the text can never equal one of ours
const TOKEN = /[[［【]\s*(\p{Nd}{1,9})\s*[\]］】]/gu
// bounds for planning before numbers are chosen: "[99999]", and a separator adds two newlines
const TOKEN_CHARS = 7
const SEPARATOR_CHARS = TOKEN_CHARS + 2

type Tag = Exclude<TaggedPart, { type: 'text' }>
type Item = { type: 'text', text: string } | { type: 'tag', n: number, tag: Tag }

interface Segment {
  parts: TaggedPart[]
  lead: string
  trail: string
  /** Token number -> the tag it stands for. */
  tags: Map<number, Tag>
  /** Token number of a close -> token number of its open. */
  pairOf: Map<number, number>
  /** Opens whose content started, and closes whose content ended, with whitespace in the source. */
  spacedInside: Set<number>
}

/** One request: its text, and what rebuilding its answer needs. */
export interface Request {
  text: string
  /** Positions of its segments in the call, in order. */
  indexes: number[]
  segments: Segment[]
  separators: number[]
  /** Every token number of the request. */
  owned: Set<number>
}

export interface Plan {
  /** Answers known without asking (segments without a letter to translate), by position in the call. */
  fixed: Map<number, string>
  requests: Request[]
}

/** Splits a call's segments into requests of at most `maxChars` (a longer segment goes alone). */
export function planCall (segments: readonly string[], maxChars = MAX_REQUEST_CHARS): Plan {
  const fixed = new Map<number, string>()
  const requests: Request[] = []
  let group: Array<{ index: number, parts: TaggedPart[], lookalikes: number[] }> = []
  let size = 0
  const flush = (): void => {
    if (group.length > 0) requests.push(buildRequest(group))
    group = []
    size = 0
  }
  segments.forEach((segment, index) => {
    const parts = mergeText(parseTagged(segment))
    const texts = parts.flatMap(p => p.type === 'text' ? [p.text] : [])
    if (!texts.some(t => /\p{L}/u.test(t))) {
      fixed.set(index, serializeTagged(parts))
      return
    }
    const estimate = texts.reduce((n, t) => n + t.length, 0) + (parts.length - texts.length) * TOKEN_CHARS
    if (group.length > 0 && size + SEPARATOR_CHARS + estimate > maxChars) flush()
    size += (group.length > 0 ? SEPARATOR_CHARS : 0) + estimate
    group.push({ index, parts, lookalikes: texts.flatMap(t => [...t.matchAll(TOKEN)].map(m => numberOf(m[1]!))) })
  })
  flush()
  return { fixed, requests }
}

/** Numbers the tokens of a group (skipping its lookalikes) and writes its text. */
function buildRequest (group: Array<{ index: number, parts: TaggedPart[], lookalikes: number[] }>): Request {
  const taken = new Set(group.flatMap(s => s.lookalikes))
  let next = 1
  const owned = new Set<number>()
  const take = (): number => {
    while (taken.has(next)) next++
    owned.add(next)
    return next++
  }
  const separators: number[] = []
  const segments: Segment[] = []
  let text = ''
  for (const { parts } of group) {
    if (segments.length > 0) {
      const n = take()
      separators.push(n)
      text += `\n[${n}]\n`
    }
    const tags = new Map<number, Tag>()
    const pairOf = new Map<number, number>()
    const spacedInside = new Set<number>()
    const open: number[] = []
    let body = ''
    parts.forEach((part, i) => {
      if (part.type === 'text') {
        body += part.text
        return
      }
      const n = take()
      tags.set(n, part)
      body += `[${n}]`
      if (part.type === 'open') {
        open.push(n)
        if (/^\s/.test(textOf(parts[i + 1]))) spacedInside.add(n)
      } else if (part.type === 'close') {
        pairOf.set(n, open.pop()!)
        if (/\s$/.test(textOf(parts[i - 1]))) spacedInside.add(n)
      }
    })
    const lead = /^\s*/.exec(body)![0]
    const trail = body.length === lead.length ? '' : /\s*$/.exec(body)![0]
    text += body.trim()
    segments.push({ parts, lead, trail, tags, pairOf, spacedInside })
  }
  return { text, indexes: group.map(s => s.index), segments, separators, owned }
}

/** Rebuilds the tagged segments of a request from Google's answer; an UpstreamError when its tokens were not kept. */
export function decodeAnswer (request: Request, answer: string): string[] {
  const pieces: Array<string | number> = []
  const seen = new Set<number>()
  let last = 0
  for (const m of answer.matchAll(TOKEN)) {
    const n = numberOf(m[1]!)
    if (!request.owned.has(n)) continue // a lookalike from the text: stays text
    if (seen.has(n)) throw markupLost('repeated')
    seen.add(n)
    pieces.push(answer.slice(last, m.index), n)
    last = m.index + m[0].length
  }
  pieces.push(answer.slice(last))
  if (seen.size !== request.owned.size) throw markupLost('dropped')

  const chunks: Array<Array<string | number>> = [[]]
  let s = 0
  for (const piece of pieces) {
    if (typeof piece === 'number' && request.separators.includes(piece)) {
      if (piece !== request.separators[s++]) throw markupLost('reordered')
      chunks.push([])
    } else {
      chunks.at(-1)!.push(piece)
    }
  }
  return chunks.map((chunk, k) => rebuild(request.segments[k]!, chunk))
}

/** One segment from its share of the answer. */
function rebuild (segment: Segment, chunk: Array<string | number>): string {
  const items: Item[] = []
  for (const piece of chunk) {
    if (typeof piece === 'string') {
      items.push({ type: 'text', text: piece })
      continue
    }
    const tag = segment.tags.get(piece)
    // every token came back once, so one in the wrong segment leaves this one short too
    if (tag === undefined) throw markupLost('moved between segments')
    items.push({ type: 'tag', n: piece, tag })
  }
  // the joins around a segment are ours; its own edges come back as sent
  const first = items[0]
  const lastItem = items.at(-1)
  if (first?.type === 'text') first.text = first.text.trimStart()
  if (lastItem?.type === 'text') lastItem.text = lastItem.text.trimEnd()

  // `</g>` carries no id, so pairs must stay nested as sent for the serialized form to mean the same
  const stack: number[] = []
  for (const item of items) {
    if (item.type !== 'tag') continue
    if (item.tag.type === 'open') stack.push(item.n)
    else if (item.tag.type === 'close' && stack.pop() !== segment.pairOf.get(item.n)) throw markupLost('reordered')
  }
  spaceOutside(items, segment.spacedInside)
  const parts: TaggedPart[] = [{ type: 'text', text: segment.lead }]
  for (const item of items) parts.push(item.type === 'text' ? item : item.tag)
  parts.push({ type: 'text', text: segment.trail })
  return serializeTagged(mergeText(parts))
}

/**
 * Whitespace Google put just inside a `<g>` pair the source did not have ("[1] here [2]") moves
 * outside it, where it separates words, or goes where whitespace, punctuation or an edge is already.
 */
function spaceOutside (items: Item[], spacedInside: ReadonlySet<number>): void {
  const keeps = (c: string | undefined): boolean => c !== undefined && !/[\s\p{P}]/u.test(c)
  items.forEach((item, i) => {
    if (item.type !== 'tag' || spacedInside.has(item.n)) return
    if (item.tag.type === 'open') {
      const inside = items[i + 1]
      const space = inside?.type === 'text' ? /^\s+/.exec(inside.text)?.[0] : undefined
      if (inside?.type !== 'text' || space === undefined) return
      inside.text = inside.text.slice(space.length)
      const outside = items[i - 1]
      if (outside?.type === 'text' && keeps(outside.text.at(-1))) outside.text += space
    } else if (item.tag.type === 'close') {
      const inside = items[i - 1]
      const space = inside?.type === 'text' ? /\s+$/.exec(inside.text)?.[0] : undefined
      if (inside?.type !== 'text' || space === undefined) return
      inside.text = inside.text.slice(0, -space.length)
      const outside = items[i + 1]
      if (outside?.type === 'text' && keeps(outside.text[0])) outside.text = space + outside.text
    }
  })
}

/** Joins neighbouring text parts and drops empty ones. */
function mergeText (parts: readonly TaggedPart[]): TaggedPart[] {
  const out: TaggedPart[] = []
  for (const part of parts) {
    const prev = out.at(-1)
    if (part.type !== 'text') out.push(part)
    else if (part.text === '') continue
    else if (prev?.type === 'text') out[out.length - 1] = { type: 'text', text: prev.text + part.text }
    else out.push({ ...part })
  }
  return out
}

function textOf (part: TaggedPart | undefined): string {
  return part?.type === 'text' ? part.text : ''
}

/** The value of a run of decimal digits of any script (Google may answer with the target's digits). */
function numberOf (digits: string): number {
  let n = 0
  for (const c of digits) n = n * 10 + digitValue(c.codePointAt(0)!)
  return n
}

const DIGIT = /^\p{Nd}$/u

/** Unicode's decimal digits come in runs starting at a zero (the mathematical ones run five sets together). */
function digitValue (cp: number): number {
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30
  let zero = cp
  while (DIGIT.test(String.fromCodePoint(zero - 1))) zero--
  return (cp - zero) % 10
}

function markupLost (how: string): UpstreamError {
  return new UpstreamError('google', `did not keep the inline markup of a segment (a marker was ${how}); not using its answer`)
}
