import { beforeAll, describe, expect, it } from 'vitest'
import { detectLanguage, type DetectResult } from '../../../../src/core/detection/policy.js'
import { ValidationError, type FieldPath } from '../../../../src/errors.js'
import { createDetector } from '../../../../src/providers/detector/index.js'
import type { Detector } from '../../../../src/core/ports.js'

let detector: Detector
beforeAll(async () => {
  detector = createDetector()
  await detector.ready()
})

const ENGLISH = 'The weather is lovely today, so we are going for a long walk in the park.'
const GERMAN = 'Das Wetter ist heute schön, deshalb machen wir einen langen Spaziergang im Park.'
const FRENCH = 'Il fait très beau aujourd\'hui, alors nous allons faire une longue promenade.'
// one word that Croatian, Bosnian and Serbian share: the detector is unsure between them
const SHARED_WORD = 'Postavke'

async function validationPath (run: () => Promise<unknown>): Promise<FieldPath | undefined> {
  try {
    await run()
  } catch (error) {
    if (error instanceof ValidationError) return error.errors?.[0]?.path
    throw error
  }
  return undefined
}

describe('detectLanguage without options', () => {
  it('answers the language with a confidence in [0, 1] and at most five alternatives, best first, without the answer', async () => {
    const result = await detectLanguage(ENGLISH, {}, detector)
    expect(result.language).toBe('en')
    expect(result.confidence).toBeGreaterThan(0.9)
    expect(result.confidence).toBeLessThanOrEqual(1)
    expect(result.alternatives.length).toBeLessThanOrEqual(5)
    expect(result.alternatives.map(a => a.language)).not.toContain('en')
    const confidences = result.alternatives.map(a => a.confidence)
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a))
  })

  it('answers "und" with confidence 0 for text without letters', async () => {
    expect(await detectLanguage('12 345 — 67,89 %', {}, detector)).toEqual({ language: 'und', confidence: 0, alternatives: [] })
  })
})

describe('max_chars', () => {
  it('reads only the first max_chars characters', async () => {
    const text = `${FRENCH} ${GERMAN} ${GERMAN} ${GERMAN}`
    expect((await detectLanguage(text, {}, detector)).language).toBe('de')
    expect((await detectLanguage(text, { maxChars: FRENCH.length }, detector)).language).toBe('fr')
  })

  it('defaults to 10000 characters', async () => {
    const text = `${'12345 '.repeat(1700)}${GERMAN}`
    expect(text.length).toBeGreaterThan(10_000)
    // the German sentence starts after character 10000: what is read has no letters
    expect((await detectLanguage(text, {}, detector)).language).toBe('und')
    expect((await detectLanguage(text, { maxChars: 20_000 }, detector)).language).toBe('de')
  })

  it('counts characters, not UTF-16 units', async () => {
    const text = `${'😀'.repeat(5)}${GERMAN}`
    expect((await detectLanguage(text, { maxChars: 5 }, detector)).language).toBe('und')
    expect((await detectLanguage(text, { maxChars: 5 + GERMAN.length }, detector)).language).toBe('de')
  })

  it('rejects a max_chars below 1', async () => {
    expect(await validationPath(async () => await detectLanguage(ENGLISH, { maxChars: 0 }, detector))).toEqual(['max_chars'])
  })
})

describe('static', () => {
  it('answers the mapped language with confidence 1 when the whole trimmed text matches a key, case-insensitively', async () => {
    const result = await detectLanguage('  ACME Widget  ', { static: { 'acme widget': 'de-CH' } }, detector)
    expect(result).toEqual({ language: 'de-CH', confidence: 1, alternatives: [] })
  })

  it('does not apply to text that only contains the key', async () => {
    const result = await detectLanguage(`${ENGLISH} ACME Widget`, { static: { 'acme widget': 'de' } }, detector)
    expect(result.language).toBe('en')
  })

  it('canonicalizes the mapped tag', async () => {
    expect((await detectLanguage('ok', { static: { OK: 'EN-gb' } }, detector)).language).toBe('en-GB')
  })

  it('rejects a malformed tag, pointing at the key as given', async () => {
    expect(await validationPath(async () => await detectLanguage(ENGLISH, { static: { 'a/b~c': 'not a tag' } }, detector))).toEqual(['static', 'a/b~c'])
  })
})

describe('min_chars', () => {
  it('counts letters only: digits, whitespace and punctuation do not count', async () => {
    const text = 'Hi! 2024-01-01, 42 %'
    expect(await detectLanguage(text, { minChars: 3 }, detector)).toEqual({ language: 'und', confidence: 0, alternatives: [] })
    expect((await detectLanguage(text, { minChars: 2 }, detector)).language).not.toBe('und')
  })

  it('answers source_hint with confidence 0 for too short text', async () => {
    expect(await detectLanguage('Ja', { minChars: 5, sourceHint: 'de' }, detector)).toEqual({ language: 'de', confidence: 0, alternatives: [] })
  })

  it('rejects a negative min_chars', async () => {
    expect(await validationPath(async () => await detectLanguage(ENGLISH, { minChars: -1 }, detector))).toEqual(['min_chars'])
  })
})

