import { beforeAll, describe, expect, it } from 'vitest'
import { ServiceUnavailableError } from '../../../../src/errors.js'
import { createDetector } from '../../../../src/providers/detector/index.js'
import { loadVoters } from '../../../../src/providers/detector/voters/index.js'
import type { Voter } from '../../../../src/providers/detector/voter.js'
import type { Detector } from '../../../../src/core/ports.js'

let detector: Detector
let voters: Voter[]
beforeAll(async () => {
  detector = createDetector()
  ;[voters] = await Promise.all([loadVoters(), detector.ready()])
})

const SPANISH = 'El gato duerme tranquilamente en la casa de mi abuela.'

async function best (text: string, only?: string[]): Promise<string | undefined> {
  return (await detector.detect(text, only))[0]?.language
}

describe('createDetector', () => {
  it('rejects with ServiceUnavailableError until its models are loaded', async () => {
    const loading = createDetector({ voters: ['cld2'] })
    await expect(loading.detect(SPANISH)).rejects.toThrow(ServiceUnavailableError)
    await loading.ready()
  })

  it('detects common languages in sentences', async () => {
    expect(await best('The weather is lovely today, so we are going for a walk.')).toBe('en')
    expect(await best('Das Wetter ist heute schön, deshalb gehen wir spazieren.')).toBe('de')
    expect(await best('Il fait très beau aujourd\'hui, nous allons nous promener.')).toBe('fr')
    expect(await best(SPANISH)).toBe('es')
    expect(await best('Сегодня прекрасная погода, и мы идём гулять в парк.')).toBe('ru')
    expect(await best('Сьогодні чудова погода, і ми йдемо гуляти в парк.')).toBe('uk')
  })

  it('settles by script what the script settles', async () => {
    const settled: Array<[string, string]> = [['안녕하세요', 'ko'], ['これはテストです', 'ja'], ['Καλημέρα σας', 'el'],
      ['สวัสดีครับ', 'th'], ['Բարեւ ձեզ', 'hy'], ['გამარჯობა', 'ka']]
    for (const [text, language] of settled) {
      const [first] = await detector.detect(text)
      expect(first?.language).toBe(language)
      // Georgian's script is Mingrelian's too: on a word or two no voter's answer rules it out (ensemble.ts TINY_DISSENT)
      expect(first?.confidence).toBeGreaterThan(0.98)
    }
  })

  it('answers Traditional Chinese as zh-Hant and Simplified as zh', async () => {
    expect(await best('無法開啟檔案，請檢查權限設定。')).toBe('zh-Hant')
    expect(await best('无法打开文件，请检查权限设置。')).toBe('zh')
  })

  it('answers Latin Serbian as sr-Latn and Cyrillic Serbian as sr', async () => {
    expect(await best('Preuzimanje datoteka nije uspelo, pokušajte ponovo kasnije.')).toBe('sr-Latn')
    expect(await best('Преузимање датотека није успело, покушајте поново касније.')).toBe('sr')
  })

  it('tells the hard pairs apart on telling sentences', async () => {
    expect(await best('Preuzimanje datoteka nije uspjelo, pokušajte ponovno kasnije.')).toBe('hr')
    expect(await best('O ficheiro non se pode abrir porque está danado.')).toBe('gl')
    expect(await best('Jeg heter Ola og bor i Oslo, og jeg liker å gå på tur i skogen.')).toBe('nb')
    expect(await best('Jeg hedder Ole og bor i København, og jeg kan godt lide at gå ture.')).toBe('da')
  })

  it('reads common greetings and phrases of the big languages as theirs, not as a rare language (issue 31: "Hello world" was Nynorsk at 0.67)', async () => {
    const phrases: Array<[string, string]> = [
      ['Hello world', 'en'], ['Thank you', 'en'], ['Good morning', 'en'], ['Good night', 'en'], ['Thanks a lot', 'en'],
      ['Buenos días', 'es'], ['Muchas gracias', 'es'], ['Bonjour', 'fr'], ['Merci beaucoup', 'fr'], ['Guten Morgen', 'de'], ['Danke schön', 'de'],
      ['Buongiorno', 'it'], ['Grazie mille', 'it'], ['Bom dia', 'pt'], ['Muito obrigado', 'pt'], ['Доброе утро', 'ru'], ['Спасибо', 'ru'],
      ['Dank je wel', 'nl'], ['Dziękuję bardzo', 'pl']
    ]
    const wrong = []
    for (const [text, language] of phrases) {
      const got = await best(text)
      if (got !== language) wrong.push(`${text}: ${got}`)
    }
    expect(wrong).toEqual([])
    // a word or two the detector is unsure of is at least one of the big languages ("proton beam": Indonesian, not English)
    expect(['en', 'id', 'ms']).toContain(await best('proton beam'))
  })

  it('reads a lone greeting of a big language as its own, not as a rare language on a weak vote (issue 31: "Hi" was Tsonga, "Hello" Finnish)', async () => {
    const words: Array<[string, string]> = [['Hi', 'en'], ['Hello', 'en'], ['Thanks', 'en'], ['Merci', 'fr'], ['Bonjour', 'fr'],
      ['Hola', 'es'], ['Gracias', 'es'], ['Grazie', 'it'], ['Danke', 'de'], ['Obrigado', 'pt'], ['Привет', 'ru']]
    const wrong = []
    for (const [text, language] of words) {
      const got = await best(text)
      if (got !== language) wrong.push(`${text}: ${got}`)
    }
    expect(wrong).toEqual([])
  })

  it('reads a word said again as that lone word (issue 31: "Bye bye" was Luganda at 0.89, "Bye" English)', async () => {
    const pairs: Array<[string, string]> = [['Bye bye', 'Bye'], ['bye-bye!', 'bye'], ['Merci, merci', 'Merci'], ['Nein nein nein', 'Nein'], ['Hola hola', 'Hola']]
    for (const [repeated, lone] of pairs) expect(await detector.detect(repeated)).toEqual(await detector.detect(lone))
    expect(await best('Bye bye')).toBe('en')
    // two different words stay two words
    expect(await detector.detect('Bye now')).not.toEqual(await detector.detect('Bye'))
  })

  it('reads emoji and symbols as no language\'s: a text with them is read as without (a probe: "I love ❤️ teh cat." was Croatian at 0.73)', async () => {
    for (const [text, plain] of [
      ['I love ❤️ teh cat.', 'I love  teh cat.'] as const,
      ['Je t\'aime ❤️‍🔥', 'Je t\'aime '] as const,
      ['👍🏽 Danke schön', ' Danke schön'] as const,
      ['Good morning ☀️★', 'Good morning '] as const
    ]) {
      expect(await detector.detect(text), text).toEqual(await detector.detect(plain))
    }
    expect(await best('I love ❤️ teh cat.')).toBe('en')
    expect(await detector.detect('❤️🔥')).toEqual([])
  })

  it('returns calibrated confidences: in [0, 1], best first, summing to at most 1', async () => {
    for (const text of [SPANISH, 'Postavke', 'Hello', 'Terima kasih']) {
      const candidates = await detector.detect(text)
      expect(candidates.length).toBeGreaterThan(0)
      const confidences = candidates.map(c => c.confidence)
      expect(confidences).toEqual([...confidences].sort((a, b) => b - a))
      for (const c of confidences) expect(c >= 0 && c <= 1).toBe(true)
      expect(confidences.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1 + 1e-9)
    }
    expect((await detector.detect('Postavke'))[0]!.confidence).toBeLessThan(0.9)
  })

  it('restricts the candidates to `only`', async () => {
    const candidates = await detector.detect(SPANISH, ['pt', 'it'])
    expect(candidates.length).toBeGreaterThan(0)
    for (const c of candidates) expect(['pt', 'it']).toContain(c.language)
    expect(await best('Jeg heter Ola og bor i Oslo', ['no', 'sv'])).toBe('nb')
    expect(await best('無法開啟檔案', ['zh'])).toBe('zh-Hant')
  })

  it('answers among `only` even when none of them is written in the text\'s script', async () => {
    expect(['en', 'de']).toContain(await best('Привет, как дела?', ['en', 'de']))
  })

  it('answers nothing for text without letters', async () => {
    expect(await detector.detect('12 345 — 67,89 %')).toEqual([])
  })

  it('lists canonical tags only', () => {
    const languages = detector.languages()
    expect(languages).toEqual(expect.arrayContaining(['en', 'nb', 'he', 'id', 'sr-Latn', 'zh-Hant']))
    for (const deprecated of ['no', 'iw', 'in', 'sh', 'tl']) expect(languages).not.toContain(deprecated)
    for (const tag of languages) expect(Intl.getCanonicalLocales(tag)[0]).toBe(tag)
  })
})

describe('voters restricted by `only`', () => {
  it('each voter answers among the allowed languages or not at all', () => {
    for (const voter of voters) {
      const answer = voter.top(SPANISH, new Set(['pt', 'it']))
      if (answer !== undefined) expect(['pt', 'it']).toContain(answer)
    }
    // eld and fastText rank every language they know, so they always find an allowed one
    expect(voters.find(v => v.name === 'eld')!.top(SPANISH, new Set(['pt', 'it']))).toBeDefined()
    expect(voters.find(v => v.name === 'fasttext')!.top(SPANISH, new Set(['pt', 'it']))).toBeDefined()
  })

  it('each voter answers Spanish for Spanish when unrestricted', () => {
    for (const voter of voters) expect(voter.top(SPANISH)).toBe('es')
  })
})
