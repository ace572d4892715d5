/**
 * SRT and WebVTT documents over HTTP: translated by the embedded Apertium and by an outside
 * engine (the LibreTranslate fake), read back with real subtitle parsers; detect, edit, analyze
 * and substitute take them too, and a broken file is a 400 naming its line.
 */
import { describe, expect, it } from 'vitest'
import { parseSync } from 'subtitle'
import webvtt from 'webvtt-parser'
import { formatApps } from '../../helpers/format-apps.js'

const { post, libre } = formatApps()

const SRT = '1\r\n00:00:01,000 --> 00:00:04,000\r\nThe red car is in\r\nthe big house.\r\n\r\n' +
  '2\r\n00:00:05,000 --> 00:00:07,500\r\n<i>The house is new.</i>\r\n'
const VTT = 'WEBVTT\n\nSTYLE\n::cue { color: yellow }\n\nNOTE the red car\n\n' +
  'one\n00:00:01.000 --> 00:00:04.000 align:start position:10%\nThe red car is in\nthe big house.\n\n' +
  '00:00:05.000 --> 00:00:07.500\n<v Ana>The house is <b>new</b>.\n'

function srtCues (text: string): Array<{ start: number, end: number, text: string }> {
  return parseSync(text).flatMap(node => node.type === 'cue' ? [node.data] : [])
}

function vttCues (text: string): Array<{ id: string, startTime: number, endTime: number, text: string }> {
  const tree = new webvtt.WebVTTParser().parse(text, 'metadata')
  expect(tree.errors, text).toEqual([])
  return tree.cues
}

describe('SRT and WebVTT through /language/translate and /bulk', () => {
  it('Apertium translates SRT cues, a sentence across lines whole, timings kept', async () => {
    const { status, body } = await post('/language/translate', { document: { value: SRT, mime_type: 'application/x-subrip' }, source: 'en', targets: ['es'] })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.results.es.mime_type).toBe('application/x-subrip')
    const out = body.results.es.value as string
    const cues = srtCues(out)
    expect(cues.map(c => [c.start, c.end])).toEqual([[1000, 4000], [5000, 7500]])
    expect(cues[0]!.text.split('\n')).toHaveLength(2)
    expect(cues[0]!.text).toMatch(/coche/)
    expect(cues[0]!.text).toMatch(/casa/)
    expect(cues[1]!.text).toMatch(/^<i>.*casa.*<\/i>$/)
    expect(out.startsWith('1\r\n00:00:01,000 --> 00:00:04,000\r\n')).toBe(true)
  })

  it('Apertium translates WebVTT in bulk beside other formats, blocks and settings kept', async () => {
    const { status, body } = await post('/language/translate/bulk', {
      documents: [{ value: VTT, mime_type: 'text/vtt' }, { value: SRT, mime_type: 'application/x-subrip' }, { value: 'The house.' }],
      source: 'en',
      targets: ['es', 'ca']
    })
    expect(status, JSON.stringify(body)).toBe(200)
    for (const target of ['es', 'ca']) {
      const out = body[0].results[target].value as string
      expect(out.startsWith('WEBVTT\n\nSTYLE\n::cue { color: yellow }\n\nNOTE the red car\n\none\n00:00:01.000 --> 00:00:04.000 align:start position:10%\n')).toBe(true)
      const cues = vttCues(out)
      expect(cues.map(c => [c.id, c.startTime, c.endTime])).toEqual([['one', 1, 4], ['', 5, 7.5]])
      expect(cues[0]!.text).not.toMatch(/\b(?:house|red|big)\b/)
      expect(cues[1]!.text).toMatch(/^<v Ana>.*<b>.+<\/b>/)
      expect(srtCues(body[1].results[target].value)).toHaveLength(2)
    }
  })

  it('an outside engine (LibreTranslate) gets each sentence once, glossary applied, and the file parses', async () => {
    const { status, body } = await post('/language/translate', {
      document: { value: VTT, mime_type: 'text/vtt' },
      source: 'en',
      targets: ['de'],
      substitutions: [{ source: 'en', target: 'de', text: 'house', substitution: 'Haus' }]
    }, 'libretranslate')
    expect(status, JSON.stringify(body)).toBe(200)
    const cues = vttCues(body.results.de.value)
    expect(cues[0]!.text.replace('\n', ' ')).toBe('THE RED CAR IS IN THE BIG Haus.')
    expect(cues[0]!.text.split('\n')).toHaveLength(2)
    expect(cues[1]!.text).toBe('<v Ana>THE Haus IS <b>NEW</b>.')
    const sent = libre().calls.filter(c => c.path === '/translate').flatMap(c => (c.body as { q: string[] }).q)
    expect(sent.some(q => /^The red car is in the big <x id="\d+"\/>\.$/.test(q))).toBe(true)

    const srt = await post('/language/translate', { document: { value: SRT, mime_type: 'application/x-subrip' }, source: 'en', targets: ['fr'] }, 'libretranslate')
    expect(srt.status, JSON.stringify(srt.body)).toBe(200)
    expect(srtCues(srt.body.results.fr.value).map(c => c.text)).toEqual(['THE RED CAR IS IN\nTHE BIG HOUSE.', '<i>THE HOUSE IS NEW.</i>'])
  })

  it('Apertium keeps a ruby at the start of a cue whole, and a voice per line', async () => {
    const ruby = '<ruby>Tokyo<rt>city</rt></ruby>'
    const vtt = `WEBVTT\n\n00:01.000 --> 00:02.000\n${ruby} is big.\n\n00:00:03.000 --> 00:00:05.000\n<v Bob>Is it ready?</v>\n<v Alice>Not yet, wait.\n`
    const srt = `1\n00:00:01,000 --> 00:00:02,000\n${ruby} is big.\n`
    const { status, body } = await post('/language/translate/bulk', {
      documents: [{ value: vtt, mime_type: 'text/vtt' }, { value: srt, mime_type: 'application/x-subrip' }],
      source: 'en',
      targets: ['es']
    })
    expect(status, JSON.stringify(body)).toBe(200)
    const cues = vttCues(body[0].results.es.value)
    expect(cues[0]!.text.startsWith(`${ruby} `)).toBe(true)
    expect(cues[0]!.text).not.toMatch(/\bbig\b/)
    const [bob, alice, ...more] = cues[1]!.text.split('\n')
    expect(more).toEqual([])
    expect(bob).toMatch(/^<v Bob>[^<]+<\/v>$/)
    expect(alice).toMatch(/^<v Alice>[^<]+$/)
    expect(`${bob} ${alice}`).not.toMatch(/\b(?:ready|yet|wait)\b/)
    expect(srtCues(body[1].results.es.value)[0]!.text.startsWith(`${ruby} `)).toBe(true)
  })

  it('a broken file is a 400 at /document/value naming the line', async () => {
    const { status, body } = await post('/language/translate', { document: { value: 'WEBVTT\n\n00:01.000 --> 00:02.000\nHi.\n\nnope\nnope\n', mime_type: 'text/vtt' }, source: 'en', targets: ['es'] })
    expect(status).toBe(400)
    expect(JSON.stringify(body)).toContain('/document/value')
    expect(JSON.stringify(body)).toContain('line 7: expected a timing line')
    const bulk = await post('/language/translate/bulk', { documents: [{ value: 'The house.' }, { value: 'hello\n', mime_type: 'application/x-subrip' }], source: 'en', targets: ['es'] })
    expect(bulk.status).toBe(400)
    expect(JSON.stringify(bulk.body)).toContain('/documents/1/value')
    expect(JSON.stringify(bulk.body)).toContain('line 1: expected a cue number')
  })
})

