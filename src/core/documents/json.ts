/**
 * Documents whose value is structured: an object or array given as such (string leaves are
 * documents of their own), or application/json given as a JSON string (its string values are
 * spliced back by position, so keys, numbers, spacing and key order stay byte for byte).
 *
 * In application/json, a key starting with `@` holds metadata, not a message: ARB's `@key`
 * (a message's description and placeholders, whose `type` and `format` gen-l10n reads as Dart
 * names) and `@@locale`, JSON-LD's `@context`, `@type`, `@id`. Its value is kept whole.
 */
import { invalidField, type FieldPath } from '../../errors.js'
import type { StringDocument } from './skeleton.js'

/** A document value split into segments, rebuilt in the input's shape. */
export interface SegmentedDocument {
  segments: string[]
  /** `target`: the language translated into, for formats that name it (gettext); absent for same-language work. */
  rebuild: (translated: string[], target?: string) => unknown
}

/** A string leaf as a document; `path` (called only for an error) is where the leaf is in the request. */
type LeafDocument = (text: string, path: () => FieldPath) => StringDocument

/** Whether an object's key holds metadata (kept whole) rather than messages. */
const isMetadataKey = (key: string): boolean => key.startsWith('@')

/** Deeper values are refused (400) rather than walked: rebuilding recurses once per level. */
const MAX_DEPTH = 500

/** A path built while walking, linked to its parent so that going down costs nothing; made an array only for an error. */
interface Step { parent: Step | undefined, key: string | number }

function pathOf (base: FieldPath, step: Step | undefined): FieldPath {
  const keys: Array<string | number> = []
  for (let s = step; s !== undefined; s = s.parent) keys.push(s.key)
  return [...base, ...keys.reverse()]
}

/** Joins leaf documents into one: their segments in order, each rebuilt from its own slice. */
function joined (leaves: readonly StringDocument[], assemble: (rebuilt: string[]) => unknown): SegmentedDocument {
  return {
    segments: leaves.flatMap(leaf => leaf.segments),
    rebuild: (translated, target) => {
      const total = leaves.reduce((n, leaf) => n + leaf.segments.length, 0)
      if (translated.length !== total) throw new Error(`expected ${total} translated segments, got ${translated.length}`)
      let at = 0
      return assemble(leaves.map(leaf => {
        const slice = translated.slice(at, at + leaf.segments.length)
        at += leaf.segments.length
        return leaf.rebuild(slice, target)
      }))
    }
  }
}

/** An object or array whose string leaves are documents; other leaves pass through, and with `metadata` so does the value of an `@` key. */
export function structuredDocument (value: object, leaf: LeafDocument, path: FieldPath, { metadata = false } = {}): SegmentedDocument {
  const kept = (key: string): boolean => metadata && isMetadataKey(key)
  const leaves: StringDocument[] = []
  const collect = (v: unknown, at: Step | undefined, depth: number): void => {
    if (depth > MAX_DEPTH) throw invalidField(pathOf(path, at), `is nested deeper than ${MAX_DEPTH} levels`)
    if (typeof v === 'string') leaves.push(leaf(v, () => pathOf(path, at)))
    else if (Array.isArray(v)) v.forEach((item, i) => collect(item, { parent: at, key: i }, depth + 1))
    else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) if (!kept(key)) collect(item, { parent: at, key }, depth + 1)
    } else if (typeof v !== 'number' && typeof v !== 'boolean' && v !== null) throw invalidField(pathOf(path, at), `must be a string, number, boolean, null, object or array, not ${typeof v}`)
  }
  collect(value, undefined, 0)
  return joined(leaves, rebuilt => {
    let k = 0
    const copy = (v: unknown): unknown => {
      if (typeof v === 'string') return rebuilt[k++]
      if (Array.isArray(v)) return v.map(copy)
      if (v === null || typeof v !== 'object') return v
      const out = {}
      // defineProperty, so a "__proto__" key stays a key
      for (const [key, item] of Object.entries(v)) Object.defineProperty(out, key, { value: kept(key) ? item : copy(item), enumerable: true, writable: true, configurable: true })
      return out
    }
    return copy(value)
  })
}

/** The index after the string literal of valid JSON text starting at `start`. */
function stringEnd (json: string, start: number): number {
  let j = start + 1
  while (json[j] !== '"') j += json[j] === '\\' ? 2 : 1
  return j + 1
}

/** The index after the string, object or array of valid JSON text at `start`; `start` for a number, boolean or null (they hold no string). */
function valueEnd (json: string, start: number): number {
  if (json[start] === '"') return stringEnd(json, start)
  if (json[start] !== '{' && json[start] !== '[') return start
  let depth = 0
  for (let i = start; ; i++) {
    const c = json[i]
    if (c === '"') i = stringEnd(json, i) - 1
    else if (c === '{' || c === '[') depth++
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1
  }
}

/** Source ranges of the string literals of valid JSON text that are values, not keys nor in a metadata key's value. */
function stringValues (json: string): Array<{ start: number, end: number }> {
  const values: Array<{ start: number, end: number }> = []
  for (let i = 0; i < json.length; i++) {
    if (json[i] !== '"') continue
    const end = stringEnd(json, i)
    let k = end
    while (k < json.length && ' \t\n\r'.includes(json[k]!)) k++
    if (json[k] !== ':') values.push({ start: i, end })
    else if (isMetadataKey(JSON.parse(json.slice(i, end)) as string)) {
      k++
      while (' \t\n\r'.includes(json[k]!)) k++
      i = valueEnd(json, k) - 1
      continue
    }
    i = end - 1
  }
  return values
}

/** application/json given as JSON text: string values translated, the text otherwise kept. */
export function jsonTextDocument (json: string, leaf: LeafDocument, path: FieldPath): SegmentedDocument {
  try {
    JSON.parse(json)
  } catch (err) {
    throw invalidField(path, `is not valid JSON: ${(err as Error).message}`)
  }
  const literals = stringValues(json).map(range => ({ ...range, value: JSON.parse(json.slice(range.start, range.end)) as string }))
  return joined(literals.map(l => leaf(l.value, () => path)), rebuilt => {
    let out = ''
    let at = 0
    literals.forEach((l, i) => {
      const value = rebuilt[i]!
      out += json.slice(at, l.start) + (value === l.value ? json.slice(l.start, l.end) : JSON.stringify(value))
      at = l.end
    })
    return out + json.slice(at)
  })
}
