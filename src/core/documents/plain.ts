/** text/plain: each line is a run cut into sentences; indentation, line breaks and blank lines stay in the skeleton. */
import { alignText } from './align.js'
import type { TextFormat } from './run.js'
import { segmentMessageRun } from './icu.js'
import type { SegmentDraft } from './segment-run.js'

const plainFormat: TextFormat = { escape: text => text }

const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g

/**
 * The segment drafts of plain text. A line break always ends a segment (as DeepL's default
 * sentence splitting does): lines of plain text are often separate items, and a wrapped
 * sentence split in two is safer than two lines joined.
 */
export function plainDrafts (source: string, locale: string): SegmentDraft[] {
  const drafts: SegmentDraft[] = []
  let start = 0
  const line = (end: number): void => {
    if (end > start) {
      const text = source.slice(start, end)
      const offsets = alignText(text, source, start, end, { escapes: false })
      drafts.push(...segmentMessageRun([{ kind: 'text', start, end, text, offsets }], plainFormat, locale))
    }
  }
  for (const m of source.matchAll(LINE_BREAK)) {
    line(m.index)
    start = m.index + m[0].length
  }
  line(source.length)
  return drafts
}
