/** One request to Google Translate's free endpoint through @vitalets/google-translate-api, its failures as typed errors. */
import type { Agent } from 'node:https'
import { Translator as LibraryTranslator } from '@vitalets/google-translate-api'
import { RateLimitedError, UpstreamError } from '../../errors.js'
import { createRedactor, retryAfterMs, statusError } from '../../upstream/index.js'

const SERVICE = 'google'
/** The free endpoint takes no key: only credentials of well-known shapes and the call's texts are redacted. */
const redactor = createRedactor([])

/** What the library's error builder reads of a node-fetch Response (its types are not installed). */
interface ErrorResponse {
  status: number
  headers: { get: (name: string) => string | null }
  text: () => Promise<string>
}

/**
 * The library's translator, keeping Retry-After and the body: its http-errors error carries only
 * the status and text, and its buildError is the one place that sees the response.
 */
class Client extends LibraryTranslator {
  protected override async buildError (res: ErrorResponse): ReturnType<LibraryTranslator['buildError']> {
    // the library reads the body of a 429 itself (and puts what it mined in its message)
    const body = res.status === 429 ? undefined : await res.text().catch(() => undefined)
    const error = await super.buildError(res)
    return Object.assign(error, { retryAfter: res.headers.get('retry-after'), body: body ?? error.message })
  }
}

export interface Endpoint {
  /** Host (and port) reached over https. */
  host: string
  agent: Agent
}

/**
 * Translates plain text; rejects with UpstreamError for an HTTP error or an unreadable answer, else
 * with what fetch threw. `texts` (the segments in `text`) are replaced in what is logged of an error.
 */
export async function translateText (endpoint: Endpoint, text: string, from: string, to: string, signal: AbortSignal, texts: readonly string[] = []): Promise<string> {
  try {
    const result = await new Client(text, {
      from,
      to,
      host: endpoint.host,
      // node-fetch v2 options: our agent (keep-alive, the test CA) and the deadline
      fetchOptions: { agent: endpoint.agent, signal }
    }).translate()
    if (typeof result.text !== 'string') throw new TypeError('no translated text')
    return result.text
  } catch (err) {
    throw classify(err, signal, [text, ...texts])
  }
}

/** The typed error for what the library threw; aborts and connection failures pass through for RemoteService to judge. */
function classify (err: unknown, signal: AbortSignal, texts: readonly string[]): unknown {
  if (signal.aborted) return err
  const e = err as { status?: unknown, expose?: unknown, type?: unknown, retryAfter?: unknown, body?: unknown } | null
  // http-errors' HttpError: the answer was not 2xx (its message may hold the address Google saw: for the log only)
  if (typeof e?.status === 'number' && typeof e.expose === 'boolean') {
    const said = typeof e.body === 'string' ? redactor.engineMessage(e.body, texts) : undefined
    if (e.status === 429) return new RateLimitedError(SERVICE, retryAfterMs(typeof e.retryAfter === 'string' ? e.retryAfter : undefined), undefined, said)
    return statusError(SERVICE, e.status, said)
  }
  // a 200 whose body is not JSON (node-fetch's FetchError 'invalid-json'), or JSON without sentences;
  // no cause kept: JSON.parse quotes the body, which may hold the translated text
  if (e?.type === 'invalid-json' || err instanceof SyntaxError || err instanceof TypeError) {
    return new UpstreamError(SERVICE, `answered with a body that is not a translation (${e?.type === 'invalid-json' ? 'not JSON' : 'no sentences'})`)
  }
  return err
}
