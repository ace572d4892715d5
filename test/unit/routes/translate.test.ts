/**
 * Translation over HTTP with the real embedded Apertium engine (installed by `make test`).
 * Expectations are dictionary facts (red -> rojo) and structure, not copied engine output.
 */
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

const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: auth, payload: payload as object })
const get = (url: string) => app.inject({ method: 'GET', url, headers: auth })

describe('POST /language/translate', () => {
  it('translates plain text into es, ca, gl, fr, pt and it (direct and pivoted pairs)', async () => {
    const res = await post('/language/translate', { document: { value: 'The red car is in the house.' }, source: 'en', targets: ['es', 'ca', 'gl', 'fr', 'pt', 'it'] })
    expect(res.statusCode).toBe(200)
    const { results, extra } = res.json()
    const expectWords: Record<string, RegExp[]> = {
      es: [/coche/, /rojo/, /casa/],
      ca: [/cotxe|carro/, /vermell/, /casa/],
      gl: [/coche/, /vermello/, /casa/],
      fr: [/voiture/, /rouge/, /maison/],
      pt: [/carro/, /vermelho/, /casa/],
      it: [/macchina|auto/, /ross[oa]/, /casa/]
    }
    for (const [target, words] of Object.entries(expectWords)) {
      expect(results[target].language).toBe(target)
      expect(results[target].mime_type).toBe('text/plain')
      for (const w of words) expect(results[target].value, target).toMatch(w)
      expect(extra.services[target]).toBe('apertium')
    }
    expect(extra.source).toBe('en')
  })

  it('translates es -> en and fr -> en', async () => {
    const es = await post('/language/translate', { document: { value: 'La casa es grande.' }, source: 'es', targets: ['en'] })
    expect(es.json().results.en.value).toMatch(/house/)
    const fr = await post('/language/translate', { document: { value: 'La maison est grande.' }, source: 'fr', targets: ['en'] })
    expect(fr.json().results.en.value).toMatch(/house/)
  })

  it('keeps HTML markup byte-exact and lets inline tags follow their words', async () => {
    const html = '<!DOCTYPE html><html><head><title>The house</title><style>p { color: red }</style></head>' +
      '<body><p class="intro">The <b>red</b> car &amp; the house.</p><p translate="no">The red car</p>' +
      '<img src="car.png" alt="A red car"><pre>The red car</pre><script>var car = "red"</script></body></html>'
    const res = await post('/language/translate', { document: { value: html, mime_type: 'text/html' }, source: 'en', targets: ['es'] })
    expect(res.statusCode).toBe(200)
    const out: string = res.json().results.es.value
    expect(out).toMatch(/<p class="intro">El coche <b>rojo<\/b> (&amp;|y) la casa\.<\/p>/)
    expect(out).toContain('<p translate="no">The red car</p>')
    expect(out).toContain('<pre>The red car</pre>')
    expect(out).toContain('<script>var car = "red"</script>')
    expect(out).toContain('<style>p { color: red }</style>')
    expect(out).toMatch(/<img src="car.png" alt="[^"]*rojo[^"]*">/)
    expect(out).toMatch(/<title>La casa<\/title>/)
    expect(res.json().results.es.mime_type).toBe('text/html')
  })

  it('translates a link wrapping a heading and text (common HTML5, was a 500), its markup byte-exact', async () => {
    const html = '<a href="/x"><h2>The house</h2>The red car</a>'
    const res = await post('/language/translate', { document: { value: html, mime_type: 'text/html' }, source: 'en', targets: ['es'] })
    expect(res.statusCode, res.body).toBe(200)
    const out: string = res.json().results.es.value
    expect(out).toMatch(/^<a href="\/x"><h2>[^<]*casa[^<]*<\/h2>[^<]*rojo[^<]*<\/a>$/)
  })

  it('a page\'s <html lang> names the target; text marked as another language is left as written', async () => {
    const html = '<!DOCTYPE html><html lang="en"><body><p>The red car is in the big house and the dog sleeps in the garden.</p>' +
      '<blockquote lang="fr"><p>Je pense, donc je suis.</p></blockquote><p>The house is <span lang="fr">la vie en rose</span>.</p></body></html>'
    // the source detected is compared with, as one given would be
    const res = await post('/language/translate', { document: { value: html, mime_type: 'text/html' }, source: 'auto', targets: ['es', 'en-GB'] })
    expect(res.statusCode).toBe(200)
    expect(res.json().extra.source).toBe('en')
    const out: string = res.json().results.es.value
    expect(out).toMatch(/^<!DOCTYPE html><html lang="es"><body><p>[^<]*coche[^<]*<\/p>/)
    expect(out).toContain('<blockquote lang="fr"><p>Je pense, donc je suis.</p></blockquote>')
    expect(out).toContain('<span lang="fr">la vie en rose</span>')
    expect(res.json().results['en-GB'].value).toBe(html)
  })

  it('keeps Markdown code, URLs and structure', async () => {
    const md = '# The house\n\nThe `red` car is in [the house](https://example.com/house).\n\n```sh\necho "the house"\n```\n\n- The red car\n- The house\n'
    const res = await post('/language/translate', { document: { value: md, mime_type: 'text/markdown' }, source: 'en', targets: ['es'] })
    const out: string = res.json().results.es.value
    expect(out).toMatch(/^# La casa\n\n/)
    expect(out).toContain('`red`')
    expect(out).toContain('](https://example.com/house)')
    expect(out).toContain('```sh\necho "the house"\n```')
    expect(out).toMatch(/\n- El coche rojo\n- La casa\n$/)
  })

  it('translates JSON string leaves and keeps keys, numbers, booleans and null, as object or as JSON text', async () => {
    const value = { title: 'The house', count: 3, active: true, none: null, items: ['The red car', { label: 'The house' }] }
    const res = await post('/language/translate', { document: { value, mime_type: 'application/json' }, source: 'en', targets: ['es'] })
    const out = res.json().results.es.value
    expect(Object.keys(out)).toEqual(['title', 'count', 'active', 'none', 'items'])
    expect(out.title).toMatch(/casa/)
    expect(out).toMatchObject({ count: 3, active: true, none: null })
    expect(out.items[0]).toMatch(/coche rojo/)
    expect(out.items[1].label).toMatch(/casa/)
    expect(res.json().original.document.value).toEqual(value)

    const text = await post('/language/translate', { document: { value: JSON.stringify(value, null, 2), mime_type: 'application/json' }, source: 'en', targets: ['es'] })
    const asText = text.json().results.es.value
    expect(typeof asText).toBe('string')
    expect(JSON.parse(asText).items[1].label).toMatch(/casa/)
  })

  it('protects placeholders of every style', async () => {
    const value = 'Hello {name}, the house {0} has %d cars and %1$s {{count}} %(total)s <0>red</0> cars.'
    const res = await post('/language/translate', { document: { value }, source: 'en', targets: ['es'] })
    const out: string = res.json().results.es.value
    for (const token of ['{name}', '{0}', '%d', '%1$s', '{{count}}', '%(total)s']) expect(out).toContain(token)
    expect(out).toMatch(/<0>[^<]*<\/0>/)
    expect(out).toMatch(/casa/)
    const markdown = await post('/language/translate', { document: { value: 'Hello {user_name}, the *house* has %(car_count)d <0>red</0> cars.', mime_type: 'text/markdown' }, source: 'en', targets: ['es'] })
    const md: string = markdown.json().results.es.value
    for (const token of ['{user_name}', '%(car_count)d', '<0>']) expect(md).toContain(token)
    expect(md).toMatch(/\*casa\*/)
    const off = await post('/language/translate', { document: { value: 'The house {name}' }, source: 'en', targets: ['es'], options: { preserve_placeholders: false } })
    expect(off.statusCode).toBe(200)
  })

  it('applies substitutions as a glossary, and reports them', async () => {
    const res = await post('/language/translate', {
      document: { value: 'The Acme Cloud is in the house. acme cloud is red.' },
      source: 'en',
      targets: ['es', 'fr'],
      substitutions: [
        { source: 'en', target: 'es', text: 'Acme Cloud', substitution: 'Nube Acme' },
        { text: 'house', substitution: 'HOGAR' },
        { source: 'de', text: 'red', substitution: 'ROT' }
      ]
    })
    const { results, extra } = res.json()
    expect(results.es.value).toMatch(/Nube Acme.*HOGAR.*Nube Acme/)
    expect(results.fr.value).not.toMatch(/Nube Acme/)
    expect(results.fr.value).toMatch(/HOGAR/)
    expect(results.es.value).not.toMatch(/ROT/)
    expect(extra.substitutions).toEqual(expect.arrayContaining([
      { text: 'Acme Cloud', substitution: 'Nube Acme', count: 2 },
      { text: 'house', substitution: 'HOGAR', count: 2 }
    ]))
  })

  it('takes the source from document.language, and returns text unchanged for target == source', async () => {
    const res = await post('/language/translate', { document: { value: 'The house.', language: 'en-GB' }, targets: ['en', 'es'] })
    expect(res.statusCode).toBe(200)
    expect(res.json().results.en.value).toBe('The house.')
    expect(res.json().results.es.value).toMatch(/casa/)
    expect(res.json().extra.source).toBe('en-GB')
    expect(res.json().extra.detected).toBeUndefined()
  })

  it('echoes the request as original, with its meta', async () => {
    const body = { document: { value: 'The house.' }, source: 'en', targets: ['es', 'es'], meta: { ticket: 'T-1' } }
    const res = await post('/language/translate', body)
    expect(res.json().original).toEqual(body)
    expect(Object.keys(res.json().results)).toEqual(['es'])
  })

  it('answers 400 for unsupported pairs, malformed tags, unknown options and mime types', async () => {
    const pair = await post('/language/translate', { document: { value: 'Hi' }, source: 'en', targets: ['de'] })
    expect(pair.statusCode).toBe(400)
    expect(pair.json().detail).toMatch(/en->de/)
    const tag = await post('/language/translate', { document: { value: 'Hi' }, source: 'en', targets: ['es_ES'] })
    expect(tag.json().errors[0].pointer).toBe('/targets/0')
    const option = await post('/language/translate', { document: { value: 'Hi' }, source: 'en', targets: ['es'], options: { speed: 'fast' } })
    expect(option.json().errors[0].pointer).toBe('/options/speed')
    const mime = await post('/language/translate', { document: { value: 'Hi', mime_type: 'application/pdf' }, source: 'en', targets: ['es'] })
    expect(mime.statusCode).toBe(400)
    expect(mime.json().errors[0].pointer).toBe('/document/mime_type')
    expect(mime.json().detail).toMatch(/text\/html/)
    // MAX_TARGETS counts distinct languages (21 times "es" is one)
    const regions = ['AR', 'BO', 'CL', 'CO', 'CR', 'CU', 'DO', 'EC', 'GT', 'HN', 'MX', 'NI', 'PA', 'PE', 'PR', 'PY', 'SV', 'US', 'UY', 'VE', 'ES']
    const many = await post('/language/translate', { document: { value: 'Hi' }, source: 'en', targets: regions.map(r => `es-${r}`) })
    expect(many.json().errors[0].pointer).toBe('/targets')
    const repeats = await post('/language/translate', { document: { value: 'Hi' }, source: 'en', targets: Array.from({ length: 21 }, () => 'es') })
    expect(repeats.statusCode).toBe(200)
    const formality = await post('/language/translate', { document: { value: 'Hi' }, source: 'en', targets: ['es'], options: { formality: 'more' } })
    expect(formality.json().errors[0].pointer).toBe('/options/formality')
  })
})

describe('POST /language/translate/bulk', () => {
  it('translates every document, in request order, each with its own original', async () => {
    const documents = [
      { value: 'The house.' },
      { value: '<p>The <i>red</i> car.</p>', mime_type: 'text/html' },
      { value: { a: 'The house' }, mime_type: 'application/json' },
      { value: 'The red car.' }
    ]
    const res = await post('/language/translate/bulk', { documents, source: 'en', targets: ['es', 'pt'], meta: { batch: '7' } })
    expect(res.statusCode).toBe(200)
    const out = res.json()
    expect(out).toHaveLength(4)
    expect(out[0].results.es.value).toMatch(/casa/)
    expect(out[1].results.es.value).toMatch(/<p>El coche <i>rojo<\/i>\.<\/p>/)
    expect(out[2].results.pt.value.a).toMatch(/casa/)
    expect(out[3].results.pt.value).toMatch(/vermelho/)
    out.forEach((r: { original: { document: unknown, targets: string[], meta: unknown } }, i: number) => {
      expect(r.original.document).toEqual(documents[i])
      expect(r.original.targets).toEqual(['es', 'pt'])
      expect(r.original.meta).toEqual({ batch: '7' })
    })
  })

  it('refuses more than MAX_BULK_DOCUMENTS documents', async () => {
    const res = await post('/language/translate/bulk', { documents: Array.from({ length: 101 }, () => ({ value: 'x' })), source: 'en', targets: ['es'] })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].pointer).toBe('/documents')
  })
})