describe('SRT and WebVTT on the other document endpoints', () => {
  it('detect reads the cue text only', async () => {
    const { status, body } = await post('/language/detect', { document: { value: 'WEBVTT\n\nNOTE the red car is in the house\n\n00:01.000 --> 00:04.000\nEl coche rojo está en\nla casa grande.\n', mime_type: 'text/vtt' } })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.language).toBe('es')
  })

  it('substitute applies rules to cue text and keeps the rest', async () => {
    const { status, body } = await post('/language/substitute', {
      document: { value: SRT, mime_type: 'application/x-subrip', language: 'en' },
      substitutions: [{ text: 'house', substitution: 'home' }]
    })
    expect(status, JSON.stringify(body)).toBe(200)
    // the cue's text is written again on as many lines, re-balanced
    const oneLine = (text: string): string => text.replace(/\r\n(?!\r\n|\d)/g, ' ')
    expect(oneLine(body.document.value)).toBe(oneLine(SRT.replaceAll('house', 'home')))
    expect(srtCues(body.document.value).map(c => c.text.split('\n').length)).toEqual([2, 1])
  })

  it('edit corrects cue text and analyze reads it', async () => {
    const srt = '1\n00:00:01,000 --> 00:00:04,000\nTheir is a libary in\nthe house.\n'
    const edited = await post('/language/edit', { document: { value: srt, mime_type: 'application/x-subrip', language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    expect(edited.body.document.value).toMatch(/^1\n00:00:01,000 --> 00:00:04,000\n.*library/)
    expect(srtCues(edited.body.document.value)).toHaveLength(1)
    const analyzed = await post('/language/analyze', { document: { value: VTT, mime_type: 'text/vtt' }, analyses: ['sentiment'] })
    expect(analyzed.status, JSON.stringify(analyzed.body)).toBe(200)
    expect(analyzed.body.meta.language).toBe('en')
  })
})
