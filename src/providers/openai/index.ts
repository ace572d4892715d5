/** The "openai" engine: one OpenAI-compatible client per process and the capabilities built on it (translation now; edit and analysis later). */
import type { Capabilities } from '../types.js'
import { createLlmClient, type LlmClient, type LlmClientOptions } from './client.js'
import { createOpenAiTranslator, type OpenAiTranslatorOptions } from './translator.js'

export { CheckError, OPENAI_SERVICE, createLlmClient, redactKey, type LlmClient, type LlmClientOptions, type StructuredCall } from './client.js'
export { TRANSLATE_SCHEMA, TRANSLATE_SYSTEM, checkTranslation, createOpenAiTranslator, type OpenAiTranslatorOptions } from './translator.js'
export { DEFAULT_LANGUAGES, TOP_LANGUAGES, VARIANTS } from './languages.js'

/** The client and what it serves; build it once per process so every capability shares slots and breaker. */
export function createOpenAi (options: LlmClientOptions & { languages?: OpenAiTranslatorOptions['languages'] }): Capabilities & { client: LlmClient } {
  const { languages, ...clientOptions } = options
  const client = createLlmClient(clientOptions)
  return { client, translator: createOpenAiTranslator(client, languages === undefined ? {} : { languages }) }
}
