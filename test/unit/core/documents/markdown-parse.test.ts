/**
 * Markdown is parsed where it is segmented: inline for a small document, on a document thread
 * (the pool runner via offload.ts) for the rest. A large document comes out the same either way, and one
 * that nests too deeply is a 400 at its own path, never a crash. (A pathological document that
 * runs past its request's budget: offload.test.ts.)
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import { containerDepth, MAX_OPEN_LABEL_ENDS, MAX_TREE_DEPTH } from '../../../../src/core/documents/markdown-parse.js'
import { documentCost, DocumentWork, INLINE_COST, prepareDocument, substituteInDocument, textOfDocument } from '../../../../src/core/documents/offload.js'
import { prepareForTranslation } from '../../../../src/core/documents/prepare.js'
import { runDocumentTask } from '../../../../src/core/documents/tasks.js'
import { ValidationError } from '../../../../src/errors.js'
import { leastCpuMs } from '../../../helpers/timing.js'
import { upper } from './engines.js'
import { poolDocuments } from './pool-documents.js'

const run = promisify(execFile)
const settings = { placeholders: true, rules: [], caseSensitive: false }

/** The error a call throws (or a promise rejects with). */
async function failure (fn: () => unknown): Promise<unknown> {
  try {
    await fn()
  } catch (err) {
    return err
  }
  throw new Error('expected a failure')
}

/** Calls `fn` with `frames` calls of this function already on the stack. */
function withStackUsed (frames: number, fn: () => unknown): unknown {
  return frames === 0 ? fn() : withStackUsed(frames - 1, fn)
}

