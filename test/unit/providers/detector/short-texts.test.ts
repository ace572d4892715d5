/** Short texts through POST /language/detect with the real detector (issue 31: "ok" was Polish, "Bye" Luganda). */
import { describe, expect, it } from 'vitest'
import { detectOverHttp } from './detect-over-http.js'

const detected = detectOverHttp()

describe('POST /language/detect on a word or two', () => {
  it('reads "ok" and "Bye" as English: under 4 letters one voter\'s slip no longer vetoes a language (eld answered Polish for "ok", CLD2 Luganda for "Bye")', async () => {
    const wrong = []
    for (const text of ['ok', 'OK', 'Ok', 'Bye', 'bye']) {
      const got = await detected(text)
      if (got !== 'en') wrong.push(`${text}: ${got}`)
    }
    expect(wrong).toEqual([])
  })

  it('never answers a rare language for a common phrase of a big language', async () => {
    const phrases: Array<[string, string]> = [['Goodbye', 'en'], ['Sorry', 'en'], ['Okay', 'en'], ['Good afternoon', 'en'],
      ['Au revoir', 'fr'], ['Bonsoir', 'fr'], ['Gute Nacht', 'de'], ['Bitte', 'de'], ['Buenas noches', 'es'], ['Ciao', 'it'], ['Olá', 'pt'], ['Пока', 'ru']]
    const wrong = []
    for (const [text, language] of phrases) {
      const got = await detected(text)
      if (got !== language) wrong.push(`${text}: ${got}`)
    }
    expect(wrong).toEqual([])
  })
})
