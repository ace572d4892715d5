/**
 * Connections on shutdown: one with no request in progress is closed at once. Node keeps a
 * connection that has sent nothing, or only part of a request, open through server.close() (it is
 * not "idle" to Node), and one whose answer went out before its body was read (an early 401) waits
 * for that body: any client, or a load balancer's spare connection, held every shutdown to its
 * 10 s grace and an exit status of 1. Requests in progress finish, their connections closed after.
 */
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

/**
 * A body refused for its size (413) is read to its end and dropped, as an early 401's is, instead
 * of the connection being closed under the client: a client that writes the whole body before it
 * reads (deepl-node, Python's requests) got `EPIPE` or a reset, not the 413, and retried the upload.
 * What bounds the reading is `REQUEST_TIMEOUT_MS`, as for any request.
 */
export function readRefusedBodies (app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete) {
      // Fastify's body parser asks to close the connection (`connection: close`) when it refuses a body
      if (reply.statusCode === 413 && reply.getHeader('connection') === 'close') reply.removeHeader('connection')
      const socket = request.raw.socket
      answeredBeforeItsBody.add(socket)
      request.raw.once('end', () => answeredBeforeItsBody.delete(socket))
    }
    done(null, payload)
  })
}

/** Connections whose request was answered (a 413, an early 401) while its body is still read and dropped. */
const answeredBeforeItsBody = new WeakSet<object>()

/** Whether a connection's request has had its answer while its body is still being read: a timeout then ends it without a second answer. */
export function answeredWhileReading (socket: object): boolean {
  return answeredBeforeItsBody.has(socket)
}

export function closeQuietConnectionsOnShutdown (app: FastifyInstance): void {
  const open = new Set<Socket>()
  const busy = new Set<Socket>()
  let closing = false
  /** Ends a connection, and drops it if the client does not close its side soon. */
  const end = (socket: Socket): void => {
    socket.end()
    setTimeout(() => socket.destroy(), 1000).unref()
  }
  app.server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy()
      return
    }
    open.add(socket)
    socket.once('close', () => {
      open.delete(socket)
      busy.delete(socket)
    })
  })
  app.server.on('request', (request: { socket: Socket }, response: { once: (event: 'close', listener: () => void) => void }) => {
    const socket = request.socket
    busy.add(socket)
    response.once('close', () => {
      busy.delete(socket)
      if (closing) end(socket)
    })
  })
  app.addHook('preClose', done => {
    closing = true
    for (const socket of open) if (!busy.has(socket)) socket.destroy()
    done()
  })
}
