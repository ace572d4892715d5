/** HTTP calls for adapters that speak REST with fetch: one request, its answer classified into typed errors. */
import { RateLimitedError, UpstreamError } from '../errors.js'
import { createRedactor, type Redactor } from './redact.js'

/** Retry-After (seconds or an HTTP date) in milliseconds, or undefined when absent or unreadable. */
export function retryAfterMs (value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null || value.trim() === '') return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  const when = Date.parse(text)
  return Number.isNaN(when) ? undefined : Math.max(0, when - now)
}

/**
 * The error for a non-2xx answer: 429 is RateLimitedError, 5xx (and 408) a retryable
 * UpstreamError, any other status a final one. The client is told the service, the status and
 * our own words; `engineMessage` (what the service said, already redacted) is for the log only.
 */
export function statusError (service: string, status: number, engineMessage: string | undefined, retryAfter?: string | null): UpstreamError {
  if (status === 429) return new RateLimitedError(service, retryAfterMs(retryAfter), undefined, engineMessage)
  return new UpstreamError(service, `answered HTTP ${status}${STATUS_HINTS[status] ?? ''}`, undefined, { retryable: status >= 500 || status === 408, engineMessage })
}

/** What an operator checks for a status, in our words. */
const STATUS_HINTS: Readonly<Record<number, string>> = {
  401: ' (check its API key)',
  403: ' (check its API key)',
  404: ' (check its URL)'
}

/** Redacts only credentials of well-known shapes: for calls that carry no secret of ours. */
const NO_SECRETS = createRedactor([])

export interface JsonRequest {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  /** Sent as JSON. */
  json?: unknown
  /** Sent as application/x-www-form-urlencoded. */
  form?: URLSearchParams
  /** Replaces the service's secrets in what is logged of an error answer (default: only credentials of well-known shapes). */
  redactor?: Redactor
  /** The client texts this request carries, replaced in what is logged of an error answer. */
  texts?: readonly string[]
}

/** One HTTP request whose 2xx answer is JSON; anything else is a typed UpstreamError. */
export async function requestJson (service: string, url: string, request: JsonRequest, signal: AbortSignal): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers }
  let body: string | undefined
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(request.json)
  } else if (request.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    body = request.form.toString()
  }
  const response = await fetch(url, { method: request.method ?? (body === undefined ? 'GET' : 'POST'), headers, body: body ?? null, signal })
  const text = await response.text()
  if (!response.ok) {
    const engineMessage = (request.redactor ?? NO_SECRETS).engineMessage(text, request.texts)
    throw statusError(service, response.status, engineMessage, response.headers.get('retry-after'))
  }
  try {
    return JSON.parse(text)
  } catch {
    // nothing of the body kept, not even as a cause (JSON.parse's message quotes it): it may hold translations
    throw new UpstreamError(service, `answered HTTP ${response.status} with a body that is not JSON`)
  }
}
