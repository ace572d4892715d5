/** The DeepL translator ("deepl"): the official deepl-node client, every call through one RemoteService. */
import type * as DeeplNode from 'deepl-node'
import type { Formality as DeeplFormality, Language, SourceLanguageCode, TargetLanguageCode, TextResult, TranslateTextOptions } from 'deepl-node'
import { lazyPackage } from '../../lib/lazy-package.js'
import { RemoteService, createRedactor, type RemoteOptions } from '../../upstream/index.js'
import type { Formality, LanguagePair, TranslateCall, Translator } from '../../core/ports.js'
import { MAX_TEXTS, formBytes, splitBatches } from './batches.js'
import { buildList, sourceCode, targetCode, targetInfo, type LanguageList } from './codes.js'
import { SERVICE, fromDeepl, unusable } from './errors.js'
import { keptTags } from './tags.js'

export interface DeeplOptions {
  /** DEEPL_API_KEY. */
  apiKey: string
  /** DEEPL_SERVER_URL; absent, deepl-node picks api-free.deepl.com for keys ending in ":fx", else api.deepl.com. */
  serverUrl?: string
  remote: Omit<RemoteOptions, 'service'>
}

// our segments carry inline markup as <g>/<x>: they must not split sentences, and sentences are already cut
const TEXT_OPTIONS: TranslateTextOptions = {
  tagHandling: 'xml',
  nonSplittingTags: ['g', 'x'],
  splitSentences: 'nonewlines',
  // segments are often pieces of a sentence (a link's text): DeepL must not recapitalize or add punctuation
  preserveFormatting: true
}

/** deepl-node (and axios under it), loaded when a DeepL translator is made. */
const deeplNode = lazyPackage<typeof DeeplNode>('deepl-node')

/** Creates the DeepL translator; nothing is fetched until languages() or translate(). */
export function createDeepl (options: DeeplOptions): Translator {
  const remote = new RemoteService({ ...options.remote, service: SERVICE })
  const client = new (deeplNode().Translator)(options.apiKey, {
    ...(options.serverUrl === undefined || options.serverUrl === '' ? {} : { serverUrl: options.serverUrl }),
    // retries and backoff are RemoteService's, so the deadline and the breaker see every attempt
    maxRetries: 0,
    // deepl-node takes no AbortSignal: its own timeout ends a hung request near our deadline
    minTimeout: remote.timeoutMs
  })
  let list: LanguageList | undefined
  let fetching: Promise<LanguagePair[]> | undefined
  const redactor = createRedactor([options.apiKey])

  /** One outside call sending `texts` of a client: the SDK's errors typed, and settled when the attempt's signal aborts. */
  const remoteCall = async <T>(work: () => Promise<T>, signal?: AbortSignal, texts: readonly string[] = []): Promise<T> =>
    await remote.call(async attempt => await settleBy(async () => {
      try {
        return await work()
      } catch (err) {
        throw fromDeepl(err, redactor, texts)
      }
    }, attempt), signal)

  const fetchLanguages = async (): Promise<LanguagePair[]> => {
    const [sources, targets] = await Promise.all([
      remoteCall(async () => checkLanguages(await client.getSourceLanguages())),
      remoteCall(async () => checkLanguages(await client.getTargetLanguages()))
    ])
    list = buildList(sources, targets)
    return list.pairs
  }

  return {
    name: SERVICE,
    batching: { concurrency: remote.concurrency, maxSegments: MAX_TEXTS },

    supportsFormality (pair: LanguagePair): boolean {
      return targetInfo(pair.to, list)?.supportsFormality === true
    },

    // every call refetches (core refreshes hourly); concurrent calls share one fetch
    async languages (): Promise<LanguagePair[]> {
      fetching ??= fetchLanguages().finally(() => { fetching = undefined })
      return await fetching
    },

    async translate (call: TranslateCall, signal: AbortSignal): Promise<string[]> {
      signal.throwIfAborted()
      const out = call.segments.map(() => '')
      // deepl-node refuses empty texts, and their translation is empty anyway
      const todo = call.segments.flatMap((s, i) => s === '' ? [] : [i])
      if (todo.length === 0) return out
      // deepl-node's language code types are a closed list; DeepL's own list (fetched) is what we trust
      const source = sourceCode(call.from) as SourceLanguageCode | null
      const target = targetCode(call.to, list) as TargetLanguageCode
      const formality = formalityFor(call.formality, targetInfo(call.to, list)?.supportsFormality)
      const extra: TranslateTextOptions = {
        ...(formality === undefined ? {} : { formality }),
        ...(call.context === undefined || call.context === '' ? {} : { context: call.context })
      }
      const texts = todo.map(i => call.segments[i]!)
      const batches = splitBatches(texts, extra.context === undefined ? 0 : formBytes('context', extra.context))
      // the first failure fails the call: calls still waiting for a slot are not worth making
      const failed = new AbortController()
      const callSignal = AbortSignal.any([signal, failed.signal])
      await Promise.all(batches.map(async batch => {
        const sent = batch.map(k => texts[k]!)
        try {
          const answers = await remoteCall(async () => checkAnswers(sent, await client.translateText(sent, source, target, { ...TEXT_OPTIONS, ...extra })), callSignal,
            extra.context === undefined ? sent : [...sent, extra.context])
          batch.forEach((k, n) => { out[todo[k]!] = answers[n]! })
        } catch (err) {
          failed.abort(err)
          throw err
        }
      }))
      return out
    }
  }
}

/**
 * DeepL's formality for a target: `more`/`less` as asked (core only sends them where
 * supportsFormality said yes), `prefer_*`/`default` only where the target has formality. Before
 * the list is known, `prefer_*` is still sent: DeepL documents it as falling back when unsupported.
 */
function formalityFor (asked: Formality | undefined, supported: boolean | undefined): DeeplFormality | undefined {
  if (asked === undefined) return undefined
  if (asked === 'more' || asked === 'less' || supported === true) return asked
  if (supported === undefined && asked !== 'default') return asked
  return undefined
}

/** The answers' texts in order, with every tag kept; anything else is a failed call. */
function checkAnswers (sent: readonly string[], results: unknown): string[] {
  if (!Array.isArray(results) || results.length !== sent.length) {
    throw unusable(`answered ${Array.isArray(results) ? results.length : 'no'} translations for ${sent.length} texts`)
  }
  return results.map((r: Partial<TextResult> | null, n) => {
    const text = r?.text
    if (typeof text !== 'string') throw unusable('answered a translation that is not text')
    const kept = keptTags(sent[n]!, text)
    if (kept === undefined) throw unusable('answered a translation that lost or duplicated inline markup or protected tokens')
    return kept
  })
}

function checkLanguages (languages: unknown): Language[] {
  if (!Array.isArray(languages) || !languages.every(l => typeof (l as Partial<Language> | null)?.code === 'string')) {
    throw unusable('answered a language list that is not one')
  }
  return languages as Language[]
}

/** Runs work and settles when it does or when the signal aborts, whichever is first; the SDK's request may run on. */
async function settleBy<T> (work: () => Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted()
  return await new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work().then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
