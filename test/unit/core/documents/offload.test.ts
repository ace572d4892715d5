/**
 * Documents on the thread pool (the document runner app.ts gives core/documents/offload.ts): costly
 * documents are worked off the event loop with the same results as inline, clients take turns and
 * one client never holds every thread, and a request's budget stops a document that runs over (a
 * 400 at its path) without harming the next requests.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { documentChanges, documentCost, DocumentWork, INLINE_COST, prepareDocument, substituteInDocument, textOfDocument, type DocumentTask } from '../../../../src/core/documents/offload.js'
import { LANE_INLINE_COST } from '../../../../src/core/documents/cost.js'
import { changesOf } from '../../../../src/core/editing/changes.js'
import { runDocumentTask } from '../../../../src/core/documents/tasks.js'
import { prepareForTranslation } from '../../../../src/core/documents/prepare.js'
import { DocumentsBusyError, ValidationError } from '../../../../src/errors.js'
import { withClient } from '../../../../src/lib/clients.js'
import { DOCUMENT_TASKS } from '../../../../src/http/document-tasks.js'
import { configureProcessPool, DEFAULT_DOCUMENT_QUEUE_MS, poolThreads, processPool, ThreadPool } from '../../../../src/runtime/pool.js'
import { documentsOn, poolDocuments } from './pool-documents.js'
import { heavyMarkdown } from '../../../helpers/markdown.js'

const settings = { placeholders: true, rules: [{ text: 'house', substitution: 'home' }], caseSensitive: false }

/** The error a promise rejects with. */
async function failure (promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (err) {
    return err
  }
  throw new Error('expected a failure')
}

// as the service makes it (app.ts): its threads load the document core as they start, before any
// request's budget counts (from sources, loading it is slow on a busy machine)
beforeAll(async () => {
  configureProcessPool({ threads: poolThreads(1), queueMs: DEFAULT_DOCUMENT_QUEUE_MS, busyError: waited => new DocumentsBusyError(waited), preload: [DOCUMENT_TASKS] })
  await processPool().ready()
})

