/**
 * limit_results restricts the answer, not the truth: a restricted answer's confidence is the
 * probability the detector gives that language among all it knows, so a Spanish sentence limited
 * to Portuguese and Italian is answered (one of them) without a claim of certainty.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { detectLanguage } from '../../../../src/core/detection/policy.js'
import { createDetector } from '../../../../src/providers/detector/index.js'
import type { Detector } from '../../../../src/core/ports.js'

let detector: Detector
beforeAll(async () => {
  detector = createDetector()
  await detector.ready()
})

const SPANISH = [
  'El gato duerme tranquilamente en la casa de mi abuela.',
  'El gobierno anunció ayer nuevas medidas para ayudar a las pequeñas empresas durante el invierno.',
  'Mañana vamos a la playa con los niños si no llueve.'
]
const PORTUGUESE = 'O governo anunciou ontem novas medidas para ajudar as pequenas empresas durante o inverno.'

const total = (r: { confidence: number, alternatives: Array<{ confidence: number }> }): number =>
  r.confidence + r.alternatives.reduce((sum, a) => sum + a.confidence, 0)

describe('limit_results confidences', () => {
  it('stay low when none of the allowed languages is the text\'s', async () => {
    for (const text of SPANISH) {
      const free = await detectLanguage(text, {}, detector)
      expect(free.language).toBe('es')
      const limited = await detectLanguage(text, { limitResults: ['pt', 'it'] }, detector)
      expect(['pt', 'it']).toContain(limited.language)
      expect(limited.confidence, text).toBeLessThan(0.5)
      // never more than what the unrestricted detection leaves to the languages that are not Spanish
      expect(limited.confidence, text).toBeLessThanOrEqual(1 - free.confidence + 1e-9)
      expect(total(limited)).toBeLessThanOrEqual(1 + 1e-9)
    }
  })

  it('stay high when the text\'s language is allowed', async () => {
    const limited = await detectLanguage(PORTUGUESE, { limitResults: ['pt', 'it'] }, detector)
    expect(limited.language).toBe('pt')
    expect(limited.confidence).toBeGreaterThan(0.9)
    const spanish = await detectLanguage(SPANISH[1]!, { limitResults: ['es-MX', 'pt-BR'] }, detector)
    expect(spanish.language).toBe('es-MX')
    expect(spanish.confidence).toBeGreaterThan(0.9)
  })

  it('make min_confidence and source_hint treat a restricted guess as the guess it is', async () => {
    expect((await detectLanguage(SPANISH[0]!, { limitResults: ['pt', 'it'], minConfidence: 0.5 }, detector)).language).toBe('und')
    const hinted = await detectLanguage(SPANISH[0]!, { limitResults: ['pt', 'it'], sourceHint: 'it' }, detector)
    expect(hinted.language).toBe('it')
  })

  it('a tag that names a script stands for its language in that script only (a probe got Cyrillic Serbian answered sr-Latn at 0.99999)', async () => {
    // none of the allowed is the text's language: whichever is answered, not with certainty
    const cyrillic = await detectLanguage('Данас је леп дан и идемо у парк.', { limitResults: ['sr-Latn', 'ru'] }, detector)
    expect(cyrillic.confidence).toBeLessThan(0.5)
    const traditional = await detectLanguage('我今天很高興，因為天氣很好。', { limitResults: ['zh-Hans', 'ja'] }, detector)
    expect(traditional.confidence).toBeLessThan(0.5)
    // a tag without a script stands for the language in any script; the right script is answered as asked
    expect((await detectLanguage('Данас је леп дан и идемо у парк.', { limitResults: ['sr', 'ru'] }, detector)).language).toBe('sr')
    expect((await detectLanguage('Danas je lep dan i idemo u park sa decom.', { limitResults: ['sr-Latn', 'ru'] }, detector)).language).toBe('sr-Latn')
    expect((await detectLanguage('我今天很高興，因為天氣很好。', { limitResults: ['zh', 'ja'] }, detector)).language).toBe('zh')
  })

  it('a single allowed language is not certain either', async () => {
    const only = await detectLanguage(SPANISH[1]!, { limitResults: ['pt'] }, detector)
    expect(only.language).toBe('pt')
    expect(only.confidence).toBeLessThan(0.5)
  })
})
