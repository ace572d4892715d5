/** Local ports and waiting for a server to answer. */
import { createServer } from 'node:net'

/** A TCP port free on 127.0.0.1 right now. */
export function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

/**
 * Polls `url` until it answers 200; fails after `timeoutMs`, or at once when `alive()` turns
 * false (the server's process died).
 */
export async function waitForOk (url: string, what: string, alive: () => boolean, timeoutMs = 60_000, init: RequestInit = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer'
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`${what} exited before answering ${url}`)
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) })
      await res.arrayBuffer()
      if (res.status === 200) return
      last = `HTTP ${res.status}`
    } catch (err) {
      last = (err as Error).message
    }
    await new Promise(resolve => setTimeout(resolve, 200))
  }
  throw new Error(`${what} did not answer 200 at ${url} within ${timeoutMs / 1000} s (last: ${last})`)
}
