import { msgfmtErrors } from '../../../helpers/gettext.js'
import { describe, expect, it } from 'vitest'
import { po } from 'gettext-parser'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import { prepareForTranslation } from '../../../../src/core/documents/prepare.js'
import { ValidationError } from '../../../../src/errors.js'
import { upper } from './engines.js'

const PO = '# Translation of demo\n' +
  'msgid ""\nmsgstr ""\n"Project-Id-Version: demo 1.0\\n"\n"Language: en\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
  '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n' +
  '#. TRANSLATORS: the file menu\n#: src/menu.c:12 src/menu.c:40\n#, c-format\nmsgid "Open %s now."\nmsgid_plural "Open %d files now."\nmsgstr[0] ""\nmsgstr[1] ""\n\n' +
  '#, python-format\nmsgid "Hello %(name)s, the house is red."\nmsgstr ""\n\n' +
  '#, fuzzy\n#| msgid "Old house"\nmsgid "The new house"\nmsgstr "La casa vieja"\n\n' +
  'msgid "Done"\nmsgstr "Hecho"\n\n' +
  'msgctxt "verb"\nmsgid "Open"\nmsgstr ""\n\n' +
  'msgctxt "adjective"\nmsgid "Open"\nmsgstr ""\n\n' +
  '#~ msgid "Gone"\n#~ msgstr "Ido"\n'

const MIME = 'text/x-gettext-translation'
const through = (target: string | undefined, engine = upper): string => {
  const doc = segmentDocument(PO, MIME)
  return doc.rebuild(doc.segments.map(engine), target) as string
}
const entry = (parsed: ReturnType<typeof po.parse>, msgid: string, context = '') => parsed.translations[context]![msgid]!

