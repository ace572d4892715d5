/** DeepL language codes as BCP 47 tags, the pairs DeepL's language lists allow, and the codes a request is sent with. */
import type { Language } from 'deepl-node'
import type { LanguagePair } from '../../core/ports.js'
import { own } from '../../lib/own.js'

/**
 * DeepL refuses the bare targets "EN" and "PT" (deprecated in favour of regional ones), yet clients
 * ask for "en" and "pt". We list the base too and send it as the variant most readers expect.
 * Any other base DeepL only lists regionally gets its first listed region.
 */
export const BASE_TARGET: Readonly<Record<string, string>> = { en: 'en-US', pt: 'pt-PT' }

export interface TargetInfo {
  /** The code DeepL listed, as deepl-node standardized it ("en-US", "zh-HANS"). */
  code: string
  supportsFormality: boolean | undefined
}

export interface LanguageList {
  pairs: LanguagePair[]
  /** By canonical BCP 47 tag, base tags added for regional-only languages included. */
  targets: Map<string, TargetInfo>
}

/** The canonical BCP 47 form of a code, or undefined when it is not a well-formed tag. */
export function toTag (code: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(code)[0]
  } catch {
    return undefined
  }
}

export function baseOf (tag: string): string {
  return tag.split('-')[0]!.toLowerCase()
}

/** What DeepL's /v2/languages lists became: every source × every target of another base language. */
export function buildList (sources: readonly Language[], targets: readonly Language[]): LanguageList {
  const sourceTags = [...new Set(sources.map(l => toTag(l.code)).filter(t => t !== undefined))]
  const byTag = new Map<string, TargetInfo>()
  for (const l of targets) {
    const tag = toTag(l.code)
    if (tag !== undefined && !byTag.has(tag)) byTag.set(tag, { code: l.code, supportsFormality: l.supportsFormality })
  }
  for (const tag of [...byTag.keys()]) {
    const base = baseOf(tag)
    if (byTag.has(base)) continue
    const preferred = own(BASE_TARGET, base)
    const info = (preferred === undefined ? undefined : byTag.get(preferred)) ?? byTag.get(tag)!
    byTag.set(base, info)
  }
  const pairs: LanguagePair[] = []
  for (const from of sourceTags) {
    for (const to of byTag.keys()) {
      if (baseOf(from) !== baseOf(to)) pairs.push({ from, to })
    }
  }
  return { pairs, targets: byTag }
}

/** The target entry a tag stands for: itself, or its base language ("de-AT" -> "de"). */
export function targetInfo (tag: string, list: LanguageList | undefined): TargetInfo | undefined {
  if (list === undefined) return undefined
  const canonical = toTag(tag) ?? tag
  return list.targets.get(canonical) ?? list.targets.get(baseOf(canonical))
}

/** The target code to send; before the list is known, only the bare en/pt are rewritten. */
export function targetCode (tag: string, list: LanguageList | undefined): string {
  const known = targetInfo(tag, list)
  if (known !== undefined) return known.code
  const canonical = toTag(tag) ?? tag
  return own(BASE_TARGET, canonical) ?? canonical
}

/** DeepL's source languages are base languages; "und" lets DeepL detect it. */
export function sourceCode (tag: string): string | null {
  const base = baseOf(tag)
  return base === 'und' || base === '' ? null : base
}
