import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { documentText, readyToSegment, segmentDocument } from '../../../src/core/documents/index.js'
import { INLINE_PARSE_CHARS, PARSE_TIMEOUT_MS } from '../../../src/core/documents/markdown-guard.js'
import { containerDepth, MAX_TREE_DEPTH } from '../../../src/core/documents/markdown-parse.js'
import { prepareForTranslation } from '../../../src/core/documents/prepare.js'
import { substituteDocument } from '../../../src/core/documents/substitute.js'
import { ValidationError } from '../../../src/errors.js'

const run = promisify(execFile)

/** The error a call throws (or a promise rejects with). */
async function failure (fn: () => unknown): Promise<unknown> {
  try {
    await fn()
  } catch (err) {
    return err
  }
  throw new Error('expected a failure')
}

describe('Markdown parsing under a time limit', () => {
  it('parses a large ordinary document in the worker and segments it as its parts are segmented inline', async () => {
    const parts = Array.from({ length: 200 }, (_, i) => `## Part ${i}\n\nThe *red* car number ${i} is in [the house](https://example.com/${i}).\n`)
    const source = parts.join('\n')
    expect(source.length).toBeGreaterThan(INLINE_PARSE_CHARS)
    const context = await readyToSegment(source, 'text/markdown')
    const guarded = segmentDocument(source, 'text/markdown', { context })
    expect(guarded.segments).toEqual(parts.flatMap(part => segmentDocument(part, 'text/markdown').segments))
    expect(guarded.segments).toContain('The <g id="1">red</g> car number 7 is in <g id="2">the house</g>.')
    expect(guarded.rebuild(guarded.segments)).toBe(source)
  })

  it('never parses a large source on the main thread: without its own request\'s context every entry point throws an internal error', async () => {
    const source = 'Some *fine* text.\n\n'.repeat(300)
    // a context for the same text from another request is no help: nothing is kept between requests
    await readyToSegment(source, 'text/markdown')
    const calls = [
      () => segmentDocument(source, 'text/markdown'),
      () => segmentDocument({ body: [source] }, 'text/markdown', { context: { trees: new Map() } }),
      () => documentText(source, 'text/markdown'),
      () => prepareForTranslation(source, 'text/markdown', { placeholders: true, rules: [], caseSensitive: false }),
      () => substituteDocument(source, 'text/markdown', [{ text: 'fine', substitution: 'good' }], { caseSensitive: false })
    ]
    for (const call of calls) {
      const err = await failure(call)
      expect(err).toBeInstanceOf(Error)
      expect(err).not.toBeInstanceOf(ValidationError)
      expect((err as Error).message).toMatch(/readyToSegment/)
    }
    // small sources still parse inline
    expect(segmentDocument('Some *fine* text.', 'text/markdown').segments).toEqual(['Some <g id="1">fine</g> text.'])
  })

  it('gives each string leaf of a structured value its tree, and every entry point uses them', async () => {
    const leaf = (n: number): string => `The *garden* tool number ${n} is fine.\n\n`.repeat(80)
    const value = { a: leaf(1), b: [leaf(2), { c: leaf(3) }] }
    const context = await readyToSegment(value, 'text/markdown', ['documents', 0, 'value'])
    expect(context.trees.size).toBe(3)
    const doc = segmentDocument(value, 'text/markdown', { context })
    expect(doc.segments).toHaveLength(240)
    expect(doc.rebuild(doc.segments)).toEqual(value)
    expect(documentText(value, 'text/markdown', { context })).toContain('The garden tool number 3 is fine.')
    const out = substituteDocument(value, 'text/markdown', [{ text: 'garden', substitution: 'yard' }], { caseSensitive: false, context })
    expect(out.applied).toEqual([{ text: 'garden', substitution: 'yard', count: 240 }])
    expect(JSON.stringify(out.value)).not.toContain('garden')
  })

  it('refuses a pathological document with a 400 at its path, and other requests\' Markdown is parsed meanwhile', async () => {
    const evil = '*a '.repeat(15_000) + 'b*'.repeat(15_000)
    let ticks = 0
    const ticker = setInterval(() => { ticks++ }, 50)
    const settled: string[] = []
    const stuck = failure(() => readyToSegment({ body: evil }, 'text/markdown', ['documents', 2, 'value']))
      .finally(() => settled.push('stuck'))
    // another request while the first one holds a parser thread: the second thread takes it
    const ok = 'Another *fine* text.\n\n'.repeat(300)
    const other = readyToSegment(ok, 'text/markdown').finally(() => settled.push('other'))
    const [caught, context] = await Promise.all([stuck, other]).finally(() => clearInterval(ticker))
    expect(settled).toEqual(['other', 'stuck'])
    expect(segmentDocument(ok, 'text/markdown', { context }).segments).toHaveLength(300)
    expect(caught).toBeInstanceOf(ValidationError)
    expect((caught as ValidationError).errors?.[0]?.path).toEqual(['documents', 2, 'value', 'body'])
    // the event loop kept turning while the worker was stuck
    expect(ticks).toBeGreaterThan(PARSE_TIMEOUT_MS / 50 / 2)
  }, PARSE_TIMEOUT_MS * 4)

  it('keeps working after a stopped parse', async () => {
    const ok = 'Some *fine* text.\n\n'.repeat(300)
    const context = await readyToSegment(ok, 'text/markdown')
    expect(segmentDocument(ok, 'text/markdown', { context }).segments.length).toBe(300)
  })

  it('refuses Markdown nested too deeply to parse or to hand over with a 400, not a crash', async () => {
    for (const depth of [MAX_TREE_DEPTH + 700, 8000]) {
      const source = '> '.repeat(depth) + 'Hello.'
      expect(source.length).toBeGreaterThan(INLINE_PARSE_CHARS)
      const err = await failure(() => readyToSegment(source, 'text/markdown', ['documents', 1, 'value']))
      expect(err).toBeInstanceOf(ValidationError)
      expect((err as ValidationError).errors?.[0]?.path).toEqual(['documents', 1, 'value'])
      expect((err as ValidationError).errors?.[0]?.message).toMatch(/nest/)
    }
    // moderately nested, it parses
    const source = '> '.repeat(100) + 'Hello there. '.repeat(200)
    const context = await readyToSegment(source, 'text/markdown')
    expect(segmentDocument(source, 'text/markdown', { context }).segments).toHaveLength(200)
  })

  it('counts the containers a line opens without parsing, and refuses thousands of them before any parse', async () => {
    expect(containerDepth('Text.\n> > - 1. x\n  - y')).toBe(6)
    expect(containerDepth('* * *\n- - -\n___\n> > ')).toBe(2)
    expect(containerDepth('2024 was a year.\nA - B')).toBe(0)
    expect(containerDepth('- * - *')).toBe(8)
    for (const source of ['- '.repeat(3000) + 'x', '1. '.repeat(3000), '- * '.repeat(1500), '> '.repeat(1000) + '- '.repeat(1000)]) {
      expect(containerDepth(source)).toBeGreaterThan(MAX_TREE_DEPTH)
      const err = await failure(() => readyToSegment(source, 'text/markdown'))
      expect(err).toBeInstanceOf(ValidationError)
      expect((err as ValidationError).errors?.[0]?.message).toMatch(/nests more than 500 levels/)
    }
  })

  it('works under the flags the service starts with and under node -e, and lets the process end', async () => {
    const index = new URL('../../../src/core/documents/index.ts', import.meta.url).href
    const code = `const { readyToSegment, segmentDocument } = await import(${JSON.stringify(index)})
const source = 'Some *fine* text.\\n\\n'.repeat(300)
const context = await readyToSegment(source, 'text/markdown')
console.log(segmentDocument(source, 'text/markdown', { context }).segments.length)`
    const root = new URL('../../../', import.meta.url)
    for (const flags of [[], ['--max-semi-space-size=8', '--max-old-space-size=1024']]) {
      // a process kept alive by the parser thread would run into the timeout and fail here
      const { stdout } = await run(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, timeout: 15_000 })
      expect(stdout.trim()).toBe('300')
    }
  }, 40_000)
})
