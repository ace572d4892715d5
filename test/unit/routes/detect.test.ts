/** POST /language/detect over HTTP with the real detector, one behaviour per field of docs/api.md "Detect". */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, testApp, tokenFor } from '../../helpers/app.js'

let app: FastifyInstance
let auth: Record<string, string>
beforeAll(async () => {
  app = await testApp({}, { engines: true })
  auth = bearer(await tokenFor(app))
})
afterAll(async () => { await app.close() })

const detect = async (body: Record<string, unknown>) => {
  const res = await app.inject({ method: 'POST', url: '/language/detect', headers: auth, payload: body })
  return { status: res.statusCode, body: res.json() }
}
const doc = (value: unknown, mimeType?: string) => ({ value, ...(mimeType ? { mime_type: mimeType } : {}) })

const FRENCH = 'Le gouvernement a annoncé hier de nouvelles mesures pour soutenir les petites entreprises.'
const SPANISH = 'El gobierno anunció ayer nuevas medidas para apoyar a las pequeñas empresas del país.'

describe('POST /language/detect', () => {
  it('detects the language with a confidence in [0, 1] and up to 5 alternatives, best first', async () => {
    const { status, body } = await detect({ document: doc(FRENCH) })
    expect(status).toBe(200)
    expect(body.language).toBe('fr')
    expect(body.confidence).toBeGreaterThan(0.8)
    expect(body.confidence).toBeLessThanOrEqual(1)
    expect(body.alternatives.length).toBeLessThanOrEqual(5)
    expect(body.alternatives.map((a: { language: string }) => a.language)).not.toContain('fr')
    const confidences = body.alternatives.map((a: { confidence: number }) => a.confidence)
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a))
    expect(body.meta).toEqual({})
  })

  it('answers BCP 47 tags: scripts, Traditional Chinese, Norwegian Bokmål as nb', async () => {
    expect((await detect({ document: doc('これは日本語の文章です。今日はいい天気ですね。') })).body.language).toBe('ja')
    expect((await detect({ document: doc('這是一個關於臺灣歷史與文化的簡短說明，內容涵蓋許多層面。') })).body.language).toBe('zh-Hant')
    expect((await detect({ document: doc('这是一个关于中国历史与文化的简短说明，内容涵盖许多方面。') })).body.language).toBe('zh')
    expect((await detect({ document: doc('Regjeringen la i går fram nye tiltak for å hjelpe små bedrifter gjennom vinteren.') })).body.language).toBe('nb')
    expect((await detect({ document: doc('Влада је јуче најавила нове мере за подршку малим предузећима.') })).body.language).toBe('sr')
  })

  it('reduces HTML to its visible text and JSON to its string leaves', async () => {
    const html = `<html><head><script>var english = "the quick brown fox jumps over the lazy dog"</script><style>.x{}</style></head><body><p>${SPANISH}</p></body></html>`
    expect((await detect({ document: doc(html, 'text/html') })).body.language).toBe('es')
    const json = { title: SPANISH, count: 3, nested: { text: 'Las empresas pequeñas necesitan ayuda.' } }
    expect((await detect({ document: doc(json, 'application/json') })).body.language).toBe('es')
  })

  it('reads a large Markdown document (parsed off the main thread) without its code or URLs', async () => {
    const markdown = ('```\nthe quick brown fox jumps over the lazy dog\n```\n\n' + `*${FRENCH}* [Lien](https://example.com/the/english/words/here)\n\n`).repeat(20)
    expect(markdown.length).toBeGreaterThan(2000)
    const { status, body } = await detect({ document: doc(markdown, 'text/markdown') })
    expect(status).toBe(200)
    expect(body.language).toBe('fr')
  })

  it('static: a whole trimmed text equal to a key (case-insensitive) answers its language with confidence 1', async () => {
    const { body } = await detect({ document: doc('  OK  '), static: { ok: 'en', Merci: 'fr' } })
    expect(body).toMatchObject({ language: 'en', confidence: 1 })
    const notWhole = await detect({ document: doc(FRENCH), static: { ok: 'en' } })
    expect(notWhole.body.language).toBe('fr')
    const bad = await detect({ document: doc('ok'), static: { ok: 'e_n' } })
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].pointer).toBe('/static/ok')
  })

  it('limit_results: candidates are only these', async () => {
    const { body } = await detect({ document: doc(SPANISH), limit_results: ['pt', 'it'] })
    expect(['pt', 'it']).toContain(body.language)
    for (const a of body.alternatives) expect(['pt', 'it']).toContain(a.language)
    const bad = await detect({ document: doc(SPANISH), limit_results: ['es', 'not a tag'] })
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].pointer).toBe('/limit_results/1')
  })

  it('min_chars: shorter text (letters only) answers source_hint, else und with confidence 0', async () => {
    expect((await detect({ document: doc('Hola 12345 !!'), min_chars: 5 })).body).toMatchObject({ language: 'und', confidence: 0 })
    expect((await detect({ document: doc('Hola 12345 !!'), min_chars: 5, source_hint: 'es' })).body.language).toBe('es')
    expect((await detect({ document: doc('   123 456   ') })).body.language).toBe('und')
  })

  it('max_chars: only the first max_chars characters are read', async () => {
    const text = FRENCH + ' ' + SPANISH.repeat(5)
    expect((await detect({ document: doc(text) })).body.language).toBe('es')
    expect((await detect({ document: doc(text), max_chars: FRENCH.length })).body.language).toBe('fr')
  })

  it('source_hint: wins when the detector is unsure and the hint is among its candidates, not over a clear answer', async () => {
    const unsure = await detect({ document: doc('Universidade'), source_hint: 'gl' })
    expect(unsure.body.language).toBe('gl')
    const clear = await detect({ document: doc(FRENCH), source_hint: 'es' })
    expect(clear.body.language).toBe('fr')
  })

  it('min_confidence: a best confidence below it answers source_hint, else und', async () => {
    expect((await detect({ document: doc(FRENCH), min_confidence: 1 })).body.language).toBe('und')
    expect((await detect({ document: doc(FRENCH), min_confidence: 1, source_hint: 'it' })).body.language).toBe('it')
    expect((await detect({ document: doc(FRENCH), min_confidence: 0.5 })).body.language).toBe('fr')
    expect((await detect({ document: doc(FRENCH), min_confidence: 1.5 })).status).toBe(400)
  })

  it('no_override: static and source_hint never replace the detector answer', async () => {
    expect((await detect({ document: doc('Merci'), static: { merci: 'de' }, no_override: true })).body.language).not.toBe('de')
    expect((await detect({ document: doc('Universidade'), source_hint: 'gl', no_override: true })).body.language).toBe(
      (await detect({ document: doc('Universidade') })).body.language)
  })

  it('echoes meta unchanged', async () => {
    expect((await detect({ document: doc(FRENCH), meta: { id: 'doc-1', lang: 'keep' } })).body.meta).toEqual({ id: 'doc-1', lang: 'keep' })
  })

  it('feeds translation: an absent source is detected and reported', async () => {
    const res = await app.inject({ method: 'POST', url: '/language/translate', headers: auth, payload: { document: { value: SPANISH }, targets: ['en'] } })
    expect(res.statusCode).toBe(200)
    expect(res.json().extra.detected.language).toBe('es')
    expect(res.json().extra.detected.confidence).toBeGreaterThan(0.5)
    expect(res.json().results.en.value).toMatch(/government|companies|enterprises/i)
  })

  it('feeds translation: an unsure guess no service can translate is redone among the languages that can be; a sure one is an unsupported pair', async () => {
    // the precondition: alone, "Jambo" (Swahili, which no engine here translates) is an unsure guess of a language no service translates
    const alone = (await detect({ document: doc('Jambo') })).body
    expect(alone.confidence).toBeLessThan(0.5)
    const sources = (await app.inject({ method: 'GET', url: '/language/translate/locales', headers: auth })).json().source.map((l: { tag: string }) => l.tag)
    expect(sources).not.toContain(alone.language)
    const jambo = await app.inject({ method: 'POST', url: '/language/translate', headers: auth, payload: { document: { value: 'Jambo' }, targets: ['es'] } })
    expect(jambo.statusCode).toBe(200)
    expect(sources).toContain(jambo.json().extra.detected.language)
    // "Hi" alone was Tsonga (untranslatable) before short texts weighed how widely a language is spoken; now English
    const hi = await app.inject({ method: 'POST', url: '/language/translate', headers: auth, payload: { document: { value: 'Hi' }, targets: ['es'] } })
    expect(hi.statusCode).toBe(200)
    expect(hi.json().extra.detected.language).toBe('en')
    expect(hi.json().results.es.value).toBe('Hola')
    // no source reaches both: the guess is redone among those reaching most, and only the pair that fails is named
    const both = await app.inject({ method: 'POST', url: '/language/translate', headers: auth, payload: { document: { value: 'Hi' }, targets: ['es', 'uk'] } })
    expect(both.statusCode).toBe(400)
    expect(both.json().detail).toMatch(/en->uk/)
    expect(both.json().detail).not.toMatch(/->es/)
    const german = await app.inject({ method: 'POST', url: '/language/translate', headers: auth, payload: { document: { value: 'Guten Morgen, wie geht es dir heute?' }, targets: ['es'] } })
    expect(german.statusCode).toBe(400)
    expect(german.json().detail).toMatch(/de->es/)
  })

  it('feeds translation: a short text is read among the languages that reach the target (issue 31: "Hello world" was Nynorsk, a 400)', async () => {
    const translate = async (value: string, targets = ['es']) =>
      await app.inject({ method: 'POST', url: '/language/translate', headers: auth, payload: { document: { value }, source: 'auto', targets } })
    for (const [text, words] of [['Hello world', /hola/i], ['proton beam', /prot[oó]n/i], ['Thank you', /gracias/i], ['Good morning', /buenos d[ií]as/i]] as const) {
      const res = await translate(text)
      expect(res.statusCode, `${text}: ${res.body}`).toBe(200)
      expect(res.json().extra.detected.language, text).toBe('en')
      expect(res.json().extra.source, text).toBe('en')
      expect(res.json().results.es.value, text).toMatch(words)
    }
    // the guess among the reachable languages is the ensemble's: French stays French
    expect((await translate('Merci beaucoup')).json().extra.detected.language).toBe('fr')
    // none of them is plausible: the detected language, named in an unsupported pair
    for (const text of ['Guten Morgen', 'Danke schön', 'Привет мир', 'こんにちは']) {
      const res = await translate(text)
      expect(res.statusCode, text).toBe(400)
      expect(res.json().detail, text).toMatch(/No configured translation service supports (de|ru|ja)->es/)
    }
  })

  it('feeds translation: text with nothing to detect (numbers, emoji, a URL alone) comes back unchanged, source und, and a bulk request is not failed by it', async () => {
    for (const value of ['12345', '🎉🎉 👍', 'https://example.com/a/b?c=d', '  42 % — 3,14  ', 'bob@example.org']) {
      const res = await app.inject({ method: 'POST', url: '/language/translate', headers: auth, payload: { document: { value }, source: 'auto', targets: ['es', 'ca'] } })
      expect(res.statusCode, `${value}: ${res.body}`).toBe(200)
      expect(res.json().results.es.value).toBe(value)
      expect(res.json().results.ca.value).toBe(value)
      expect(res.json().extra).toMatchObject({ source: 'und', detected: { language: 'und', confidence: 0 }, services: { es: 'none', ca: 'none' } })
    }
    const bulk = await app.inject({
      method: 'POST',
      url: '/language/translate/bulk',
      headers: auth,
      payload: { documents: [{ value: 'The red car is very fast.' }, { value: '2024' }, { value: '<p><a href="https://x.org">https://x.org</a> 🎉</p>', mime_type: 'text/html' }], targets: ['es'] }
    })
    expect(bulk.statusCode, bulk.body).toBe(200)
    const [car, year, link] = bulk.json()
    expect(car.results.es.value).toBe('El coche rojo es muy rápido.')
    expect(year.results.es.value).toBe('2024')
    expect(link.results.es.value).toBe('<p><a href="https://x.org">https://x.org</a> 🎉</p>')
    expect(link.extra.source).toBe('und')
    // a URL does not make a sentence's language: the words around it do
    const around = await app.inject({ method: 'POST', url: '/language/detect', headers: auth, payload: { document: { value: 'Mira esto https://example.com/foo/bar/baz/qux' } } })
    expect(around.json().language).toBe('es')
  })

  it('feeds translation under the same policy: "Hello" is English for /detect (limited to the translatable sources too) and for translate', async () => {
    // unrestricted, English is the first candidate (it was Finnish at 0.07 beside English at 0.07), far above Italian
    const alone = (await detect({ document: doc('Hello') })).body
    expect(alone.language).toBe('en')
    const ranked = [{ language: alone.language, confidence: alone.confidence }, ...alone.alternatives]
    const at = (tag: string): number => ranked.find(c => c.language === tag)?.confidence ?? 0
    expect(at('en')).toBeGreaterThan(at('it'))
    // the sources that translate into es: what translation redetects among
    const all: string[] = (await app.inject({ method: 'GET', url: '/language/translate/locales', headers: auth })).json().source.map((l: { tag: string }) => l.tag)
    const toSpanish = []
    for (const tag of all) {
      const pair = await app.inject({ method: 'GET', url: `/language/translate/locales/supported?source=${tag}&target=es`, headers: auth })
      if (pair.json().supported === true || tag === 'es') toSpanish.push(tag)
    }
    const limited = (await detect({ document: doc('Hello'), limit_results: toSpanish })).body
    expect(limited.language).toBe('en')
    const res = await app.inject({ method: 'POST', url: '/language/translate', headers: auth, payload: { document: { value: 'Hello' }, source: 'auto', targets: ['es'] } })
    expect(res.statusCode).toBe(200)
    expect(res.json().extra.detected.language).toBe('en')
    // English reaches Spanish: the unrestricted guess stands, with its own confidence
    expect(res.json().extra.detected.confidence).toBeCloseTo(alone.confidence, 6)
    expect(res.json().results.es.value).toBe('Hola')
  })
})
