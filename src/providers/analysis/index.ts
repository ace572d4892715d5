/**
 * The "offline" analyzer: entities, sentiment, moderation and categories with embedded lexicons
 * and models, for the languages each part knows natively (core translates other text to English
 * first). Everything loads in the background at start; /ready waits for it.
 */
import type { AnalysisAnswer, AnalysisPart, Analyzer } from '../types.js'
import { CATEGORY_LANGUAGES, classifyCategories } from './categories/index.js'
import { ENTITY_LANGUAGES, findEntities, loadEntities } from './entities/index.js'
import { MODERATION_LANGUAGES, loadModeration, moderate } from './moderation/index.js'
import { SENTIMENT_LANGUAGES, loadSentiment, scoreSentiment } from './sentiment/index.js'

export const OFFLINE_ANALYZER = 'offline'

/** "pt-BR" -> "pt" (tags arrive canonical from core). */
const baseLanguage = (tag: string): string => tag.split('-')[0]!.toLowerCase()

/** The languages each part analyses natively (base subtags). */
export const OFFLINE_LANGUAGES: Readonly<Record<AnalysisPart, readonly string[]>> = {
  entities: ENTITY_LANGUAGES,
  sentiment: SENTIMENT_LANGUAGES,
  moderation: MODERATION_LANGUAGES,
  categories: CATEGORY_LANGUAGES
}

export function createOfflineAnalyzer (): Analyzer {
  let loading: Promise<void> | undefined
  const load = async (): Promise<void> => {
    loading ??= Promise.all([loadSentiment(), loadEntities(), loadModeration()]).then(() => {})
    await loading
  }
  // start loading at once, in the background
  load().catch(() => {})
  return {
    name: OFFLINE_ANALYZER,
    supports: (part, language) => OFFLINE_LANGUAGES[part].includes(baseLanguage(language)),
    ready: load,
    async analyze (text, language, parts) {
      await load()
      const base = baseLanguage(language)
      const answer: AnalysisAnswer = {}
      for (const part of parts) {
        if (part === 'sentiment') answer.sentiment = scoreSentiment(text, base)
        else if (part === 'entities') answer.entities = findEntities(text, base)
        else if (part === 'moderation') answer.moderation = moderate(text, base)
        else answer.categories = classifyCategories(text, base)
      }
      return answer
    }
  }
}
