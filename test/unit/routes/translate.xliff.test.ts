/**
 * XLIFF 1.2 and 2.0 documents over HTTP: translated by the embedded Apertium and by an outside
 * engine (the LibreTranslate fake), read back with the xliff package; detect, edit, analyze and
 * substitute take them too, and a broken file is a 400 naming its line.
 */
import { describe, expect, it } from 'vitest'
import xliff from 'xliff'
import { formatApps } from '../../helpers/format-apps.js'

const { post, libre } = formatApps()

const MIME = 'application/xliff+xml'
const XLIFF12 = '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n' +
  ' <file source-language="en" datatype="plaintext" original="app">\n  <body>\n' +
  '   <trans-unit id="car"><source>The <g id="1">red</g> car is in {city}.</source></trans-unit>\n' +
  '   <trans-unit id="house"><source>The house is big.</source><target state="new"/></trans-unit>\n' +
  '   <trans-unit id="done"><source>Done</source><target state="final">Fet</target></trans-unit>\n' +
  '  </body>\n </file>\n</xliff>\n'
const XLIFF20 = '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en">\n <file id="f">\n' +
  '  <unit id="car"><segment><source>The <pc id="1">red</pc> car is in the house.<ph id="2"/></source></segment></unit>\n' +
  '  <unit id="no" translate="no"><segment><source>The house.</source></segment></unit>\n </file>\n</xliff>\n'

const text = (inline: unknown): string => typeof inline === 'string'
  ? inline
  : Array.isArray(inline) ? inline.map(text).join('') : Object.values(inline as Record<string, { contents?: unknown }>).map(v => text(v.contents ?? '')).join('')

describe('XLIFF through /language/translate and /bulk', () => {
  it('Apertium writes the targets of 1.2 and 2.0 files, codes and placeholders kept, languages set', async () => {
    const { status, body } = await post('/language/translate/bulk', { documents: [{ value: XLIFF12, mime_type: MIME }, { value: XLIFF20, mime_type: MIME }], source: 'en', targets: ['es', 'ca'] })
    expect(status, JSON.stringify(body)).toBe(200)
    for (const target of ['es', 'ca']) {
      const one = body[0].results[target].value as string
      expect(body[0].results[target].mime_type).toBe(MIME)
      const js = await xliff.xliff12ToJs(one)
      expect(js.targetLanguage).toBe(target)
      const units = js.resources.app!
      expect(text(units.car!.target)).toMatch(/\{city\}\.$/)
      expect(text(units.car!.target)).not.toMatch(/\bcar\b/)
      expect(text(units.house!.target)).toMatch(/casa/)
      expect(text(units.done!.target)).toBe('Fet')
      expect(one).toMatch(/<target state="translated">[^<]*<g id="1">[^<]+<\/g>[^<]+<\/target>/)
      const two = body[1].results[target].value as string
      const js2 = await xliff.xliff2js(two)
      expect(js2.targetLanguage).toBe(target)
      expect(text(js2.resources.f!.car!.target)).toMatch(/casa/)
      expect(two).toContain('<segment state="translated">')
      expect(two).toContain('<unit id="no" translate="no"><segment><source>The house.</source></segment></unit>')
    }
  })

  it('an outside engine (LibreTranslate) gets the sources with codes as tags', async () => {
    const { status, body } = await post('/language/translate', { document: { value: XLIFF20, mime_type: MIME }, source: 'en', targets: ['fr'] }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    const out = body.results.fr.value as string
    expect(out).toContain('<target>THE <pc id="1">RED</pc> CAR IS IN THE HOUSE.<ph id="2"/></target>')
    expect(text((await xliff.xliff2js(out)).resources.f!.car!.target)).toBe('THE RED CAR IS IN THE HOUSE.')
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q)
    expect(sent).toContain('The <g id="1">red</g> car is in the house.')
  })

  it('a broken file is a 400 at /document/value naming the line', async () => {
    const { status, body } = await post('/language/translate', { document: { value: '<xliff version="1.2">\n<file>\n<body>\n</file>\n</xliff>', mime_type: MIME }, source: 'en', targets: ['es'] })
    expect(status).toBe(400)
    expect(JSON.stringify(body)).toContain('/document/value')
    expect(JSON.stringify(body)).toMatch(/line 4, column \d+: unexpected close tag/)
  })
})

