/**
 * DeepL's `tag_handling` and `ignore_tags` over the app (app.inject) with the real Apertium engine,
 * as issue 32's probe sent them: a text made only of kept elements is rebuilt in time linear in its
 * size, and a text with more kept elements than the bound is a 400 {message} naming the text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { MAX_KEPT_ELEMENTS } from '../../../../src/core/documents/kept-elements.js'
import fc from 'fast-check'
import { SaxesParser } from 'saxes'
import { nestedInline, xmlStartTags } from '../../../helpers/xml-markup.js'
import { testApp } from '../../../helpers/app.js'

const KEY = 'deepl-markup-key-0123456789'

describe('DeepL-compatible API: kept elements', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: 'deepl-markup', api_keys: [KEY] }]) }, { engines: true })
  }, 60_000)
  afterAll(async () => { await app?.close() })

  /** The answer, and the CPU time its request took of this process (its threads included; not the clock's: other processes share the cores). */
  const translate = async (payload: Record<string, unknown>): Promise<{ status: number, body: any, ms: number }> => {
    const started = process.cpuUsage()
    const res = await app.inject({ method: 'POST', url: '/deepl/v2/translate', headers: { authorization: `DeepL-Auth-Key ${KEY}` }, payload })
    const used = process.cpuUsage(started)
    return { status: res.statusCode, body: res.json(), ms: (used.user + used.system) / 1000 }
  }
  /** The least CPU time of five answers to the same request (garbage collection comes and goes), each checked to give the text back. */
  const fastest = async (payload: Record<string, unknown>): Promise<number> => {
    let best = Number.POSITIVE_INFINITY
    for (let i = 0; i < 5; i++) {
      const res = await translate(payload)
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200)
      expect(res.body.translations[0].text).toBe(payload['text'])
      best = Math.min(best, res.ms)
    }
    return best
  }

  it('rebuilds a text made only of kept elements in time linear in its size (8x the elements, well under 64x the time)', async () => {
    const eighth = MAX_KEPT_ELEMENTS / 8
    // tag_handling xml: self-closing elements (the probe's `<x/>` repeated); ignore_tags: elements kept with their content
    for (const [element, options] of [['<x/>', { tag_handling: 'xml' }], ['<x id="1"></x>', { tag_handling: 'html', ignore_tags: ['x'] }]] as const) {
      await translate({ text: element.repeat(MAX_KEPT_ELEMENTS), source_lang: 'EN', target_lang: 'ES', ...options })
      const small = await fastest({ text: element.repeat(eighth), source_lang: 'EN', target_lang: 'ES', ...options })
      const large = await fastest({ text: element.repeat(MAX_KEPT_ELEMENTS), source_lang: 'EN', target_lang: 'ES', ...options })
      // linear work gives about 8x; one split and join of the whole output per element gave 64x (64 KB: 6.3 s); 24 leaves room for a busy machine
      expect(large / small, `${element}: ${small.toFixed(0)} ms for ${eighth}, ${large.toFixed(0)} ms for ${MAX_KEPT_ELEMENTS}`).toBeLessThan(24)
    }
  }, 120_000)

  it('answers a 400 {message} naming the text past MAX_KEPT_ELEMENTS kept elements, self-closing and ignored alike', async () => {
    const over = '<x/>'.repeat(MAX_KEPT_ELEMENTS + 1)
    const xml = await translate({ text: over, source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' })
    expect(xml.status).toBe(400)
    expect(Object.keys(xml.body)).toEqual(['message'])
    expect(xml.body.message).toMatch(/^text: .*more than 10,000 elements/)
    // the second text of a list is named as such
    const listed = await translate({ text: ['The house', over], source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' })
    expect(listed.status).toBe(400)
    expect(listed.body.message).toMatch(/^text\[1\]: /)
    // ignored elements count too, together with self-closing ones
    const ignored = await translate({ text: '<x></x>'.repeat(MAX_KEPT_ELEMENTS / 2) + '<y/>'.repeat(MAX_KEPT_ELEMENTS / 2 + 1), source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml', ignore_tags: 'x' })
    expect(ignored.status).toBe(400)
    expect(ignored.body.message).toMatch(/^text: /)
    // without tag_handling the same text is plain text: nothing is kept, nothing counted
    const plain = await translate({ text: over, source_lang: 'EN', target_lang: 'ES' })
    expect(plain.status).toBe(200)
  }, 60_000)

  /** An XML text's elements in order, each with its name, and its CDATA sections, as saxes reads them (a well-formedness error throws). */
  const xmlOutline = (xml: string): { elements: string[], cdata: string[], text: string } => {
    const out = { elements: [] as string[], cdata: [] as string[], text: '' }
    const parser = new SaxesParser({ xmlns: false })
    parser.on('opentag', t => out.elements.push(t.name))
    parser.on('cdata', c => out.cdata.push(c))
    parser.on('text', t => { out.text += t })
    parser.on('error', e => { throw e })
    parser.write(xml).close()
    return out
  }

  it('tag_handling xml: a DITA <title> holding markup and CDATA, and an SVG\'s text, read as XML: well-formed, every element and CDATA kept, their prose translated', async () => {
    const text = '<task id="oil"><title>Changing the <b>oil</b> <![CDATA[<5W-30>]]></title><shortdesc>The engine needs clean oil.</shortdesc>' +
      '<fig><svg xmlns="http://www.w3.org/2000/svg"><title>The red car</title><text x="1" y="2">The big dog</text></svg></fig></task>'
    const res = await translate({ text, source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' })
    expect(res.status).toBe(200)
    const out: string = res.body.translations[0].text
    const before = xmlOutline(text)
    const after = xmlOutline(out)
    expect(after.elements).toEqual(before.elements)
    expect(after.cdata).toEqual(['<5W-30>'])
    // each element's prose is translated, none left as it was sent
    for (const english of ['Changing', 'oil', 'red car', 'big dog', 'engine']) expect(after.text).not.toContain(english)
  }, 60_000)

  it('tag_handling xml: an end tag HTML ignores (</img>, as <img> is void there) is kept once, the text around it translated: well-formed', async () => {
    const text = '<doc><img>The red car</img> is fast.</doc>'
    const res = await translate({ text, source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' })
    expect(res.status).toBe(200)
    const out: string = res.body.translations[0].text
    expect(xmlOutline(out).elements, out).toEqual(['doc', 'img'])
    expect(out.split('</img>').length, out).toBe(2)
    for (const english of ['red car', 'fast']) expect(out).not.toContain(english)
  }, 60_000)

  it('tag_handling xml: an <a> inside another, a void element holding content and random nestings of inline elements come back well-formed, every start tag as written', async () => {
    const probes = [
      '<p><a href="/1"><b>The big <a href="/2">red dog <a id="x"></a></a></b></a> runs.</p>',
      '<a><span>big <a>dog <a></a></a></span></a>',
      '<p><a><span>big <a><span>car near dog </span><a>near bird</a>small </a></span>big fast </a>.</p>',
      '<doc>The <br>big</br> dog <input>runs</input> fast <nobr>near <nobr>the red car</nobr></nobr>.</doc>'
    ]
    const texts = [...probes, ...fc.sample(nestedInline, { numRuns: 40, seed: 20240601 })]
    for (const url of ['/deepl/v2/translate', '/v2/translate']) {
      const res = await app.inject({ method: 'POST', url, headers: { authorization: `DeepL-Auth-Key ${KEY}` }, payload: { text: texts, source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' } })
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
      const translations: Array<{ text: string }> = res.json().translations
      for (const [i, text] of texts.entries()) expect(xmlStartTags(translations[i]!.text), `${text}\n${translations[i]!.text}`).toEqual(xmlStartTags(text))
      for (const english of ['big', 'dog']) expect(translations[0]!.text).not.toContain(english)
    }
  }, 60_000)

  it('tag_handling xml: elements HTML drops outside their place (head, body, frame, a table\'s parts) are kept, each one\'s text translated on its own', async () => {
    for (const [text, texts] of [
      ['<message><head>Hello world</head><body>The red car is fast.</body></message>', ['Hello world', 'The red car is fast.']],
      ['<row><td>The red car</td><td>The house</td></row>', ['The red car', 'The house']],
      ['<note><body>The red car</body><frame>The house</frame></note>', ['The red car', 'The house']],
      ['<doc><table><caption>The red car</caption>The house<tr>The dog</tr></table></doc>', ['The red car', 'The house', 'The dog']]
    ] as const) {
      const res = await translate({ text, source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' })
      expect(res.status).toBe(200)
      const out: string = res.body.translations[0].text
      expect(xmlOutline(out).elements, out).toEqual(xmlOutline(text).elements)
      // each text comes back between the same tags as its own translation
      const alone = await translate({ text: [...texts], source_lang: 'EN', target_lang: 'ES' })
      let expected: string = text
      for (const [i, english] of texts.entries()) expected = expected.replace(english, alone.body.translations[i].text)
      expect(out).toBe(expected)
    }
  }, 60_000)
})
