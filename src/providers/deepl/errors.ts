/** Turns deepl-node's errors into our typed upstream errors, without the API key or anything the request carried. */
import { AuthorizationError, ConnectionError, DeepLError, QuotaExceededError, TooManyRequestsError } from 'deepl-node'
import { RateLimitedError, UpstreamError } from '../../errors.js'
import { statusError } from '../remote/index.js'

export const SERVICE = 'deepl'

/** A non-retryable failure for an answer we cannot use. */
export function unusable (what: string): UpstreamError {
  return new UpstreamError(SERVICE, what, undefined, { retryable: false })
}

/**
 * The typed error for what deepl-node threw. Its errors are never kept as `cause`: the axios error
 * inside a ConnectionError holds the request config, Authorization header included, and its
 * messages may quote the answer's body.
 */
export function fromDeepl (err: unknown, apiKey: string): UpstreamError {
  if (err instanceof UpstreamError) return err
  // deepl-node hides the answer's headers, so a Retry-After never reaches us: our backoff decides
  if (err instanceof TooManyRequestsError) return new RateLimitedError(SERVICE, undefined)
  if (err instanceof QuotaExceededError) {
    return new UpstreamError(SERVICE, 'answered HTTP 456: the character quota of this DeepL account is used up for this billing period', undefined, { retryable: false })
  }
  if (err instanceof AuthorizationError) {
    return new UpstreamError(SERVICE, 'answered HTTP 403: the API key was refused; check DEEPL_API_KEY (and DEEPL_SERVER_URL: free keys ending in ":fx" use api-free.deepl.com)', undefined, { retryable: false })
  }
  if (err instanceof ConnectionError) {
    const code = (err.error as { code?: unknown } | undefined)?.code
    return new UpstreamError(SERVICE, `connection failed (${typeof code === 'string' ? code : 'no answer'})`, undefined, { retryable: true })
  }
  if (err instanceof DeepLError) {
    const status = statusOf(err.message)
    if (status !== undefined) return statusError(SERVICE, status, reasonOf(err.message, apiKey))
    if (err.message.startsWith('Error parsing response')) return unusable('answered with a body that is not a DeepL answer')
    // deepl-node's own checks of arguments (none of them quote text)
    return unusable(`refused the request before sending it: ${redact(err.message, apiKey).slice(0, 200)}`)
  }
  // deepl-node parses some answers without wrapping its errors (a language list that is not an array)
  return unusable('answered with a body that is not a DeepL answer')
}

/** The HTTP status behind checkStatusCode's message, which is all deepl-node keeps of it. */
function statusOf (message: string): number | undefined {
  if (message.startsWith('Bad request')) return 400
  if (message.startsWith('Not found')) return 404
  if (message.startsWith('Service unavailable')) return 503
  const m = /^Unexpected status code: (\d{3})/.exec(message)
  return m ? Number(m[1]) : undefined
}

/** DeepL's own `message` field, when its body had one; raw bodies (", content: ...") are left out. */
function reasonOf (message: string, apiKey: string): string | undefined {
  const m = /, message: (.*?)(?:, detail: |, content: |$)/s.exec(message)
  return m?.[1] === undefined ? undefined : redact(m[1], apiKey)
}

function redact (text: string, apiKey: string): string {
  return apiKey === '' ? text : text.split(apiKey).join('[redacted]')
}
