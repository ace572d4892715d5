/** HTTP calls for adapters that speak REST with fetch: one request, its answer classified into typed errors. */
import { RateLimitedError, UpstreamError } from '../../errors.js'

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
 * UpstreamError, any other status a final one. `reason` is the service's own short message.
 */
export function statusError (service: string, status: number, reason: string | undefined, retryAfter?: string | null): UpstreamError {
  if (status === 429) return new RateLimitedError(service, retryAfterMs(retryAfter))
  const said = reason === undefined || reason === '' ? '' : `: ${reason.slice(0, 200)}`
  const hint = status === 401 || status === 403 ? ' (check its API key)' : ''
  return new UpstreamError(service, `answered HTTP ${status}${hint}${said}`, undefined, { retryable: status >= 500 || status === 408 })
}

/** A short message from an error body ({error: "..."}, {error: {message}}, {message}, or text). */
export function reasonOf (body: string): string | undefined {
  try {
    const json = JSON.parse(body) as Record<string, unknown>
    const error = json['error']
    if (typeof error === 'string') return error
    if (error !== null && typeof error === 'object' && typeof (error as Record<string, unknown>)['message'] === 'string') {
      return (error as Record<string, unknown>)['message'] as string
    }
    if (typeof json['message'] === 'string') return json['message']
  } catch {
    // not JSON
  }
  const text = body.trim()
  return text === '' ? undefined : text.slice(0, 200)
}

export interface JsonRequest {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  /** Sent as JSON. */
  json?: unknown
  /** Sent as application/x-www-form-urlencoded. */
  form?: URLSearchParams
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
  const response = await fetch(url, { method: request.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, signal })
  const text = await response.text()
  if (!response.ok) throw statusError(service, response.status, reasonOf(text), response.headers.get('retry-after'))
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new UpstreamError(service, `answered HTTP ${response.status} with a body that is not JSON`, err)
  }
}
