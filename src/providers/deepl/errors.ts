/**
 * Turns deepl-node's errors into our typed upstream errors: their details in our words, and what
 * DeepL said only in `engineMessage`, for the log, without the API key or anything the request carried.
 */
import type * as DeeplNode from 'deepl-node'
import { lazyPackage } from '../../lib/lazy-package.js'
import { RateLimitedError, UpstreamError } from '../../errors.js'
import { statusError, type Redactor } from '../../upstream/index.js'

export const SERVICE = 'deepl'

/** deepl-node's error classes, from the package a DeepL translator loaded. */
const deeplNode = lazyPackage<typeof DeeplNode>('deepl-node')

/** A non-retryable failure for an answer we cannot use. */
export function unusable (what: string): UpstreamError {
  return new UpstreamError(SERVICE, what, undefined, { retryable: false })
}

/**
 * The typed error for what deepl-node threw, `texts` being the client texts of the call. Its errors
 * are never kept as `cause`: the axios error inside a ConnectionError holds the request config,
 * Authorization header included, and its messages may quote the answer's body.
 */
export function fromDeepl (err: unknown, redactor: Redactor, texts: readonly string[] = []): UpstreamError {
  if (err instanceof UpstreamError) return err
  const { AuthorizationError, ConnectionError, DeepLError, QuotaExceededError, TooManyRequestsError } = deeplNode()
  const said = (): string | undefined => err instanceof Error ? redactor.engineMessage(engineWords(err.message), texts) : undefined
  // deepl-node hides the answer's headers, so a Retry-After never reaches us: our backoff decides
  if (err instanceof TooManyRequestsError) return new RateLimitedError(SERVICE, undefined, undefined, said())
  if (err instanceof QuotaExceededError) {
    return new UpstreamError(SERVICE, 'answered HTTP 456: the character quota of this DeepL account is used up for this billing period', undefined, { retryable: false, engineMessage: said() })
  }
  if (err instanceof AuthorizationError) {
    return new UpstreamError(SERVICE, 'answered HTTP 403: the API key was refused; check DEEPL_API_KEY (and DEEPL_SERVER_URL: free keys ending in ":fx" use api-free.deepl.com)', undefined, { retryable: false, engineMessage: said() })
  }
  if (err instanceof ConnectionError) {
    const code = (err.error as { code?: unknown } | undefined)?.code
    return new UpstreamError(SERVICE, `connection failed (${typeof code === 'string' ? code : 'no answer'})`, undefined, { retryable: true })
  }
  if (err instanceof DeepLError) {
    const status = statusOf(err.message)
    if (status !== undefined) return statusError(SERVICE, status, said())
    if (err.message.startsWith('Error parsing response')) return unusable('answered with a body that is not a DeepL answer')
    // deepl-node's own checks of arguments: its words, not DeepL's, and only for the log
    return new UpstreamError(SERVICE, 'refused the request before sending it (deepl-node\'s own check)', undefined, { retryable: false, engineMessage: redactor.engineMessage(err.message, texts) })
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

/**
 * DeepL's own words in a deepl-node message ("<our status words>, message: ..., detail: ..." or
 * "<...>, <raw body>"): the raw body after ", content: " when there is one, else what follows the first ", ".
 */
function engineWords (message: string): string {
  const content = message.indexOf(', content: ')
  if (content !== -1) return message.slice(content + ', content: '.length)
  const comma = message.indexOf(', ')
  return comma === -1 ? '' : message.slice(comma + 2)
}
