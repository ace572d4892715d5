/**
 * application/x-subrip (SRT) and text/vtt (WebVTT): each cue's text is one run over all its
 * lines, cut into sentences, so a sentence that wraps across lines goes to the engine whole.
 * Everything else is copied byte for byte: the WEBVTT header, cue numbers and identifiers,
 * timings and cue settings, STYLE, REGION and NOTE blocks, blank lines and line endings.
 *
 * The files are read with a small grammar of our own rather than a subtitle library: the
 * libraries (subtitle, subsrt-ts, node-webvtt) give cues as parsed values and write files
 * anew, losing comments, styles, spacing and the source's own timing notation, and none keeps
 * where a cue lies in the file. The grammar, per block (blocks are separated by blank lines: in
 * WebVTT only an empty line is blank, a line of white space is the text of its block):
 *
 * - SRT: `[number]` line (optional), a timing line `H:MM:SS,mmm --> H:MM:SS,mmm [X1:… Y2:…]`
 *   (`.` accepted for `,`), then text lines up to a blank line;
 * - WebVTT: a first line `WEBVTT` (optionally followed by a space and text) and its header lines
 *   (up to a timing line, as WebVTT's parser ends them); then `NOTE`, `STYLE` and `REGION` blocks,
 *   and cues: an optional identifier line, a timing line
 *   `[HH:]MM:SS.mmm --> [HH:]MM:SS.mmm [settings]` (white space before it skipped, as WebVTT
 *   collects timings), then text lines.
 *
 * A block that is none of these is a 400 naming its line. Inline markup (`<i>`, `<b>`, `<u>`,
 * `<font …>`, `<c.class>`, `<v Speaker>`, `<lang xx>`, `<00:00:01.000>` and SRT's `{\an8}`)
 * travels as tags do in HTML; a `<ruby>`, base and `<rt>` annotation, is kept whole as HTML keeps
 * it, so an engine cannot move words between them (one left open runs to the cue's end, as
 * WebVTT reads it). WebVTT's character references are decoded for the engine and translated
 * text is escaped (`&`, `<`, `>`, and what the cue spelled as a reference, `&nbsp;`, with it).
 *
 * Line breaks: the translated cue is written on as many lines as the source cue had, broken at
 * the spaces nearest the proportional positions of its visible text (never inside a tag or a
 * ruby), so the layout is re-balanced rather than lost. A dialogue cue (every line starting with
 * a dash or a `<v Speaker>` voice span) keeps one line per speaker: each of its lines is a run
 * of its own.
 */
import { decodeHTML } from 'entities'
import { invalidField, type FieldPath } from '../../errors.js'
import { alignText } from './align.js'
import { OPAQUE } from './elements.js'
import { referenceSpellings, textRanges } from './references.js'
import { RunBuilder, type Item, type TextFormat } from './run.js'
import { segmentRun, type SegmentDraft } from './segment-run.js'
import { stringDocument, type StringDocument } from './skeleton.js'

export type SubtitleFormat = 'srt' | 'vtt'

/** Where a cue's text lies in the file, and the line break it uses. */
interface CueText {
  start: number
  end: number
  lines: number
  newline: string
}

interface Line {
  start: number
  /** End of the line's content, before its line break. */
  end: number
  text: string
  /** 1-based, for errors. */
  number: number
  newline: string
}

function splitLines (source: string): Line[] {
  const lines: Line[] = []
  const breaks = /\r\n|\n|\r/g
  let start = 0
  for (const m of source.matchAll(breaks)) {
    lines.push({ start, end: m.index, text: source.slice(start, m.index), number: lines.length + 1, newline: m[0] })
    start = m.index + m[0].length
  }
  lines.push({ start, end: source.length, text: source.slice(start), number: lines.length + 1, newline: '' })
  return lines
}

const BLANK = /^[ \t]*$/
const SRT_TIMING = /^[ \t]*\d{1,3}:\d{1,2}:\d{1,2}[,.]\d{1,3}[ \t]*-->[ \t]*\d{1,3}:\d{1,2}:\d{1,2}[,.]\d{1,3}(?:[ \t].*)?$/
const SRT_NUMBER = /^[ \t]*\d+[ \t]*$/
const VTT_TIMESTAMP = String.raw`(?:\d{2,}:)?[0-5]\d:[0-5]\d\.\d{3}`
const VTT_TIMING = new RegExp(String.raw`^[ \t\f]*${VTT_TIMESTAMP}[ \t\f]+-->[ \t\f]+${VTT_TIMESTAMP}(?:[ \t\f].*)?$`)
const VTT_HEADER = /^\uFEFF?WEBVTT(?:[ \t].*)?$/
const VTT_BLOCK = /^(?:NOTE|STYLE|REGION)(?:[ \t].*)?$/

