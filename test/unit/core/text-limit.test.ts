/** The text limit counts a request's documents on its document work; each document's own errors name that document. */
import { describe, expect, it } from 'vitest'
import { DocumentWork } from '../../../src/core/documents/offload.js'
import { configureProcessPool, poolThreads } from '../../../src/runtime/pool.js'
import { poolDocuments } from './documents/pool-documents.js'
import { checkTextLimit } from '../../../src/core/text-limit.js'
import { DocumentsBusyError, TextLimitError, ValidationError } from '../../../src/errors.js'
import { heavyMarkdown } from '../../helpers/markdown.js'

const failure = async (p: Promise<unknown>): Promise<unknown> => await p.then(() => { throw new Error('expected a failure') }, (err: unknown) => err)

describe('checkTextLimit', () => {
  it('refuses text over the limit at the request\'s path, counting only text (not markup)', async () => {
    const html = '<p class="x">' + 'a'.repeat(50) + '</p>'
    await checkTextLimit([{ value: html, mime: 'text/html', at: ['documents', 0, 'value'] }, { value: html, mime: 'text/html', at: ['documents', 1, 'value'] }], 100, ['documents'], new DocumentWork(poolDocuments))
    const err = await failure(checkTextLimit([0, 1, 2].map(i => ({ value: html, mime: 'text/html' as const, at: ['documents', i, 'value'] })), 100, ['documents'], new DocumentWork(poolDocuments)))
    expect(err).toBeInstanceOf(TextLimitError)
  })

  it('names the document whose counting ran past the request\'s budget, not /document/value', async () => {
    // what is tested is the budget: loading the threads (TypeScript compiled in each) may take long on a busy machine
    configureProcessPool({ threads: poolThreads(1), queueMs: 120_000, busyError: waited => new DocumentsBusyError(waited) })
    const evil = heavyMarkdown(400)
    const err = await failure(checkTextLimit([
      { value: 'The house is red.', mime: 'text/plain', at: ['documents', 0, 'value'] },
      { value: evil, mime: 'text/markdown', at: ['documents', 1, 'value'] }
    ], 1000, ['documents'], new DocumentWork(poolDocuments, undefined, 300)))
    expect(err).toBeInstanceOf(ValidationError)
    expect((err as ValidationError).errors).toEqual([{ path: ['documents', 1, 'value'], message: expect.stringMatching(/too complex/) }])
  })
})
