/**
 * What the compatible APIs list of languages: every language translated from, with the targets it
 * translates into, then every language only translated into (no targets), from core's translation use case.
 */
import type { Translation } from '../core/translation/index.js'

/** How long the list is kept before it is worked out again (engines' lists refresh in the background). */
const TTL_MS = 60_000

export interface ListedLanguage {
  code: string
  name: string
  /** Empty for a language only translated into. */
  targets: string[]
}

/** Every language with its targets (canonical BCP 47 tags), worked out at most once a minute. */
export function languagePairs (translation: () => Translation): () => Promise<ListedLanguage[]> {
  let kept: { at: number, list: ListedLanguage[] } | undefined
  return async () => {
    if (kept !== undefined && Date.now() - kept.at < TTL_MS) return kept.list
    const service = translation()
    const { source, target } = await service.languages()
    const list: ListedLanguage[] = []
    for (const from of source) {
      const targets: string[] = []
      for (const to of target) {
        if (to.tag !== from.tag && (await service.supported(from.tag, [to.tag])).supported) targets.push(to.tag)
      }
      list.push({ code: from.tag, name: from.name, targets })
    }
    const sources = new Set(source.map(l => l.tag))
    for (const to of target) if (!sources.has(to.tag)) list.push({ code: to.tag, name: to.name, targets: [] })
    kept = { at: Date.now(), list }
    return list
  }
}
