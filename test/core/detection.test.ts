import { beforeAll, describe, expect, it } from 'vitest'
import { detectLanguage, type DetectResult } from '../../src/core/detection.js'
import { ValidationError } from '../../src/errors.js'
import { createDetector } from '../../src/providers/detection/index.js'
import type { Detector } from '../../src/providers/types.js'

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

function validationPointer (run: () => unknown): string | undefined {
  try {
    run()
  } catch (error) {
    if (error instanceof ValidationError) return error.errors?.[0]?.pointer
    throw error
  }
  return undefined
}

describe('detectLanguage without options', () => {
  it('answers the language with a confidence in [0, 1] and at most five alternatives, best first, without the answer', () => {
    const result = detectLanguage(ENGLISH, {}, detector)
    expect(result.language).toBe('en')
    expect(result.confidence).toBeGreaterThan(0.9)
    expect(result.confidence).toBeLessThanOrEqual(1)
    expect(result.alternatives.length).toBeLessThanOrEqual(5)
    expect(result.alternatives.map(a => a.language)).not.toContain('en')
    const confidences = result.alternatives.map(a => a.confidence)
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a))
  })

  it('answers "und" with confidence 0 for text without letters', () => {
    expect(detectLanguage('12 345 — 67,89 %', {}, detector)).toEqual({ language: 'und', confidence: 0, alternatives: [] })
  })
})

describe('max_chars', () => {
  it('reads only the first max_chars characters', () => {
    const text = `${FRENCH} ${GERMAN} ${GERMAN} ${GERMAN}`
    expect(detectLanguage(text, {}, detector).language).toBe('de')
    expect(detectLanguage(text, { max_chars: FRENCH.length }, detector).language).toBe('fr')
  })

  it('defaults to 10000 characters', () => {
    const text = `${'12345 '.repeat(1700)}${GERMAN}`
    expect(text.length).toBeGreaterThan(10_000)
    // the German sentence starts after character 10000: what is read has no letters
    expect(detectLanguage(text, {}, detector).language).toBe('und')
    expect(detectLanguage(text, { max_chars: 20_000 }, detector).language).toBe('de')
  })

  it('counts characters, not UTF-16 units', () => {
    const text = `${'😀'.repeat(5)}${GERMAN}`
    expect(detectLanguage(text, { max_chars: 5 }, detector).language).toBe('und')
    expect(detectLanguage(text, { max_chars: 5 + GERMAN.length }, detector).language).toBe('de')
  })

  it('rejects a max_chars below 1', () => {
    expect(validationPointer(() => detectLanguage(ENGLISH, { max_chars: 0 }, detector))).toBe('/max_chars')
  })
})

describe('static', () => {
  it('answers the mapped language with confidence 1 when the whole trimmed text matches a key, case-insensitively', () => {
    const result = detectLanguage('  ACME Widget  ', { static: { 'acme widget': 'de-CH' } }, detector)
    expect(result).toEqual({ language: 'de-CH', confidence: 1, alternatives: [] })
  })

  it('does not apply to text that only contains the key', () => {
    const result = detectLanguage(`${ENGLISH} ACME Widget`, { static: { 'acme widget': 'de' } }, detector)
    expect(result.language).toBe('en')
  })

  it('canonicalizes the mapped tag', () => {
    expect(detectLanguage('ok', { static: { OK: 'EN-gb' } }, detector).language).toBe('en-GB')
  })

  it('rejects a malformed tag, pointing at the escaped key', () => {
    expect(validationPointer(() => detectLanguage(ENGLISH, { static: { 'a/b~c': 'not a tag' } }, detector))).toBe('/static/a~1b~0c')
  })
})

describe('min_chars', () => {
  it('counts letters only: digits, whitespace and punctuation do not count', () => {
    const text = 'Hi! 2024-01-01, 42 %'
    expect(detectLanguage(text, { min_chars: 3 }, detector)).toEqual({ language: 'und', confidence: 0, alternatives: [] })
    expect(detectLanguage(text, { min_chars: 2 }, detector).language).not.toBe('und')
  })

  it('answers source_hint with confidence 0 for too short text', () => {
    expect(detectLanguage('Ja', { min_chars: 5, source_hint: 'de' }, detector)).toEqual({ language: 'de', confidence: 0, alternatives: [] })
  })

  it('rejects a negative min_chars', () => {
    expect(validationPointer(() => detectLanguage(ENGLISH, { min_chars: -1 }, detector))).toBe('/min_chars')
  })
})

