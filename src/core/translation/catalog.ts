/** Which translator serves which language pair: the routing table behind translation and translate/locales. */
import type { LanguagePair, Translator } from '../ports.js'
import { fallbackChain } from '../languages.js'

/** A translator and the engine tags to call it with for a requested pair. */
export interface TranslatorChoice {
  translator: Translator
  from: string
  to: string
}

interface Entry {
  pairs: Map<string, Set<string>>
  /** When the list was last fetched successfully (0: never). */
  loadedAt: number
  /** When a failed list is asked for again. */
  retryAt: number
  loading?: Promise<void> | undefined
  /** Why the last fetch of the list failed (cleared by one that succeeds). */
  failure?: unknown
}

export interface CatalogOptions {
  /** How long a language list is trusted before it is fetched again (default 1 hour). */
  refreshMs?: number
  /** How soon a list that could not be fetched is asked for again, in the background (default 30 s). */
  retryMs?: number
  /** How long a request waits for a first list before going on without that engine (default 10 s). */
  firstWaitMs?: number
}

export class TranslatorCatalog {
  private readonly entries: Map<Translator, Entry>
  private readonly refreshMs: number
  private readonly retryMs: number
  private readonly firstWaitMs: number
  private readonly timers = new Set<NodeJS.Timeout>()
  private closed = false

  constructor (readonly translators: readonly Translator[], options: CatalogOptions = {}) {
    this.entries = new Map(translators.map(t => [t, { pairs: new Map(), loadedAt: 0, retryAt: 0 }]))
    this.refreshMs = options.refreshMs ?? 60 * 60_000
    this.retryMs = options.retryMs ?? 30_000
    this.firstWaitMs = options.firstWaitMs ?? 10_000
  }

  /**
   * Fetches the lists that are due: stale ones are refreshed in the background (requests go on with
   * the list they have); an engine never listed yet is waited for, up to firstWaitMs.
   */
  async load (): Promise<void> {
    const now = Date.now()
    const first: Array<Promise<void>> = []
    for (const [translator, entry] of this.entries) {
      const due = entry.loadedAt === 0 ? now >= entry.retryAt : now - entry.loadedAt > this.refreshMs
      if (due && entry.loading === undefined) this.fetch(translator, entry)
      if (entry.loadedAt === 0 && entry.retryAt === 0 && entry.loading !== undefined) first.push(entry.loading)
    }
    if (first.length === 0) return
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.all(first),
      new Promise<void>(resolve => { timer = setTimeout(resolve, this.firstWaitMs) })
    ])
    clearTimeout(timer)
  }

  /** Stops background retries. */
  close (): void {
    this.closed = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
  }

  private fetch (translator: Translator, entry: Entry): void {
    entry.loading = (async () => {
      let list: LanguagePair[] = []
      try {
        list = await translator.languages()
        entry.failure = undefined
      } catch (error) {
        // kept as it was, and asked again below
        entry.failure = error
      }
      if (list.length > 0) {
        entry.pairs = pairMap(list)
        entry.loadedAt = Date.now()
        entry.retryAt = 0
        return
      }
      // an engine down at start is not lost for the process's life: ask again in the background
      entry.retryAt = Date.now() + this.retryMs
      if (this.closed) return
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        if (!this.closed && entry.loading === undefined) this.fetch(translator, entry)
      }, this.retryMs)
      timer.unref()
      this.timers.add(timer)
    })().finally(() => { entry.loading = undefined })
  }

  /** Why translators could not list their languages, the last time each was asked. */
  failures (): unknown[] {
    return [...this.entries.values()].filter(entry => entry.failure !== undefined).map(entry => entry.failure)
  }

  /** Translators able to serve from -> to, in preference order, with the most specific tags each knows. */
  choices (from: string, to: string): TranslatorChoice[] {
    const out: TranslatorChoice[] = []
    const fromChain = fallbackChain(from)
    const toChain = fallbackChain(to)
    for (const [translator, { pairs }] of this.entries) {
      let found: TranslatorChoice | undefined
      for (const f of fromChain) {
        const targets = pairs.get(f)
        if (!targets) continue
        const t = toChain.find(candidate => targets.has(candidate))
        if (t !== undefined) {
          found = { translator, from: f, to: t }
          break
        }
      }
      if (found) out.push(found)
    }
    return out
  }

  /** Every source (or target) tag with the services that take it, sorted by tag. */
  languages (side: 'source' | 'target'): Array<{ tag: string, services: string[] }> {
    const byTag = new Map<string, string[]>()
    for (const [translator, { pairs }] of this.entries) {
      const tags = side === 'source' ? [...pairs.keys()] : [...new Set([...pairs.values()].flatMap(s => [...s]))]
      for (const tag of tags) {
        const services = byTag.get(tag) ?? []
        if (!services.includes(translator.name)) services.push(translator.name)
        byTag.set(tag, services)
      }
    }
    return [...byTag].map(([tag, services]) => ({ tag, services })).sort((a, b) => a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0)
  }
}

function pairMap (list: readonly LanguagePair[]): Map<string, Set<string>> {
  const pairs = new Map<string, Set<string>>()
  for (const { from, to } of list) {
    let set = pairs.get(from)
    if (!set) pairs.set(from, set = new Set())
    set.add(to)
  }
  return pairs
}
