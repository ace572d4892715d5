/**
 * gettext PO documents over HTTP: translated by the embedded Apertium and by an outside engine
 * (the LibreTranslate fake), read back with gettext-parser; detect, edit, analyze and substitute
 * take them too, and a broken file is a 400 naming its line.
 */
import { msgfmtErrors } from '../../helpers/gettext.js'
import { describe, expect, it } from 'vitest'
import { po } from 'gettext-parser'
import { formatApps } from '../../helpers/format-apps.js'

const { post, libre } = formatApps()

const MIME = 'text/x-gettext-translation'
const PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
  '#: src/app.c:10\n#, c-format\nmsgid "The red car is in %s."\nmsgid_plural "The red cars are in %s."\nmsgstr[0] ""\nmsgstr[1] ""\n\n' +
  'msgctxt "home"\nmsgid "The house is big."\nmsgstr ""\n\n' +
  'msgid "Done"\nmsgstr "Fet"\n'

const translation = (text: string, msgid: string, context = ''): string[] => po.parse(text).translations[context]![msgid]!.msgstr

describe('gettext PO through /language/translate and /bulk', () => {
  it('Apertium fills msgstr and plurals, placeholders kept, headers set', async () => {
    const { status, body } = await post('/language/translate/bulk', { documents: [{ value: PO, mime_type: MIME }, { value: 'The house.' }], source: 'en', targets: ['es', 'ca'] })
    expect(status, JSON.stringify(body)).toBe(200)
    for (const target of ['es', 'ca']) {
      const out = body[0].results[target].value as string
      expect(body[0].results[target].mime_type).toBe(MIME)
      const parsed = po.parse(out)
      expect(parsed.headers).toMatchObject({ Language: target, 'Plural-Forms': 'nplurals=2; plural=(n != 1);' })
      const [one, other] = translation(out, 'The red car is in %s.')
      expect(one).toMatch(/%s\.$/)
      expect(other).toMatch(/%s\.$/)
      expect(one).not.toMatch(/\bcar\b/)
      expect(translation(out, 'The house is big.', 'home')[0]).toMatch(/casa/)
      expect(translation(out, 'Done')).toEqual(['Fet'])
      expect(parsed.translations['']!['The red car is in %s.']!.comments).toMatchObject({ reference: 'src/app.c:10', flag: 'c-format' })
    }
  })

  it('an outside engine (LibreTranslate) gets the msgids with the conversions as tokens; Japanese gets one form', async () => {
    const { status, body } = await post('/language/translate', { document: { value: PO, mime_type: MIME }, source: 'en', targets: ['ja', 'fr'], options: { preserve_placeholders: false } }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(translation(body.results.ja.value, 'The red car is in %s.')).toEqual(['THE RED CARS ARE IN %s.'])
    expect(translation(body.results.fr.value, 'The red car is in %s.')).toEqual(['THE RED CAR IS IN %s.', 'THE RED CARS ARE IN %s.'])
    expect(po.parse(body.results.ja.value).headers).toMatchObject({ Language: 'ja', 'Plural-Forms': 'nplurals=1; plural=0;' })
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q)
    expect(sent).toContain('The red car is in <x id="1"/>.')
  })

  it('into its own language (or a region of it): the file as sent, msgstr left empty (a probe saw every msgstr filled with its msgid)', async () => {
    const xliff = '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" datatype="plaintext" original="a"><body><trans-unit id="a"><source>The house.</source></trans-unit></body></file></xliff>'
    const { status, body } = await post('/language/translate/bulk', { documents: [{ value: PO, mime_type: MIME }, { value: xliff, mime_type: 'application/xliff+xml' }], source: 'en', targets: ['en', 'en-GB'] })
    expect(status, JSON.stringify(body)).toBe(200)
    for (const target of ['en', 'en-GB']) {
      expect(body[0].results[target].value).toBe(PO)
      expect(body[1].results[target].value).toBe(xliff)
      expect(body[0].extra.services[target]).toBe('none')
    }
    // a phrase substituted is a change: then the document is rebuilt with it
    const substituted = await post('/language/translate', { document: { value: PO, mime_type: MIME }, source: 'en', targets: ['en'], substitutions: [{ text: 'house', substitution: 'home' }] })
    expect(translation(substituted.body.results.en.value as string, 'The house is big.', 'home')).toEqual(['The home is big.'])
  })

  // a probe: npm po2json's pl.po and ja.po, rubenv/pofile's nplurals-3.po and nplurals-6.po came
  // back with the target's Plural-Forms over their finished entries' own forms (msgfmt -c refused them)
  const catalog = (language: string, pluralForms: string, forms: string[]): string =>
    `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: ${language}\\n"\n"Plural-Forms: ${pluralForms}\\n"\n\n` +
    `msgid "One file"\nmsgid_plural "%d files"\n${forms.map((f, i) => `msgstr[${i}] "${f}"\n`).join('')}\nmsgid "Open"\nmsgstr ""\n\nmsgid "Close"\nmsgstr "${forms[0]}!"\n`
  const POLISH = catalog('pl', 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);', ['Jeden plik', '%d pliki', '%d plików'])
  const JAPANESE = catalog('ja', 'nplurals=1; plural=0;', ['%d ファイル'])
  const ARABIC = catalog('ar', 'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);', ['لا ملفات', 'ملف واحد', 'ملفان', '%d ملفات', '%d ملفًا', '%d ملف'])

  it('a catalog in another language than the target gets every entry translated into the target\'s plural forms, as msgfmt -c checks it', async () => {
    for (const document of [POLISH, JAPANESE, ARABIC]) expect(msgfmtErrors(document) ?? '').toBe('')
    const { status, body } = await post('/language/translate/bulk', { documents: [POLISH, JAPANESE, ARABIC].map(value => ({ value, mime_type: MIME })), source: 'en', targets: ['es', 'ja'] }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    for (const [i, source] of [POLISH, JAPANESE, ARABIC].entries()) {
      const own = po.parse(source).translations['']!
      for (const [target, count] of [['es', 2], ['ja', 1]] as const) {
        const out = body[i].results[target].value as string
        const parsed = po.parse(out)
        expect(parsed.headers).toMatchObject({ Language: target })
        expect(parsed.headers!['Plural-Forms']).toMatch(new RegExp(`^nplurals=${count};`))
        const entries = parsed.translations['']!
        expect(entries['One file']!.msgstr).toHaveLength(count)
        expect(entries.Open!.msgstr[0]).not.toBe('')
        if (source === JAPANESE && target === 'ja') {
          // a catalog into its own language keeps them
          expect(entries['One file']!.msgstr).toEqual(own['One file']!.msgstr)
          expect(entries.Close!.msgstr).toEqual(own.Close!.msgstr)
        } else {
          // the finished entries were translations into the catalog's language: translated anew from their msgid
          expect(entries['One file']!.msgstr.some(form => own['One file']!.msgstr.includes(form))).toBe(false)
          expect(entries.Close!.msgstr).not.toEqual(own.Close!.msgstr)
        }
        const errors = msgfmtErrors(out)
        if (errors !== undefined) expect(errors, out).toBe('')
      }
    }
  })

  it('a catalog in the target\'s language (a region of it too) keeps its finished entries', async () => {
    const spanish = catalog('es_ES', 'nplurals=2; plural=(n != 1);', ['Un archivo', '%d archivos'])
    const { status, body } = await post('/language/translate', { document: { value: spanish, mime_type: MIME }, source: 'en', targets: ['es'] }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    const out = body.results.es.value as string
    expect(translation(out, 'One file')).toEqual(['Un archivo', '%d archivos'])
    expect(translation(out, 'Close')).toEqual(['Un archivo!'])
    expect(translation(out, 'Open')[0]).not.toBe('')
    const errors = msgfmtErrors(out)
    if (errors !== undefined) expect(errors, out).toBe('')
  })

  it('a broken file is a 400 at /document/value naming the line', async () => {
    const { status, body } = await post('/language/translate', { document: { value: 'msgid "a"\nmsgstr "b"\nnot po\n', mime_type: MIME }, source: 'en', targets: ['es'] })
    expect(status).toBe(400)
    expect(JSON.stringify(body)).toContain('/document/value')
    expect(JSON.stringify(body)).toContain('line 3: expected a comment')
  })
})

describe('gettext PO on the other document endpoints', () => {
  it('detect reads the msgids', async () => {
    const { status, body } = await post('/language/detect', { document: { value: 'msgid "El coche rojo está en la casa grande."\nmsgstr ""\n', mime_type: MIME } })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.language).toBe('es')
  })

  it('substitute works on the translations: the msgstr filled, untranslated entries left empty', async () => {
    const { status, body } = await post('/language/substitute', { document: { value: PO, mime_type: MIME, language: 'en' }, substitutions: [{ text: 'Fet', substitution: 'Fet!' }, { text: 'house', substitution: 'home' }] })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.document.value).toBe(PO.replace('msgstr "Fet"', 'msgstr "Fet!"'))
  })

  it('edit and analyze take it', async () => {
    const edited = await post('/language/edit', { document: { value: 'msgid "There is a library."\nmsgstr "Their is a libary in the house."\n', mime_type: MIME, language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    expect(translation(edited.body.document.value, 'There is a library.')[0]).toMatch(/library/)
    const analyzed = await post('/language/analyze', { document: { value: PO, mime_type: MIME }, analyses: ['sentiment'] })
    expect(analyzed.status, JSON.stringify(analyzed.body)).toBe(200)
    expect(analyzed.body.meta.language).toBe('en')
  })

  // a finished catalog: every msgstr filled
  const FINISHED = 'msgid "Hello"\nmsgstr "Their going to the libary."\n'

  it('detect and analyze read the msgid of a finished entry too', async () => {
    const detected = await post('/language/detect', { document: { value: 'msgid "I love this beautiful city."\nmsgstr "J\'adore cette belle ville."\n', mime_type: MIME } })
    expect(detected.status, JSON.stringify(detected.body)).toBe(200)
    expect(detected.body.language).toBe('en')
    expect(detected.body.confidence).toBeGreaterThan(0)
    // its msgid read: a word, whatever the detector makes of it, is no longer nothing
    const hello = await post('/language/detect', { document: { value: FINISHED, mime_type: MIME } })
    expect(hello.status, JSON.stringify(hello.body)).toBe(200)
    expect(hello.body.confidence).toBeGreaterThan(0)
    const analyzed = await post('/language/analyze/sentiment', { document: { value: FINISHED, mime_type: MIME } })
    expect(analyzed.status, JSON.stringify(analyzed.body)).toBe(200)
    expect(analyzed.body.meta.source_language).toBe('en')
  })

  it('edit and substitute work on a finished entry\'s msgstr, written back in place', async () => {
    const edited = await post('/language/edit', { document: { value: FINISHED, mime_type: MIME }, edits: [{ type: 'grammar' }] })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    expect(translation(edited.body.document.value, 'Hello')[0]).toMatch(/library/)
    const substituted = await post('/language/substitute', { document: { value: FINISHED, mime_type: MIME }, substitutions: [{ text: 'libary', substitution: 'library' }] })
    expect(substituted.status, JSON.stringify(substituted.body)).toBe(200)
    expect(substituted.body.document.value).toBe('msgid "Hello"\nmsgstr "Their going to the library."\n')
  })

  it('a catalog with nothing to read is a 400 saying what was left out', async () => {
    const { status, body } = await post('/language/analyze', { document: { value: 'msgid ""\nmsgstr "Language: en\\n"\n\n#~ msgid "Gone"\n#~ msgstr "Ido"\n', mime_type: MIME }, analyses: ['sentiment'] })
    expect(status).toBe(400)
    expect(JSON.stringify(body)).toContain('/document/value')
    expect(JSON.stringify(body)).toContain('obsolete')
  })

  // a probe: fuzzy drafts and untranslated entries were written over with their msgid
  const SPANISH = 'msgid ""\nmsgstr ""\n"Language: es\\n"\n\nmsgid "Open Acme"\nmsgstr "Abrir Acme"\n\n' +
    '#, fuzzy\nmsgid "Close the window"\nmsgstr "Cerrar la ventana"\n\nmsgid "Save the file"\nmsgstr ""\n'

  it('substitute changes only the translations it applies to: a fuzzy draft is kept, an untranslated entry stays empty', async () => {
    const { status, body } = await post('/language/substitute', { document: { value: SPANISH, mime_type: MIME, language: 'es' }, substitutions: [{ text: 'Acme', substitution: 'Zeta' }] })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.document.value).toBe(SPANISH.replace('msgstr "Abrir Acme"', 'msgstr "Abrir Zeta"'))
    // a fuzzy draft is a translation too: substituted in place, still fuzzy
    const fuzzy = await post('/language/substitute', { document: { value: SPANISH, mime_type: MIME, language: 'es' }, substitutions: [{ text: 'ventana', substitution: 'pestaña' }] })
    expect(fuzzy.status, JSON.stringify(fuzzy.body)).toBe(200)
    expect(fuzzy.body.document.value).toBe(SPANISH.replace('msgstr "Cerrar la ventana"', 'msgstr "Cerrar la pestaña"'))
  })

  it('edit leaves a fuzzy entry\'s draft and an untranslated entry as they are when it has nothing to change there', async () => {
    const value = 'msgid ""\nmsgstr ""\n"Language: en_GB\\n"\n\nmsgid "Their is a libary."\nmsgstr "Their is a libary."\n\n' +
      '#, fuzzy\nmsgid "Close the window, color"\nmsgstr "Shut the window."\n\nmsgid "Save the file"\nmsgstr ""\n'
    const { status, body } = await post('/language/edit', { document: { value, mime_type: MIME, language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(status, JSON.stringify(body)).toBe(200)
    const out = body.document.value as string
    expect(translation(out, 'Their is a libary.')[0]).toMatch(/library/)
    // all but the edited msgstr line byte for byte
    const lines = value.split('\n')
    const edited = lines.indexOf('msgstr "Their is a libary."')
    expect(out.split('\n').filter((_, i) => i !== edited)).toEqual(lines.filter((_, i) => i !== edited))
  })

  it('edit and substitute of a catalog holding no translation are a 400 saying untranslated entries are not read', async () => {
    const { status, body } = await post('/language/edit', { document: { value: 'msgid "Their is a libary."\nmsgstr ""\n', mime_type: MIME, language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(status).toBe(400)
    expect(JSON.stringify(body)).toContain('/document/value')
    expect(JSON.stringify(body)).toContain('empty msgstr')
    const substituted = await post('/language/substitute', { document: { value: 'msgid "Acme"\nmsgstr ""\n', mime_type: MIME, language: 'es' }, substitutions: [{ text: 'Acme', substitution: 'Zeta' }] })
    expect(substituted.status).toBe(400)
    expect(JSON.stringify(substituted.body)).toContain('empty msgstr')
  })
})
