/** What is measured on a JSON body's text or value before it is used: its nesting, and whether a Content-Type is JSON. */

/** Deepest nesting a JSON body may have (document values are limited to 500 levels further in). */
export const MAX_BODY_DEPTH = 512

/**
 * The deepest nesting of brackets in a JSON text (strings skipped): one pass over the characters,
 * a few milliseconds for a MiB, where walking the parsed value takes tens for 100,000 keys. For a
 * valid JSON text it is one more than the depth `tooDeep` counts for the deepest object.
 */
export function textDepth (text: string): number {
  let depth = 0
  let deepest = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // a string: to its closing quote, over escapes
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (d === 0x5c) i++
        else if (d === 0x22) break
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return deepest
}

/** The path of the first place in `body` nested deeper than `max`, if any (iterative: no stack to overflow). */
export function tooDeep (body: unknown, max: number): string[] | undefined {
  // only nested objects are kept, with how they were reached; a body may hold 100,000 scalars,
  // which cost a look each and nothing more (no entries arrays, no index strings)
  const values: object[] = []
  const depths: number[] = []
  const parents: number[] = []
  const keys: Array<string | number> = []
  const pending: number[] = []
  if (body === null || typeof body !== 'object') return undefined
  values.push(body); depths.push(0); parents.push(-1); keys.push(''); pending.push(0)
  while (pending.length > 0) {
    const at = pending.pop()!
    const value = values[at]!
    const depth = depths[at]!
    if (depth >= max) {
      const path: string[] = []
      for (let i = at; i > 0; i = parents[i]!) path.push(String(keys[i]!))
      return path.reverse()
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i]
        if (child === null || typeof child !== 'object') continue
        values.push(child); depths.push(depth + 1); parents.push(at); keys.push(i); pending.push(values.length - 1)
      }
    } else {
      // a parsed JSON body has no inherited enumerable keys
      for (const key in value) {
        const child: unknown = (value as Record<string, unknown>)[key]
        if (child === null || typeof child !== 'object') continue
        values.push(child); depths.push(depth + 1); parents.push(at); keys.push(key); pending.push(values.length - 1)
      }
    }
  }
  return undefined
}

/** Whether a Content-Type is JSON (application/json, or application/...+json), with or without parameters. */
export function isJsonType (type: string): boolean {
  return /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)
}
