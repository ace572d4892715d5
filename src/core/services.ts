/**
 * Wiring only: the use cases the routes call, built once from the engines and a few plain options.
 * Core reads no settings: the app (app.ts) picks the engines (registry.ts) and the numbers (config.ts).
 */
import { createAnalysis, type Analysis, type ToEnglish } from './analysis/analyze.js'
import { createDetection, type Detection } from './detection/detect.js'
import { createEditing, type Editing } from './editing/edit.js'
import { getLocale, listLocales, type LocaleInfo } from './locales.js'
import { createSubstitution, type Substitute } from './substitution/substitute.js'
import { Batcher } from './translation/batching.js'
import { MemoryTranslationCache, ownedCache, type TranslationCache } from './translation/cache.js'
import { TranslatorCatalog } from './translation/catalog.js'
import { createTranslation, type Translation } from './translation/index.js'
import type { Analyzer, Detector, Editor, Translator } from './ports.js'
import type { DocumentRunner } from './documents/offload.js'

export interface Services {
  translation: Translation
  detection: Detection
  substitute: Substitute
  editing: Editing
  analysis: Analysis
  locale: (tag: string, display?: string) => LocaleInfo
  locales: (display?: string) => Promise<readonly LocaleInfo[]>
  /** Stops background work (language list refreshes). */
  close: () => void
}

/** State shared by every replica, built outside core (Redis with REDIS_URL). */
export interface SharedState {
  /** The segment cache shared by replicas, in front of which `local` (this process's cache) answers first. */
  translationCache?: (local: TranslationCache) => TranslationCache
}

/** The engines, each list in preference order. */
export interface Engines {
  translators: Translator[]
  editors: Editor[]
  analyzers: Analyzer[]
  detector?: Detector | undefined
}

export interface ServiceOptions {
  /** Characters of text in one request. */
  textChars: number
  /** How long a batched call to an outside engine may take (ms). */
  upstreamTimeoutMs: number
  /** Segments this process's translation cache holds; 0 turns every cache off, the shared one included. */
  cacheEntries: number
  cacheTtlSeconds: number
  /** Whose part of the translation cache the work at hand reads and writes (absent: one cache for all). */
  cacheOwner?: () => string
  /** Runs costly documents off the event loop (app.ts: the thread pool); absent, every document is worked inline. */
  documents?: DocumentRunner | undefined
}

export function createServices (engines: Engines, options: ServiceOptions, shared: SharedState = {}): Services {
  const catalog = new TranslatorCatalog(engines.translators)
  const local = new MemoryTranslationCache(options.cacheEntries, { ttlSeconds: options.cacheTtlSeconds })
  const whole = shared.translationCache !== undefined && options.cacheEntries > 0 ? shared.translationCache(local) : local
  const cache = options.cacheOwner === undefined ? whole : ownedCache(whole, options.cacheOwner)
  const { documents } = options
  const detection = createDetection(engines.detector, options.textChars, documents)
  const textChars = options.textChars
  const translation = createTranslation({
    catalog,
    cache,
    textChars,
    batcher: new Batcher(options.upstreamTimeoutMs),
    detect: detection.detectText,
    documents
  })
  return {
    translation,
    detection,
    substitute: createSubstitution(detection.detectText, textChars, documents),
    editing: createEditing({ editors: engines.editors, detect: detection.detectText, textChars, documents }),
    analysis: createAnalysis({ analyzers: engines.analyzers, detect: detection.detectText, toEnglish: englishVia(translation), textChars, documents }),
    locale: (tag, display) => getLocale(tag, display === undefined ? {} : { display }),
    locales: (display) => listLocales(display === undefined ? {} : { display }),
    close: () => catalog.close()
  }
}

/** Plain text into English through the translation use case (cache, routing and fallback included); undefined when no service translates that language. */
function englishVia (translation: Translation): ToEnglish {
  return async (text, from, signal) => {
    if (!(await translation.supported(from, ['en'])).supported) return undefined
    const [doc] = await translation.translate({ documents: [{ value: text, language: from }], documentPath: () => ['document'], source: from, targets: ['en'] }, signal)
    const result = doc!.results['en']!
    return { text: result.value as string, service: doc!.extra.services['en']! }
  }
}
