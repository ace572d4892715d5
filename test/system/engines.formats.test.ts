/**
 * The localisation and subtitle formats through every outside engine (issue 27, part 1: "the
 * output parses with a real parser of that format, in tests, for every engine via the fakes"):
 * the service runs as its own process against a local fake of each engine, and each format's
 * answer is read back with a parser we did not write (xliff, gettext-parser, subtitle,
 * webvtt-parser; saxes for Android's strings; fflate and saxes for the office files and books,
 * test/helpers/office.ts). Every fake writes a text in capitals, so the
 * translated parts are known; placeholders and inline codes must come back as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import xliff from 'xliff'
import { po } from 'gettext-parser'
import { parseSync } from 'subtitle'
import webvtt from 'webvtt-parser'
import { readAndroidStrings } from '../helpers/android-strings.js'
import { base64, DOCX, EPUB, makeDocx, makeEpub, makeOdf, makePptx, makeXlsx, members, ODT, PPTX, readParagraphs, text, textsOf, XLSX } from '../helpers/office.js'
import { startOutsideEngines, type OutsideEngines } from '../helpers/outside-engines.js'
import { startService, type RunningService } from '../helpers/service.js'

const OUTSIDE = ['deepl', 'google-cloud', 'google', 'openai', 'libretranslate'] as const

let engines: OutsideEngines | undefined
let service: RunningService

beforeAll(async () => {
  engines = await startOutsideEngines()
  service = await startService(engines.env)
}, 90_000)

afterAll(async () => {
  await service?.stop()
  await engines?.close()
})

/** en -> ja through one engine: the translated document's text. */
async function translate (engine: string, value: string, mime: string): Promise<string> {
  const res = await fetch(`${service.base}/language/translate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ source: 'en', targets: ['ja'], document: { value, mime_type: mime }, options: { service: engine, cache: false } })
  })
  const body = await res.json() as { results?: Record<string, { value: string, mime_type: string }> }
  expect(res.status, `${engine} ${mime}: ${JSON.stringify(body)}`).toBe(200)
  expect(body.results!['ja']!.mime_type).toBe(mime)
  return body.results!['ja']!.value
}

/** The text of an inline XLIFF value as the xliff package reads it (codes as their contents). */
const xliffText = (inline: unknown): string => typeof inline === 'string'
  ? inline
  : Array.isArray(inline) ? inline.map(xliffText).join('') : Object.values(inline as Record<string, { contents?: unknown }>).map(v => xliffText(v.contents ?? '')).join('')

const XLIFF12 = '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n' +
  ' <file source-language="en" datatype="plaintext" original="app">\n  <body>\n' +
  '   <trans-unit id="car"><source>The <g id="1">red</g> car is in {city}.</source></trans-unit>\n' +
  '   <trans-unit id="done"><source>Done</source><target state="final">Fet</target></trans-unit>\n' +
  '  </body>\n </file>\n</xliff>\n'
const XLIFF20 = '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en">\n <file id="f">\n' +
  '  <unit id="car"><segment><source>The <pc id="1">red</pc> car is in the house.<ph id="2"/></source></segment></unit>\n </file>\n</xliff>\n'
const PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n' +
  '#: src/app.c:12\n#, c-format\nmsgid "The red car is in %s."\nmsgstr ""\n\n' +
  'msgid "One house"\nmsgid_plural "%d houses"\nmsgstr[0] ""\nmsgstr[1] ""\n'
const SRT = '1\n00:00:01,000 --> 00:00:04,000\nThe red car is\nin the house.\n\n2\n00:00:05,000 --> 00:00:07,500\n<i>The house is big.</i>\n'
const VTT = 'WEBVTT\n\nNOTE kept as it is\n\n00:00:01.000 --> 00:00:04.000 align:start\nThe red car is\nin the house.\n'
const ANDROID = '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n  <string name="greeting">Hello %1$s, the car is red.</string>\n' +
  '  <string name="id" translatable="false">com.example</string>\n' +
  '  <plurals name="houses"><item quantity="one">One house</item><item quantity="other">%d houses</item></plurals>\n</resources>\n'

const OFFICE = {
  docx: makeDocx('<w:p><w:r><w:rPr><w:lang w:val="en-US"/></w:rPr><w:t xml:space="preserve">The </w:t></w:r><w:r><w:rPr><w:b/><w:lang w:val="en-US"/></w:rPr><w:t>red</w:t></w:r><w:r><w:rPr><w:lang w:val="en-US"/></w:rPr><w:t xml:space="preserve"> car is in {city}.</w:t></w:r></w:p>'),
  pptx: makePptx(['<p:sp><p:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t xml:space="preserve">The </a:t></a:r><a:r><a:rPr lang="en-US" b="1"/><a:t>red</a:t></a:r><a:r><a:rPr lang="en-US"/><a:t> car.</a:t></a:r></a:p></p:txBody></p:sp>']),
  xlsx: makeXlsx('Sheet', ['<t>The red car</t>'], '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><f>1+1</f><v>2</v></c></row>'),
  odt: makeOdf(ODT, '<office:text><text:p>The <text:span text:style-name="T1">red</text:span> car.</text:p></office:text>'),
  epub: makeEpub(['<p>The <b>red</b> car.</p>'])
}

describe.each(OUTSIDE)('the localisation formats through %s, read back with their own parsers', (engine) => {
  it('office files and books in base64: runs, spans and inline elements follow their words, formulas kept', async () => {
    const docx = members(await translate(engine, base64(OFFICE.docx), DOCX))
    expect(readParagraphs(text(docx['word/document.xml']!))[0]).toEqual([
      { text: 'THE ', bold: false, italic: false, link: false, lang: 'ja' },
      { text: 'RED', bold: true, italic: false, link: false, lang: 'ja' },
      { text: ' CAR IS IN {city}.', bold: false, italic: false, link: false, lang: 'ja' }
    ])
    const pptx = members(await translate(engine, base64(OFFICE.pptx), PPTX))
    expect(text(pptx['ppt/slides/slide1.xml']!)).toContain('<a:r><a:rPr lang="ja" b="1"/><a:t>RED</a:t></a:r>')
    const xlsx = members(await translate(engine, base64(OFFICE.xlsx), XLSX))
    expect(textsOf(text(xlsx['xl/sharedStrings.xml']!), 'si')).toEqual(['THE RED CAR'])
    expect(text(xlsx['xl/worksheets/sheet1.xml']!)).toContain('<c r="B1"><f>1+1</f><v>2</v></c>')
    const odt = members(await translate(engine, base64(OFFICE.odt), ODT))
    expect(text(odt['content.xml']!)).toContain('<text:p>THE <text:span text:style-name="T1">RED</text:span> CAR.</text:p>')
    const epub = members(await translate(engine, base64(OFFICE.epub), EPUB))
    expect(text(epub['OEBPS/text/chapter 1.xhtml']!)).toContain('<p>THE <b>RED</b> CAR.</p>')
  })

  it('XLIFF 1.2 and 2.0: targets written, codes and placeholders kept, final targets left alone', async () => {
    const one = await xliff.xliff12ToJs(await translate(engine, XLIFF12, 'application/xliff+xml'))
    expect(one.targetLanguage).toBe('ja')
    const units = one.resources['app']!
    expect(xliffText(units['car']!.target)).toBe('THE RED CAR IS IN {city}.')
    expect(JSON.stringify(units['car']!.target)).toMatch(/"id":"1"/)
    expect(xliffText(units['done']!.target)).toBe('Fet')
    const two = await xliff.xliff2js(await translate(engine, XLIFF20, 'application/xliff+xml'))
    expect(two.targetLanguage).toBe('ja')
    expect(xliffText(two.resources['f']!['car']!.target)).toBe('THE RED CAR IS IN THE HOUSE.')
  })

  it('gettext PO: msgstr written, the c-format placeholder kept, one plural form for Japanese', async () => {
    const parsed = po.parse(await translate(engine, PO, 'text/x-gettext-translation'))
    expect(parsed.headers).toMatchObject({ Language: 'ja', 'Plural-Forms': 'nplurals=1; plural=0;' })
    const entries = parsed.translations['']!
    expect(entries['The red car is in %s.']!.msgstr).toEqual(['THE RED CAR IS IN %s.'])
    expect(entries['The red car is in %s.']!.comments?.reference).toBe('src/app.c:12')
    expect(entries['One house']!.msgstr).toEqual(['%d HOUSES'])
  })

  it('SubRip and WebVTT: cue text translated on as many lines, timings and blocks kept', async () => {
    const srt = parseSync(await translate(engine, SRT, 'application/x-subrip')).flatMap(node => node.type === 'cue' ? [node.data] : [])
    expect(srt.map(c => [c.start, c.end])).toEqual([[1000, 4000], [5000, 7500]])
    expect(srt[0]!.text.split('\n')).toHaveLength(2)
    expect(srt[0]!.text.replace('\n', ' ')).toBe('THE RED CAR IS IN THE HOUSE.')
    expect(srt[1]!.text).toBe('<i>THE HOUSE IS BIG.</i>')
    const vttText = await translate(engine, VTT, 'text/vtt')
    const tree = new webvtt.WebVTTParser().parse(vttText, 'metadata')
    expect(tree.errors).toEqual([])
    expect(tree.cues.map(c => c.text.replace('\n', ' '))).toEqual(['THE RED CAR IS IN THE HOUSE.'])
    expect(vttText).toContain('NOTE kept as it is\n')
  })

  it('Android strings.xml: strings and plurals translated, format specifiers and untranslatable strings kept', async () => {
    const read = readAndroidStrings(await translate(engine, ANDROID, 'application/vnd.android.strings+xml'))
    expect(read.strings['greeting']).toBe('HELLO %1$s, THE CAR IS RED.')
    expect(read.strings['id']).toBe('com.example')
    expect(read.plurals['houses']).toEqual({ other: '%d HOUSES' })
  })
})
