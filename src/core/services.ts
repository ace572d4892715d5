/** Wiring only: the use cases the routes call, built once from Config and the engine registry. */
import type { Config } from '../config.js'
import type { Registry } from '../registry.js'
import { createAnalysis, type Analysis, type ToEnglish } from './analysis/index.js'
import { createDetection, type Detection } from './detection/index.js'
import { createEditing, type Editing } from './editing/index.js'
import { getLocale, listLocales, type LocaleInfo } from './locales.js'
import { createSubstitution, type Substitute } from './substitution/index.js'
import { Batcher } from './translation/batching.js'
import { MemoryTranslationCache, type TranslationCache } from './translation/cache.js'
import { TranslatorCatalog } from './translation/catalog.js'
import { createTranslation, type Translation } from './translation/index.js'

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

export function createServices (config: Config, registry: Registry, shared: SharedState = {}): Services {
  const catalog = new TranslatorCatalog(registry.translators)
  const local = new MemoryTranslationCache(config.translation.cacheEntries, { ttlSeconds: config.translation.cacheTtlSeconds })
  // TRANSLATION_CACHE_ENTRIES=0 turns the cache off, the shared one included
  const cache = shared.translationCache !== undefined && config.translation.cacheEntries > 0 ? shared.translationCache(local) : local
  const detection = createDetection(registry.detector, config.limits.textChars)
  const textChars = config.limits.textChars
  const translation = createTranslation({
    catalog,
    cache,
    textChars,
    batcher: new Batcher(config.limits.upstreamTimeoutMs),
    detect: detection.detectText
  })
  return {
    translation,
    detection,
    substitute: createSubstitution(detection.detectText, textChars),
    editing: createEditing({ editors: registry.editors, detect: detection.detectText, textChars }),
    analysis: createAnalysis({ analyzers: registry.analyzers, detect: detection.detectText, toEnglish: englishVia(translation), textChars }),
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
