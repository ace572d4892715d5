/**
 * What a document costs to work on, estimated without working on it: where its work runs
 * (inline or by the document runner) and whether its text may be over the limit. A value held
 * where the runner works (held.ts) carries the figures measured where it was parsed.
 */
import { HeldValue } from './held.js'
import type { MimeType } from './mime.js'

/**
 * Estimated cost units (about a microsecond of segmenting each) a document may have to be worked
 * inline, and a request's inline work in all (a document read inline is rebuilt inline: both
 * count): beyond, its documents go to the document runner.
 */
export const INLINE_COST = 2000
export const LANE_INLINE_COST = 10_000
/**
 * Documents estimated above this (about 100 ms of work) are heavy: the runner may keep them from
 * its last free thread, kept for light work. 70 KB of prose is light; 45,000 characters of
 * pathological Markdown are not.
 */
export const LIGHT_COST = 100_000

/** Cost units of one character, and of each run boundary (line, tag, key), by format. */
const CHAR_COST: Record<MimeType, number> = { 'text/plain': 1, 'text/html': 1, 'text/markdown': 10, 'application/json': 1, 'application/x-subrip': 1, 'text/vtt': 1, 'text/x-gettext-translation': 2, 'application/xliff+xml': 2, 'application/vnd.android.strings+xml': 2, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 10, 'application/vnd.openxmlformats-officedocument.presentationml.presentation': 10, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 10, 'application/vnd.oasis.opendocument.text': 10, 'application/vnd.oasis.opendocument.spreadsheet': 10, 'application/vnd.oasis.opendocument.presentation': 10, 'application/epub+zip': 10 }
const RUN_COST = 25

/** Cost of a string leaf, counted only up to `limit` (the caller needs no more). */
function stringCost (text: string, mime: MimeType, limit: number): number {
  const perChar = CHAR_COST[mime]
  let cost = RUN_COST
  for (let i = 0; i < text.length && cost <= limit; i++) {
    const c = text.charCodeAt(i)
    // line breaks end runs everywhere; tags in HTML, string literals in JSON text
    cost += perChar + (c === 10 || (c === 60 && mime === 'text/html') || (c === 34 && mime === 'application/json') ? RUN_COST : 0)
  }
  return cost
}

/** Estimates already made, by object value: a request's reading and rebuilding estimate the same value. */
const estimated = new WeakMap<object, { mime: MimeType, limit: number, cost: number }>()

/** The estimated cost of a document value, up to just past `limit`. */
export function documentCost (value: unknown, mime: MimeType, limit = LIGHT_COST): number {
  if (value instanceof HeldValue) return value.cost
  if (value === null || typeof value !== 'object') return estimateCost(value, mime, limit)
  const known = estimated.get(value)
  if (known !== undefined && known.mime === mime && known.limit === limit) return known.cost
  const cost = estimateCost(value, mime, limit)
  estimated.set(value, { mime, limit, cost })
  return cost
}

function estimateCost (value: unknown, mime: MimeType, limit: number): number {
  const leaf = mime === 'application/json' && typeof value !== 'string' ? 'text/plain' : mime
  let cost = 0
  const stack: unknown[] = [value]
  while (stack.length > 0 && cost <= limit) {
    const v = stack.pop()
    if (typeof v === 'string') cost += stringCost(v, leaf, limit - cost)
    else if (Array.isArray(v)) {
      for (let i = 0; i < v.length && cost <= limit; i++) {
        cost += 5
        stack.push(v[i])
      }
    } else if (v !== null && typeof v === 'object') {
      // for...in rather than Object.values: no array of 100,000 values for a large object
      for (const key in v) {
        cost += 5
        stack.push((v as Record<string, unknown>)[key])
        if (cost > limit) break
      }
    }
  }
  return cost
}

/**
 * Characters in the string leaves of a value, counted up to just past `limit`: an upper bound of
 * its text (markup included).
 */
export function rawLength (value: unknown, limit: number): number {
  if (value instanceof HeldValue) return value.rawLength
  let total = 0
  const stack: unknown[] = [value]
  while (stack.length > 0 && total <= limit) {
    const v = stack.pop()
    if (typeof v === 'string') total += v.length
    else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push(v[i])
    // for...in rather than Object.values: no array of 100,000 values for a large object
    else if (v !== null && typeof v === 'object') for (const key in v) stack.push((v as Record<string, unknown>)[key])
  }
  return total
}
