/** The language services the routes call, built once from Config and the engine registry. */
import type { Config } from '../config.js'
import { NotImplementedError, ServiceUnavailableError } from '../errors.js'
import type { Detector } from '../providers/types.js'
import type { Registry } from '../providers/registry.js'
import type { AnalyzeRequestT, AnalyzeResponseT, SentimentRequestT, SentimentResultT } from '../schemas/analyze.js'
import type { DetectRequestT, DetectResponseT } from '../schemas/detect.js'
import type { EditRequestT, EditResponseT } from '../schemas/edit.js'
import type { LocaleT } from '../schemas/locales.js'
import type { SubstituteRequestT, SubstituteResponseT } from '../schemas/substitute.js'
import type {
  BulkTranslationRequestT, SupportedT, TranslateLocalesT, TranslationRequestT, TranslationResultT
} from '../schemas/translate.js'
import { detectLanguage } from './detection.js'
import { documentText, parseMimeType, readyToSegment } from './documents/index.js'
import { substituteDocument } from './documents/substitute.js'
import { checkRuleTags, rulesForLanguage } from './glossary.js'
import { checkTextLimit } from './text-limit.js'
import { canonicalTag, sameBase } from './languages.js'
import { getLocale, listLocales } from './locales.js'
import { mergeMeta } from './meta.js'
import { MemoryTranslationCache } from './translation/cache.js'
import { TranslatorCatalog } from './translation/catalog.js'
import { translateDocuments, type DocumentValue, type TranslationDeps } from './translation/translate.js'

export interface Services {
  translate: (request: TranslationRequestT, signal: AbortSignal) => Promise<TranslationResultT>
  translateBulk: (request: BulkTranslationRequestT, signal: AbortSignal) => Promise<TranslationResultT[]>
  translateLocales: () => Promise<TranslateLocalesT>
  supported: (source: string, targets: string[]) => Promise<SupportedT>
  detect: (request: DetectRequestT) => Promise<DetectResponseT>
  substitute: (request: SubstituteRequestT) => Promise<SubstituteResponseT>
  edit: (request: EditRequestT, signal: AbortSignal) => Promise<EditResponseT>
  analyze: (request: AnalyzeRequestT, signal: AbortSignal) => Promise<AnalyzeResponseT>
  sentiment: (request: SentimentRequestT, signal: AbortSignal) => Promise<SentimentResultT>
  locale: (tag: string, display?: string) => LocaleT
  locales: (display?: string) => readonly LocaleT[]
}

const pending = (what: string) => async (): Promise<never> => {
  throw new NotImplementedError(`${what} is not built into this version of the service yet.`)
}

/** The configured detector, or a 503 saying why there is none. */
function requireDetector (detector: Detector | undefined): Detector {
  if (!detector) throw new ServiceUnavailableError('No language detector is configured.')
  return detector
}

/** Wires core services to the configured engines. */
export function createServices (config: Config, registry: Registry): Services {
  const catalog = new TranslatorCatalog(registry.translators)
  const deps: TranslationDeps = {
    catalog,
    cache: new MemoryTranslationCache(config.translation.cacheEntries),
    textChars: config.limits.textChars,
    upstreamTimeoutMs: config.limits.upstreamTimeoutMs,
    detect: (text, candidates) => {
      const options = candidates === undefined ? {} : { limit_results: [...candidates] }
      const { language, confidence } = detectLanguage(text, options, requireDetector(registry.detector))
      return { language, confidence }
    }
  }
  const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' })
  const nameOf = (tag: string): string => {
    try {
      return languageNames.of(tag) ?? tag
    } catch {
      return tag
    }
  }

  return {
    async translate (request, signal) {
      const [doc] = await translateDocuments({
        documents: [request.document],
        pointer: () => '/document',
        source: request.source,
        targets: request.targets,
        options: request.options,
        substitutions: request.substitutions
      }, deps, signal)
      return { results: doc!.results, original: request, extra: doc!.extra }
    },

    async translateBulk (request, signal) {
      const { documents, ...shared } = request
      const docs = await translateDocuments({
        documents,
        pointer: i => `/documents/${i}`,
        source: request.source,
        targets: request.targets,
        options: request.options,
        substitutions: request.substitutions
      }, deps, signal)
      return docs.map((doc, i) => ({ results: doc.results, original: { ...shared, document: documents[i]! }, extra: doc.extra }))
    },

    async translateLocales () {
      await catalog.load()
      const entry = ({ tag, services }: { tag: string, services: string[] }) => ({ name: nameOf(tag), tag, services })
      return { source: catalog.languages('source').map(entry), target: catalog.languages('target').map(entry) }
    },

    async supported (source, targets) {
      const from = canonicalTag(source, '/source')
      const tos = targets.map(t => canonicalTag(t, '/target'))
      await catalog.load()
      const all = catalog.translators.map(t => t.name)
      let services = all
      let supported = tos.length > 0
      for (const to of tos) {
        if (sameBase(from, to)) continue
        const names = catalog.routes(from, to).map(r => r.translator.name)
        if (names.length === 0) supported = false
        services = services.filter(s => names.includes(s))
      }
      return { supported, services: supported ? services : [] }
    },

    async detect (request) {
      const mime = parseMimeType(request.document.mime_type, '/document/mime_type')
      const context = await readyToSegment(request.document.value, mime)
      checkTextLimit([{ value: request.document.value, mime, context }], config.limits.textChars, '/document/value')
      const detector = requireDetector(registry.detector)
      const { document: _doc, meta, ...options } = request
      const result = detectLanguage(documentText(request.document.value, mime, { context }), options, detector)
      return { language: result.language, confidence: result.confidence, meta: mergeMeta(meta, {}), alternatives: result.alternatives }
    },

    async substitute (request) {
      const mime = parseMimeType(request.document.mime_type, '/document/mime_type')
      const context = await readyToSegment(request.document.value, mime)
      checkTextLimit([{ value: request.document.value, mime, context }], config.limits.textChars, '/document/value')
      const rules = request.substitutions
      checkRuleTags(rules)
      // the language matters only when a rule names one
      let language = request.document.language === undefined ? undefined : canonicalTag(request.document.language, '/document/language')
      if (language === undefined && rules.some(r => r.source !== undefined || r.target !== undefined)) {
        language = deps.detect(documentText(request.document.value, mime, { context })).language
      }
      const { value, applied } = substituteDocument(request.document.value, mime, rulesForLanguage(rules, language ?? 'und'), {
        caseSensitive: request.options?.substitutions_case_sensitive === true,
        context
      })
      // substituteDocument gives back the shape it was given: a Document value
      const document = { ...request.document, value: value as DocumentValue, ...(language !== undefined && language !== 'und' ? { language } : {}) }
      return { document, original: request.document, meta: mergeMeta(request.meta, { substitutions: applied }) }
    },

    edit: pending('Generative editing (POST /language/edit)'),
    analyze: pending('Text analysis (POST /language/analyze)'),
    sentiment: pending('Sentiment analysis (POST /language/analyze/sentiment)'),
    locale: (tag, display) => getLocale(tag, display === undefined ? {} : { display }),
    locales: (display) => listLocales(display === undefined ? {} : { display })
  }
}
