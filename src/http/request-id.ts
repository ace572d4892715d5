/** Request ids: a client's own X-Request-Id is echoed when it is sane; otherwise one is made. */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, RawRequestDefaultExpression } from 'fastify'
import fp from 'fastify-plugin'

const SANE = /^[\w.:@/+=-]{1,128}$/

/** The id for a request: the client's X-Request-Id if it is short and printable, else a UUID. */
export function requestId (req: RawRequestDefaultExpression): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && SANE.test(given) ? given : randomUUID()
}

async function requestIdPlugin (app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
}

export default fp(requestIdPlugin, { name: 'request-id' })