describe('source_hint', () => {
  it('wins when the detector is unsure and the hint is among the top candidates', async () => {
    const plain = await detectLanguage(SHARED_WORD, {}, detector)
    expect(plain.confidence).toBeLessThan(0.9)
    const other = plain.alternatives.find(a => a.language === 'bs' || a.language === 'sr-Latn')
    expect(other).toBeDefined()
    const hinted = await detectLanguage(SHARED_WORD, { sourceHint: other!.language }, detector)
    expect(hinted.language).toBe(other!.language)
    expect(hinted.confidence).toBeCloseTo(other!.confidence)
    expect(hinted.alternatives.map(a => a.language)).toContain(plain.language)
  })

  it('is answered in the client\'s form when it names a region of the detected language', async () => {
    const plain = await detectLanguage(SHARED_WORD, {}, detector)
    const other = plain.alternatives.find(a => a.language === 'bs')!
    expect(await detectLanguage(SHARED_WORD, { sourceHint: 'BS-ba' }, detector)).toMatchObject({ language: 'bs-BA', confidence: other.confidence })
  })

  it('does not win when the detector is sure', async () => {
    const sure = 'Preuzimanje datoteka nije uspjelo'
    const plain = await detectLanguage(sure, {}, detector)
    expect(plain.confidence).toBeGreaterThanOrEqual(0.9)
    expect(plain.alternatives.map(a => a.language)).toContain('bs')
    expect((await detectLanguage(sure, { sourceHint: 'bs' }, detector)).language).toBe(plain.language)
  })

  it('does not win when it is not among the candidates', async () => {
    expect((await detectLanguage(SHARED_WORD, { sourceHint: 'ja' }, detector)).language).toBe((await detectLanguage(SHARED_WORD, {}, detector)).language)
  })

  it('rejects a malformed tag', async () => {
    expect(await validationPath(async () => await detectLanguage(ENGLISH, { sourceHint: 'en_US' }, detector))).toEqual(['source_hint'])
  })
})

describe('min_confidence', () => {
  it('answers "und" when the best confidence is below it', async () => {
    const plain = await detectLanguage(SHARED_WORD, {}, detector)
    const result = await detectLanguage(SHARED_WORD, { minConfidence: 0.95 }, detector)
    expect(result.language).toBe('und')
    expect(result.confidence).toBe(0)
    // the detector's candidates are still reported
    expect(result.alternatives[0]?.language).toBe(plain.language)
  })

  it('answers source_hint when the best confidence is below it', async () => {
    expect((await detectLanguage(SHARED_WORD, { minConfidence: 0.95, sourceHint: 'ja' }, detector)).language).toBe('ja')
  })

  it('keeps a sure answer', async () => {
    expect((await detectLanguage(ENGLISH, { minConfidence: 0.8 }, detector)).language).toBe('en')
  })

  it('rejects a value above 1', async () => {
    expect(await validationPath(async () => await detectLanguage(ENGLISH, { minConfidence: 1.5 }, detector))).toEqual(['min_confidence'])
  })
})

describe('limit_results', () => {
  const SPANISH = 'El gato duerme tranquilamente en la casa de mi abuela.'

  it('answers only among the listed languages', async () => {
    expect((await detectLanguage(SPANISH, {}, detector)).language).toBe('es')
    const result = await detectLanguage(SPANISH, { limitResults: ['pt', 'it'] }, detector)
    expect(['pt', 'it']).toContain(result.language)
    for (const alternative of result.alternatives) expect(['pt', 'it']).toContain(alternative.language)
  })

  it('answers in the client\'s tags', async () => {
    const result = await detectLanguage(SPANISH, { limitResults: ['es-MX', 'pt-BR'] }, detector)
    expect(result.language).toBe('es-MX')
    expect(result.alternatives.map(a => a.language)).toEqual(['pt-BR'])
  })

  it('treats "no" as Norwegian Bokmål', async () => {
    const text = 'Jeg heter Ola og bor i Oslo, og jeg liker å gå på tur i skogen.'
    expect((await detectLanguage(text, { limitResults: ['da', 'no'] }, detector)).language).toBe('no')
  })

  it('rejects a malformed tag, pointing at its index', async () => {
    expect(await validationPath(async () => await detectLanguage(ENGLISH, { limitResults: ['en', 'de', 'x y'] }, detector))).toEqual(['limit_results', 2])
  })
})

describe('no_override', () => {
  it('keeps the detector\'s answer over static and source_hint', async () => {
    const options = { static: { postavke: 'fr' }, sourceHint: 'bs', noOverride: true }
    const plain: DetectResult = await detectLanguage(SHARED_WORD, {}, detector)
    expect(await detectLanguage(SHARED_WORD, options, detector)).toEqual(plain)
  })

  it('still applies thresholds and limits', async () => {
    expect((await detectLanguage(SHARED_WORD, { minConfidence: 0.95, sourceHint: 'bs', noOverride: true }, detector)).language).toBe('und')
    expect((await detectLanguage('Ja', { minChars: 5, sourceHint: 'de', noOverride: true }, detector)).language).toBe('und')
    expect((await detectLanguage(GERMAN, { limitResults: ['nl', 'en'], noOverride: true }, detector)).language).not.toBe('de')
  })
})
