/**
 * The free Google Translate adapter ("google"): translate.google.com's translate_a/single endpoint
 * through @vitalets/google-translate-api, always over https. It has no markup mode, so tags travel
 * as numbered tokens (./tokens.ts) and several segments share one request of at most 5,000 characters.
 */
import { Agent } from 'node:https'
import { rootCertificates } from 'node:tls'
import { RemoteService, type RemoteOptions } from '../../upstream/index.js'
import type { TranslateCall, Translator } from '../../core/ports.js'
import { translateText } from './client.js'
import { googleCode, googlePairs } from './languages.js'
import { decodeAnswer, planCall } from './tokens.js'

export interface GoogleOptions {
  /** Host (optionally :port) reached over https; default translate.google.com. */
  host: string
  remote: Omit<RemoteOptions, 'service'>
  /** Test-only: an extra CA (PEM) trusted for this host; production uses NODE_EXTRA_CA_CERTS. */
  ca?: string
}

/**
 * Segments core may hand one call. UI strings average well under 100 characters, so 50 mostly fit
 * one request; longer ones are split into several requests of at most 5,000 characters anyway.
 */
export const MAX_SEGMENTS = 50

/** Creates the free Google Translate translator ("google"). */
export function createGoogle (options: GoogleOptions): Translator {
  const remote = new RemoteService({ service: 'google', ...options.remote })
  const agent = new Agent({
    keepAlive: true,
    maxSockets: remote.concurrency,
    // a `ca` replaces the default store, so the public roots stay next to the test CA
    ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] })
  })
  const endpoint = { host: options.host || 'translate.google.com', agent }
  const pairs = googlePairs()

  return {
    name: 'google',
    supportsFormality: () => false,
    batching: { concurrency: remote.concurrency, maxSegments: MAX_SEGMENTS },

    async languages () {
      return pairs
    },

    async translate (call: TranslateCall, signal: AbortSignal): Promise<string[]> {
      const from = googleCode(call.from)
      const to = googleCode(call.to)
      const { fixed, requests } = planCall(call.segments)
      const out: string[] = call.segments.map((_, i) => fixed.get(i) ?? '')
      // the first failure ends the call: its other requests are not worth waiting for
      const failed = new AbortController()
      const combined = AbortSignal.any([signal, failed.signal])
      await Promise.all(requests.map(async request => {
        try {
          const texts = request.indexes.map(i => call.segments[i]!)
          const answer = await remote.call(attempt => translateText(endpoint, request.text, from, to, attempt, texts), combined)
          // checked outside the call: a lost marker is this text's problem, not the service's (no retry, no breaker)
          decodeAnswer(request, answer).forEach((segment, k) => { out[request.indexes[k]!] = segment })
        } catch (err) {
          failed.abort(err)
          throw err
        }
      }))
      return out
    },

    async close () {
      agent.destroy()
    }
  }
}
