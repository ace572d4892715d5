/** Request ids: a client's own X-Request-Id is echoed when it is sane; otherwise one is made. */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, RawRequestDefaultExpression } from 'fastify'
import fp from 'fastify-plugin'

/**
 * What a client's own id may be: what proxies and tracers send (UUIDs, hex, ULIDs, ray ids), and
 * nothing that reads as a path, an address, log syntax or a token: it is echoed and logged.
 */
const SANE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
/** A JWT's start (a JSON header, then a payload): a token pasted as an id would be logged. */
const JWT = /^eyJ[\w-]*\.[\w-]*\./

/** The id for a request: the client's X-Request-Id if it is at most 64 letters, digits, ".", "_" or "-" (not a JWT), else a UUID. */
export function requestId (req: RawRequestDefaultExpression): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && SANE.test(given) && !JWT.test(given) ? given : randomUUID()
}

async function requestIdPlugin (app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    done()
  })
}

export default fp(requestIdPlugin, { name: 'request-id' })
