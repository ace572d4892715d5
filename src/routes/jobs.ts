/** POST /language/translate/jobs, GET and DELETE /language/translate/jobs/{id}: a translation worked in the background (src/jobs/). */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Config } from '../config.js'
import { translateSchemas } from '../schemas/translate.js'
import type { TranslationRequestT } from '../schemas/translate.js'
import { jobSchema } from '../schemas/jobs.js'
import { header } from '../schemas/common.js'
import { DEFAULT_LIMITS } from '../core/limits.js'
import { SECURITY, accessConfig, securedResponses } from './secured.js'
import { checkDistinctTargets, checkOne, translateOne } from './translate.js'
import { withinDeadline } from './signal.js'
import { answerText, heldBytes, readStoredBody } from '../http/bodies.js'
import { pointerOf, problemType } from '../http/problem.js'
import { NotFoundError, ServiceError, ValidationError } from '../errors.js'
import type { JobError, JobState } from '../jobs/queue.js'

const JOBS = '/language/translate/jobs'
const ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
const JobParams = Type.Object({ id: Type.String({ pattern: ID_PATTERN, description: 'The job\'s id, as POST answered it.' }) })

/** A failed job's error, as the translate request would have been answered (no stack, nothing internal). */
export function jobError (err: unknown): JobError {
  if (err instanceof ServiceError) {
    const first = err.errors?.[0]
    const detail = err instanceof ValidationError && err.aboutField && first !== undefined ? `${pointerOf(first.path) || '/'}: ${err.message}` : err.message
    return {
      type: problemType(err.code),
      title: err.title,
      status: err.status,
      detail,
      ...(err.errors === undefined ? {} : { errors: err.errors.map(e => ({ pointer: pointerOf(e.path), message: e.message })) })
    }
  }
  return { type: problemType('internal-error'), title: 'Internal server error', status: 500, detail: 'An unexpected error occurred while the job worked.' }
}

function notFound (id: string): NotFoundError {
  return new NotFoundError(`No job ${id} of this client (it may have expired).`)
}

/** A job's state as JSON text, with its result's JSON text written in as stored. */
function stateText (state: JobState, result: string | undefined): string {
  const text = JSON.stringify(state)
  return result === undefined ? text : `${text.slice(0, -1)},"result":${result}}`
}

export default async function jobRoutes (fastify: FastifyInstance, opts: { config: Config }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const limits = { ...DEFAULT_LIMITS, ...opts.config.limits }
  const { TranslationRequest, TranslationResult } = translateSchemas(limits)
  const Job = jobSchema(TranslationResult)
  const { largeRequestBytes, textChars } = opts.config.limits

  // what a job does: the stored request read as the route read it, translated, its answer kept as JSON text
  app.jobs.setWork(async (request, signal, progress) => {
    const body = await readStoredBody(request, 'POST', JOBS, TranslationRequest, { largeRequestBytes, textChars }, signal) as TranslationRequestT
    const answer = await translateOne(app, body, limits.targets, signal, progress)
    return await answerText(answer, signal)
  }, jobError)

  const clientOf = (request: { client?: { key: string } }): string => request.client?.key ?? ''

  app.post(JOBS, {
    config: accessConfig,
    schema: {
      tags: ['translate'],
      operationId: 'translate_job',
      summary: 'Translate a document in the background',
      description: 'Takes what POST /language/translate takes, with the same limits, and answers at once with the job\'s id and `Location`; GET that location for its status, progress and, when done, its result. For documents that take longer than a client should hold a request (a book through Apertium). A client has at most JOB_MAX_PER_CLIENT jobs queued or running, and its jobs keep at most JOB_STORAGE_PER_CLIENT bytes of requests and results, finished ones included (429 past either; DELETE finished jobs to free their share); finished jobs are kept JOB_TTL seconds.',
      security: SECURITY,
      body: TranslationRequest,
      response: securedResponses({
        202: {
          description: 'Accepted: the job\'s state (queued)',
          headers: { Location: header({ type: 'string', description: 'The job\'s URL.' }, true) },
          content: { 'application/json': { schema: Job } }
        } as never
      }, 413, 415, 503)
    }
  }, async (request, reply) => {
    const body = request.body
    checkDistinctTargets(body.targets, limits.targets)
    // what the translation would refuse before its work is refused now, not as a failed job
    await withinDeadline(reply, opts.config.limits.handlerTimeoutMs, async signal => { await checkOne(app, body, limits.targets, signal) })
    // a body read on the pool is stored as its bytes; a small one as its JSON
    const state = await app.jobs.submit(clientOf(request), heldBytes(body) ?? JSON.stringify(body))
    return await reply.code(202).header('location', `${JOBS}/${state.id}`).send(state)
  })

  app.get(`${JOBS}/:id`, {
    config: accessConfig,
    schema: {
      tags: ['translate'],
      operationId: 'translate_job_status',
      summary: 'A translation job\'s status, progress and result',
      description: 'Only the client that made the job sees it (404 for any other).',
      security: SECURITY,
      params: JobParams,
      response: securedResponses({ 200: { ...Job, description: 'The job' } }, 404)
    }
  }, async (request, reply) => {
    const found = await app.jobs.get(clientOf(request), request.params.id)
    if (found === undefined) throw notFound(request.params.id)
    return await reply.type('application/json; charset=utf-8').send(stateText(found.state, found.result))
  })

  app.delete(`${JOBS}/:id`, {
    config: accessConfig,
    schema: {
      tags: ['translate'],
      operationId: 'translate_job_cancel',
      summary: 'Cancel a translation job, or remove a finished one',
      security: SECURITY,
      params: JobParams,
      response: securedResponses({ 204: { type: 'null', description: 'Cancelled (its status reads cancelled until it expires), or removed when it had finished' } }, 404)
    }
  }, async (request, reply) => {
    if (!await app.jobs.cancel(clientOf(request), request.params.id)) throw notFound(request.params.id)
    return await reply.code(204).send()
  })
}
