/**
 * Values held by the pool threads: a large request body is parsed on a pool thread, never on the
 * event loop, and its large values stay there. The event loop sees a HeldValue (core/documents/held.ts)
 * in their place whose `ref` is a HeldRef, hands it to pool tasks as it would the value, and gets
 * back JSON text (a JsonFragment) for what it must send, which goes into the answer as written.
 * The body's bytes are shared with every thread (a SharedArrayBuffer, not a copy), so a
 * thread that does not hold the parsed body any more (another one took the task, or it was
 * replaced) parses them again: what a thread holds is a cache, never the only copy.
 */
import secureJson from 'secure-json-parse'

/** What identifies a held value on any thread: its body (key and bytes) and its path in the body. */
export interface HeldRef {
  held: true
  key: string
  bytes: SharedArrayBuffer
  path: Array<string | number>
}

export function isHeldRef (value: unknown): value is HeldRef {
  return typeof value === 'object' && value !== null && (value as Partial<HeldRef>).held === true && (value as Partial<HeldRef>).bytes instanceof SharedArrayBuffer
}

/** The body's JSON text parsed as Fastify parses it (its prototype-poisoning checks included). */
export function parseJsonText (text: string): unknown {
  return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
}

/** On a pool thread: the bodies it parsed lately, by key, within a bound on their size. */
const bodies = new Map<string, { value: unknown, bytes: number, at: number }>()
const MAX_BODIES = 2
const MAX_BODY_BYTES = 2 * 1024 * 1024
const BODY_MS = 60_000

/** On a pool thread: keeps a parsed body for later tasks of its request. */
export function holdBody (key: string, value: unknown, bytes: number): void {
  const now = Date.now()
  bodies.delete(key)
  bodies.set(key, { value, bytes, at: now })
  let total = 0
  for (const entry of bodies.values()) total += entry.bytes
  for (const [k, entry] of bodies) {
    if (bodies.size <= 1 || (bodies.size <= MAX_BODIES && total <= MAX_BODY_BYTES && now - entry.at <= BODY_MS)) break
    bodies.delete(k)
    total -= entry.bytes
  }
}

/** On a pool thread: the value a HeldRef names, from the body held here or parsed again from its bytes. */
export function resolveHeld (ref: HeldRef): unknown {
  let entry = bodies.get(ref.key)
  if (entry === undefined) {
    const text = Buffer.from(ref.bytes).toString('utf8')
    holdBody(ref.key, parseJsonText(text), ref.bytes.byteLength)
    entry = bodies.get(ref.key)!
  } else {
    entry.at = Date.now()
  }
  let value = entry.value
  for (const step of ref.path) value = (value as Record<string | number, unknown>)[step]
  return value
}

/** On a pool thread: the JSON text of each held value (what an answer echoes). */
export function stringifyHeld (refs: HeldRef[]): string[] {
  return refs.map(ref => JSON.stringify(resolveHeld(ref)))
}