describe('Markdown parsed where it is segmented', () => {
  it('segments a large ordinary document on a document thread as its parts are segmented inline, and rebuilds it', async () => {
    const parts = Array.from({ length: 200 }, (_, i) => `## Part ${i}\n\nThe *red* car number ${i} is in [the house](https://example.com/${i}).\n`)
    const source = parts.join('\n')
    expect(documentCost(source, 'text/markdown')).toBeGreaterThan(INLINE_COST)
    const work = new DocumentWork(poolDocuments)
    const prepared = await prepareDocument(source, 'text/markdown', settings, work)
    expect(prepared.segments).toEqual(parts.flatMap(part => prepareForTranslation(part, 'text/markdown', settings).segments))
    expect(prepared.segments).toContain('The <g id="1">red</g> car number 7 is in <g id="2">the house</g>.')
    const answers = prepared.segments.map(upper)
    const [same, shouted] = await prepared.finish([prepared.segments, answers], new DocumentWork(poolDocuments))
    expect(same!.value).toBe(source)
    expect(shouted).toEqual(prepareForTranslation(source, 'text/markdown', settings).finish(answers))
    expect(shouted!.value).toContain('THE *RED* CAR NUMBER 7 IS IN [THE HOUSE](https://example.com/7).')
    expect({ kind: 'text', text: await textOfDocument(source, 'text/markdown', work) }).toEqual(runDocumentTask({ kind: 'text', value: source, mimeType: 'text/markdown', path: ['document', 'value'] }))
    // it ran on a thread: the thread's time is counted against the request's budget
    await vi.waitFor(() => expect(work.account!.spentMs).toBeGreaterThan(0))
  })

  it('segments every large string leaf of a structured value on a thread', async () => {
    const leaf = (n: number): string => `The *garden* tool number ${n} is fine.\n\n`.repeat(80)
    const value = { a: leaf(1), b: [leaf(2), { c: leaf(3) }] }
    const out = await substituteInDocument(value, 'text/markdown', [{ text: 'garden', substitution: 'yard' }], { caseSensitive: false }, new DocumentWork(poolDocuments))
    expect(out.applied).toEqual([{ text: 'garden', substitution: 'yard', count: 240 }])
    expect(out.value).toEqual({ a: leaf(1).replaceAll('garden', 'yard'), b: [leaf(2).replaceAll('garden', 'yard'), { c: leaf(3).replaceAll('garden', 'yard') }] })
    expect(await textOfDocument(value, 'text/markdown', new DocumentWork(poolDocuments))).toContain('The garden tool number 3 is fine.')
  })

  it('refuses Markdown nested too deeply with a 400 at its own path, not a crash, and serves the next request', async () => {
    const sources = [
      '> '.repeat(MAX_TREE_DEPTH + 700) + 'Hello.',
      '> '.repeat(8000) + 'Hello.',
      // no block containers, but emphasis 600 levels deep (past MAX_EMPHASIS_RUNS too: refused before it is parsed)
      '*a '.repeat(MAX_TREE_DEPTH + 100) + 'b*'.repeat(MAX_TREE_DEPTH + 100)
    ]
    for (const source of sources) {
      expect(documentCost(source, 'text/markdown')).toBeGreaterThan(INLINE_COST)
      const err = await failure(() => textOfDocument({ intro: 'Hello.', body: [source] }, 'text/markdown', new DocumentWork(poolDocuments), { path: ['documents', 1, 'value'] }))
      expect(err).toBeInstanceOf(ValidationError)
      expect((err as ValidationError).errors).toEqual([{ path: ['documents', 1, 'value', 'body', 0], message: expect.stringMatching(/^this Markdown document could not be parsed \((it nests more than 500 levels deep|a paragraph holds more than 500 emphasis markers)/) }])
    }
    // moderately nested, it parses
    const source = '> '.repeat(100) + 'Hello there. '.repeat(200)
    const prepared = await prepareDocument(source, 'text/markdown', settings, new DocumentWork(poolDocuments))
    expect(prepared.segments).toHaveLength(200)
  })

  it('turns a stack overflow in the parser into the same 400 at the document\'s path', () => {
    // parsed with less and less stack left: where the parser runs out first, the caller gets the 400
    const source = '> '.repeat(300) + 'Hello.'
    expect(segmentDocument(source, 'text/markdown').segments).toEqual(['Hello.'])
    let outcome: unknown
    for (let frames = 0; outcome === undefined; frames += 50) {
      try {
        withStackUsed(frames, () => segmentDocument({ body: source }, 'text/markdown', { path: ['documents', 4, 'value'] }))
      } catch (err) {
        outcome = err
      }
    }
    expect(outcome).toBeInstanceOf(ValidationError)
    expect((outcome as ValidationError).errors).toEqual([{
      path: ['documents', 4, 'value', 'body'],
      message: 'this Markdown document could not be parsed (it nests too deeply); simplify it or send it as text/plain'
    }])
  })

  it('refuses a paragraph of thousands of emphasis markers before pairing them (micromark pairs them in quadratic time: 90,000 characters took 85 s), however it is made one', async () => {
    const block = '*a_ '.repeat(160)
    const sources = [...['*a_', '~a', '*a', '**a'].map(unit => 'Intro.\n\n' + unit.repeat(30_000)),
      // what a line-based count took for paragraph ends, micromark does not (a probe's, each held a thread 4-7 s)
      ...['\n\u00a0\n', '\n+\n', '\n1.\n', '\n\f\n'].map(joint => Array(150).fill(block).join(joint)),
      '``` `x\n' + Array(150).fill(block).join('\n'), '> ```\n' + Array(150).fill(block).join('\n'), '> a|b\n> -|-\n' + Array(150).fill(block).join('\n')]
    for (const source of sources) {
      const started = performance.now()
      const err = await failure(() => textOfDocument(source, 'text/markdown', new DocumentWork(poolDocuments)))
      expect(performance.now() - started, source.slice(0, 20)).toBeLessThan(2000)
      expect((err as ValidationError).errors![0]!.message, source.slice(0, 20)).toMatch(/^this Markdown document could not be parsed \(a paragraph holds more than 500 emphasis markers \(\*, _ or ~\) that may close one, the last at line \d+\); simplify it or send it as text\/plain/)
    }
    // as many in paragraphs, list items, table cells or code of their own are read
    const items = Array.from({ length: 400 }, (_, i) => `- item **bold ${i}** and *it* and ~~old~~`).join('\n')
    const ordered = Array.from({ length: 400 }, (_, i) => `${i + 1}. item **bold ${i}** and *it*`).join('\n')
    const table = '| a | b |\n|---|---|\n' + Array.from({ length: 400 }, (_, i) => `| **x${i}** | *y* |`).join('\n')
    const nestedTable = '1. Configure the options:\n\n    | Name | Type |\n    |------|------|\n' + Array.from({ length: 200 }, (_, i) => `    | **opt${i}** | *string* |`).join('\n')
    const fenced = '```c\n' + 'int *p = *q * **r;\n'.repeat(400) + '```\nAfter.'
    const indented = 'Usage:\n\n    class Store:\n' + Array.from({ length: 300 }, (_, i) => `        self._field_${i} = options.get('_field_${i}', **kw)`).join('\n') + '\n\nAfter.'
    const paragraphs = Array.from({ length: 100 }, () => '*a* _b_ **c** '.repeat(20)).join('\n\n')
    for (const source of [items, ordered, table, nestedTable, fenced, indented, paragraphs, 'The snake_case_name is set. '.repeat(1000)]) {
      expect((await prepareDocument(source, 'text/markdown', settings, new DocumentWork(poolDocuments))).segments.length, source.slice(0, 30)).toBeGreaterThan(0)
    }
  })

  it('parses a long paragraph in time linear in its tokens (micromark merged its text with a splice per run: 64,000 lines took 15 s, brackets, code spans and references between words alike)', () => {
    for (const unit of ['a [x] b ', 'a b\n', 'a `x` b ', 'a ] b ']) {
      const time = (chars: number): number => leastCpuMs(() => segmentDocument(unit.repeat(chars / unit.length), 'text/markdown'))
      time(2_000)
      const small = time(16_000)
      const large = time(256_000)
      // linear gives about 16x
      expect(large, `${JSON.stringify(unit)}: ${small.toFixed(1)} ms, then ${large.toFixed(1)} ms`).toBeLessThan(small * 40 + 200)
    }
  })

  it('refuses a paragraph of thousands of `]` that close no link in a document with footnotes (each looked back over the paragraph: 20,000 took 11 s), and reads links, references and hundreds of footnotes', async () => {
    const notes = '[^1]: The note.\n\n'
    for (const source of [notes + ']'.repeat(20_000), notes + 'Intro [^1].\n\n' + 'a ] b '.repeat(MAX_OPEN_LABEL_ENDS + 1), notes + '[p. 30] '.repeat(MAX_OPEN_LABEL_ENDS + 1)]) {
      const started = performance.now()
      const err = await failure(() => textOfDocument({ body: source }, 'text/markdown', new DocumentWork(poolDocuments), { path: ['document', 'value'] }))
      expect(performance.now() - started, source.slice(0, 30)).toBeLessThan(2000)
      expect(err).toBeInstanceOf(ValidationError)
      expect((err as ValidationError).errors, source.slice(0, 30)).toEqual([{ path: ['document', 'value', 'body'], message: expect.stringMatching(/^this Markdown document could not be parsed \(a paragraph holds more than 1000 `\]` that close no link, in a document that defines footnotes, the last at line \d+\); simplify it or send it as text\/plain$/) }])
    }
    // as many without footnotes, or up to the bound, are read
    for (const source of ['a ] b '.repeat(20_000), '[p. 30] '.repeat(5_000), notes + 'See [^1] and ' + '[p. 30] '.repeat(MAX_OPEN_LABEL_ENDS)]) {
      expect((await textOfDocument(source, 'text/markdown', new DocumentWork(poolDocuments))).length, source.slice(0, 30)).toBeGreaterThan(0)
    }
    // a README of links, references and images, and a document of hundreds of footnotes and ![^n] references
    const readme = '[docs]: https://example.com/docs\n\n' + Array.from({ length: 600 }, (_, i) => `See [the docs ${i}](https://example.com/${i}), [the guide][docs], [docs] and ![logo ${i}](logo.png).`).join(' ')
    const notesAt = Array.from({ length: 600 }, (_, i) => `Claim ${i}[^${i}] and ![^${i}] [p. ${i}].`).join(' ') + '\n\n' + Array.from({ length: 600 }, (_, i) => `[^${i}]: Source ${i}.`).join('\n')
    expect((await prepareDocument(readme, 'text/markdown', settings, new DocumentWork(poolDocuments))).segments).toContain('See <g id="1">the docs 7</g>, <g id="2">the guide</g>, <x id="3"/> and <x id="4"/>.')
    const footnoted = await prepareDocument(notesAt, 'text/markdown', settings, new DocumentWork(poolDocuments))
    expect(footnoted.segments).toContain('Source 599.')
    expect(footnoted.segments.filter(s => s.startsWith('Claim')).length).toBeGreaterThan(0)
  })

  it('counts the containers a line opens without parsing, and refuses thousands of them', () => {
    expect(containerDepth('Text.\n> > - 1. x\n  - y')).toBe(6)
    expect(containerDepth('* * *\n- - -\n___\n> > ')).toBe(2)
    expect(containerDepth('2024 was a year.\nA - B')).toBe(0)
    expect(containerDepth('- * - *')).toBe(8)
    for (const source of ['- '.repeat(3000) + 'x', '1. '.repeat(3000), '- * '.repeat(1500), '> '.repeat(1000) + '- '.repeat(1000)]) {
      expect(containerDepth(source)).toBeGreaterThan(MAX_TREE_DEPTH)
      const started = performance.now()
      let err: unknown
      try {
        segmentDocument(source, 'text/markdown', { path: ['documents', 2, 'value'] })
      } catch (caught) {
        err = caught
      }
      expect(err).toBeInstanceOf(ValidationError)
      expect((err as ValidationError).errors?.[0]).toEqual({ path: ['documents', 2, 'value'], message: expect.stringMatching(/nests more than 500 levels/) })
      // refused before parsing (these take seconds to parse, or overflow the parser's stack)
      expect(performance.now() - started).toBeLessThan(1000)
    }
  })

  it('works on the document threads under the flags the service starts with and under node -e, and lets the process end', async () => {
    const offload = new URL('../../../../src/core/documents/offload.ts', import.meta.url).href
    const runner = new URL('./pool-documents.ts', import.meta.url).href
    const code = `const { documentCost, DocumentWork, INLINE_COST, prepareDocument } = await import(${JSON.stringify(offload)})
const { poolDocuments } = await import(${JSON.stringify(runner)})
const source = 'Some *fine* text.\\n\\n'.repeat(300)
const prepared = await prepareDocument(source, 'text/markdown', { placeholders: true, rules: [], caseSensitive: false }, new DocumentWork(poolDocuments))
console.log(prepared.segments.length, documentCost(source, 'text/markdown') > INLINE_COST)`
    const root = new URL('../../../../', import.meta.url)
    for (const flags of [[], ['--max-semi-space-size=2', '--max-old-space-size=1024']]) {
      // a process kept alive by a document thread would run into the timeout and fail here
      const { stdout } = await run(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, timeout: 15_000 })
      expect(stdout.trim()).toBe('300 true')
    }
  }, 40_000)
})
