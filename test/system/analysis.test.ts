/**
 * POST /language/analyze and /language/analyze/sentiment over real HTTP with only the offline
 * analysers (as `make run` starts the service): every part in English and natively in fr, de, es,
 * it, pt, nl; Esperanto and Catalan through the English translation (Apertium); bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../helpers/service.js'

let service: RunningService

beforeAll(async () => {
  service = await startService({ MAX_TEXT_CHARS: '5000' })
}, 90_000)

afterAll(async () => { await service?.stop() })

const sentiment = async (value: string, language?: string) =>
  await service.post('/language/analyze/sentiment', { document: { value, ...(language === undefined ? {} : { language }) } })

describe('offline analysis over HTTP', () => {
  it('answers all four parts for English, each saying it ran offline', async () => {
    const text = 'Barack Obama visited Paris with Michelle. Obama loved the city and called it wonderful. Call +1 202-456-1111 or write to press@example.org.'
    const res = await service.post('/language/analyze', { document: { value: text }, meta: { source: 'test' } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.request).toEqual({ document: { value: text }, meta: { source: 'test' } })
    expect(res.json.meta).toMatchObject({ source: 'test', language: 'en' })
    for (const part of ['entities', 'sentiment', 'moderation', 'categories']) {
      expect(res.json[part].meta).toMatchObject({ analyzer: 'offline', source_language: 'en' })
      expect(res.json[part].meta.translated).toBeUndefined()
    }
    const entities: Array<{ name: string, type: string, mentions: number, language: string, meta: { offsets: Array<{ offset: number, length: number, text: string }> } }> = res.json.entities.entities
    const obama = entities.find(e => e.name === 'Barack Obama')
    expect(obama).toMatchObject({ type: 'PERSON', mentions: 2, language: 'en' })
    expect(entities.find(e => e.name === 'Paris')?.type).toBe('LOCATION')
    expect(entities.find(e => e.type === 'EMAIL')?.name).toBe('press@example.org')
    expect(entities.find(e => e.type === 'PHONE_NUMBER')).toBeDefined()
    // offsets slice the text (code points)
    const points = Array.from(text)
    for (const e of entities) for (const o of e.meta.offsets) expect(points.slice(o.offset, o.offset + o.length).join('')).toBe(o.text)
    expect(res.json.sentiment).toMatchObject({ sentiment: 'positive', language: 'en' })
    expect(res.json.sentiment.score).toBeGreaterThan(0)
    expect(res.json.moderation.categories.map((c: { name: string }) => c.name)).toEqual([
      'Toxic', 'Derogatory', 'Violent', 'Sexual', 'Insult', 'Profanity', 'Death Harm & Tragedy', 'Firearms & Weapons',
      'Public Safety', 'Health', 'Religion & Belief', 'Illicit Drugs', 'War & Conflict', 'Politics', 'Finance', 'Legal'
    ])
    for (const c of res.json.moderation.categories) expect(c.confidence).toBeLessThan(0.5)
  })

  it('reads "the CEO of Apple": Apple is an organisation', async () => {
    const res = await service.post('/language/analyze', { document: { value: 'Tim Cook is the CEO of Apple.' }, analyses: ['entities'] })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    const types = Object.fromEntries(res.json.entities.entities.map((e: { name: string, type: string }) => [e.name, e.type]))
    expect(types).toEqual({ 'Tim Cook': 'PERSON', Apple: 'ORGANIZATION' })
  })

  it('finds in decomposed text (NFD, as macOS writes it) the entities it finds composed, offsets slicing the text as sent (a probe saw "Jose" and lost "Renée Zellweger")', async () => {
    const composed = 'José Mourinho met Renée Zellweger in Montréal, and François Hollande came too.'
    const decomposed = composed.normalize('NFD')
    type Found = { name: string, type: string, meta: { offsets: Array<{ offset: number, length: number, text: string }> } }
    const find = async (value: string): Promise<Found[]> => (await service.post('/language/analyze', { document: { value, language: 'en' }, analyses: ['entities'] })).json.entities.entities
    const [nfc, nfd] = [await find(composed), await find(decomposed)]
    expect(nfc.map(e => e.name)).toEqual(expect.arrayContaining(['José Mourinho', 'Renée Zellweger', 'Montréal']))
    expect(nfd.map(e => [e.name, e.type])).toEqual(nfc.map(e => [e.name, e.type]))
    const points = Array.from(decomposed)
    for (const e of nfd) {
      for (const o of e.meta.offsets) {
        expect(points.slice(o.offset, o.offset + o.length).join('')).toBe(o.text)
        expect(o.text.normalize('NFC')).toBe(e.name)
      }
    }
  })

  it('reads a zero-width space or byte order mark as the space it stands for: no entity holds one, offsets as sent (a probe got "\\uFEFFBarack Obama" and "Berlin.\\u200B Angela Merkel")', async () => {
    const value = '\uFEFFBarack Obama visited Berlin.\u200B Angela Merkel met him in Paris.'
    const res = await service.post('/language/analyze', { document: { value, language: 'en' }, analyses: ['entities'] })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    type Found = { name: string, meta: { offsets: Array<{ offset: number, length: number, text: string }> } }
    const found = res.json.entities.entities as Found[]
    expect(found.map(e => e.name)).toEqual(expect.arrayContaining(['Barack Obama', 'Berlin', 'Angela Merkel', 'Paris']))
    const points = Array.from(value)
    for (const e of found) {
      expect(e.name).not.toMatch(/[\u200B\uFEFF]/)
      for (const o of e.meta.offsets) expect(points.slice(o.offset, o.offset + o.length).join('')).toBe(o.text)
    }
  })

  it('keeps every entity within one line or piece of the document: plain text, HTML, JSON and Markdown (a probe got "Maria Lopez\\nJohn Smith" and "Houston\\nSaddam Hussein")', async () => {
    type Found = { name: string, type: string, meta: { offsets: Array<{ offset: number, length: number, text: string }> } }
    // the text analysed: for HTML, Markdown and JSON their pieces, one a line
    const documents: ReadonlyArray<{ value: string, mime?: string, analysed: string, persons: string[] }> = [
      { value: 'Our team\nMaria Lopez\nJohn Smith\nBerlin office', analysed: 'Our team\nMaria Lopez\nJohn Smith\nBerlin office', persons: ['Maria Lopez', 'John Smith'] },
      { value: '<ul><li>Maria Lopez</li><li>John Smith</li><li>Berlin</li></ul>', mime: 'text/html', analysed: 'Maria Lopez\nJohn Smith\nBerlin', persons: ['Maria Lopez', 'John Smith'] },
      { value: '{"team":["Maria Lopez","John Smith"]}', mime: 'application/json', analysed: 'Maria Lopez\nJohn Smith', persons: ['Maria Lopez', 'John Smith'] },
      { value: '# Houston\n\nSaddam Hussein ruled Iraq.', mime: 'text/markdown', analysed: 'Houston\nSaddam Hussein ruled Iraq.', persons: ['Saddam Hussein'] },
      { value: '<p title="Houston">Saddam Hussein ruled Iraq.</p>', mime: 'text/html', analysed: 'Houston\nSaddam Hussein ruled Iraq.', persons: ['Saddam Hussein'] }
    ]
    for (const { value, mime, analysed, persons } of documents) {
      const res = await service.post('/language/analyze', { document: { value, language: 'en', ...(mime === undefined ? {} : { mime_type: mime }) }, analyses: ['entities'] })
      expect(res.status, JSON.stringify(res.json)).toBe(200)
      const found = res.json.entities.entities as Found[]
      for (const name of persons) expect(found.filter(e => e.type === 'PERSON' && e.name === name), `${name} in ${value}`).toHaveLength(1)
      const points = Array.from(analysed)
      for (const e of found) {
        for (const o of e.meta.offsets) {
          expect(o.text, `${e.type} in ${value}`).not.toMatch(/\n/)
          expect(points.slice(o.offset, o.offset + o.length).join('')).toBe(o.text)
        }
      }
    }
  })

  it('returns only the parts asked for', async () => {
    const res = await service.post('/language/analyze', { document: { value: 'The striker scored twice and the team won the league title.', language: 'en' }, analyses: ['categories'] })
    expect(res.status).toBe(200)
    expect(Object.keys(res.json).sort()).toEqual(['categories', 'meta', 'request'])
    expect(res.json.categories.categories[0].name).toMatch(/^\/Sports/)
  })

  it('reads negated sentiment natively in en, fr, de, es, it, pt, nl', async () => {
    const cases: Array<[string, string, string]> = [
      ['en', 'This is good.', 'This is not good at all.'],
      ['fr', 'Ce restaurant est très bon.', "Ce restaurant n'est pas bon."],
      ['de', 'Das Essen ist wirklich gut.', 'Das Essen ist nicht gut.'],
      ['es', 'La comida es muy buena.', 'La comida no es buena.'],
      ['it', 'Il cibo è molto buono.', 'Il cibo non è buono.'],
      ['pt', 'A comida é muito boa.', 'A comida não é boa.'],
      ['nl', 'Het eten is erg goed.', 'Het eten is niet goed.']
    ]
    for (const [language, positive, negated] of cases) {
      const pos = await sentiment(positive, language)
      const neg = await sentiment(negated, language)
      expect(pos.status).toBe(200)
      expect(pos.json, `${language}: ${positive}`).toMatchObject({ sentiment: 'positive', language, meta: { analyzer: 'offline', source_language: language } })
      expect(neg.json, `${language}: ${negated}`).toMatchObject({ sentiment: 'negative', language })
      expect(neg.json.meta.translated).toBeUndefined()
    }
  })

  it('detects the language when none is given, and echoes the request meta unchanged', async () => {
    const res = await sentiment('Je suis vraiment déçu par ce produit, il ne marche pas du tout.')
    expect(res.json).toMatchObject({ language: 'fr', sentiment: 'negative', meta: { source_language: 'fr' } })
    const mine = await service.post('/language/analyze/sentiment', { document: { value: 'Great!', language: 'en' }, meta: { analyzer: 'mine' } })
    expect(mine.json.meta.analyzer).toBe('mine')
    // "und" (undetermined) is detected too, in analyze and in edit (a probe got French read by the English analysers)
    const und = await sentiment('Ce film est nul, je le déteste. Quelle horreur, vraiment mauvais.', 'und')
    expect(und.json).toMatchObject({ language: 'fr', sentiment: 'negative' })
    const edited = await service.post('/language/edit', { document: { value: 'Il fait tres beau.', language: 'und' }, edits: [{ type: 'grammar' }] })
    expect(edited.status, JSON.stringify(edited.json)).toBe(200)
    expect(edited.json.document).toEqual({ value: 'Il fait très beau.', language: 'fr' })
  })

  it('translates Esperanto and Catalan to English first and says so', async () => {
    for (const [language, text] of [['eo', 'Mi tre amas ĉi tiun belan urbon.'], ['ca', 'Aquest restaurant és molt dolent i car.']] as const) {
      const res = await sentiment(text, language)
      expect(res.status, JSON.stringify(res.json)).toBe(200)
      expect(res.json).toMatchObject({ language: 'en', meta: { translated: 'true', source_language: language, translated_by: 'apertium', analyzer: 'offline' } })
    }
    expect((await sentiment('Mi tre amas ĉi tiun belan urbon.', 'eo')).json.sentiment).toBe('positive')
    expect((await sentiment('Aquest restaurant és molt dolent i car.', 'ca')).json.sentiment).toBe('negative')
  })

  it('grows magnitude with emotional content', async () => {
    const one = await sentiment('I hate this.', 'en')
    const three = await sentiment('I hate this. It is awful. Worst purchase ever.', 'en')
    expect(three.json.magnitude).toBeGreaterThan(one.json.magnitude)
  })

  it('keeps known false positives clean, and flags a threat', async () => {
    for (const text of ['Dick Van Dyke starred in the film.', 'The pilot sat in the cockpit.', 'He was born in Scunthorpe.', 'We had a hell of a good time.']) {
      const res = await service.post('/language/analyze', { document: { value: text, language: 'en' }, analyses: ['moderation'] })
      const by = Object.fromEntries(res.json.moderation.categories.map((c: { name: string, confidence: number }) => [c.name, c.confidence]))
      expect(by['Toxic'], text).toBeLessThan(0.2)
      expect(by['Profanity'], text).toBeLessThan(0.2)
    }
    const threat = await service.post('/language/analyze', { document: { value: 'I am going to kill you.', language: 'en' }, analyses: ['moderation'] })
    const violent = threat.json.moderation.categories.find((c: { name: string }) => c.name === 'Violent')
    expect(violent.confidence).toBeGreaterThan(0.6)
  })

  it('analyses the text of HTML, never its markup', async () => {
    const res = await service.post('/language/analyze', {
      document: { value: '<p class="awful terrible">I <b>love</b> this wonderful place.</p><script>var hate = "awful"</script>', mime_type: 'text/html', language: 'en' },
      analyses: ['sentiment']
    })
    expect(res.json.sentiment.sentiment).toBe('positive')
  })

  it('answers bad input with 400/413 problems naming the field', async () => {
    const unknown = await service.post('/language/analyze', { document: { value: 'Hello' }, analyses: ['sentiment', 'syntax'] })
    expect(unknown.status).toBe(400)
    expect(unknown.json.errors[0].pointer).toBe('/analyses/1')
    for (const value of ['', '   \n\t ']) {
      const empty = await service.post('/language/analyze', { document: { value } })
      expect(empty.status).toBe(400)
      expect(empty.json.errors[0].pointer).toBe('/document/value')
    }
    const long = await service.post('/language/analyze/sentiment', { document: { value: 'word '.repeat(1200) } })
    expect(long.status).toBe(413)
    expect(long.json.detail).toMatch(/MAX_TEXT_CHARS/)
  })

  it('answers 503 naming the settings for a language nothing reads or translates', async () => {
    const res = await sentiment('これはとても良い製品です。', 'ja')
    expect(res.status).toBe(503)
    expect(res.json.detail).toMatch(/ja/)
    expect(res.json.detail).toMatch(/OPENAI_MODEL/)
  })
})
