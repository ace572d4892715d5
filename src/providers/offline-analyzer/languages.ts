/**
 * What the offline analyser is called and which languages each of its parts reads natively (base
 * subtags): light, so that the thread's caller (offline/thread.ts) knows it without loading the models.
 */
import type { AnalysisPart } from '../../core/ports.js'

export const OFFLINE_ANALYZER = 'offline'

const LEXICON_LANGUAGES: readonly string[] = Object.freeze(['en', 'fr', 'de', 'es', 'it', 'pt', 'nl'])

export const OFFLINE_LANGUAGES: Readonly<Record<AnalysisPart, readonly string[]>> = {
  entities: LEXICON_LANGUAGES,
  sentiment: LEXICON_LANGUAGES,
  moderation: LEXICON_LANGUAGES,
  categories: LEXICON_LANGUAGES
}

/** Whether the offline analyser reads `part` in `language` ("pt-BR" counts as "pt"; tags arrive canonical from core). */
export function offlineSupports (part: AnalysisPart, language: string): boolean {
  return OFFLINE_LANGUAGES[part].includes(language.split('-')[0]!.toLowerCase())
}
