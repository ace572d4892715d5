/** Document jobs' wire shapes: a job's state and, when done, its result (a translate answer). */
import { Type, type TSchema } from 'typebox'
import { FieldProblem } from './common.js'

export const JobId = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The job\'s id, as POST answered it.' })
})

const JobProgress = Type.Object({
  done: Type.Integer({ minimum: 0, description: 'Segments translated so far (a segment is a sentence or a piece of text of the document, once per target language and service).' }),
  total: Type.Integer({ minimum: 0, description: 'Segments to translate in all; 0 until the document has been read.' })
}, { description: 'How far the job is, counted in segments as the engines answer them. `done` may go back when a service fails and the next one starts over.' })

/** A job's state; `result` holds `result` (the translate answer's schema) when done. */
export function jobSchema (result: TSchema): TSchema {
  return Type.Object({
    id: Type.String({ format: 'uuid' }),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed'), Type.Literal('cancelled')], {
      description: 'queued: waiting for its turn; running; done: `result` holds the answer; failed: `error` says why; cancelled.'
    }),
    progress: JobProgress,
    created: Type.String({ format: 'date-time' }),
    started: Type.Optional(Type.String({ format: 'date-time' })),
    finished: Type.Optional(Type.String({ format: 'date-time' })),
    expires: Type.Optional(Type.String({ format: 'date-time', description: 'When the finished job and its result are removed (JOB_TTL after it finished).' })),
    result: Type.Optional({ ...result, description: 'When done: what POST /language/translate answers for the request.' }),
    error: Type.Optional(Type.Object({
      type: Type.String(),
      title: Type.String(),
      status: Type.Integer({ description: 'The status POST /language/translate would have answered.' }),
      detail: Type.String(),
      errors: Type.Optional(Type.Array(FieldProblem))
    }, { description: 'When failed: why, as problem details.' }))
  })
}
