/**
 * Assembly: builds the configured engines from Config. Each provider factory returns what its
 * engine can do (`{ translator?, editor?, analyzer? }`), so one client serves every capability
 * it has (one OpenAI-compatible client for translation, edit and analysis).
 */
import cluster from 'node:cluster'
import { join } from 'node:path'
import { MessageChannel, type MessagePort } from 'node:worker_threads'
import { ConfigError, SERVICE_NAMES, type Config, type ServiceName } from './config.js'
import type { AnalysisPart, Analyzer, Capabilities, Detector, Editor, EditJob, Translator } from './providers/types.js'
import { portCaller, serveCalls, type Caller } from './shared/module-thread.js'
import type { RemoteOptions } from './providers/remote/index.js'
import type { ApertiumOptions } from './providers/translation/apertium/index.js'
import { createApertiumThread } from './providers/translation/apertium/thread.js'
import { createApertiumClient, portChannel, serveApertiumOnPort } from './providers/translation/apertium/cluster.js'
import { createDetector } from './providers/detection/index.js'
import { createDeepl } from './providers/deepl/index.js'
import { createGoogleCloud } from './providers/google-cloud/index.js'
import { createGoogle } from './providers/google/index.js'
import { createLibreTranslate } from './providers/libretranslate/index.js'
import { createOpenAi } from './providers/openai/index.js'
import { createOfflineAnalyzerThread } from './providers/analysis/thread.js'
import { createRulesEditorThread } from './providers/rules/thread.js'

export interface Registry {
  /** Translators in preference order (TRANSLATION_SERVICES, else the configured outside engines, then the embedded one). */
  translators: Translator[]
  /** Editors in preference order: a generative model when configured, then the offline rules. */
  editors: Editor[]
  /** Analyzers in preference order: a generative model when configured, then the offline analysers. */
  analyzers: Analyzer[]
  detector?: Detector
  /** The embedded engines, whether preferred or not: the large-request thread reaches them over ports. */
  apertium?: Translator
  offline?: { editor: Editor, analyzer: Analyzer }
  /** Components /ready waits for. */
  readiness: () => Record<string, Promise<unknown>>
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
    const { baseUrl, apiKey, model, languages } = config.openai
    if (model === undefined) return undefined
    const { client, ...capabilities } = createOpenAi({ baseUrl, model, remote, ...(apiKey === undefined ? {} : { apiKey }), ...(languages === undefined ? {} : { languages }) })
    return capabilities
  },
  libretranslate: (config, remote) => config.libretranslate.url === undefined
    ? undefined
    : { translator: createLibreTranslate({ url: config.libretranslate.url, remote, ...(config.libretranslate.apiKey === undefined ? {} : { apiKey: config.libretranslate.apiKey }) }) },
  apertium: (config) => ({
    // a WORKERS process with shared pipelines sends its jobs to the primary, which runs them (server.ts);
    // otherwise in a thread of its own: starting pipelines and coding their streams stay off the event loop
    translator: cluster.isWorker && config.apertium.sharedPipelines ? createApertiumClient() : createApertiumThread(apertiumOptions(config))
  })
}

/** The embedded Apertium translator's settings from Config. */
export function apertiumOptions (config: Config): ApertiumOptions {
  return {
    modesDir: join(config.apertium.dir, 'modes'),
    requestTimeoutMs: config.apertium.requestTimeoutMs,
    idleMs: config.apertium.idleMs,
    maxPipelines: config.apertium.maxPipelines,
    turnMs: config.apertium.turnMs,
    maxMemoryMb: config.apertium.maxMemoryMb
  }
}

/** What each engine needs set before it can be named in TRANSLATION_SERVICES. */
const SETTINGS: Record<ServiceName, string> = {
  deepl: 'DEEPL_API_KEY',
  'google-cloud': 'GOOGLE_CLOUD_API_KEY',
  google: 'GOOGLE_TRANSLATE_ENABLED=true',
  openai: 'OPENAI_MODEL (with OPENAI_BASE_URL or OPENAI_API_KEY)',
  libretranslate: 'LIBRETRANSLATE_URL',
  apertium: 'nothing (it is embedded)'
}

/** What the large-request thread uses of its process's engines instead of loading its own. */
export interface SharedEngines {
  apertium?: Translator
  detector?: Detector
  rulesEditor?: Caller
  offlineAnalyzer?: Caller
}