function bad (path: () => FieldPath, line: Line, what: string): Error {
  return invalidField(path(), `line ${line.number}: ${what}`)
}

/** The cue texts of a file, in order; a 400 naming the line where the file is not SRT or WebVTT. */
export function subtitleCues (source: string, format: SubtitleFormat, path: () => FieldPath): CueText[] {
  const lines = splitLines(source)
  const cues: CueText[] = []
  let i = 0
  const arrow = (at: number): boolean => lines[at]?.text.includes('-->') ?? false
  // WebVTT splits blocks at empty lines only: a line of white space is text, but for one right
  // before a cue (its timing line, or its identifier and then it), which its writer meant as blank
  const blank = (at: number): boolean => format === 'vtt'
    ? lines[at]!.text === '' || (BLANK.test(lines[at]!.text) && (arrow(at + 1) || (!BLANK.test(lines[at + 1]?.text ?? '') && arrow(at + 2))))
    : BLANK.test(lines[at]!.text)
  const skipBlank = (): void => { while (i < lines.length && blank(i)) i++ }
  const block = (): Line[] => {
    const out: Line[] = []
    while (i < lines.length && !blank(i)) out.push(lines[i++]!)
    return out
  }
  if (format === 'vtt') {
    if (!VTT_HEADER.test(lines[0]!.text)) throw bad(path, lines[0]!, 'a WebVTT file starts with "WEBVTT"')
    i = 1
    while (i < lines.length && !blank(i) && !arrow(i)) i++
  } else if (lines[0]!.text.startsWith('\uFEFF')) {
    lines[0] = { ...lines[0]!, start: lines[0]!.start + 1, text: lines[0]!.text.slice(1) }
  }
  for (skipBlank(); i < lines.length; skipBlank()) {
    const lines = block()
    const first = lines[0]!
    if (format === 'vtt' && VTT_BLOCK.test(first.text)) continue
    const timing = format === 'srt' ? SRT_TIMING : VTT_TIMING
    let t = 0
    if (!timing.test(first.text)) {
      if (lines.length < 2 || (format === 'srt' && !SRT_NUMBER.test(first.text)) || first.text.includes('-->')) {
        throw bad(path, first, format === 'srt'
          ? 'expected a cue number or a timing line "00:00:01,000 --> 00:00:02,000"'
          : 'expected a cue identifier, a timing line "00:00:01.000 --> 00:00:02.000", or a NOTE, STYLE or REGION block')
      }
      t = 1
    }
    if (!timing.test(lines[t]!.text)) {
      throw bad(path, lines[t]!, `expected a timing line ("00:00:01${format === 'srt' ? ',' : '.'}000 --> 00:00:02${format === 'srt' ? ',' : '.'}000")`)
    }
    let text = lines.slice(t + 1)
    if (format === 'vtt') {
      const arrow = text.findIndex(l => l.text.includes('-->'))
      if (arrow !== -1) {
        const spaces = text.slice(0, arrow).some(l => BLANK.test(l.text))
        throw bad(path, text[arrow]!, `a cue's text may not hold "-->" (a blank line must end the cue before the next timing line${spaces ? '; a line of white space is not blank in WebVTT' : ''})`)
      }
      // lines of white space around the text are kept as they are, not filled with it
      const first = text.findIndex(l => !BLANK.test(l.text))
      text = first === -1 ? [] : text.slice(first, text.findLastIndex(l => !BLANK.test(l.text)) + 1)
    }
    if (text.length === 0) continue
    cues.push({ start: text[0]!.start, end: text.at(-1)!.end, lines: text.length, newline: text[0]!.newline })
  }
  return cues
}

/** Inline markup of cue text: tags (VTT's and SRT's HTML-like ones, timestamps) and SRT's `{\…}` overrides. */
const MARKUP = /<(\/?)([A-Za-z][\w-]*)(?:\.[^\s>]*)?(?:[ \t][^>]*)?>|<\d[\d:.]*>|\{\\[^}]*\}/g
/** A speaker's line: it starts (after markup) with a dash or a WebVTT voice span `<v Name>`. */
const DIALOGUE = /^[ \t]*(?:<[^>]*>|\{\\[^}]*\})*(?:[ \t]*[-\u2010-\u2015]|<v[ \t.])/

