import { describe, expect, it } from 'vitest'
import type { Item } from '../../../../src/core/documents/run.js'
import { segmentRun } from '../../../../src/core/documents/segment-run.js'
import { stringDocument } from '../../../../src/core/documents/skeleton.js'
import { upper } from './engines.js'

const text = (source: string, start: number, end: number): Item => ({ kind: 'text', start, end, text: source.slice(start, end), offsets: null })

describe('segmentRun', () => {
  it('keeps an open or close with no partner in the run as it is, never as a pair', () => {
    // a run ending inside an element, and the next run holding only its close
    const source = '<a>Lead in<h2>Title</h2>Read more</a> now'
    const first: Item[] = [{ kind: 'open', start: 0, end: 3 }, text(source, 3, 10)]
    const second: Item[] = [text(source, 24, 33), { kind: 'close', start: 33, end: 37 }, text(source, 37, 41)]
    const drafts = [...segmentRun(first, { escape: t => t }, 'en'), ...segmentRun(second, { escape: t => t }, 'en')]
    expect(drafts.map(d => d.segment)).toEqual(['Lead in', 'Read more<x id="1"/> now'])
    const doc = stringDocument(source, drafts)
    expect(doc.rebuild(doc.segments)).toBe(source)
    expect(doc.rebuild(doc.segments.map(upper))).toBe('<a>LEAD IN<h2>Title</h2>READ MORE</a> NOW')
  })
})