/** The engines Config enables. Throws ConfigError when TRANSLATION_SERVICES names one whose settings are missing. */
export function createRegistry (config: Config, options: SharedEngines = {}): Registry {
  const remote = {
    timeoutMs: config.limits.upstreamTimeoutMs,
    retries: config.upstream.retries,
    breakerFailures: config.upstream.breakerFailures,
    breakerCooldownMs: config.upstream.breakerCooldownMs,
    concurrency: config.upstream.concurrency
  }
  const built = new Map<ServiceName, Capabilities>()
  for (const name of SERVICE_NAMES) {
    // the large-request thread translates with its process's pipelines (options.apertium)
    const capabilities = name === 'apertium' && options.apertium !== undefined ? { translator: options.apertium } : PROVIDERS[name](config, remote)
    if (capabilities !== undefined) built.set(name, capabilities)
  }
  const wanted = config.translation.services.length > 0 ? config.translation.services as ServiceName[] : [...SERVICE_NAMES]
  for (const name of config.translation.services as ServiceName[]) {
    if (!built.has(name)) throw new ConfigError('TRANSLATION_SERVICES', `"${name}" is named but not configured (set ${SETTINGS[name]})`)
  }
  const translators = wanted.map(name => built.get(name)?.translator).filter((t): t is Translator => t !== undefined)
  // the offline editor and analysers always exist, last in line; each loads and works in a thread of its own
  const offline = { editor: createRulesEditorThread(options.rulesEditor), analyzer: createOfflineAnalyzerThread(options.offlineAnalyzer) }
  const all: Capabilities[] = [...built.values(), offline]
  const editors = all.map(c => c.editor).filter((e): e is Editor => e !== undefined)
  const analyzers = all.map(c => c.analyzer).filter((a): a is Analyzer => a !== undefined)
  // loads its models in the background; /ready waits for it
  const detector = options.detector ?? createDetector()
  const ready = (what: Array<{ name: string, ready?: () => Promise<void> }>, suffix: string): Array<[string, Promise<void>]> =>
    what.filter(w => w.ready).map(w => [`${w.name}${suffix}`, w.ready!()])
  return {
    translators,
    editors,
    analyzers,
    detector,
    ...(built.get('apertium')?.translator === undefined ? {} : { apertium: built.get('apertium')!.translator! }),
    offline,
    readiness: () => ({
      detector: detector.ready(),
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

/** The ports over which the large-request thread reaches its process's engines. */
export interface EnginePorts {
  apertium: MessagePort
  detector?: MessagePort
  rulesEditor?: MessagePort
  offlineAnalyzer?: MessagePort
}

/** Serves `handlers` (serveCalls' protocol) on a new channel; its other port is the thread's. */
function served (handlers: Record<string, (...args: never[]) => unknown>): MessagePort {
  const channel = new MessageChannel()
  serveCalls(handlers, channel.port1)
  // the thread at the other end is what keeps the process up, not the port
  channel.port1.unref()
  return channel.port2
}

/**
 * Serves this process's engines that hold models (Apertium's pipelines, the detector, the rules
 * editor, the offline analyser) on new MessagePorts, for the large-request thread
 * (http/large-requests.ts) to use through sharedEngines instead of loading its own.
 */
export function serveEngines (registry: Pick<Registry, 'apertium' | 'detector' | 'offline'>): { ports: EnginePorts, transferList: MessagePort[] } {
  const apertium = new MessageChannel()
  if (registry.apertium !== undefined) serveApertiumOnPort(registry.apertium, apertium.port1)
  const { detector, offline } = registry
  const ports: EnginePorts = {
    apertium: apertium.port2,
    ...(detector === undefined
      ? {}
      : {
          detector: served({
            detect: async (text: string, only: string[] | undefined) => await detector.detect(text, only),
            languages: async () => detector.languages(),
            ready: async () => { await detector.ready() }
          })
        }),
    ...(offline === undefined
      ? {}
      : {
          rulesEditor: served({
            ready: async () => { await offline.editor.ready?.() },
            edit: async (job: EditJob, signal: AbortSignal) => await offline.editor.edit(job, signal)
          }),
          offlineAnalyzer: served({
            ready: async () => { await offline.analyzer.ready?.() },
            analyze: async (text: string, language: string, parts: AnalysisPart[], signal: AbortSignal) => await offline.analyzer.analyze(text, language, parts, signal)
          })
        })
  }
  return { ports, transferList: Object.values(ports) as MessagePort[] }
}

/** In the large-request thread: its process's engines (serveEngines), as createRegistry takes them. */
export function sharedEngines (ports: EnginePorts): SharedEngines {
  return {
    apertium: createApertiumClient(portChannel(ports.apertium)),
    ...(ports.detector === undefined ? {} : { detector: detectorOverPort(ports.detector) }),
    ...(ports.rulesEditor === undefined ? {} : { rulesEditor: portCaller(ports.rulesEditor, 'rules editor') }),
    ...(ports.offlineAnalyzer === undefined ? {} : { offlineAnalyzer: portCaller(ports.offlineAnalyzer, 'offline analyzer') })
  }
}

/** The detector of its process's event loop, over a port. */
function detectorOverPort (port: MessagePort): Detector {
  const call = portCaller(port, 'detector')
  let languages: string[] = []
  return {
    name: 'ensemble',
    detect: async (text, only) => await call('detect', [text, only]),
    languages: () => [...languages],
    ready: async () => {
      await call('ready', [])
      languages = await call<string[]>('languages', [])
    }
  }
}
