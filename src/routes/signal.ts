/** An AbortSignal that fires when the client goes away before its answer, so engines stop working for nobody. */
import type { FastifyReply } from 'fastify'

export function abortSignal (reply: FastifyReply): AbortSignal {
  const controller = new AbortController()
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client closed the connection'))
  })
  return controller.signal
}
