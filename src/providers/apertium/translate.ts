/**
 * Translates tagged segments along a chain: one request per segment (or per piece of a long
 * one), a bounded number of segments in flight at once, every request tagged with its client so
 * that a pipeline serves the clients waiting on it in turns.
 */
import { parseTagged, partsText, serializeTagged, type TaggedPart } from '../../core/tagged.js'
import { currentClient } from '../../lib/clients.js'
import type { Pipeline } from './pipeline.js'
import { decodeSegment } from './stream/decode.js'
import { encodeSegment } from './stream/encode.js'
import { joinAnswers, splitStream } from './stream/split.js'
import { tidy } from './tidy.js'

/**
 * Segments of one call in the pipelines at once: enough to keep a pipeline busy, so that a call of
 * any size holds at most this many places of its `maxPending`; the rest wait here.
 */
export const CALL_WINDOW = 256

/** Whether a segment has anything to translate (a letter outside tags). */
function hasWords (parts: readonly TaggedPart[]): boolean {
  return parts.some(p => p.type === 'text' && /\p{L}/u.test(p.text))
}

/** One segment through every leg of the chain; a pivot feeds each leg's answer to the next. */
async function translateSegment (segment: string, legs: readonly Pipeline[], signal: AbortSignal, turn: unknown): Promise<string> {
  const source = parseTagged(segment)
  if (!hasWords(source)) return segment
  let parts = source
  for (const leg of legs) {
    // a long segment goes in pieces, whose answers read as one
    const pieces = splitStream(encodeSegment(parts))
    const answers = await Promise.all(pieces.map(piece => leg.request(piece, signal, turn)))
    parts = tidy(decodeSegment(joinAnswers(pieces, answers), parts), parts)
  }
  // no word changed (a unit, a code, a name: "m" and a superscript "2"): the segment as it was, its
  // tags where they were; the encoding widens a tag inside a word to the whole word, which moved a
  // superscript onto its base ("m2" came back all plain)
  return partsText(parts) === partsText(source) ? segment : serializeTagged(parts)
}

/**
 * Every segment, in order, up to CALL_WINDOW of them in the pipelines at once (the next one goes
 * in as an answer comes back). The first failure (or the caller's abort) withdraws the segments
 * in flight and sends no more, so a failed bulk call does not keep the pipelines busy.
 */
export async function translateSegments (segments: readonly string[], legs: readonly Pipeline[], signal: AbortSignal): Promise<string[]> {
  const failed = new AbortController()
  const both = AbortSignal.any([signal, failed.signal])
  // the pipelines take the clients waiting on them in turns, a request of each at a time (a call of no known client is a client of its own)
  const turn = currentClient() ?? {}
  const out = new Array<string>(segments.length)
  let next = 0
  // each lane takes the next segment in order, so requests enter the pipelines in segment order
  const lane = async (): Promise<void> => {
    while (next < segments.length) {
      both.throwIfAborted()
      const i = next++
      out[i] = await translateSegment(segments[i]!, legs, both, turn)
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(CALL_WINDOW, segments.length) }, lane))
    return out
  } catch (error) {
    failed.abort(error)
    throw error
  }
}
