/**
 * Assembly: builds the configured engines from Config. Each provider factory returns what its
 * engine can do (`{ translator?, editor?, analyzer? }`), so one client serves every capability
 * it has (one OpenAI-compatible client for translation, edit and analysis).
 */
import { join } from 'node:path'
import { notConfigured, SERVICE_NAMES, type Config, type ServiceName } from './config.js'
import type { Analyzer, Capabilities, Detector, Editor, Translator } from './core/ports.js'
import type { RemoteOptions } from './upstream/index.js'
import type { ApertiumOptions } from './providers/apertium/index.js'
import { createApertium } from './providers/apertium/index.js'
import { machineCores, processShare } from './runtime/machine.js'
import { createDetector } from './providers/detector/index.js'
import { createDeepl } from './providers/deepl/translator.js'
import { createGoogleCloud } from './providers/google-cloud/translator.js'
import { createGoogle } from './providers/google/translator.js'
import { createLibreTranslate } from './providers/libretranslate/translator.js'
import { createOpenAi } from './providers/openai/index.js'
import { createThreadedOfflineAnalyzer, createThreadedRulesEditor } from './providers/offline/thread.js'

export interface Registry {
  /** Translators in preference order (TRANSLATION_SERVICES, else the configured outside engines, then the embedded one). */
  translators: Translator[]
  /** Editors in preference order: a generative model when configured, then the offline rules. */
  editors: Editor[]
  /** Analyzers in preference order: a generative model when configured, then the offline analysers. */
  analyzers: Analyzer[]
  detector?: Detector
  /** Components /ready waits for: each one's warm-up (called again when it fails for a passing cause). */
  readiness: () => Record<string, () => Promise<unknown>>
  close: () => Promise<void>
}

/** Builds an engine's capabilities, or undefined when its settings are not given. */
type ProviderFactory = (config: Config, remote: Omit<RemoteOptions, 'service'>) => Capabilities | undefined

const PROVIDERS: Record<ServiceName, ProviderFactory> = {
  deepl: (config, remote) => config.deepl.apiKey === undefined
    ? undefined
    : { translator: createDeepl({ apiKey: config.deepl.apiKey, ...(config.deepl.serverUrl === undefined ? {} : { serverUrl: config.deepl.serverUrl }), remote }) },
  'google-cloud': (config, remote) => config.googleCloud.apiKey === undefined
    ? undefined
    : { translator: createGoogleCloud({ apiKey: config.googleCloud.apiKey, url: config.googleCloud.url, remote }) },
  google: (config, remote) => config.google.enabled ? { translator: createGoogle({ host: config.google.host, remote }) } : undefined,
  openai: (config, remote) => {
    const { baseUrl, apiKey, model, languages, maxTokens } = config.openai
    if (model === undefined) return undefined
    const { client, ...capabilities } = createOpenAi({ baseUrl, model, remote, maxTokens, ...(apiKey === undefined ? {} : { apiKey }), ...(languages === undefined ? {} : { languages }) })
    return capabilities
  },
  libretranslate: (config, remote) => config.libretranslate.url === undefined
    ? undefined
    : { translator: createLibreTranslate({ url: config.libretranslate.url, remote, ...(config.libretranslate.apiKey === undefined ? {} : { apiKey: config.libretranslate.apiKey }) }) },
  apertium: (config) => ({ translator: createApertium(apertiumOptions(config)) })
}

/**
 * The embedded Apertium translator's settings from Config: each of WORKERS processes runs its own
 * pipelines (at most APERTIUM_MAX_PIPELINES of them), within its share of the memory budget.
 */
export function apertiumOptions (config: Config): ApertiumOptions {
  const { apertium, workers } = config
  return {
    modesDir: join(apertium.dir, 'modes'),
    requestTimeoutMs: apertium.requestTimeoutMs,
    idleMs: apertium.idleMs,
    maxPipelines: apertium.maxPipelines,
    // a direction takes more cores while its backlog grows: this process's share of them, and two at
    // least, so that one client's long call never holds the only pipeline of a direction
    maxReplicas: processShare(machineCores(), workers, 2),
    turnMs: apertium.turnMs,
    maxMemoryMb: apertium.maxMemoryMb === 0 ? 0 : processShare(apertium.maxMemoryMb, workers)
  }
}

/** The engines Config enables. Throws ConfigError when TRANSLATION_SERVICES names one whose settings are missing. */
export function createRegistry (config: Config): Registry {
  const remote = {
    timeoutMs: config.limits.upstreamTimeoutMs,
    retries: config.upstream.retries,
    breakerFailures: config.upstream.breakerFailures,
    breakerCooldownMs: config.upstream.breakerCooldownMs,
    concurrency: config.upstream.concurrency
  }
  const built = new Map<ServiceName, Capabilities>()
  for (const name of SERVICE_NAMES) {
    const capabilities = PROVIDERS[name](config, remote)
    if (capabilities !== undefined) built.set(name, capabilities)
  }
  const wanted = config.translation.services.length > 0 ? config.translation.services as ServiceName[] : [...SERVICE_NAMES]
  for (const name of config.translation.services as ServiceName[]) {
    if (!built.has(name)) throw notConfigured(name)
  }
  const translators = wanted.map(name => built.get(name)?.translator).filter((t): t is Translator => t !== undefined)
  // the offline editor and analysers always exist, last in line; they load and work in the process's offline thread
  const offline = { editor: createThreadedRulesEditor(), analyzer: createThreadedOfflineAnalyzer() }
  const all: Capabilities[] = [...built.values(), offline]
  const editors = all.map(c => c.editor).filter((e): e is Editor => e !== undefined)
  const analyzers = all.map(c => c.analyzer).filter((a): a is Analyzer => a !== undefined)
  // loads its models in the background; /ready waits for it
  const detector = createDetector()
  const ready = (what: Array<{ name: string, ready?: () => Promise<void> }>, suffix: string): Array<[string, () => Promise<void>]> =>
    what.filter(w => w.ready).map(w => [`${w.name}${suffix}`, async () => { await w.ready!() }])
  return {
    translators,
    editors,
    analyzers,
    detector,
    readiness: () => ({
      detector: async () => { await detector.ready() },
      ...Object.fromEntries(ready(translators, '')),
      ...Object.fromEntries(ready(editors, '-editor')),
      ...Object.fromEntries(ready(analyzers, '-analyzer'))
    }),
    close: async () => {
      const closers = [detector.close?.(), ...all.flatMap(c => [c.translator?.close?.(), c.editor?.close?.(), c.analyzer?.close?.()])]
      await Promise.all(closers)
    }
  }
}

/** A registry with no engines (used by the OpenAPI writer and by tests that need none). */
export function emptyRegistry (): Registry {
  return { translators: [], editors: [], analyzers: [], readiness: () => ({}), close: async () => {} }
}