describe('GET /language/translate/locales and /supported', () => {
  it('lists the languages Apertium serves, including pivoted targets, and each listed pair really translates', async () => {
    const res = await get('/language/translate/locales')
    expect(res.statusCode).toBe(200)
    const { source, target } = res.json() as { source: Array<{ tag: string, name: string, services: string[] }>, target: typeof source }
    const byTag = (list: typeof source, tag: string) => list.find(e => e.tag === tag)
    expect(byTag(source, 'en')).toEqual({ tag: 'en', name: 'English', services: ['apertium'] })
    for (const tag of ['es', 'ca', 'gl', 'fr', 'pt', 'it', 'en']) expect(byTag(target, tag)?.services).toContain('apertium')
    expect(byTag(target, 'de')).toBeUndefined()
    expect(source.map(e => e.tag)).toEqual([...source.map(e => e.tag)].sort())

    // every listed source reaches at least one listed target, and that pair translates
    for (const s of source.slice(0, 6)) {
      const supported = await get(`/language/translate/locales/supported?source=${s.tag}&target=es&target=en`)
      const one = supported.json().supported ? 'es' : (await get(`/language/translate/locales/supported?source=${s.tag}&target=es`)).json().supported ? 'es' : undefined
      if (one === undefined || s.tag === 'es') continue
      const t = await post('/language/translate', { document: { value: 'casa' }, source: s.tag, targets: [one] })
      expect(t.statusCode, `${s.tag}->${one}`).toBe(200)
    }
  })

  it('answers whether pairs are supported, with the services supporting all of them', async () => {
    expect((await get('/language/translate/locales/supported?source=en&target=es')).json()).toEqual({ supported: true, services: ['apertium'] })
    expect((await get('/language/translate/locales/supported?source=en&target=es,fr&target=pt-BR')).json()).toEqual({ supported: true, services: ['apertium'] })
    expect((await get('/language/translate/locales/supported?source=en&target=es,de')).json()).toEqual({ supported: false, services: [] })
    const missing = await get('/language/translate/locales/supported?source=en')
    expect(missing.statusCode).toBe(400)
    expect(missing.json().errors[0]).toMatchObject({ pointer: '/target', in: 'query' })
    const empty = await get('/language/translate/locales/supported?source=en&target=,%20,')
    expect(empty.statusCode).toBe(400)
    expect(empty.json().errors).toEqual([{ pointer: '/target', in: 'query', message: expect.stringContaining('no language') }])
    const malformed = await get('/language/translate/locales/supported?source=e_n&target=es')
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().errors).toEqual([{ pointer: '/source', in: 'query', message: expect.stringContaining('e_n') }])
  })

  it('lists, given ?source=, the targets it translates into with the services of each pair, as /supported answers each', async () => {
    const all = (await get('/language/translate/locales')).json() as { source: Array<{ tag: string }>, target: Array<{ tag: string, name: string, services: string[] }> }
    const res = await get('/language/translate/locales?source=en')
    expect(res.statusCode).toBe(200)
    const { source, target } = res.json() as typeof all
    expect(source).toEqual(all.source)
    expect(target.map(t => t.tag)).toContain('es')
    expect(target.map(t => t.tag)).not.toContain('de')
    for (const t of all.target) {
      const one = (await get(`/language/translate/locales/supported?source=en&target=${t.tag}`)).json() as { supported: boolean, services: string[] }
      const listed = target.find(e => e.tag === t.tag)
      expect(listed, t.tag).toEqual(one.supported ? { tag: t.tag, name: t.name, services: one.services } : undefined)
    }
    expect((await get('/language/translate/locales?source=xx')).json().target).toEqual([])
    const malformed = await get('/language/translate/locales?source=e_n')
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().errors).toEqual([{ pointer: '/source', in: 'query', message: expect.stringContaining('e_n') }])
  })

  it('answers an empty target (in any form) with a 400 naming it, and leaves empty parts out of a list (issue 25 item 13)', async () => {
    for (const query of ['target=', 'target=&target=', 'target=%20&target=,']) {
      const res = await get(`/language/translate/locales/supported?source=en&${query}`)
      expect(res.statusCode, query).toBe(400)
      expect(res.json().errors, query).toEqual([{ pointer: '/target', in: 'query', message: expect.stringContaining('no language') }])
    }
    // as "es," asks for es alone, so does a repeated parameter left empty
    expect((await get('/language/translate/locales/supported?source=en&target=es&target=')).json()).toEqual({ supported: true, services: ['apertium'] })
    expect((await get('/language/translate/locales/supported?source=en&target=es,')).json()).toEqual({ supported: true, services: ['apertium'] })
  })
})

describe('a service named twice in options.service (issue 25 item 13)', () => {
  it('is tried once and named once in errors', async () => {
    const res = await post('/language/translate', { document: { value: 'Hi' }, source: 'en', targets: ['es'], options: { service: ['apertium', 'APERTIUM', 'apertium'], formality: 'more' } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].pointer).toBe('/options/formality')
    expect(res.json().detail).toMatch(/by apertium;/)
    const ok = await post('/language/translate', { document: { value: 'The house.' }, source: 'en', targets: ['es'], options: { service: ['apertium', 'apertium'] } })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().extra.services.es).toBe('apertium')
  })
})
