/**
 * The embedded Apertium translator: reads the installed modes, maps their names to BCP 47,
 * chains pairs directly or through one intermediate language, and keeps warm NUL-flushing
 * pipelines per mode (a replica more while a direction's backlog grows). See ./README.md for the
 * decisions behind it.
 */
import { ApertiumModesError, ServiceUnavailableError, UnsupportedPairError } from '../../errors.js'
import type { LanguagePair, TranslateCall, Translator } from '../../core/ports.js'
import { readModes, type ModeScan } from './modes.js'
import { PipelineSet } from './pipelines.js'
import { directPairs, findChain, listPairs, type DirectPairs } from './chains.js'
import { translateSegments } from './translate.js'

export interface ApertiumOptions {
  /** Where the `.mode` files are (default /usr/share/apertium/modes). */
  modesDir?: string
  /** How long the pipeline may go without answering while requests wait (default 10 s). */
  requestTimeoutMs?: number
  /** Idle time after which a pipeline's processes are stopped (default 10 min). */
  idleMs?: number
  /** Requests waiting or in flight per pipeline beyond which new ones get 503 (default 20,000; a call holds at most 256). */
  maxPending?: number
  /**
   * Pipelines running at once, a hard cap (default 6): a direction without a free slot waits (at
   * most requestTimeoutMs); the least recently used idle pipelines stop first to make room.
   */
  maxPipelines?: number
  /** How long a busy pipeline keeps its slot while another direction waits for one (default 2 s). */
  turnMs?: number
  /**
   * Pipelines one direction may run at once (default 1): a call that finds every one of them with a
   * backlog gets a new one when a slot and memory are free, so another client's long call does not
   * hold it up, and a busy direction uses more cores.
   */
  maxReplicas?: number
  /**
   * Most memory (MB) the running pipelines may take together, by estimate from their modes' files
   * (default none: only maxPipelines). A direction whose pipeline alone takes more is refused (503).
   */
  maxMemoryMb?: number
}

export const DEFAULT_MODES_DIR = '/usr/share/apertium/modes'

/** Creates the Apertium translator ("apertium"); nothing is started until the first translation. */
export function createApertium (options: ApertiumOptions = {}): Translator {
  const modesDir = options.modesDir ?? DEFAULT_MODES_DIR
  const pipelines = new PipelineSet({
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    idleMs: options.idleMs ?? 10 * 60_000,
    maxPending: options.maxPending ?? 20_000,
    maxPipelines: options.maxPipelines ?? 6,
    turnMs: options.turnMs ?? 2000,
    maxReplicas: options.maxReplicas ?? 1,
    ...(options.maxMemoryMb === undefined ? {} : { maxMemoryMb: options.maxMemoryMb })
  })
  const scanned: Promise<{ scan: ModeScan, pairs: DirectPairs }> = readModes(modesDir)
    .then(scan => ({ scan, pairs: directPairs(scan.modes) }))
  scanned.catch(() => {}) // reported by ready() and languages()
  let pairList: Promise<LanguagePair[]> | undefined
  let closed = false
  // pipelines are process groups of their own: they do not die with us unless killed
  const onExit = (): void => pipelines.killAll()
  process.on('exit', onExit)

  const pairs = async (): Promise<DirectPairs> => {
    try {
      return (await scanned).pairs
    } catch {
      return new Map()
    }
  }
  /** The pairs, or an ApertiumModesError saying what is wrong with the modes folder. */
  const usablePairs = async (): Promise<DirectPairs> => {
    let scan: ModeScan
    let found: DirectPairs
    try {
      ({ scan, pairs: found } = await scanned)
    } catch (error) {
      throw new ApertiumModesError(modesDir, folderProblem(error), `cannot read modes in ${modesDir} (${(error as Error).message})`)
    }
    if (scan.modes.length === 0) throw new ApertiumModesError(modesDir, 'holds no usable modes', `no usable modes in ${modesDir}`)
    return found
  }

  return {
    name: 'apertium',
    supportsFormality: () => false,

    languages () {
      pairList ??= usablePairs().then(listPairs)
      return pairList
    },

    async translate (call: TranslateCall, signal: AbortSignal): Promise<string[]> {
      if (closed) throw new ServiceUnavailableError('apertium is shutting down')
      signal.throwIfAborted()
      const chain = findChain(await pairs(), call.from, call.to)
      if (!chain) throw new UnsupportedPairError([{ from: call.from, to: call.to }])
      if (call.segments.length === 0) return []
      const legs = await Promise.all(chain.modes.map(mode => pipelines.get(mode)))
      return translateSegments(call.segments, legs, signal)
    },

    async ready () {
      await usablePairs()
    },

    async close () {
      closed = true
      process.off('exit', onExit)
      pipelines.close()
    }
  }
}

/** Why the modes folder could not be read, in words. */
function folderProblem (error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT': return 'does not exist'
    case 'ENOTDIR': return 'is not a folder'
    case 'EACCES':
    case 'EPERM': return 'cannot be read by this process (permission denied)'
    default: return `cannot be read (${(error as Error).message})`
  }
}