describe('text/x-gettext-translation', () => {
  it('sends the msgids of untranslated and fuzzy entries, each context apart; a file unchanged comes back byte for byte', () => {
    const doc = segmentDocument(PO, MIME)
    expect(doc.segments).toEqual([
      'Open <x id="1"/> now.',
      'Open <x id="1"/> files now.',
      'Hello <x id="1"/>, the house is red.',
      'The new house',
      'Open',
      'Open'
    ])
    expect(doc.rebuild(doc.segments)).toBe(PO)
  })

  it('protects the flag\'s conversions even when placeholders are not protected', () => {
    const prepared = prepareForTranslation(PO, MIME, { placeholders: false, rules: [], caseSensitive: false })
    expect(prepared.segments.slice(0, 3)).toEqual(['Open <x id="1"/> now.', 'Open <x id="1"/> files now.', 'Hello <x id="1"/>, the house is red.'])
  })

  it('writes msgstr, plurals for the target\'s forms, Language and Plural-Forms; keeps comments, flags, finished and obsolete entries', () => {
    const parsed = po.parse(through('ru'))
    expect(parsed.headers).toMatchObject({ 'Project-Id-Version': 'demo 1.0', Language: 'ru' })
    expect(parsed.headers!['Plural-Forms']).toMatch(/^nplurals=3; plural=\(n % 10 == 1 && n % 100 != 11 \? 0 : .+\);$/)
    const open = entry(parsed, 'Open %s now.')
    expect(open.msgstr).toEqual(['OPEN %s NOW.', 'OPEN %d FILES NOW.', 'OPEN %d FILES NOW.'])
    expect(open.comments).toMatchObject({ extracted: 'TRANSLATORS: the file menu', reference: 'src/menu.c:12 src/menu.c:40', flag: 'c-format' })
    expect(entry(parsed, 'Hello %(name)s, the house is red.').msgstr).toEqual(['HELLO %(name)s, THE HOUSE IS RED.'])
    const fuzzy = entry(parsed, 'The new house')
    expect(fuzzy.msgstr).toEqual(['THE NEW HOUSE'])
    expect(fuzzy.comments).toMatchObject({ flag: 'fuzzy', previous: 'msgid "Old house"' })
    expect(entry(parsed, 'Done').msgstr).toEqual(['Hecho'])
    expect(entry(parsed, 'Open', 'verb').msgstr).toEqual(['OPEN'])
    expect(entry(parsed, 'Open', 'adjective').msgstr).toEqual(['OPEN'])
    expect(parsed.obsolete!['']!.Gone!.msgstr).toEqual(['Ido'])
  })

  it('fills as many plural forms as the target has: one for Japanese, two for Spanish, six for Arabic', () => {
    const forms = (target: string): string[] => entry(po.parse(through(target)), 'Open %s now.').msgstr
    expect(forms('ja')).toEqual(['OPEN %d FILES NOW.'])
    expect(forms('es')).toEqual(['OPEN %s NOW.', 'OPEN %d FILES NOW.'])
    expect(forms('ar')).toHaveLength(6)
    expect(forms('ar')[1]).toBe('OPEN %s NOW.')
    const brazil = po.parse(through('pt-BR'))
    expect(brazil.headers).toMatchObject({ Language: 'pt_BR', 'Plural-Forms': 'nplurals=2; plural=(n != 1);' })
  })

  it('changes only the msgstr lines translated and the header lines set: fuzzy, obsolete, comments and contexts stay in place', () => {
    const out = through('ru')
    const msgstr = /^(?:msgstr(?:\[\d\])? ".*"|".*")$/
    // every line but the msgstr strings (the header's included) is the source's, in its order
    expect(out.split('\n').filter(line => !msgstr.test(line))).toEqual(PO.split('\n').filter(line => !msgstr.test(line)))
    expect(out).toContain('#, fuzzy\n#| msgid "Old house"\nmsgid "The new house"\nmsgstr "THE NEW HOUSE"\n')
    expect(out).toContain('msgctxt "verb"\nmsgid "Open"\nmsgstr "OPEN"\n\nmsgctxt "adjective"')
    expect(out).toContain('"Project-Id-Version: demo 1.0\\n"\n"Language: ru\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=3;')
    expect(out.endsWith('#~ msgid "Gone"\n#~ msgstr "Ido"\n')).toBe(true)
  })

  // a probe: a Polish catalog into Spanish got Spanish's Plural-Forms over its finished Polish
  // entries' three forms, which msgfmt -c refuses (npm po2json's pl.po and ja.po, rubenv/pofile's nplurals-6.po)
  const POLISH = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: pl\\n"\n' +
    '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n' +
    'msgid "One file"\nmsgid_plural "%d files"\nmsgstr[0] "Jeden plik"\nmsgstr[1] "%d pliki"\nmsgstr[2] "%d plików"\n\nmsgid "Open"\nmsgstr ""\n'
  const JAPANESE = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: ja\\n"\n"Plural-Forms: nplurals=1; plural=0;\\n"\n\n' +
    'msgid "One file"\nmsgid_plural "%d files"\nmsgstr[0] "%d ファイル"\n\nmsgid "Close"\nmsgstr "閉じる"\n\nmsgid "Open"\nmsgstr ""\n'
  const ARABIC = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: ar\\n"\n' +
    '"Plural-Forms: nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);\\n"\n\n' +
    'msgid "One file"\nmsgid_plural "%d files"\nmsgstr[0] "لا ملفات"\nmsgstr[1] "ملف واحد"\nmsgstr[2] "ملفان"\nmsgstr[3] "%d ملفات"\nmsgstr[4] "%d ملفًا"\nmsgstr[5] "%d ملف"\n\n' +
    'msgid "Open"\nmsgstr ""\n'
  const forTarget = (text: string, target: string): { segments: string[], out: string } => {
    const doc = segmentDocument(text, MIME, { target })
    return { segments: doc.segments, out: doc.rebuild(doc.segments.map(upper), target) as string }
  }

  it('a catalog in another language than the target: its finished entries translated from their msgid into the target\'s forms, as msgfmt -c checks it', () => {
    for (const [source, language] of [[POLISH, 'pl'], [JAPANESE, 'ja'], [ARABIC, 'ar']] as const) {
      expect(msgfmtErrors(source) ?? '').toBe('')
      for (const [target, count] of [['es', 2], ['ja', 1], ['ar', 6], ['pl', 3]] as const) {
        const { segments, out } = forTarget(source, target)
        const parsed = po.parse(out)
        expect(parsed.headers).toMatchObject({ Language: target })
        expect(parsed.headers!['Plural-Forms']).toMatch(new RegExp(`^nplurals=${count};`))
        const forms = entry(parsed, 'One file').msgstr
        expect(forms).toHaveLength(count)
        expect(entry(parsed, 'Open').msgstr).toEqual(['OPEN'])
        if (target === language) {
          // into its own language: the finished entries kept, only the empty one read
          expect(segments).toEqual(['Open'])
          expect(forms).toEqual(entry(po.parse(source), 'One file').msgstr)
        } else {
          expect(segments).toContain('One file')
          expect(new Set(forms)).toEqual(new Set(count === 1 ? ['%D FILES'] : ['ONE FILE', '%D FILES']))
        }
        if (source === JAPANESE) expect(entry(parsed, 'Close').msgstr).toEqual([target === 'ja' ? '閉じる' : 'CLOSE'])
        const errors = msgfmtErrors(out)
        if (errors !== undefined) expect(errors, out).toBe('')
      }
    }
  })

  it('a catalog naming no language: its singular finished entries kept, a plural with other than the target\'s forms translated', () => {
    const unnamed = POLISH.replace('"Language: pl\\n"\n', '') + '\nmsgid "Close"\nmsgstr "Zamknij"\n'
    const { segments, out } = forTarget(unnamed, 'es')
    expect(segments).toEqual(['One file', '%d files', 'Open'])
    const parsed = po.parse(out)
    expect(entry(parsed, 'One file').msgstr).toEqual(['ONE FILE', '%D FILES'])
    expect(entry(parsed, 'Close').msgstr).toEqual(['Zamknij'])
    const errors = msgfmtErrors(out)
    if (errors !== undefined) expect(errors, out).toBe('')
    // a region of the target is its language: pl_PL into pl keeps them
    expect(forTarget(POLISH.replace('Language: pl', 'Language: pl_PL'), 'pl').segments).toEqual(['Open'])
  })

  it('a catalog in another script than the target\'s is another language: a Cyrillic Serbian one into Latin Serbian is translated throughout', () => {
    const serbian = (language: string): string => 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: ' + language + '\\n"\n\n' +
      'msgid "The red car is fast."\nmsgstr "Црвени аутомобил је брз."\n\nmsgid "Good morning"\nmsgstr ""\n'
    expect(forTarget(serbian('sr'), 'sr-Latn').segments).toEqual(['The red car is fast.', 'Good morning'])
    expect(forTarget(serbian('sr_RS'), 'sr-Latn').segments).toEqual(['The red car is fast.', 'Good morning'])
    // gettext's own names of the same language and script keep the finished entries
    expect(forTarget(serbian('sr@latin'), 'sr-Latn').segments).toEqual(['Good morning'])
    expect(forTarget(serbian('sr_RS@latin'), 'sr-Latn').segments).toEqual(['Good morning'])
    expect(forTarget(serbian('sr'), 'sr').segments).toEqual(['Good morning'])
    expect(forTarget(serbian('zh_TW'), 'zh-Hant').segments).toEqual(['Good morning'])
    expect(forTarget(serbian('zh_CN'), 'zh-Hant').segments).toEqual(['The red car is fast.', 'Good morning'])
  })

  it('a file whose entries cannot be found line by line is written anew by gettext-parser, still complete', () => {
    // two strings on one keyword line: gettext-parser joins them, so the entry is not found by its line
    const odd = 'msgid "The red " "car"\nmsgstr ""\n\nmsgid "The house"\nmsgstr ""\n'
    const doc = segmentDocument(odd, MIME)
    const parsed = po.parse(doc.rebuild(doc.segments.map(upper), 'es') as string)
    expect(entry(parsed, 'The red car').msgstr).toEqual(['THE RED CAR'])
    expect(entry(parsed, 'The house').msgstr).toEqual(['THE HOUSE'])
    expect(parsed.headers).toMatchObject({ Language: 'es' })
  })

  it('reads a keyword whose string starts on the next line, as msgfmt does, and keeps the keyword line bare (Okapi\'s Test05.po got 400)', () => {
    const bare = 'msgid ""\r\nmsgstr ""\r\n"Content-Type: text/plain; charset=UTF-8\\n"\r\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\r\n\r\n' +
      'msgid "%d file"\r\nmsgid_plural "%d files"\r\nmsgstr[0]\r\n""\r\nmsgstr[1]\r\n""\r\n\r\n' +
      'msgctxt\r\n"door"\r\nmsgid\r\n"Open the "\r\n"door"\r\nmsgstr\r\n""\r\n'
    const doc = segmentDocument(bare, MIME)
    expect(doc.segments).toEqual(['%d file', '%d files', 'Open the door'])
    const out = doc.rebuild(doc.segments.map(upper), 'ru') as string
    const parsed = po.parse(out)
    expect(entry(parsed, '%d file').msgstr).toEqual(['%D FILE', '%D FILES', '%D FILES'])
    expect(entry(parsed, 'Open the door', 'door').msgstr).toEqual(['OPEN THE DOOR'])
    // only the msgstr strings (and the header's) changed: the keyword lines stay bare, CRLF kept
    const string = /^(?:msgstr(?:\[\d\])? )?".*"\r$/
    expect(out.split('\n').filter(line => !string.test(line))).toEqual([
      'msgid ""\r', '\r', 'msgid "%d file"\r', 'msgid_plural "%d files"\r', 'msgstr[0]\r', 'msgstr[1]\r', 'msgstr[2]\r', '\r',
      'msgctxt\r', 'msgid\r', 'msgstr\r', ''
    ])
    expect(out).toContain('\r\nmsgctxt\r\n"door"\r\nmsgid\r\n"Open the "\r\n"door"\r\nmsgstr\r\n"OPEN THE DOOR"\r\n')
  })

  it('reads a keyword with no space before its string, as msgfmt does: `msgid"a"`', () => {
    const tight = 'msgid ""\nmsgstr"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgctxt"door"\nmsgid"Open the door"\nmsgstr""\n\nmsgid"%d file"\nmsgid_plural"%d files"\nmsgstr[0]""\nmsgstr[1]""\n'
    const doc = segmentDocument(tight, MIME)
    expect(doc.segments).toEqual(['%d file', '%d files', 'Open the door'])
    const out = doc.rebuild(doc.segments.map(upper), 'es') as string
    const parsed = po.parse(out)
    expect(entry(parsed, 'Open the door', 'door').msgstr).toEqual(['OPEN THE DOOR'])
    expect(entry(parsed, '%d file').msgstr).toEqual(['%D FILE', '%D FILES'])
    expect(parsed.headers?.Language).toBe('es')
    // the lines not translated stay as written
    expect(out).toContain('\nmsgctxt"door"\nmsgid"Open the door"\nmsgstr ')
    expect(out).toContain('\nmsgid"%d file"\nmsgid_plural"%d files"\nmsgstr[0] ')
  })

  it('keeps `domain "name"` directives as written and reads each domain\'s entries, the same msgid in two domains too', () => {
    const header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    const domains = header + 'msgid "Open"\nmsgstr ""\n\ndomain "editor"\n\n#, fuzzy\nmsgid "Open"\nmsgstr "Abrir"\n\ndomain"viewer"\nmsgid "Close"\nmsgstr ""\n\ndomain\n\n"printer"\nmsgid "Print"\nmsgstr ""\n'
    const doc = segmentDocument(domains, MIME)
    expect(doc.segments).toEqual(['Open', 'Open', 'Close', 'Print'])
    expect(doc.rebuild(doc.segments)).toBe(domains)
    const out = doc.rebuild(doc.segments.map(upper), 'es') as string
    // gettext-parser reads no domain directive: the bytes, the msgstr lines alone written
    expect(out).toBe(domains.replace('charset=UTF-8\\n"\n', 'charset=UTF-8\\n"\n"Language: es\\n"\n').replace('"Open"\nmsgstr ""', '"Open"\nmsgstr "OPEN"')
      .replace('msgstr "Abrir"', 'msgstr "OPEN"').replace('msgstr ""\n\ndomain\n', 'msgstr "CLOSE"\n\ndomain\n').replace(/msgstr ""\n$/, 'msgstr "PRINT"\n'))
    // each domain's entries read by gettext-parser as a catalog of their own
    const [first, editor, viewer, printer] = out.split(/^domain.*\n(?:\n*".*"\n)?/m).map(part => po.parse(part))
    expect(entry(first!, 'Open').msgstr).toEqual(['OPEN'])
    expect(entry(editor!, 'Open').msgstr).toEqual(['OPEN'])
    expect(entry(editor!, 'Open').comments?.flag).toBe('fuzzy')
    expect(entry(viewer!, 'Close').msgstr).toEqual(['CLOSE'])
    expect(entry(printer!, 'Print').msgstr).toEqual(['PRINT'])
    // a domain's entries written anew by gettext-parser (not found line by line) still end their line before the next directive
    const odd = 'domain "a"\nmsgid "The red " "car"\nmsgstr ""\n\ndomain "b"\nmsgid "z"\nmsgstr ""\n'
    const again = segmentDocument(odd, MIME)
    const anew = again.rebuild(again.segments.map(upper), 'es') as string
    expect(anew).toMatch(/^domain "a"\n[^]*\ndomain "b"\nmsgid "z"\nmsgstr "Z"\n$/)
    expect(entry(po.parse(anew.slice('domain "a"\n'.length, anew.indexOf('domain "b"'))), 'The red car').msgstr).toEqual(['THE RED CAR'])
  })

  it('without a target (same-language work) writes msgstr and keeps the headers', () => {
    const parsed = po.parse(through(undefined))
    expect(parsed.headers).toMatchObject({ Language: 'en', 'Plural-Forms': 'nplurals=2; plural=(n != 1);' })
    expect(entry(parsed, 'Open %s now.').msgstr).toHaveLength(2)
  })

  it('finished entries read by their msgid (source) are never written', () => {
    const doc = segmentDocument(PO, MIME, { finished: 'source' })
    expect(doc.segments).toContain('Done')
    expect(doc.segments).not.toContain('Gone')
    const out = doc.rebuild(doc.segments.map(upper), 'es') as string
    expect(entry(po.parse(out), 'Done').msgstr).toEqual(['Hecho'])
    expect(entry(po.parse(out), 'The new house').msgstr).toEqual(['THE NEW HOUSE'])
  })

  it('finished entries read by their msgstr forms (translation) are written back in place where they changed', () => {
    const finished = 'msgid "Done"\nmsgstr "Hecho"\n\n#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d fichero"\nmsgstr[1] "%d ficheros"\n\nmsgid "Bye"\nmsgstr "Adiós"\n'
    const doc = segmentDocument(finished, MIME, { finished: 'translation' })
    expect(doc.segments).toEqual(['Hecho', '<x id="1"/> fichero', '<x id="1"/> ficheros', 'Adiós'])
    expect(doc.rebuild(doc.segments)).toBe(finished)
    const out = doc.rebuild(doc.segments.map(s => s.replace('fichero', 'archivo'))) as string
    expect(out).toBe(finished.replace('"%d fichero"', '"%d archivo"').replace('"%d ficheros"', '"%d archivos"'))
  })

  it('translation: a fuzzy entry is read by its msgstr and written back in place, fuzzy; an empty msgstr is neither read nor written', () => {
    const doc = segmentDocument(PO, MIME, { finished: 'translation' })
    expect(doc.segments).toEqual(['La casa vieja', 'Hecho'])
    expect(doc.rebuild(doc.segments)).toBe(PO)
    const out = doc.rebuild(doc.segments.map(s => s.replace('vieja', 'nueva'))) as string
    expect(out).toBe(PO.replace('msgstr "La casa vieja"', 'msgstr "La casa nueva"'))
    // a plural with one form filled: its forms read, the empty one stays empty
    const partial = 'msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d fichero"\nmsgstr[1] ""\n'
    const some = segmentDocument(partial, MIME, { finished: 'translation' })
    expect(some.segments).toEqual(['%d fichero'])
    expect(some.rebuild(['%d archivo'])).toBe(partial.replace('"%d fichero"', '"%d archivo"'))
  })

  it('answers a 400 naming the line', () => {
    const cases: Array<[string, RegExp]> = [
      ['msgid "a"\nmsgstr "b"\nthis is not PO\n', /^line 3: expected a comment, a keyword/],
      ['msgid "a"\nmsgstr "b\n', /^line 2: /],
      // a keyword with no string after it (msgfmt: syntax error)
      ['msgid "a"\nmsgstr\n\nmsgid "b"\nmsgstr "c"\n', /^line 2: expected a quoted string after msgstr/],
      ['msgid "a"\nmsgid_plural\n# a comment\n"as"\nmsgstr[0] ""\n', /^line 2: expected a quoted string after msgid_plural/],
      ['msgid "a"\nmsgstr\n', /^line 2: expected a quoted string after msgstr/],
      ['msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n', /Duplicate msgid error: entry "a"/],
      // a domain's name is one quoted string (msgfmt: unknown keyword, syntax error), as Okapi's Test03.po and Test04.po do not write it
      ['msgid "a"\nmsgstr "b"\n\ndomain TheDomain1\n', /^line 4: expected a quoted string after domain/],
      ['msgid "a"\nmsgstr "b"\n\ndomain The Domain 2\n', /^line 4: expected a quoted string after domain/],
      ['msgid "a"\nmsgstr "b"\n\ndomainx "d"\n', /^line 4: expected a comment, a keyword/],
      ['msgid "a"\nmsgstr "b"\n\ndomain "x"\n"y"\nmsgid "c"\nmsgstr ""\n', /^line 5: a domain's name is one quoted string/],
      ['msgid "a"\nmsgstr "b"\n\ndomain\n', /^line 4: expected a quoted string after domain/],
      // a line past a domain directive is named by its line in the file
      ['msgid "a"\nmsgstr ""\n\ndomain "x"\nmsgid "a"\nmsgstr "b\n', /^line 6: /]
    ]
    for (const [text, message] of cases) {
      try {
        segmentDocument(text, MIME, { path: ['documents', 0, 'value'] })
        expect.unreachable()
      } catch (err) {
        expect(err).toBeInstanceOf(ValidationError)
        expect((err as ValidationError).errors![0]!.path).toEqual(['documents', 0, 'value'])
        expect((err as ValidationError).errors![0]!.message).toMatch(message)
      }
    }
  })
})
