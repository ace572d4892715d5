/** What the compatible APIs list of languages: every source language with the targets it translates into, from core's translation use case. */
import type { Translation } from '../core/translation/index.js'

/** How long the list is kept before it is worked out again (engines' lists refresh in the background). */
const TTL_MS = 60_000

export interface SourceLanguage {
  code: string
  name: string
  targets: string[]
}

/** The source languages with their targets (canonical BCP 47 tags), worked out at most once a minute. */
export function languagePairs (translation: () => Translation): () => Promise<SourceLanguage[]> {
  let kept: { at: number, list: SourceLanguage[] } | undefined
  return async () => {
    if (kept !== undefined && Date.now() - kept.at < TTL_MS) return kept.list
    const service = translation()
    const { source, target } = await service.languages()
    const list: SourceLanguage[] = []
    for (const from of source) {
      const targets: string[] = []
      for (const to of target) {
        if (to.tag !== from.tag && (await service.supported(from.tag, [to.tag])).supported) targets.push(to.tag)
      }
      list.push({ code: from.tag, name: from.name, targets })
    }
    kept = { at: Date.now(), list }
    return list
  }
}