const VTT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

/** WebVTT cue text as written: `&`, `<`, `>` escaped, and the characters the cue spelled as references (`spelled`: `&nbsp;`) with them. */
function vttFormat (spelled?: ReadonlyMap<string, string>): TextFormat {
  const written = spelled === undefined ? '' : [...spelled.keys()].map(c => `\\u{${c.codePointAt(0)!.toString(16)}}|`).join('')
  const special = new RegExp(`${written}[&<>]`, 'gu')
  return {
    escape: text => text.replace(/[\r\n]+/g, ' ').replace(special, c => spelled?.get(c) ?? VTT_ESCAPES[c]!),
    collapse: /[ \t]*(?:\r\n|\n|\r)[ \t]*/g
  }
}
const vttText = vttFormat()
const srtText: TextFormat = {
  escape: text => text.replace(/[\r\n]+/g, ' '),
  collapse: /[ \t]*(?:\r\n|\n|\r)[ \t]*/g
}

/** The segment drafts of cue text `source` (one cue, or one line of a dialogue cue), offsets from 0. */
function cueDrafts (source: string, format: SubtitleFormat, locale: string): SegmentDraft[] {
  const run = new RunBuilder()
  const text = (start: number, end: number): void => {
    if (end <= start) return
    const raw = source.slice(start, end)
    const decoded = format === 'vtt' ? decodeHTML(raw) : raw
    run.push({ kind: 'text', start, end, text: decoded, offsets: alignText(decoded, source, start, end, { escapes: false }) })
  }
  // elements kept whole, as HTML keeps them (a ruby's base and annotation are one token, so no
  // engine moves words between them): each open matched with its close of the same name
  const all = [...source.matchAll(MARKUP)]
  const wholeTo = new Map<number, number>()
  const opened = new Map<string, number[]>()
  all.forEach((m, k) => {
    const name = m[2]?.toLowerCase()
    if (name === undefined || !OPAQUE.has(name)) return
    const stack = opened.get(name) ?? []
    opened.set(name, stack)
    if (m[1] === '') stack.push(k)
    else if (stack.length > 0) wholeTo.set(stack.pop()!, k)
  })
  const marks: Array<RegExpExecArray | Item> = []
  for (let k = 0; k < all.length; k++) {
    const m = all[k]!
    const close = wholeTo.get(k)
    if (close !== undefined) {
      const last = all[close]!
      marks.push({ kind: 'token', start: m.index, end: last.index + last[0].length, weak: false, breaks: false })
      k = close
    } else if (m[1] === '' && m[2]?.toLowerCase() === 'ruby') {
      // WebVTT closes a ruby left open at the cue's end: it stays last, in the skeleton
      marks.push({ kind: 'token', start: m.index, end: source.length, weak: true, breaks: false })
      break
    } else {
      marks.push(m)
    }
  }
  // pairs open tags with their close by name; the rest are weak tokens (they may go to the skeleton at an edge)
  const pairOf = new Map<number, number>()
  const stack: Array<[string, number]> = []
  // how many of each name the stack holds, so a stray close costs no scan
  const open = new Map<string, number>()
  marks.forEach((m, k) => {
    if ('kind' in m) return
    const name = m[2]?.toLowerCase()
    if (name === undefined) return
    if (m[1] === '') {
      stack.push([name, k])
      open.set(name, (open.get(name) ?? 0) + 1)
      return
    }
    if ((open.get(name) ?? 0) === 0) return
    // tags left open inside this one stay single tokens
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      open.set(top[0], open.get(top[0])! - 1)
      if (top[0] === name) {
        pairOf.set(top[1], k)
        break
      }
    }
  })
  const closes = new Set(pairOf.values())
  let at = 0
  marks.forEach((m, k) => {
    if ('kind' in m) {
      text(at, m.start)
      run.push(m)
      at = m.end
      return
    }
    text(at, m.index)
    const range = { start: m.index, end: m.index + m[0].length }
    if (pairOf.has(k)) run.push({ kind: 'open', ...range })
    else if (closes.has(k)) run.push({ kind: 'close', ...range })
    else run.push({ kind: 'token', ...range, weak: true, breaks: false })
    at = range.end
  })
  text(at, source.length)
  const drafts = segmentRun(run.take(), format === 'vtt' ? vttText : srtText, locale)
  // a character the cue spelled as a reference (`&nbsp;`, `&lrm;`) is written with it again, as HTML's are
  return format === 'srt'
    ? drafts
    : drafts.map(draft => {
      const spelled = referenceSpellings(source, textRanges(draft))
      return spelled.size === 0 ? draft : { ...draft, format: vttFormat(spelled) }
    })
}

