/**
 * Which modes translate a language pair: a direct mode when one exists, else two modes
 * through one intermediate language. Chains are chosen by expected quality, deterministically:
 * direct > via es > via ca > via en > via any other language (alphabetical).
 */
import type { LanguagePair } from '../../core/ports.js'
import { baseLanguage, canonicalTag, fallbackTags } from './language-tags.js'
import type { Mode } from './modes.js'

export interface ModeChain {
  from: string
  to: string
  /** One mode for a direct pair, two for a pivoted one. */
  modes: Mode[]
  /** The intermediate language of a pivoted chain. */
  via?: string
}

/** Direct pairs: source tag -> target tag -> mode. */
export type DirectPairs = Map<string, Map<string, Mode>>

const PIVOT_RANK = ['es', 'ca', 'en']

/** Whether mode `a` should serve `from` rather than mode `b` (explicit variants, then primary source, then name). */
function preferred (a: Mode, b: Mode, from: string): boolean {
  if (a.explicitTarget !== b.explicitTarget) return a.explicitTarget
  const aPrimary = a.from[0] === from
  if (aPrimary !== (b.from[0] === from)) return aPrimary
  return a.name < b.name
}

/** Indexes modes by the pairs they serve. */
export function directPairs (modes: readonly Mode[]): DirectPairs {
  const pairs: DirectPairs = new Map()
  for (const mode of modes) {
    for (const from of mode.from) {
      let targets = pairs.get(from)
      if (!targets) pairs.set(from, targets = new Map())
      const current = targets.get(mode.to)
      if (!current || preferred(mode, current, from)) targets.set(mode.to, mode)
    }
  }
  return pairs
}

function pivotRank (tag: string): number {
  const i = PIVOT_RANK.indexOf(tag)
  return i === -1 ? PIVOT_RANK.length : i
}

/** Intermediate languages between two tags, best first. Only plain languages pivot. */
function pivots (pairs: DirectPairs, from: string, to: string): string[] {
  if (baseLanguage(from) === baseLanguage(to)) return []
  const candidates: string[] = []
  for (const via of pairs.get(from)?.keys() ?? []) {
    if (via.includes('-') || via === baseLanguage(from) || via === baseLanguage(to)) continue
    if (pairs.get(via)?.has(to)) candidates.push(via)
  }
  return candidates.sort((a, b) => pivotRank(a) - pivotRank(b) || (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * The chain for a requested pair, or undefined when there is none. Tags may be any case;
 * a regional or variant tag falls back to its base when only the base exists
 * (`pt-BR` uses `es-pt_BR` when installed, else `es-pt`). A direct mode to the base beats
 * a pivot to the exact variant.
 */
export function findChain (pairs: DirectPairs, fromTag: string, toTag: string): ModeChain | undefined {
  const from = canonicalTag(fromTag)
  const to = canonicalTag(toTag)
  if (from === undefined || to === undefined) return undefined
  const candidates: Array<[string, string]> = []
  for (const t of fallbackTags(to)) for (const f of fallbackTags(from)) candidates.push([f, t])
  for (const [f, t] of candidates) {
    const mode = pairs.get(f)?.get(t)
    if (mode) return { from: f, to: t, modes: [mode] }
  }
  for (const [f, t] of candidates) {
    const via = pivots(pairs, f, t)[0]
    if (via !== undefined) return { from: f, to: t, via, modes: [pairs.get(f)!.get(via)!, pairs.get(via)!.get(t)!] }
  }
  return undefined
}

/** Every pair the modes serve, direct and pivoted, sorted. */
export function listPairs (pairs: DirectPairs): LanguagePair[] {
  const targets = new Set<string>()
  for (const map of pairs.values()) for (const to of map.keys()) targets.add(to)
  const list: LanguagePair[] = []
  for (const [from, direct] of pairs) {
    for (const to of targets) {
      if (direct.has(to) || pivots(pairs, from, to).length > 0) list.push({ from, to })
    }
  }
  return list.sort((a, b) => a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0)
}
