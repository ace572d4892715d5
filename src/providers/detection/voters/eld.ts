/** eld (Efficient Language Detector, n-gram model of 60 languages) as a voter. */
import { allowedAnswer, tagOf } from '../codes.js'
import type { Voter } from '../voter.js'

interface EldResult { language: string, getScores: () => Record<string, number> }
interface Eld { detect: (text: string) => EldResult, info: () => { Languages: Record<number, string> } }

/** Loads eld's large n-gram database (about 70 MB of heap) and wraps it as a voter. */
export async function loadEld (): Promise<Voter> {
  const { eld } = await import('eld/large') as unknown as { eld: Eld }
  const codes = Object.values(eld.info().Languages)
  // eld's "ku" is Kurdish in Arabic script, i.e. Sorani
  const tags = new Map(codes.map(code => [code, code === 'ku' ? 'ckb' : tagOf(code) ?? code]))
  return {
    name: 'eld',
    answers: [...new Set(tags.values())],
    top (text, allowedBases) {
      const result = eld.detect(text)
      if (result.language === '') return undefined
      const tag = tags.get(result.language)
      if (allowedBases === undefined || (tag !== undefined && allowedAnswer(tag, allowedBases))) return tag
      // scores come best first
      for (const code of Object.keys(result.getScores())) {
        const other = tags.get(code)
        if (other !== undefined && allowedAnswer(other, allowedBases)) return other
      }
      return undefined
    }
  }
}
