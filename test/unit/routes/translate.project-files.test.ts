/**
 * Files as projects write them (test/data/project-files: Termux's strings.xml with a DOCTYPE of
 * entities, Django's PO with msgctxt and extracted comments, gettext-parser's own msgctxt fixture,
 * Angular's XLIFF with ICU plural and select, FormatJS's ICU catalog), through /language/translate
 * with Apertium and with an outside engine (the LibreTranslate fake, which upper-cases), read back
 * with each format's parser: what was translated changes, nothing else does.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { po } from 'gettext-parser'
import xliff from 'xliff'
import { formatApps } from '../../helpers/format-apps.js'
import { readAndroidStrings } from '../../helpers/android-strings.js'

const { post, libre } = formatApps()

const file = (name: string): string => readFileSync(new URL(`../../data/project-files/${name}`, import.meta.url), 'utf8')
const ANDROID = 'application/vnd.android.strings+xml'
const PO = 'text/x-gettext-translation'
const XLIFF = 'application/xliff+xml'

const translate = async (value: unknown, mimeType: string, engine: 'embedded' | 'libretranslate' = 'embedded', target = 'es'): Promise<{ status: number, body: any, out: any }> => {
  const { status, body } = await post('/language/translate', { document: { value, mime_type: mimeType }, source: 'en', targets: [target] }, engine)
  return { status, body, out: body.results?.[target]?.value }
}

/** The file with each element's content (of `<string>`, `<target>`) emptied: what must not change. */
const withoutContent = (xml: string, element: string): string => xml.replace(new RegExp(`(<${element}\\b[^>]*>)[\\s\\S]*?(</${element}>)`, 'g'), '$1$2')

/** A PO file's lines less its msgstr lines (each keyword line and the strings continuing it). */
const withoutMsgstr = (text: string): string[] => {
  const kept: string[] = []
  let inMsgstr = false
  for (const line of text.split('\n')) {
    if (/^msgstr/.test(line)) inMsgstr = true
    else if (!line.startsWith('"')) inMsgstr = false
    if (!inMsgstr) kept.push(line)
  }
  return kept
}

/** The header's lines of a PO file (the strings after the first `msgstr ""`). */
const headerLines = (text: string): string[] => {
  const lines = text.split('\n')
  const at = lines.indexOf('msgstr ""')
  const end = lines.findIndex((l, i) => i > at && !l.startsWith('"'))
  return lines.slice(at + 1, end)
}

