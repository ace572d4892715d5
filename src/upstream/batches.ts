/** What the translation adapters share: batches under count and size caps, answers checked and made canonical, engine codes as BCP 47. */
import { parseTagged, serializeTagged } from '../core/tagged.js'
import { UpstreamError } from '../errors.js'
import { own } from '../lib/own.js'

/** Splits items into consecutive batches of at most `maxCount` items and `maxSize` in `size` (a larger item goes alone). */
export function batches<T> (items: readonly T[], maxCount: number, maxSize: number, size: (item: T) => number): T[][] {
  const out: T[][] = []
  let current: T[] = []
  let total = 0
  for (const item of items) {
    const n = size(item)
    if (current.length > 0 && (current.length >= maxCount || total + n > maxSize)) {
      out.push(current)
      current = []
      total = 0
    }
    current.push(item)
    total += n
  }
  if (current.length > 0) out.push(current)
  return out
}

/**
 * Runs every batch at once (the RemoteService bounds how many are in flight) and joins the answers
 * in order. The first failure stops the other batches, so a failed call does not keep spending quota.
 */
export async function runBatches (parts: readonly string[][], signal: AbortSignal, run: (batch: string[], signal: AbortSignal) => Promise<string[]>): Promise<string[]> {
  if (parts.length === 1) return run(parts[0]!, signal)
  const stop = new AbortController()
  const both = AbortSignal.any([signal, stop.signal])
  const answers = await Promise.all(parts.map(async batch => {
    try {
      return await run(batch, both)
    } catch (err) {
      stop.abort(err)
      throw err
    }
  }))
  return answers.flat()
}

/** The inline tags of a tagged segment as a sorted list: what its translation must keep, neither lost nor repeated. */
function tagKeys (tagged: string): string {
  const keys: string[] = []
  for (const part of parseTagged(tagged)) if (part.type !== 'text') keys.push(`${part.type}:${part.id}`)
  return keys.sort().join(' ')
}

/**
 * An engine's answers in canonical tagged form (its HTML entities decoded, our escaping applied).
 * A wrong count or an answer whose tags differ from its segment's is a final UpstreamError: never a
 * mangled segment. Messages name positions only, never text.
 */
export function canonicalAnswers (service: string, segments: readonly string[], answers: readonly string[]): string[] {
  if (answers.length !== segments.length) {
    throw new UpstreamError(service, `answered ${answers.length} translations for ${segments.length} segments`)
  }
  return answers.map((answer, i) => {
    const parts = parseTagged(answer)
    if (tagKeys(answer) !== tagKeys(segments[i]!)) {
      throw new UpstreamError(service, `lost or repeated markup tags in the translation of segment ${i + 1} of ${segments.length}`)
    }
    return serializeTagged(parts)
  })
}

/** The canonical BCP 47 form of an engine's code (through `aliases` first), or undefined when it is not a valid tag. */
export function canonicalCode (code: string, aliases: Readonly<Record<string, string>> = {}): string | undefined {
  const tag = own(aliases, code) ?? code
  // Intl accepts "_" and a few other forms BCP 47 does not
  if (!/^[A-Za-z0-9-]{1,64}$/.test(tag)) return undefined
  try {
    return Intl.getCanonicalLocales(tag)[0]
  } catch {
    return undefined
  }
}

/**
 * Our tag -> the engine's code, for the codes an engine lists. When two codes give one tag
 * ("iw" and "he"), the one already written as the tag wins: it is the engine's current name.
 */
export function engineCodes (codes: Iterable<string>, aliases: Readonly<Record<string, string>> = {}): Map<string, string> {
  const map = new Map<string, string>()
  for (const code of codes) {
    const tag = canonicalCode(code, aliases)
    if (tag === undefined) continue
    const known = map.get(tag)
    if (known === undefined || (known !== tag && code === tag)) map.set(tag, code)
  }
  return map
}
