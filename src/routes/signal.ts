/**
 * A request's work under its deadline: an AbortSignal that fires when the client goes away (so
 * engines and threads stop working for nobody) or when the deadline passes, and the answer: the
 * work's, or at the deadline a 503 whatever is still running (it is called off through the signal).
 */
import type { FastifyReply } from 'fastify'
import { ClientClosedError, RequestDeadlineError } from '../errors.js'

/** Runs `work` with the request's signal; rejects with RequestDeadlineError once `deadlineMs` has passed. */
export async function withinDeadline<T> (reply: FastifyReply, deadlineMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  const { signal } = controller
  const onClose = (): void => {
    if (!reply.raw.writableFinished) controller.abort(new ClientClosedError())
  }
  reply.raw.once('close', onClose)
  const timer = setTimeout(() => controller.abort(new RequestDeadlineError(deadlineMs)), deadlineMs)
  try {
    const running = work(signal)
    // what the work does after the answer was given no longer matters
    running.catch(() => {})
    const calledOff = new Promise<never>((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }) // eslint-disable-line prefer-promise-reject-errors
    })
    calledOff.catch(() => {})
    return await Promise.race([running, calledOff])
  } finally {
    clearTimeout(timer)
    reply.raw.off('close', onClose)
  }
}
