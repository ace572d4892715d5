/**
 * Failures the fuzzing found whose cause lies in code other people own at the moment. Each is
 * matched precisely (operation, request and answer) so nothing else hides behind it; the fuzz test
 * counts them instead of failing and keeps an `it.fails` reproduction of each, which starts failing
 * (and asks for the entry to be removed) the day the cause is fixed.
 */
import type { FuzzCase } from './arbitraries.js'
import type { Answer } from './property.js'

export interface KnownFailure {
  id: string
  /** What happens, and where the cause is. */
  description: string
  /** Whether this case and answer are this failure. */
  matches: (c: FuzzCase, answer: Answer) => boolean
}

/** How deep `text` (a JSON document) nests, counted on its brackets outside strings. */
export function jsonDepth (text: string): number {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
    } else if (ch === '"') inString = true
    else if (ch === '[' || ch === '{') max = Math.max(max, ++depth)
    else if (ch === ']' || ch === '}') depth--
  }
  return max
}

/** None at the moment: the deep token body that answered 500 is fixed (src/http/auth/index.ts). */
export const KNOWN_FAILURES: KnownFailure[] = []

/** The known failure this answer is, if any. */
export function knownFailure (c: FuzzCase, answer: Answer): KnownFailure | undefined {
  return KNOWN_FAILURES.find(k => k.matches(c, answer))
}
