/**
 * Service choice and fallback: which services a request may use for a pair, in which order, and what
 * the client is told when every one of them failed.
 */
import {
  CircuitOpenError, EngineBusyError, RateLimitedError, ServiceError, UnsupportedPairError, UpstreamError, UpstreamTimeoutError, invalidField,
  type FieldPath
} from '../../errors.js'
import type { Formality } from '../formality.js'
import type { Translator } from '../ports.js'
import { fallbackChain } from '../languages.js'
import type { TranslatorChoice, TranslatorCatalog } from './catalog.js'

/** The configured translators a request may use (its `service` option), or undefined for all. */
export function serviceFilter (service: string | readonly string[] | undefined, translators: readonly Translator[]): string[] | undefined {
  if (service === undefined) return undefined
  const list = typeof service === 'string' ? [service] : service
  const names = list.map(s => s.trim().toLowerCase())
  const known = translators.map(t => t.name)
  names.forEach((name, i) => {
    if (!known.includes(name)) {
      throw invalidField(typeof service === 'string' ? ['options', 'service'] : ['options', 'service', i],
        `"${name}" is not a configured service (configured: ${known.join(', ') || 'none'})`)
    }
  })
  // a service named twice is tried once, in its first place (and named once in errors)
  return [...new Set(names)]
}

/** Routes in the order the request wants, and only those that can honour a strict formality. */
export function selectChoices (choices: TranslatorChoice[], wanted: string[] | undefined, formality: Formality | undefined, from: string, to: string): TranslatorChoice[] {
  let out = choices
  if (wanted) out = wanted.map(name => choices.find(r => r.translator.name === name)).filter((r): r is TranslatorChoice => r !== undefined)
  if (formality === 'more' || formality === 'less') {
    const able = out.filter(r => r.translator.supportsFormality?.({ from: r.from, to: r.to }) === true)
    if (out.length > 0 && able.length === 0) {
      const names = [...new Set(out.map(r => r.translator.name))]
      throw invalidField(['options', 'formality'], `formality "${formality}" is not supported for ${from}->${to} by ${names.join(', ')}; use "prefer_${formality}" to ask without requiring it`)
    }
    out = able
  }
  return out
}

/**
 * The 400 for pairs no configured service supports. When no service takes a pair's source
 * language at all, the fix is another source: the error points where that source came from
 * (`/source`, or the document's `language`); otherwise at `/targets`.
 */
export function unsupportedPairs (pairs: Array<{ from: string, to: string }>, catalog: TranslatorCatalog,
  documents: ReadonlyArray<{ source: string, origin: FieldPath }>): UnsupportedPairError {
  const sources = new Set(catalog.languages('source').map(l => l.tag))
  const untranslatable = pairs.find(({ from }) => !fallbackChain(from).some(tag => sources.has(tag)))
  const origin = untranslatable === undefined ? undefined : documents.find(d => d.source === untranslatable.from)?.origin
  return new UnsupportedPairError(pairs, origin)
}

/** One failed try of a choice. */
export interface Failure {
  service: string
  error: ServiceError
}

/**
 * What the client is told when every service tried for a pair failed: all timed out, 504; all
 * skipped by an open breaker or rate limited, 503 with Retry-After; otherwise 502. The detail
 * names each service and why, and which documents and pair were being translated; what the
 * services themselves said stays in `engineMessage`, for the log.
 */
export function pairFailed (failures: readonly Failure[], what: string): ServiceError {
  if (failures.length === 1) {
    const only = failures[0]!.error
    return new ServiceError(only.status, only.code, only.title, `${what} failed: ${only.message}`, {
      cause: only, ...(only.headers ? { headers: only.headers } : {}), engineMessage: only.engineMessage
    })
  }
  const reasons = failures.map(f => f.error.message).join('; ')
  const detail = `${what} failed on every service tried: ${reasons}`
  const errors = failures.map(f => f.error)
  const said = failures.flatMap(f => f.error.engineMessage === undefined ? [] : [`${f.service}: ${f.error.engineMessage}`]).join('; ')
  if (errors.every(e => e instanceof UpstreamTimeoutError)) {
    return new ServiceError(504, 'upstream-timeout', 'Upstream service timed out', detail)
  }
  if (errors.every(e => e instanceof CircuitOpenError || e instanceof RateLimitedError || e instanceof EngineBusyError)) {
    const waits = errors.map(e => e instanceof RateLimitedError ? e.retryAfterMs ?? 1000 : (e as CircuitOpenError | EngineBusyError).retryAfterMs)
    const seconds = Math.max(1, Math.ceil(Math.min(...waits) / 1000))
    // a busy engine of ours, else an open breaker, is the cause the HTTP layer names settings for
    const cause = errors.find(e => e instanceof EngineBusyError) ?? errors.find(e => e instanceof CircuitOpenError)
    return new ServiceError(503, 'upstream-unavailable', 'Upstream service unavailable', detail, { headers: { 'retry-after': String(seconds) }, ...(cause ? { cause } : {}), engineMessage: said })
  }
  return new ServiceError(502, 'upstream-error', 'Upstream service failed', detail, { engineMessage: said })
}

/** A failure as a typed error naming its service (a bug in an adapter still names the service, and leaks nothing). */
export function asFailure (choice: TranslatorChoice, err: unknown): Failure {
  const service = choice.translator.name
  if (err instanceof ServiceError) return { service, error: err }
  return { service, error: new UpstreamError(service, 'failed unexpectedly', err) }
}
