/** Which translator serves which language pair: the routing table behind translation and translate/locales. */
import type { LanguagePair, Translator } from '../../providers/types.js'
import { fallbackChain } from '../languages.js'

/** A translator and the engine tags to call it with for a requested pair. */
export interface Route {
  translator: Translator
  from: string
  to: string
}

interface Entry {
  translator: Translator
  pairs: Map<string, Set<string>>
  loadedAt: number
}

/** How long an engine's language list is trusted before it is asked again. */
const REFRESH_MS = 10 * 60_000

export class TranslatorCatalog {
  private entries: Entry[] = []
  private loading: Promise<void> | undefined

  constructor (readonly translators: readonly Translator[]) {}

  /** Loads (or refreshes when stale) every translator's pairs; an engine that fails to list has none for now. */
  async load (): Promise<void> {
    const stale = this.entries.length !== this.translators.length ||
      this.entries.some(e => Date.now() - e.loadedAt > REFRESH_MS)
    if (!stale) return
    this.loading ??= (async () => {
      this.entries = await Promise.all(this.translators.map(async translator => {
        let list: LanguagePair[] = []
        try {
          list = await translator.languages()
        } catch {
          // listed again at the next refresh
        }
        const pairs = new Map<string, Set<string>>()
        for (const { from, to } of list) {
          let set = pairs.get(from)
          if (!set) pairs.set(from, set = new Set())
          set.add(to)
        }
        return { translator, pairs, loadedAt: list.length > 0 ? Date.now() : 0 }
      }))
    })().finally(() => { this.loading = undefined })
    await this.loading
  }

  /** Translators able to serve from -> to, in preference order, with the most specific tags each knows. */
  routes (from: string, to: string): Route[] {
    const out: Route[] = []
    const fromChain = fallbackChain(from)
    const toChain = fallbackChain(to)
    for (const { translator, pairs } of this.entries) {
      let found: Route | undefined
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
    for (const { translator, pairs } of this.entries) {
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
