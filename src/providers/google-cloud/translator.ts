/** Google Cloud Translation (v2 REST, "google-cloud"): segments sent as HTML so the inline tags travel as markup. */
import { UpstreamError } from '../../errors.js'
import { RemoteService, createRedactor, requestJson, type RemoteOptions } from '../../upstream/index.js'
import type { LanguagePair, TranslateCall, Translator } from '../../core/ports.js'
import { batches, canonicalAnswers, engineCodes, runBatches } from '../../upstream/batches.js'

export interface GoogleCloudOptions {
  apiKey: string
  /** Base URL (https://translation.googleapis.com unless configured otherwise). */
  url: string
  remote: Omit<RemoteOptions, 'service'>
}

const SERVICE = 'google-cloud'
/** `q` entries Google takes in one request. */
const MAX_SEGMENTS = 128
/** Google recommends at most 30k code points per request; UTF-16 length never undercounts them. */
const MAX_CHARS = 30_000
/** Legacy codes Google still lists (ICU maps them too; kept explicit so the mapping does not rest on the ICU version). */
const ALIASES: Readonly<Record<string, string>> = { iw: 'he', jw: 'jv' }

/** Creates the Google Cloud Translation v2 translator; every call goes through one RemoteService. */
export function createGoogleCloud (options: GoogleCloudOptions): Translator {
  const remote = new RemoteService({ ...options.remote, service: SERVICE })
  const base = options.url.replace(/\/+$/, '')
  // the key goes in a header, never in a URL that a proxy or an error could log
  const headers = { 'x-goog-api-key': options.apiKey }
  // Google quotes a key it refuses ("API key not valid: AIza..."): never logged as it is
  const redactor = createRedactor([options.apiKey])
  // our tag -> Google's code, from the latest language list; before one is read, tags are sent as they are
  let codes = new Map<string, string>()

  const translateBatch = (q: string[], source: string, target: string, signal: AbortSignal): Promise<string[]> =>
    remote.call(async attemptSignal => {
      const body = await requestJson(SERVICE, `${base}/language/translate/v2`, {
        method: 'POST',
        headers,
        json: { q, source, target, format: 'html' },
        redactor,
        texts: q
      }, attemptSignal)
      return canonicalAnswers(SERVICE, q, readTranslations(body))
    }, signal)

  return {
    name: SERVICE,
    supportsFormality: () => false,
    batching: { concurrency: remote.concurrency, maxSegments: MAX_SEGMENTS },

    async languages (): Promise<LanguagePair[]> {
      const body = await remote.call(attemptSignal =>
        requestJson(SERVICE, `${base}/language/translate/v2/languages?target=en`, { headers, redactor }, attemptSignal))
      codes = engineCodes(readLanguages(body), ALIASES)
      const tags = [...codes.keys()]
      return tags.flatMap(from => tags.filter(to => to !== from).map(to => ({ from, to })))
    },

    async translate (call: TranslateCall, signal: AbortSignal): Promise<string[]> {
      // Cloud Translation v2 has no context or formality option: both are ignored
      const source = codes.get(call.from) ?? call.from
      const target = codes.get(call.to) ?? call.to
      return runBatches(batches(call.segments, MAX_SEGMENTS, MAX_CHARS, s => s.length), signal,
        (q, batchSignal) => translateBatch(q, source, target, batchSignal))
    }
  }
}

/** The string `item` of each entry of `{ data: { [list]: [...] } }`, or a final UpstreamError naming `what`. */
function readStrings (body: unknown, list: string, item: string, what: string): string[] {
  const entries = field(field(body, 'data'), list)
  if (!Array.isArray(entries)) throw unexpected(what)
  return entries.map(entry => {
    const value = field(entry, item)
    if (typeof value !== 'string') throw unexpected(what)
    return value
  })
}

/** `translatedText` of `{ data: { translations: [{ translatedText }] } }`, or a final UpstreamError. */
const readTranslations = (body: unknown): string[] => readStrings(body, 'translations', 'translatedText', 'translation')

/** The codes of `{ data: { languages: [{ language, name }] } }`, or a final UpstreamError. */
const readLanguages = (body: unknown): string[] => readStrings(body, 'languages', 'language', 'language list')

function field (value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined
}

function unexpected (what: string): UpstreamError {
  return new UpstreamError(SERVICE, `answered a ${what} of an unexpected shape`)
}
