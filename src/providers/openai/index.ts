/** The "openai" engine: one OpenAI-compatible client per process and the capabilities built on it (translation, edit and analysis). */
import type { Capabilities } from '../../core/ports.js'
import { createOpenAiAnalyzer } from './analyzer.js'
import { createLlmClient, type LlmClient, type LlmClientOptions } from './client.js'
import { createOpenAiEditor } from './editor.js'
import { createOpenAiTranslator, type OpenAiTranslatorOptions } from './translator.js'

export { CheckError, OPENAI_SERVICE, createLlmClient, type LlmClient, type LlmClientOptions, type StructuredCall } from './client.js'
export { TRANSLATE_SYSTEM, createOpenAiTranslator, type OpenAiTranslatorOptions } from './translator.js'
export { SEGMENTS_SCHEMA, checkSegments } from './segments.js'
export { EDIT_SYSTEM, createOpenAiEditor } from './editor.js'
export { ANALYZE_SYSTEM, analyzeSchema, checkAnalysis, createOpenAiAnalyzer, sentimentLabel } from './analyzer.js'
export { DEFAULT_LANGUAGES, TOP_LANGUAGES, VARIANTS } from './languages.js'

/** The client and what it serves; build it once per process so every capability shares slots and breaker. */
export function createOpenAi (options: LlmClientOptions & { languages?: OpenAiTranslatorOptions['languages'] }): Capabilities & { client: LlmClient } {
  const { languages, ...clientOptions } = options
  const client = createLlmClient(clientOptions)
  return {
    client,
    translator: createOpenAiTranslator(client, languages === undefined ? {} : { languages }),
    editor: createOpenAiEditor(client),
    analyzer: createOpenAiAnalyzer(client)
  }
}
