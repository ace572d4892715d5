/** The language services the routes call, built once from Config and the engine registry. */
import type { Config } from '../config.js'
import { NotImplementedError } from '../errors.js'
import { getLocale, listLocales } from './locales.js'
import type { Registry } from '../providers/registry.js'
import type { AnalyzeRequestT, AnalyzeResponseT, SentimentRequestT, SentimentResultT } from '../schemas/analyze.js'
import type { DetectRequestT, DetectResponseT } from '../schemas/detect.js'
import type { EditRequestT, EditResponseT } from '../schemas/edit.js'
import type { LocaleT } from '../schemas/locales.js'
import type { SubstituteRequestT, SubstituteResponseT } from '../schemas/substitute.js'
import type {
  BulkTranslationRequestT, SupportedT, TranslateLocalesT, TranslationRequestT, TranslationResultT
} from '../schemas/translate.js'

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

/** Wires core services to the configured engines. */
export function createServices (_config: Config, _registry: Registry): Services {
  return {
    translate: pending('Translation'),
    translateBulk: pending('Bulk translation'),
    translateLocales: pending('The translation language list'),
    supported: pending('The translation language check'),
    detect: pending('Language detection'),
    substitute: pending('Substitution'),
    edit: pending('Generative editing (POST /language/edit)'),
    analyze: pending('Text analysis (POST /language/analyze)'),
    sentiment: pending('Sentiment analysis (POST /language/analyze/sentiment)'),
    locale: (tag, display) => getLocale(tag, display === undefined ? {} : { display }),
    locales: (display) => listLocales(display === undefined ? {} : { display })
  }
}
