/** An AbortSignal that fires when the client goes away before its answer, so engines stop working for nobody. */
import type { FastifyReply } from 'fastify'
import { ClientClosedError } from '../errors.js'

export function abortSignal (reply: FastifyReply): AbortSignal {
  const controller = new AbortController()
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new ClientClosedError())
  })
  return controller.signal
}