describe('source_hint', () => {
  it('wins when the detector is unsure and the hint is among the top candidates', () => {
    const plain = detectLanguage(SHARED_WORD, {}, detector)
    expect(plain.confidence).toBeLessThan(0.9)
    const other = plain.alternatives.find(a => a.language === 'bs' || a.language === 'sr-Latn')
    expect(other).toBeDefined()
    const hinted = detectLanguage(SHARED_WORD, { source_hint: other!.language }, detector)
    expect(hinted.language).toBe(other!.language)
    expect(hinted.confidence).toBeCloseTo(other!.confidence)
    expect(hinted.alternatives.map(a => a.language)).toContain(plain.language)
  })

  it('is answered in the client\'s form when it names a region of the detected language', () => {
    const plain = detectLanguage(SHARED_WORD, {}, detector)
    const other = plain.alternatives.find(a => a.language === 'bs')!
    expect(detectLanguage(SHARED_WORD, { source_hint: 'BS-ba' }, detector)).toMatchObject({ language: 'bs-BA', confidence: other.confidence })
  })

  it('does not win when the detector is sure', () => {
    const sure = 'Preuzimanje datoteka nije uspjelo'
    const plain = detectLanguage(sure, {}, detector)
    expect(plain.confidence).toBeGreaterThanOrEqual(0.9)
    expect(plain.alternatives.map(a => a.language)).toContain('bs')
    expect(detectLanguage(sure, { source_hint: 'bs' }, detector).language).toBe(plain.language)
  })

  it('does not win when it is not among the candidates', () => {
    expect(detectLanguage(SHARED_WORD, { source_hint: 'ja' }, detector).language).toBe(detectLanguage(SHARED_WORD, {}, detector).language)
  })

  it('rejects a malformed tag', () => {
    expect(validationPointer(() => detectLanguage(ENGLISH, { source_hint: 'en_US' }, detector))).toBe('/source_hint')
  })
})

describe('min_confidence', () => {
  it('answers "und" when the best confidence is below it', () => {
    const plain = detectLanguage(SHARED_WORD, {}, detector)
    const result = detectLanguage(SHARED_WORD, { min_confidence: 0.95 }, detector)
    expect(result.language).toBe('und')
    expect(result.confidence).toBe(0)
    // the detector's candidates are still reported
    expect(result.alternatives[0]?.language).toBe(plain.language)
  })

  it('answers source_hint when the best confidence is below it', () => {
    expect(detectLanguage(SHARED_WORD, { min_confidence: 0.95, source_hint: 'ja' }, detector).language).toBe('ja')
  })

  it('keeps a sure answer', () => {
    expect(detectLanguage(ENGLISH, { min_confidence: 0.8 }, detector).language).toBe('en')
  })

  it('rejects a value above 1', () => {
    expect(validationPointer(() => detectLanguage(ENGLISH, { min_confidence: 1.5 }, detector))).toBe('/min_confidence')
  })
})

describe('limit_results', () => {
  const SPANISH = 'El gato duerme tranquilamente en la casa de mi abuela.'

  it('answers only among the listed languages', () => {
    expect(detectLanguage(SPANISH, {}, detector).language).toBe('es')
    const result = detectLanguage(SPANISH, { limit_results: ['pt', 'it'] }, detector)
    expect(['pt', 'it']).toContain(result.language)
    for (const alternative of result.alternatives) expect(['pt', 'it']).toContain(alternative.language)
  })

  it('answers in the client\'s tags', () => {
    const result = detectLanguage(SPANISH, { limit_results: ['es-MX', 'pt-BR'] }, detector)
    expect(result.language).toBe('es-MX')
    expect(result.alternatives.map(a => a.language)).toEqual(['pt-BR'])
  })

  it('treats "no" as Norwegian Bokmål', () => {
    const text = 'Jeg heter Ola og bor i Oslo, og jeg liker å gå på tur i skogen.'
    expect(detectLanguage(text, { limit_results: ['da', 'no'] }, detector).language).toBe('no')
  })

  it('rejects a malformed tag, pointing at its index', () => {
    expect(validationPointer(() => detectLanguage(ENGLISH, { limit_results: ['en', 'de', 'x y'] }, detector))).toBe('/limit_results/2')
  })
})

describe('no_override', () => {
  it('keeps the detector\'s answer over static and source_hint', () => {
    const options = { static: { postavke: 'fr' }, source_hint: 'bs', no_override: true }
    const plain: DetectResult = detectLanguage(SHARED_WORD, {}, detector)
    expect(detectLanguage(SHARED_WORD, options, detector)).toEqual(plain)
  })

  it('still applies thresholds and limits', () => {
    expect(detectLanguage(SHARED_WORD, { min_confidence: 0.95, source_hint: 'bs', no_override: true }, detector).language).toBe('und')
    expect(detectLanguage('Ja', { min_chars: 5, source_hint: 'de', no_override: true }, detector).language).toBe('und')
    expect(detectLanguage(GERMAN, { limit_results: ['nl', 'en'], no_override: true }, detector).language).not.toBe('de')
  })
})
