/** Builds the configured set of engines from Config. */
import { join } from 'node:path'
import { ConfigError, type Config } from '../config.js'
import type { Detector, Translator } from './types.js'
import { createApertium } from './translation/apertium/index.js'
import { createDetector } from './detection/index.js'

export interface Registry {
  /** Translators in preference order (TRANSLATION_SERVICES, else every available one, embedded last). */
  translators: Translator[]
  detector?: Detector
  /** Components /ready waits for. */
  readiness: () => Record<string, Promise<unknown>>
  close: () => Promise<void>
}

/** The translators this version can build, by service name, in default preference order. */
const TRANSLATORS: Record<string, (config: Config) => Translator> = {
  apertium: (config) => createApertium({
    modesDir: join(config.apertium.dir, 'modes'),
    requestTimeoutMs: config.apertium.requestTimeoutMs,
    idleMs: config.apertium.idleMs,
    maxPipelines: config.apertium.maxPipelines
  })
}

/** The engines Config enables. */
export function createRegistry (config: Config): Registry {
  const names = config.translation.services.length > 0 ? config.translation.services : Object.keys(TRANSLATORS)
  for (const name of names) {
    if (!(name in TRANSLATORS)) {
      throw new ConfigError('TRANSLATION_SERVICES', `"${name}" is not available in this version (available: ${Object.keys(TRANSLATORS).join(', ')})`)
    }
  }
  const translators = names.map(name => TRANSLATORS[name]!(config))
  // loads its models in the background; /ready waits for it
  const detector = createDetector()
  return {
    translators,
    detector,
    readiness: () => ({
      detector: detector.ready(),
      ...Object.fromEntries(translators.filter(t => t.ready).map(t => [t.name, t.ready!()]))
    }),
    close: async () => { await Promise.all([detector.close?.(), ...translators.map(t => t.close?.())]) }
  }
}

/** A registry with no engines (used by the OpenAPI writer). */
export function emptyRegistry (): Registry {
  return { translators: [], readiness: () => ({}), close: async () => {} }
}
