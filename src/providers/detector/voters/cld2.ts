/** Google's Compact Language Detector 2 (native add-on from the `cld` package) as a voter. */
import { createRequire } from 'node:module'
import { allowedAnswer, tagOf } from '../codes.js'
import type { Voter } from '../voter.js'

interface Cld2Result { languages: Array<{ code: string, percent: number }> }
interface Cld2Binding {
  LANGUAGES: Record<string, string>
  /** (text, isPlainText, languageHint, encodingHint, tldHint, httpHint, bestEffort) */
  detect: (text: string, plain: boolean, language: string, encoding: string, tld: string, http: string, bestEffort: boolean) => Cld2Result
}

/** Loads the CLD2 binding directly: its synchronous call is cheaper than the package's promise wrapper. */
export async function loadCld2 (): Promise<Voter> {
  const require = createRequire(import.meta.url)
  // typed boundary: a native add-on has no type information
  const cld = require('cld/build/Release/cld.node') as Cld2Binding
  const tags = new Map<string, string>()
  for (const code of Object.values(cld.LANGUAGES)) {
    const tag = tagOf(code)
    if (tag !== undefined) tags.set(code, tag)
  }
  return {
    name: 'cld2',
    answers: [...new Set(tags.values())],
    top (text, allowedBases) {
      // best effort: answer even for short text CLD2 would otherwise call unreliable
      const result = cld.detect(text, true, '', '', '', '', true)
      for (const { code } of result.languages) {
        const tag = tags.get(code)
        if (tag !== undefined && (allowedBases === undefined || allowedAnswer(tag, allowedBases))) return tag
      }
      return undefined
    }
  }
}