describe('documents on the thread pool', () => {
  it('works a costly document on a thread with the same segments, text and rebuild as inline, while the event loop turns', async () => {
    const value = Array.from({ length: 400 }, (_, i) => `<p>The <b>red</b> car number ${i} is in <a href="/x/${i}">the house</a>, {name}.</p>`).join('\n')
    expect(documentCost(value, 'text/html')).toBeGreaterThan(INLINE_COST)
    let ticks = 0
    const ticker = setInterval(() => { ticks++ }, 1)
    const work = new DocumentWork(poolDocuments)
    const prepared = await prepareDocument(value, 'text/html', settings, work)
    const inline = prepareForTranslation(value, 'text/html', settings)
    expect(prepared.segments).toEqual(inline.segments)
    const answers = prepared.segments.map(s => s.toUpperCase())
    const reversed = prepared.segments.map(s => [...s].reverse().join(''))
    // one task rebuilds every answer set (one per target) from one reading of the document
    expect(await prepared.finish([answers, reversed], new DocumentWork(poolDocuments))).toEqual([inline.finish(answers), inline.finish(reversed)])
    expect({ kind: 'text', text: await textOfDocument(value, 'text/html', work) }).toEqual(runDocumentTask({ kind: 'text', value, mimeType: 'text/html', path: ['document', 'value'] }))
    clearInterval(ticker)
    expect(ticks).toBeGreaterThan(0)
    // the thread's time was counted against the request's budget
    await expect.poll(() => work.account!.spentMs).toBeGreaterThan(0)
  })

  it('diffs a long edit\'s changes on a thread, as inline, while the event loop turns', async () => {
    const after = Array.from({ length: 1400 }, (_, i) => `Mary Smith visited Paris on ${1 + i % 28} May and found the hotel ${i % 3 === 0 ? 'terrible' : 'wonderful'}.`).join(' ')
    const before = after.replaceAll('hotel', 'hotle')
    expect(documentCost(before, 'text/plain')).toBeGreaterThan(INLINE_COST)
    const notes = [{ original: 'hotle', replacement: 'hotel', type: 'grammar' as const, reason: 'Spelling' }]
    let ticks = 0
    const ticker = setInterval(() => { ticks++ }, 1)
    const work = new DocumentWork(poolDocuments)
    const changes = await documentChanges(before, after, notes, ['grammar'], work)
    clearInterval(ticker)
    expect(changes).toEqual(changesOf(before, after, notes, ['grammar']))
    expect(changes).toHaveLength(1400)
    expect(ticks).toBeGreaterThan(0)
    // on a thread: the request's budget pays for it
    await expect.poll(() => work.account!.spentMs).toBeGreaterThan(0)
  })

  it('refuses a document that runs past its request\'s budget with a 400 at its path, and serves the next request', async () => {
    const evil = heavyMarkdown(400)
    const work = new DocumentWork(poolDocuments, undefined, 300)
    const started = performance.now()
    const err = await failure(substituteInDocument({ body: evil }, 'text/markdown', [], { caseSensitive: false, path: ['documents', 3, 'value'] }, work))
    expect(performance.now() - started).toBeLessThan(5000)
    expect(err).toBeInstanceOf(ValidationError)
    expect((err as ValidationError).errors).toEqual([{ path: ['documents', 3, 'value'], message: expect.stringMatching(/too complex/) }])
    // the request's later documents are refused at once
    const later = await failure(textOfDocument('x'.repeat(50_000) + '\n'.repeat(1000), 'text/html', work))
    expect(later).toBeInstanceOf(ValidationError)
    // the stopped thread was replaced: another request is served
    const ok = await substituteInDocument('The *house* is red.\n\n'.repeat(200), 'text/markdown', settings.rules, { caseSensitive: false }, new DocumentWork(poolDocuments))
    expect(ok.applied).toEqual([{ text: 'house', substitution: 'home', count: 200 }])
  })

  it('lets clients take turns: one client\'s small document is not queued behind another client\'s many documents', async () => {
    const slow = (i: number): string => heavyMarkdown(10, i)
    // both threads loaded (loading a thread is not what is measured)
    await Promise.all(['x', 'y'].map(async c => await withClient(c, async () => await textOfDocument(slow(-1), 'text/markdown', new DocumentWork(poolDocuments)))))
    const order: string[] = []
    const many = withClient('busy', () => Array.from({ length: 12 }, async (_, i) => {
      await textOfDocument(slow(i), 'text/markdown', new DocumentWork(poolDocuments))
      order.push(`busy ${i}`)
    }))
    const small = withClient('other', async () => await textOfDocument('A *small* document.\n\n'.repeat(100), 'text/markdown', new DocumentWork(poolDocuments))).then(() => order.push('small'))
    await Promise.all([...many, small])
    // in arrival order it would come last; taking turns, it runs beside the busy client's first
    // tasks (the margin is for a loaded machine, where the thread it got may start later)
    expect(order.indexOf('small')).toBeLessThan(4)
  })

  it('answers a 400, never an internal error, for a document nested too deeply for a thread', async () => {
    let nested: unknown = 'deep'
    for (let i = 0; i < 600; i++) nested = [nested]
    const err = await failure(textOfDocument({ list: nested, pad: 'x'.repeat(60_000) }, 'text/plain', new DocumentWork(poolDocuments), { path: ['document', 'value'] }))
    expect(err).toBeInstanceOf(ValidationError)
  })

  it('refuses with a 503 a request whose tasks waited for threads longer than allowed, and leaves another client a thread', async () => {
    const pool = new ThreadPool({ threads: 2, queueMs: 400, busyError: waited => new DocumentsBusyError(waited) })
    const evil = (i: number): string => heavyMarkdown(1500, i)
    try {
      // both threads loaded (loading a thread is not what is measured)
      await Promise.all(['x', 'y'].map(async c => await withClient(c, async () => await textOfDocument('A *warm* document.\n\n'.repeat(200), 'text/markdown', new DocumentWork(documentsOn(pool), undefined, 5000)))))
      // one client's long documents: it holds one of the two threads, never both
      const blocker = withClient('heavy', async () => await failure(substituteInDocument(evil(0), 'text/markdown', [], { caseSensitive: false }, new DocumentWork(documentsOn(pool), undefined, 2500))))
      await new Promise(resolve => setTimeout(resolve, 100))
      const waiting = withClient('heavy', async () => {
        const work = new DocumentWork(documentsOn(pool), undefined, 5000)
        const started = performance.now()
        const err = await failure(substituteInDocument(evil(99), 'text/markdown', [], { caseSensitive: false }, work))
        return { err, waited: performance.now() - started, work }
      })
      // another client's work runs at once on the thread left to it
      const lightValue = 'The *house* is red.\n\n'.repeat(100)
      expect(documentCost(lightValue, 'text/markdown')).toBeGreaterThan(INLINE_COST)
      const started = performance.now()
      const light = await withClient('light', async () => await textOfDocument(lightValue, 'text/markdown', new DocumentWork(documentsOn(pool), undefined, 5000)))
      expect(light).toContain('The house is red.')
      expect(performance.now() - started).toBeLessThan(2000)
      // the heavy client's second request waited for its one thread past the allowance: a 503
      const { err, waited, work } = await waiting
      expect(err).toBeInstanceOf(DocumentsBusyError)
      expect((err as DocumentsBusyError).status).toBe(503)
      expect(waited).toBeGreaterThan(350)
      expect(waited).toBeLessThan(2000)
      // the same request's later work shares the allowance: refused at once
      const again = await failure(textOfDocument(evil(98), 'text/markdown', work))
      expect(again).toBeInstanceOf(DocumentsBusyError)
      expect(await blocker).toBeInstanceOf(ValidationError)
    } finally {
      await pool.close()
    }
    expect(processPool().size).toBeGreaterThanOrEqual(2)
  })

  it('rebuilds each document where it read it: inline from its own reading, or on the runner, never read on the event loop and rebuilt on a thread', async () => {
    // a bulk request of cheap documents, more than the request's inline allowance holds
    const docs = Array.from({ length: 60 }, (_, i) => `The house number ${i} is red and the garden is green. `.repeat(6))
    const cost = documentCost(docs[0]!, 'text/plain')
    expect(cost).toBeLessThan(INLINE_COST)
    expect(cost * docs.length).toBeGreaterThan(LANE_INLINE_COST)
    const sent = new Map<unknown, string[]>()
    const recording = {
      account: (budgetMs: number, signal?: AbortSignal) => {
        const account = poolDocuments.account(budgetMs, signal)
        return {
          get spentMs () { return account.spentMs },
          run: async (task: DocumentTask, options: { heavy: boolean, overBudget: () => Error }) => {
            sent.set(task.value, [...sent.get(task.value) ?? [], task.kind])
            return await account.run(task, options)
          }
        }
      }
    }
    const work = new DocumentWork(recording)
    const prepared = await Promise.all(docs.map(async doc => await prepareDocument(doc, 'text/plain', settings, work)))
    const rebuilt = await Promise.all(prepared.map(async p => await p.finish([p.segments], work)))
    rebuilt.forEach((results, i) => expect(results[0]!.value).toBe(docs[i]!.replaceAll('house', 'home')))
    // some on the event loop, some on the runner, and each document read and rebuilt in the same place
    expect(sent.size).toBeGreaterThan(0)
    expect(sent.size).toBeLessThan(docs.length)
    for (const kinds of sent.values()) expect(kinds).toEqual(['prepare', 'finish'])
  })
})
