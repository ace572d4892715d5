/** Translates tagged segments along a route: one request per segment, every segment in flight at once. */
import { parseTagged, serializeTagged, type TaggedPart } from '../../tagged.js'
import type { Pipeline } from './pipeline.js'
import { decodeSegment, encodeSegment } from './stream-format.js'
import { tidy } from './tidy.js'

/** Whether a segment has anything to translate (a letter outside tags). */
function hasWords (parts: readonly TaggedPart[]): boolean {
  return parts.some(p => p.type === 'text' && /\p{L}/u.test(p.text))
}

/** One segment through every leg of the route; a pivot feeds each leg's answer to the next. */
async function translateSegment (segment: string, legs: readonly Pipeline[], signal: AbortSignal): Promise<string> {
  const source = parseTagged(segment)
  if (!hasWords(source)) return segment
  let parts = source
  for (const leg of legs) {
    const answer = await leg.request(encodeSegment(parts), signal)
    parts = tidy(decodeSegment(answer, parts), parts)
  }
  return serializeTagged(parts)
}

/**
 * Every segment, in order. The first failure (or the caller's abort) withdraws the segments
 * not yet sent, so a failed bulk job does not keep the pipelines busy.
 */
export async function translateSegments (segments: readonly string[], legs: readonly Pipeline[], signal: AbortSignal): Promise<string[]> {
  const job = new AbortController()
  const both = AbortSignal.any([signal, job.signal])
  try {
    return await Promise.all(segments.map(s => translateSegment(s, legs, both)))
  } catch (error) {
    job.abort(error)
    throw error
  }
}
