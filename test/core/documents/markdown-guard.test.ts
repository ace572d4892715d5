import { describe, expect, it } from 'vitest'
import { readyToSegment, segmentDocument } from '../../../src/core/documents/index.js'
import { INLINE_PARSE_CHARS, PARSE_TIMEOUT_MS } from '../../../src/core/documents/markdown-guard.js'
import { ValidationError } from '../../../src/errors.js'

describe('Markdown parsing under a time limit', () => {
  it('parses a large ordinary document in the worker and segments it the same as inline', async () => {
    const source = Array.from({ length: 200 }, (_, i) => `## Part ${i}\n\nThe *red* car number ${i} is in [the house](https://example.com/${i}).\n`).join('\n')
    expect(source.length).toBeGreaterThan(INLINE_PARSE_CHARS)
    const inline = segmentDocument(source, 'text/markdown').segments
    await readyToSegment(source, 'text/markdown')
    const guarded = segmentDocument(source, 'text/markdown')
    expect(guarded.segments).toEqual(inline)
    expect(guarded.rebuild(guarded.segments)).toBe(source)
  })

  it('refuses a pathological document with a 400 at its pointer instead of stalling the event loop', async () => {
    const evil = '*a '.repeat(15_000) + 'b*'.repeat(15_000)
    let ticks = 0
    const ticker = setInterval(() => { ticks++ }, 50)
    let caught: unknown
    try {
      await readyToSegment({ body: evil }, 'text/markdown', '/documents/2/value')
    } catch (err) {
      caught = err
    } finally {
      clearInterval(ticker)
    }
    expect(caught).toBeInstanceOf(ValidationError)
    expect((caught as ValidationError).errors?.[0]?.pointer).toBe('/documents/2/value/body')
    // the event loop kept turning while the worker was stuck
    expect(ticks).toBeGreaterThan(PARSE_TIMEOUT_MS / 50 / 2)
  }, PARSE_TIMEOUT_MS * 4)

  it('keeps working after a stopped parse', async () => {
    const ok = 'Some *fine* text.\n\n'.repeat(300)
    await readyToSegment(ok, 'text/markdown')
    expect(segmentDocument(ok, 'text/markdown').segments.length).toBeGreaterThan(0)
  })
})