describe('Android strings.xml with a DOCTYPE of entities (Termux)', () => {
  const source = file('termux-strings.xml')

  it('Apertium translates it; the DOCTYPE and every &reference; are kept as written', async () => {
    const { status, body, out } = await translate(source, ANDROID)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(out.slice(0, out.indexOf('<resources>'))).toBe(source.slice(0, source.indexOf('<resources>')))
    expect(withoutContent(out, 'string')).toBe(withoutContent(source, 'string'))
    expect(out.match(/&TERMUX_\w+;/g)).toEqual(source.match(/&TERMUX_\w+;/g))
    const before = readAndroidStrings(source).strings
    const after = readAndroidStrings(out).strings
    expect(after.application_name).toBe('Termux')
    expect(after.termux_api_preferences_title).toBe('Termux:API')
    expect(out).toContain('<string name="shared_user_label">&TERMUX_APP_NAME; ')
    for (const name of ['bootstrap_error_body', 'permission_run_command_label', 'bootstrap_error_title', 'about_preference_title']) {
      expect(after[name], name).not.toBe(before[name])
    }
    expect(after.bootstrap_error_body).toMatch(/^Termux /)
    expect(after.bootstrap_error_not_primary_user_message).toMatch(/%1\$s\.$/)
    expect(after.bootstrap_error_not_primary_user_message).toContain('\n')
    expect(after.error_styling_not_installed).toContain('Termux:Styling')
  })

  it('an outside engine gets each reference as a token inside its sentence', async () => {
    const { status, body, out } = await translate(source, ANDROID, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(out).toContain('<string name="error_styling_not_installed">THE &TERMUX_STYLING_APP_NAME; PLUGIN APP IS NOT INSTALLED.</string>')
    expect(out).toContain('<string name="application_name">&TERMUX_APP_NAME;</string>')
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q)
    expect(sent).toContain('The <x id="1"/> Plugin App is not installed.')
  })

  it('an external entity is kept as written, never read; an undeclared one is a 400 naming its line', async () => {
    const external = '<?xml version="1.0"?>\n<!DOCTYPE resources [\n  <!ENTITY host SYSTEM "file:///etc/hostname">\n  <!ENTITY % remote SYSTEM "http://127.0.0.1:9/x.dtd">\n]>\n' +
      '<resources>\n  <string name="a">The house of &host; is big.</string>\n</resources>\n'
    const { status, body, out } = await translate(external, ANDROID, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(out).toBe(external.replace('The house of &host; is big.', 'THE HOUSE OF &host; IS BIG.'))
    const undeclared = '<resources>\n  <string name="a">The house.</string>\n  <string name="b">The &nowhere; car.</string>\n</resources>\n'
    const refused = await translate(undeclared, ANDROID)
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain('/document/value')
    expect(JSON.stringify(refused.body)).toMatch(/line 3: undefined entity/)
  })

  it('entities are never expanded: a billion laughs is translated in its size, fast', async () => {
    const levels = Array.from({ length: 10 }, (_, i) => `  <!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('\n')
    const laughs = `<!DOCTYPE resources [\n  <!ENTITY lol0 "lol">\n${levels}\n]>\n<resources>\n  <string name="a">The house &lol10; is big.</string>\n</resources>\n`
    const started = Date.now()
    const { status, body, out } = await translate(laughs, ANDROID)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(out.length).toBeLessThan(laughs.length * 2)
    expect(out).toContain('&lol10;')
  })
})

describe('gettext PO kept in version control: only msgstr changes', () => {
  it('Django: entries in their order, #. before #:, msgctxt in place; msgstr translated; the header changes only in Language', async () => {
    const source = file('django.po')
    const { status, body, out } = await translate(source, PO)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(withoutMsgstr(out)).toEqual(withoutMsgstr(source))
    const header = headerLines(out)
    // Language set in its line; Plural-Forms, which the file's plural entries need, added
    expect(header.filter(l => !headerLines(source).includes(l))).toEqual(['"Language: es\\n"', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"'])
    expect(header.length).toBe(headerLines(source).length + 1)
    const table = po.parse(out)
    expect(table.translations['']!['Enter a valid value.']!.msgstr[0]).toMatch(/valor/i)
    expect(table.translations['abbrev. month']!.March!.msgstr[0]).not.toBe('')
    expect(table.translations['alt. month']!.March!.msgstr[0]).not.toBe('')
    expect(table.translations['String to return when truncating text']!['%(truncated_text)s...']!.msgstr[0]).toContain('%(truncated_text)s')
    const [one, other] = table.translations['']!['%d minute']!.msgstr
    expect(one).toMatch(/^%d /)
    expect(other).toMatch(/^%d /)
    expect(table.translations['']!['%(field_label)s must be unique for %(date_field_label)s %(lookup_type)s.']!.comments!.extracted).toContain("Translators: The 'lookup_type'")
  })

  it("gettext-parser's msgctxt fixture, all translated already, comes back as it was but its header", async () => {
    const source = file('sort-with-msgctxt-test.pot')
    const { status, body, out } = await translate(source, PO, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(withoutMsgstr(out)).toEqual(withoutMsgstr(source))
    expect(out.slice(out.indexOf('\n\nmsgid "aaaa"'))).toBe(source.slice(source.indexOf('\n\nmsgid "aaaa"')))
    expect(po.parse(out).headers).toMatchObject({ Language: 'es', 'Content-Type': 'text/plain; charset=UTF-8' })
  })

  it('CRLF line ends stay; an outside engine fills msgstr in place', async () => {
    const source = 'msgid ""\r\nmsgstr ""\r\n"Language: en\\n"\r\n"Content-Type: text/plain; charset=UTF-8\\n"\r\n\r\n' +
      '#. a note\r\n#: a.c:1\r\nmsgctxt "menu"\r\nmsgid "Open the door."\r\nmsgstr ""\r\n\r\n#: a.c:2\r\nmsgid "Open"\r\nmsgstr ""\r\n'
    const { status, body, out } = await translate(source, PO, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(out).toBe(source.replace('"Language: en', '"Language: es').replace('msgid "Open the door."\r\nmsgstr ""', 'msgid "Open the door."\r\nmsgstr "OPEN THE DOOR."').replace('msgid "Open"\r\nmsgstr ""', 'msgid "Open"\r\nmsgstr "OPEN"'))
  })
})

describe('ICU MessageFormat: the structure, # and arguments kept, each sub-message translated', () => {
  const catalog = JSON.parse(file('formatjs-messages.json')) as Record<string, string>

  it("FormatJS's catalog through an outside engine: each sub-message sent on its own", async () => {
    const { status, body, out } = await translate(catalog, 'application/json', 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(out).toEqual({
      'cart.items': 'YOU HAVE {itemCount, plural, =0 {NO ITEMS} one {1 ITEM} other {{itemCount} ITEMS}}.',
      birthday: "IT'S MY CAT'S {year, selectordinal, one {#ST} two {#ND} few {#RD} other {#TH}} BIRTHDAY!",
      reply: '{gender, select, male {HE} female {SHE} other {THEY}} WILL RESPOND SHORTLY.',
      tax: '{taxableArea, select, yes {AN ADDITIONAL {taxRate, number, percent} TAX WILL BE COLLECTED.} other {NO TAXES APPLY.}}',
      photos: 'YOU HAVE {numPhotos, plural, =0 {NO PHOTOS.} =1 {ONE PHOTO.} other {# PHOTOS.}}'
    })
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q)
    expect(sent).toEqual(expect.arrayContaining(['no items', '<x id="1"/> items', '<x id="1"/> photos.', 'An additional <x id="1"/> tax will be collected.']))
  })

  it("FormatJS's catalog through Apertium: no English left in a sub-message", async () => {
    const { status, body, out } = await translate(catalog, 'application/json')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(out['cart.items']).toMatch(/^\S.* \{itemCount, plural, =0 \{[^{}]+\} one \{[^{}]+\} other \{\{itemCount\} [^{}]+\}\}\.$/)
    expect(out.photos).toMatch(/\{numPhotos, plural, =0 \{[^{}]+\} =1 \{[^{}]+\} other \{# [^{}]+\}\}$/)
    expect(out.reply).toMatch(/^\{gender, select, male \{[^{}]+\} female \{[^{}]+\} other \{[^{}]+\}\} /)
    expect(out['cart.items']).not.toMatch(/items|You have/)
    expect(out.photos).not.toMatch(/photos/)
    expect(out.tax).toMatch(/\{taxRate, number, percent\}/)
    expect(out.tax).not.toMatch(/taxes/)
  })

  it("Angular's XLIFF: plural and select units get translated targets with the ICU syntax and <x/> kept", async () => {
    const source = file('angular-messages.xlf')
    const { status, body, out } = await translate(source, XLIFF, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    const target = (id: string): string => new RegExp(`<trans-unit id="${id}"[\\s\\S]*?<target state="translated">([\\s\\S]*?)</target>`).exec(out)![1]!
    expect(target('5a134dee893586d02bffc9611056b9cadf9abfad')).toBe('{VAR_PLURAL, plural, =0 {JUST NOW} =1 {ONE MINUTE AGO} other {<x id="INTERPOLATION" equiv-text="{{minutes}}"/> MINUTES AGO} }')
    expect(target('eff74b75ab7364b6fa888f1cbfae901aaaf02295')).toBe('{VAR_SELECT, select, male {MALE} female {FEMALE} other {OTHER} }')
    expect(target('7151c2e67748b726f0864fc443861d45df21d706')).toBe('{VAR_PLURAL, plural, =0 {JUST NOW} =1 {ONE MINUTE AGO} other {<x id="INTERPOLATION" equiv-text="{{minutes}}"/> MINUTES AGO BY {VAR_SELECT, select, male {MALE} female {FEMALE} other {OTHER} }} }')
    const units = (await xliff.xliff12ToJs(out)).resources['ng2.template']!
    expect(units['d69f6b42305f49332026fef24b40227f02e34594']!.target).toEqual(['UPDATED ', { Standalone: { id: 'ICU', 'equiv-text': '{minutes, plural, =0 {...} =1 {...} other {...}}' } }])
  })

  it("Angular's XLIFF through Apertium: the plural's sub-messages in Spanish", async () => {
    const { status, body, out } = await translate(file('angular-messages.xlf'), XLIFF)
    expect(status, JSON.stringify(body)).toBe(200)
    const plural = /<trans-unit id="5a134dee893586d02bffc9611056b9cadf9abfad"[\s\S]*?<target state="translated">([\s\S]*?)<\/target>/.exec(out)![1]!
    expect(plural).toMatch(/^\{VAR_PLURAL, plural, =0 \{[^{}]+\} =1 \{[^{}]+\} other \{<x id="INTERPOLATION" equiv-text="\{\{minutes\}\}"\/> [^{}]+\} \}$/)
    expect(plural).not.toMatch(/just now|minute ago|minutes ago/)
  })

  it('in Android strings and PO msgids too', async () => {
    const android = '<resources>\n  <string name="files">{count, plural, one {# file} other {# files}} in the house</string>\n</resources>\n'
    const a = await translate(android, ANDROID, 'libretranslate')
    expect(a.status, JSON.stringify(a.body)).toBe(200)
    expect(readAndroidStrings(a.out).strings.files).toBe('{count, plural, one {# FILE} other {# FILES}} IN THE HOUSE')
    const gettext = 'msgid "{count, plural, one {You have # file.} other {You have # files.}}"\nmsgstr ""\n'
    const p = await translate(gettext, PO, 'libretranslate')
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(po.parse(p.out).translations['']!['{count, plural, one {You have # file.} other {You have # files.}}']!.msgstr).toEqual(['{count, plural, one {YOU HAVE # FILE.} other {YOU HAVE # FILES.}}'])
  })
})

describe('application/json catalogs: references to other messages and metadata are kept', () => {
  // i18next's own test resources (test/runtime/i18next.translation.formatting.test.js): nesting with options and formatters
  const i18next = {
    girlsAndBoysWithoutPluralTest: 'They have {{girls}} $t(girl, lowercase) and {{boys}} $t(boy, lowercase)',
    park: 'in $t(park, { "count": {{parkCount}} }, title case, underscore)',
    save: 'Click $t(save) to keep $t(look.deep)'
  }
  // vue-i18n's guide, "Linked messages"
  const vue = { message: { dio: 'DIO:', the_world: 'the world', linked: '@:message.dio @:message.the_world !!!!', homeAddress: 'Home address', missingHomeAddress: 'Please provide @.lower:message.homeAddress', braced: 'See @:(message.dio) now.' } }
  // Flutter's gen-l10n ARB (the Flutter guide, "Internationalizing Flutter apps")
  const arb = JSON.stringify({
    '@@locale': 'en',
    helloWorld: 'Hello {name}',
    '@helloWorld': { description: 'A greeting', placeholders: { name: { type: 'String', example: 'Bob' } } },
    nWombats: '{count, plural, =0{no wombats} =1{1 wombat} other{{count} wombats}}',
    '@nWombats': { description: 'A plural message', placeholders: { count: { type: 'num', format: 'compact' } } },
    helloWorldOn: 'Hello World on {date}',
    '@helloWorldOn': { description: 'A message with a date', placeholders: { date: { type: 'DateTime', format: 'EEE, M/d/y', isCustomDateFormat: 'true' } } }
  }, null, 2)

  /** Each message reference of a text, in order. */
  const references = (text: string): string[] => text.match(/\$t\((?:[^()]|\([^()]*\))*\)|@(?:\.\w+)?:(?:\([^()]*\)|[\w.]*\w)/g) ?? []
  const messages = (value: unknown): string[] => typeof value === 'string' ? [value] : Object.values(value as object).flatMap(messages)

  for (const engine of ['libretranslate', 'embedded'] as const) {
    it(`i18next nesting and vue-i18n links, byte for byte (${engine})`, async () => {
      for (const catalog of [i18next, vue]) {
        const { status, body, out } = await translate(catalog, 'application/json', engine)
        expect(status, JSON.stringify(body)).toBe(200)
        const before = messages(catalog)
        const after = messages(out)
        expect(after.map(references)).toEqual(before.map(references))
        // the words around them were translated
        expect(after.filter((text, i) => text !== before[i]).length).toBeGreaterThan(before.length / 2)
      }
    })

    it(`ARB metadata byte for byte, the messages translated (${engine})`, async () => {
      const { status, body, out } = await translate(arb, 'application/json', engine)
      expect(status, JSON.stringify(body)).toBe(200)
      const source = JSON.parse(arb) as Record<string, unknown>
      const parsed = JSON.parse(out as string) as Record<string, string>
      expect(Object.keys(parsed)).toEqual(Object.keys(source))
      // every line but a message's
      const metadata = (text: string): string[] => text.split('\n').filter(line => !/^ {2}"[^@"]+": "/.test(line))
      expect(metadata(out)).toEqual(metadata(arb))
      for (const key of ['helloWorld', 'nWombats', 'helloWorldOn']) expect(parsed[key], key).not.toBe(source[key])
      expect(parsed.helloWorld).toMatch(/\{name\}/)
      expect(parsed.helloWorldOn).toMatch(/\{date\}$/)
    })
  }

  it('the engine is sent the words, never a reference', async () => {
    await translate({ ...i18next, ...vue.message }, 'application/json', 'libretranslate')
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q).join('\n')
    expect(sent).toContain('They have <x id="1"/> <x id="2"/> and <x id="3"/> <x id="4"/>')
    expect(sent).not.toMatch(/\$t\(|@[.:]|lowercase|title case/)
  })
})

describe("ICU's apostrophe: a doubled one reaches the engine as one, and comes back doubled", () => {
  const catalog = { seen: "{n, plural, one {I can''t see # car.} other {I can''t see # cars.}}", quoted: "{n, plural, one {Type '{'# to open.} other {Type '{'# to open them.}}" }

  it('through an outside engine (what it was sent) and through Apertium', async () => {
    const { status, body, out } = await translate(catalog, 'application/json', 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q)
    expect(sent).toEqual(expect.arrayContaining(["I can't see <x id=\"1\"/> car.", "I can't see <x id=\"1\"/> cars."]))
    expect(sent.join('\n')).not.toContain("''")
    expect(out).toEqual({ seen: "{n, plural, one {I CAN''T SEE # CAR.} other {I CAN''T SEE # CARS.}}", quoted: "{n, plural, one {TYPE '{'# TO OPEN.} other {TYPE '{'# TO OPEN THEM.}}" })
    const apertium = await translate(catalog, 'application/json')
    expect(apertium.status, JSON.stringify(apertium.body)).toBe(200)
    expect(apertium.out.seen).toMatch(/^\{n, plural, one \{[^{}']+ # [^{}']+\} other \{[^{}']+ # [^{}']+\}\}$/)
    expect(apertium.out.quoted).toMatch(/^\{n, plural, one \{\S+ '\{'# [^{}']+\} other \{\S+ '\{'# [^{}']+\}\}$/)
  })
})

describe('XLIFF: a unit whose source is empty', () => {
  it('gets no target and no state, in 1.2 and 2.0', async () => {
    const v1 = '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n <file source-language="en" datatype="plaintext" original="a">\n  <body>\n' +
      '   <trans-unit id="empty"><source></source></trans-unit>\n   <trans-unit id="closed"><source/></trans-unit>\n' +
      '   <trans-unit id="blank"><source>  </source><target state="new"/></trans-unit>\n' +
      '   <trans-unit id="house"><source>The house.</source></trans-unit>\n  </body>\n </file>\n</xliff>\n'
    const one = await translate(v1, XLIFF, 'libretranslate')
    expect(one.status, JSON.stringify(one.body)).toBe(200)
    expect(one.out).toBe(v1.replace('original="a"', 'original="a" target-language="es"').replace('<source>The house.</source>', '<source>The house.</source><target state="translated">THE HOUSE.</target>'))
    const v2 = '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en">\n <file id="f">\n' +
      '  <unit id="e"><segment><source></source></segment></unit>\n  <unit id="h"><segment><source>The house.</source></segment></unit>\n </file>\n</xliff>\n'
    const two = await translate(v2, XLIFF, 'libretranslate')
    expect(two.status, JSON.stringify(two.body)).toBe(200)
    expect(two.out).toBe(v2.replace('srcLang="en"', 'srcLang="en" trgLang="es"').replace('<segment><source>The house.</source>', '<segment state="translated"><source>The house.</source><target>THE HOUSE.</target>'))
  })
})
