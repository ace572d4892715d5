/** LibreTranslate ("libretranslate"): its REST API with segments sent as HTML so the inline tags travel as markup. */
import { UpstreamError } from '../../errors.js'
import { RemoteService, createRedactor, requestJson, type RemoteOptions } from '../../upstream/index.js'
import type { LanguagePair, TranslateCall, Translator } from '../../core/ports.js'
import { batches, canonicalAnswers, canonicalCode, engineCodes, runBatches } from '../../upstream/batches.js'

export interface LibreTranslateOptions {
  url: string
  /** Needed when the server requires keys; sent in the body as `api_key`. */
  apiKey?: string
  remote: Omit<RemoteOptions, 'service'>
}

const SERVICE = 'libretranslate'
/** Texts per call: servers often set a batch limit, and smaller calls spread over the server's workers. */
const MAX_SEGMENTS = 50
/** Characters per call, under the character limits servers usually set. */
const MAX_CHARS = 30_000
/** "zt" is Traditional Chinese in LibreTranslate (newer servers name it "zh-Hant"); as a tag it would be a different language. */
const ALIASES: Readonly<Record<string, string>> = { zt: 'zh-Hant' }

interface Language {
  code: string
  /** Codes this source translates into; absent on older servers, which translate any language into any other. */
  targets?: string[]
}

/** Creates the LibreTranslate translator; every call goes through one RemoteService. */
export function createLibreTranslate (options: LibreTranslateOptions): Translator {
  const remote = new RemoteService({ ...options.remote, service: SERVICE })
  const base = options.url.replace(/\/+$/, '')
  const key = options.apiKey === undefined || options.apiKey === '' ? {} : { api_key: options.apiKey }
  // servers echo the key they got (in JSON and in HTML error pages): never logged as it is
  const redactor = createRedactor([options.apiKey])
  // our tag -> LibreTranslate's code, from the latest language list; before one is read, tags are sent as they are
  let codes = new Map<string, string>()

  const translateBatch = (q: string[], source: string, target: string, signal: AbortSignal): Promise<string[]> =>
    remote.call(async attemptSignal => {
      const body = await requestJson(SERVICE, `${base}/translate`, {
        method: 'POST',
        json: { q, source, target, format: 'html', ...key },
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
      const body = await remote.call(attemptSignal => requestJson(SERVICE, `${base}/languages`, { redactor }, attemptSignal))
      const languages = readLanguages(body)
      codes = engineCodes(languages.map(l => l.code), ALIASES)
      const all = [...codes.keys()]
      const seen = new Set<string>()
      const pairs: LanguagePair[] = []
      for (const l of languages) {
        const from = canonicalCode(l.code, ALIASES)
        if (from === undefined) continue
        const targets = l.targets === undefined ? all : l.targets.map(code => canonicalCode(code, ALIASES))
        for (const to of targets) {
          if (to === undefined || to === from || seen.has(`${from}>${to}`)) continue
          seen.add(`${from}>${to}`)
          pairs.push({ from, to })
        }
      }
      return pairs
    },

    async translate (call: TranslateCall, signal: AbortSignal): Promise<string[]> {
      // LibreTranslate has no context or formality option: both are ignored
      const source = codes.get(call.from) ?? call.from
      const target = codes.get(call.to) ?? call.to
      return runBatches(batches(call.segments, MAX_SEGMENTS, MAX_CHARS, s => s.length), signal,
        (q, batchSignal) => translateBatch(q, source, target, batchSignal))
    }
  }
}

/** `translatedText` of `{ translatedText: [...] }` (an array, since `q` is one), or a final UpstreamError. */
function readTranslations (body: unknown): string[] {
  const texts = field(body, 'translatedText')
  if (!Array.isArray(texts) || !texts.every(t => typeof t === 'string')) throw unexpected('translation')
  return texts
}

/** `[{ code, name, targets? }]`, or a final UpstreamError. */
function readLanguages (body: unknown): Language[] {
  if (!Array.isArray(body)) throw unexpected('language list')
  return body.map(l => {
    const code = field(l, 'code')
    const targets = field(l, 'targets')
    if (typeof code !== 'string') throw unexpected('language list')
    if (targets === undefined) return { code }
    if (!Array.isArray(targets) || !targets.every(t => typeof t === 'string')) throw unexpected('language list')
    return { code, targets }
  })
}

function field (value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined
}

function unexpected (what: string): UpstreamError {
  return new UpstreamError(SERVICE, `answered a ${what} of an unexpected shape`)
}
