/**
 * Which client a piece of work is for: the key every fair queue takes turns over (the token's
 * issuer and subject, see http/auth). It follows the work through promises (AsyncLocalStorage)
 * and across the channel, so a queue in another thread or process knows it too.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

const storage = new AsyncLocalStorage<string>()

/** Work done for no client in particular (start-up, background refreshes) queues under this key. */
export const NO_CLIENT = ''

/** The client the current work is for, if any. */
export function currentClient (): string | undefined {
  return storage.getStore()
}

/** Runs `work` as the client's (undefined: as no client in particular). */
export function withClient<T> (client: string | undefined, work: () => T): T {
  return client === undefined ? storage.exit(work) : storage.run(client, work)
}

/** The key of a client: its token's issuer and subject (a subject alone could name two clients of two issuers). */
export function clientKey (issuer: string, subject: string): string {
  return `${issuer.length}:${issuer}${subject}`
}