/** Spaces, markup, and a ruby whole (its text visible, no break inside it). */
const SPACE_OR_MARKUP = /[ \t]+|<ruby(?=[\s.>])[^>]*>((?:(?!<\/?ruby[\s.>]).)*)<\/ruby>|<[^>]*>|\{\\[^}]*\}/gi

/**
 * `text` on `lines` lines: its line breaks made spaces, then broken at the spaces (outside
 * markup and rubies) nearest the proportional positions of its visible characters.
 */
export function rebalance (text: string, lines: number, newline: string): string {
  const flat = text.replace(/[ \t]*(?:\r\n|\n|\r)[ \t]*/g, ' ').trim()
  if (lines <= 1) return flat
  // each candidate space: where it is in `flat`, and how many visible characters lie before it
  const spaces: Array<{ start: number, end: number, visible: number }> = []
  let visible = 0
  let at = 0
  for (const m of flat.matchAll(SPACE_OR_MARKUP)) {
    visible += m.index - at
    if (m[0][0] === ' ' || m[0][0] === '\t') {
      spaces.push({ start: m.index, end: m.index + m[0].length, visible })
      visible += 1
    } else if (m[1] !== undefined) {
      visible += m[1].replace(/<[^>]*>/g, '').length
    }
    at = m.index + m[0].length
  }
  visible += flat.length - at
  const chosen: typeof spaces = []
  let from = 0
  for (let k = 1; k < lines && from < spaces.length; k++) {
    const target = (visible * k) / lines
    // spaces lie in order, so the distance to the target falls then rises: walk while it falls
    let best = from
    while (best + 1 < spaces.length && spaces.length - (best + 1) >= lines - k &&
      Math.abs(spaces[best + 1]!.visible - target) < Math.abs(spaces[best]!.visible - target)) best++
    chosen.push(spaces[best]!)
    from = best + 1
  }
  let out = ''
  at = 0
  for (const s of chosen) {
    out += flat.slice(at, s.start) + newline
    at = s.end
  }
  return out + flat.slice(at)
}

/** A piece of the file that is translated on its own, and how its translation is written back. */
interface Part {
  start: number
  end: number
  doc: StringDocument
  finish: (rebuilt: string) => string
}

/** A subtitle file as a string document: its cues' sentences, the rest of the file as it is. */
export function subtitleDocument (source: string, format: SubtitleFormat, locale: string, path: () => FieldPath): StringDocument {
  const parts: Part[] = []
  for (const cue of subtitleCues(source, format, path)) {
    const text = source.slice(cue.start, cue.end)
    const lines = text.split(/\r\n|\n|\r/)
    if (lines.length > 1 && lines.every(l => DIALOGUE.test(l))) {
      // one run per speaker's line; the breaks between them stay
      let start = cue.start
      for (const line of lines) {
        const own = source.slice(start, start + line.length)
        parts.push({ start, end: start + line.length, doc: stringDocument(own, cueDrafts(own, format, locale)), finish: rebuilt => rebalance(rebuilt, 1, '') })
        start += line.length + cue.newline.length
      }
      continue
    }
    parts.push({
      start: cue.start,
      end: cue.end,
      doc: stringDocument(text, cueDrafts(text, format, locale)),
      finish: rebuilt => rebuilt === text ? text : rebalance(rebuilt, cue.lines, cue.newline)
    })
  }
  const segments = parts.flatMap(p => p.doc.segments)
  return {
    segments,
    rebuild: translated => {
      if (translated.length !== segments.length) throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
      let out = ''
      let at = 0
      let k = 0
      for (const part of parts) {
        const own = translated.slice(k, k + part.doc.segments.length)
        k += own.length
        const original = source.slice(part.start, part.end)
        const rebuilt = part.doc.rebuild(own)
        out += source.slice(at, part.start) + (rebuilt === original ? original : part.finish(rebuilt))
        at = part.end
      }
      return out + source.slice(at)
    }
  }
}
