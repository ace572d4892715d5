/** Builds the configured set of engines from Config. */
import type { Config } from '../config.js'
import type { Detector, Translator } from './types.js'

export interface Registry {
  /** Translators in preference order (TRANSLATION_SERVICES, else outside engines first, embedded last). */
  translators: Translator[]
  detector?: Detector
  /** Components /ready waits for. */
  readiness: () => Record<string, Promise<unknown>>
  close: () => Promise<void>
}

/** The engines Config enables. */
export function createRegistry (_config: Config): Registry {
  return emptyRegistry()
}

/** A registry with no engines (used by the OpenAPI writer). */
export function emptyRegistry (): Registry {
  return { translators: [], readiness: () => ({}), close: async () => {} }
}
