/**
 * The "offline" analyzer: entities, sentiment, moderation and categories with embedded lexicons
 * and models, for the languages each part knows natively (core translates other text to English
 * first). Everything loads in the background at start; /ready waits for it.
 */
import { setImmediate as turn } from 'node:timers/promises'
import type { AnalysisAnswer, Analyzer } from '../../core/ports.js'
import { classifyCategories } from './categories/index.js'
import { findEntities, loadEntities } from './entities/index.js'
import { OFFLINE_ANALYZER, offlineSupports } from './languages.js'
import { loadModeration, moderate } from './moderation/index.js'
import { loadSentiment, scoreSentiment } from './sentiment/index.js'

export { OFFLINE_ANALYZER, OFFLINE_LANGUAGES } from './languages.js'

/** "pt-BR" -> "pt" (tags arrive canonical from core). */
const baseLanguage = (tag: string): string => tag.split('-')[0]!.toLowerCase()

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
    supports: offlineSupports,
    ready: load,
    async analyze (text, language, parts, signal) {
      await load()
      const base = baseLanguage(language)
      const answer: AnalysisAnswer = {}
      for (const part of parts) {
        // between parts, the thread's other calls get their turn, and a request that gave up stops here
        await turn()
        signal.throwIfAborted()
        if (part === 'sentiment') answer.sentiment = scoreSentiment(text, base)
        else if (part === 'entities') answer.entities = findEntities(text, language)
        else if (part === 'moderation') answer.moderation = moderate(text, base)
        else answer.categories = classifyCategories(text, base)
      }
      return answer
    }
  }
}