describe('XLIFF on the other document endpoints', () => {
  it('detect reads the sources', async () => {
    const { status, body } = await post('/language/detect', { document: { value: '<xliff version="2.0" srcLang="und"><file id="f"><unit id="u"><segment><source>El coche rojo está en la casa grande.</source></segment></unit></file></xliff>', mime_type: MIME } })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.language).toBe('es')
  })

  it('substitute works on the targets: units without one, or with an empty one, left as they are', async () => {
    const { status, body } = await post('/language/substitute', { document: { value: XLIFF12, mime_type: MIME, language: 'en' }, substitutions: [{ text: 'house', substitution: 'home' }, { text: 'Fet', substitution: 'Fet!' }] })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.document.value).toBe(XLIFF12.replace('<target state="final">Fet</target>', '<target state="final">Fet!</target>'))
  })

  // a probe: a translated target was written over with its source, substituted
  const SPANISH = '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" target-language="es" datatype="plaintext" original="a"><body>\n' +
    '<trans-unit id="stop"><source>Stop Acme</source><target state="translated">Parar Acme</target></trans-unit>\n' +
    '<trans-unit id="go"><source>Go Acme</source></trans-unit>\n' +
    '<trans-unit id="new"><source>New Acme</source><target state="new"/></trans-unit>\n</body></file></xliff>'

  it('substitute changes a target of any state in place and nothing else', async () => {
    const { status, body } = await post('/language/substitute', { document: { value: SPANISH, mime_type: MIME, language: 'es' }, substitutions: [{ text: 'Acme', substitution: 'Zeta' }] })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.document.value).toBe(SPANISH.replace('<target state="translated">Parar Acme</target>', '<target state="translated">Parar Zeta</target>'))
  })

  it('edit and analyze take it', async () => {
    const edited = await post('/language/edit', { document: { value: '<xliff version="2.0" srcLang="en" trgLang="en-GB"><file id="f"><unit id="u"><segment><source>There is a library.</source><target>Their is a libary in the house.</target></segment></unit></file></xliff>', mime_type: MIME, language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    expect(text((await xliff.xliff2js(edited.body.document.value)).resources.f!.u!.target)).toMatch(/library/)
    const untranslated = await post('/language/edit', { document: { value: '<xliff version="2.0" srcLang="en"><file id="f"><unit id="u"><segment><source>Their is a libary.</source></segment></unit></file></xliff>', mime_type: MIME, language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(untranslated.status).toBe(400)
    expect(JSON.stringify(untranslated.body)).toContain('without a target')
    const analyzed = await post('/language/analyze', { document: { value: XLIFF12, mime_type: MIME }, analyses: ['sentiment'] })
    expect(analyzed.status, JSON.stringify(analyzed.body)).toBe(200)
    expect(analyzed.body.meta.language).toBe('en')
  })

  // a finished unit: its target final
  const FINAL = '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" target-language="fr" datatype="plaintext" original="a"><body>' +
    '<trans-unit id="a"><source>I love this beautiful city.</source><target state="final">J\'adore cette belle ville.</target></trans-unit></body></file></xliff>'

  it('detect and analyze read the source of a final unit too', async () => {
    const detected = await post('/language/detect', { document: { value: FINAL, mime_type: MIME } })
    expect(detected.status, JSON.stringify(detected.body)).toBe(200)
    expect(detected.body.language).toBe('en')
    expect(detected.body.confidence).toBeGreaterThan(0)
    const analyzed = await post('/language/analyze/sentiment', { document: { value: FINAL, mime_type: MIME } })
    expect(analyzed.status, JSON.stringify(analyzed.body)).toBe(200)
    expect(analyzed.body.meta.source_language).toBe('en')
  })

  it('edit and substitute work on a final target, written back in place with its state', async () => {
    const value = FINAL.replace('J\'adore cette belle ville.', 'Their going to the libary.')
    const edited = await post('/language/edit', { document: { value, mime_type: MIME, language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    expect(edited.body.document.value).toMatch(/<source>I love this beautiful city\.<\/source><target state="final">[^<]*library[^<]*<\/target>/)
    const substituted = await post('/language/substitute', { document: { value, mime_type: MIME }, substitutions: [{ text: 'libary', substitution: 'library' }] })
    expect(substituted.status, JSON.stringify(substituted.body)).toBe(200)
    expect(substituted.body.document.value).toBe(FINAL.replace('J\'adore cette belle ville.', 'Their going to the library.'))
  })
})
