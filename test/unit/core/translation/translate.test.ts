import { describe, expect, it } from 'vitest'
import { translateDocuments, type TranslateInput, type TranslationDeps } from '../../../../src/core/translation/translate.js'
import { TranslatorCatalog } from '../../../../src/core/translation/catalog.js'
import { Batcher } from '../../../../src/core/translation/batching.js'
import { MemoryTranslationCache } from '../../../../src/core/translation/cache.js'
import { documentCost, INLINE_COST } from '../../../../src/core/documents/offload.js'
import {
  ServiceError, ServiceUnavailableError, UnsupportedPairError, UpstreamError, ValidationError
} from '../../../../src/errors.js'
import { parseTagged, serializeTagged } from '../../../../src/core/tagged.js'
import type { LanguagePair, TranslateCall, Translator } from '../../../../src/core/ports.js'

/**
 * Translators that implement the provider interface for routing tests: "upper" uppercases the
 * text parts of each tagged segment (tags kept), so every answer is a real transformation.
 */
class UpperTranslator implements Translator {
  calls: TranslateCall[] = []
  constructor (readonly name: string, private readonly pairs: LanguagePair[], private readonly behaviour: 'ok' | 'fail' | 'hang' | 'short' = 'ok') {}
  async languages (): Promise<LanguagePair[]> { return this.pairs }
  async translate (call: TranslateCall, signal: AbortSignal): Promise<string[]> {
    this.calls.push(call)
    if (this.behaviour === 'fail') throw new UpstreamError(this.name, 'engine down')
    if (this.behaviour === 'hang') {
      return await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
    }
    const out = call.segments.map(s => serializeTagged(parseTagged(s).map(p => p.type === 'text' ? { ...p, text: `${p.text.toUpperCase()}` } : p)))
    return this.behaviour === 'short' ? out.slice(1) : out
  }
}

const EN_ES = [{ from: 'en', to: 'es' }, { from: 'en', to: 'fr' }, { from: 'en', to: 'pt' }]

function deps (translators: Translator[], extra: Partial<TranslationDeps> & { upstreamTimeoutMs?: number } = {}): TranslationDeps {
  return {
    catalog: new TranslatorCatalog(translators),
    cache: new MemoryTranslationCache(1000),
    textChars: 100_000,
    batcher: new Batcher(extra.upstreamTimeoutMs ?? 5000),
    detect: async () => ({ language: 'en', confidence: 0.99 }),
    ...extra
  }
}

function input (documents: TranslateInput['documents'], targets: string[], more: Partial<TranslateInput> = {}): TranslateInput {
  return { documents, documentPath: i => documents.length === 1 ? ['document'] : ['documents', i], source: 'en', targets, ...more }
}

const never = new AbortController().signal

async function rejection (p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p
  } catch (err) {
    return err as ServiceError
  }
  throw new Error('expected a rejection')
}

describe('translateDocuments', () => {
  it('sends all segments of all documents in one engine call per pair, and keeps order and shape', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    const docs = [
      { value: 'Hello world. See you soon.' },
      { value: { title: 'Hello world.', items: ['One', 'Two', 3, null] }, mimeType: 'application/json' },
      { value: '<p>The <b>red</b> car.</p>', mimeType: 'text/html' }
    ]
    const out = await translateDocuments(input(docs, ['es', 'fr']), deps([engine]), never)
    expect(engine.calls.map(c => `${c.from}>${c.to}`).sort()).toEqual(['en>es', 'en>fr'])
    const es = engine.calls.find(c => c.to === 'es')!
    // "Hello world." appears twice but is sent once
    expect(es.segments.filter(s => s === 'Hello world.')).toHaveLength(1)
    expect(out[0]!.results['es']).toEqual({ value: 'HELLO WORLD. SEE YOU SOON.', language: 'es', mimeType: 'text/plain' })
    expect(out[1]!.results['fr']!.value).toEqual({ title: 'HELLO WORLD.', items: ['ONE', 'TWO', 3, null] })
    expect(out[2]!.results['es']!.value).toBe('<p>THE <b>RED</b> CAR.</p>')
    expect(out[0]!.extra.services).toEqual({ es: 'upper', fr: 'upper' })
  })

  it('answers from the cache the second time, unless options.cache is false', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    const d = deps([engine])
    await translateDocuments(input([{ value: 'Good morning.' }], ['es']), d, never)
    const again = await translateDocuments(input([{ value: 'Good morning.' }], ['es']), d, never)
    expect(engine.calls).toHaveLength(1)
    expect(again[0]!.results['es']!.value).toBe('GOOD MORNING.')
    await translateDocuments(input([{ value: 'Good morning.' }], ['es'], { options: { cache: false } }), d, never)
    expect(engine.calls).toHaveLength(2)
  })

  it('falls back to the next service supporting the pair, and reports which one answered', async () => {
    const down = new UpperTranslator('first', EN_ES, 'fail')
    const up = new UpperTranslator('second', EN_ES)
    const out = await translateDocuments(input([{ value: 'Hi.' }], ['es']), deps([down, up]), never)
    expect(out[0]!.extra.services['es']).toBe('second')
    expect(down.calls).toHaveLength(1)
    const err = await rejection(translateDocuments(input([{ value: 'Hi there.' }], ['es'], { options: { fallback: false } }), deps([down, up]), never))
    expect(err.status).toBe(502)
    expect(err.message).toMatch(/first: engine down/)
  })

  it('honours options.service order and refuses unknown services', async () => {
    const a = new UpperTranslator('a', EN_ES)
    const b = new UpperTranslator('b', EN_ES)
    const out = await translateDocuments(input([{ value: 'Hi.' }], ['es'], { options: { service: ['b', 'a'] } }), deps([a, b]), never)
    expect(out[0]!.extra.services['es']).toBe('b')
    expect(a.calls).toHaveLength(0)
    const err = await rejection(translateDocuments(input([{ value: 'Hi.' }], ['es'], { options: { service: 'google' } }), deps([a, b]), never))
    expect(err).toBeInstanceOf(ValidationError)
    expect(err.errors?.[0]?.path).toEqual(['options', 'service'])
  })

  it('answers 504 when the engine does not answer within the per-call timeout', async () => {
    const err = await rejection(translateDocuments(input([{ value: 'Hi.' }], ['es']), deps([new UpperTranslator('slow', EN_ES, 'hang')], { upstreamTimeoutMs: 100 }), never))
    expect(err.status).toBe(504)
    expect(err.message).toMatch(/slow: did not answer within 100 ms/)
  })

  it('answers 502 when the engine answers the wrong number of segments', async () => {
    const err = await rejection(translateDocuments(input([{ value: 'One. Two.' }], ['es']), deps([new UpperTranslator('short', EN_ES, 'short')]), never))
    expect(err.status).toBe(502)
  })

  it('refuses unsupported pairs before any work, naming all of them', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    const err = await rejection(translateDocuments(input([{ value: 'Hi.' }], ['es', 'de', 'ja']), deps([engine]), never))
    expect(err).toBeInstanceOf(UnsupportedPairError)
    expect((err as UnsupportedPairError).pairs).toEqual([{ from: 'en', to: 'de' }, { from: 'en', to: 'ja' }])
    expect(engine.calls).toHaveLength(0)
  })

  it('answers 503 when no translation service is configured', async () => {
    const err = await rejection(translateDocuments(input([{ value: 'Hi.' }], ['es']), deps([]), never))
    expect(err).toBeInstanceOf(ServiceUnavailableError)
    expect(err.message).toMatch(/configure|Debian packages/i)
  })

  it('returns text unchanged for a target equal to the source, with substitutions applied', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    const out = await translateDocuments(input([{ value: 'Ask Acme support.' }], ['en-GB', 'es'], {
      substitutions: [{ text: 'Acme', substitution: 'ACME Corp.' }]
    }), deps([engine]), never)
    expect(out[0]!.results['en-GB']!.value).toBe('Ask ACME Corp. support.')
    expect(out[0]!.extra.services['en-GB']).toBe('none')
    expect(engine.calls.every(c => c.to === 'es')).toBe(true)
    expect(out[0]!.extra.substitutions).toEqual([{ text: 'Acme', substitution: 'ACME Corp.', count: 2 }])
  })

  it('falls back from a regional target to its base language, keyed by the asked tag', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    const out = await translateDocuments(input([{ value: 'Hi.' }], ['PT-br']), deps([engine]), never)
    expect(Object.keys(out[0]!.results)).toEqual(['pt-BR'])
    expect(out[0]!.results['pt-BR']!.language).toBe('pt-BR')
    expect(engine.calls[0]!.to).toBe('pt')
  })

  it('serves Norwegian Bokmål (nb, what the detector answers) with an engine that lists Norwegian (no), and the other way round (a probe\'s Discourse and DeepL clients got 400s)', async () => {
    const engine = new UpperTranslator('upper', [{ from: 'no', to: 'en' }, { from: 'en', to: 'no' }])
    const out = await translateDocuments(input([{ value: 'Hei.' }], ['en'], { source: 'nb' }), deps([engine]), never)
    expect(out[0]!.results['en']!.value).toBe('HEI.')
    expect(engine.calls[0]!.from).toBe('no')
    const into = await translateDocuments(input([{ value: 'Hi.' }], ['nb-NO'], { source: 'en' }), deps([engine]), never)
    expect(Object.keys(into[0]!.results)).toEqual(['nb-NO'])
    expect(engine.calls[1]!.to).toBe('no')
    const bokmal = new UpperTranslator('bokmal', [{ from: 'nb', to: 'en' }])
    await translateDocuments(input([{ value: 'Hei.' }], ['en'], { source: 'no' }), deps([bokmal]), never)
    expect(bokmal.calls[0]!.from).toBe('nb')
  })

  it('detects the source when absent, and reports it', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    const out = await translateDocuments(input([{ value: 'Good evening.' }], ['es'], { source: 'auto' }), deps([engine]), never)
    expect(out[0]!.extra.detected).toEqual({ language: 'en', confidence: 0.99 })
    expect(out[0]!.extra.source).toBe('en')
    const fromDoc = await translateDocuments(input([{ value: 'Good evening.', language: 'EN' }], ['es'], { source: undefined }), deps([engine]), never)
    expect(fromDoc[0]!.extra.detected).toBeUndefined()
    // nothing to detect: copied to every target, no engine called
    const calls = engine.calls.length
    const undetected = await translateDocuments(input([{ value: '...' }], ['es'], { source: '' }),
      deps([engine], { detect: async () => ({ language: 'und', confidence: 0 }) }), never)
    expect(undetected[0]!.results['es']!.value).toBe('...')
    expect(undetected[0]!.extra).toMatchObject({ source: 'und', services: { es: 'none' }, detected: { language: 'und', confidence: 0 } })
    expect(engine.calls.length).toBe(calls)
  })

  it('redoes a guess no service can translate among the languages that can, when the detection finds them plausible', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    // first unrestricted (a rare language), then among the candidates with their share of the unrestricted detection
    const detecting = (share: number) => async (_text: string, candidates?: readonly string[]) =>
      candidates === undefined ? { language: 'nn', confidence: 0.67 } : { language: 'en', confidence: 0.09, share }
    const plausible = await translateDocuments(input([{ value: 'Hello world' }], ['es'], { source: 'auto' }), deps([engine], { detect: detecting(0.1) }), never)
    expect(plausible[0]!.extra.detected).toEqual({ language: 'en', confidence: 0.09 })
    expect(plausible[0]!.results['es']!.value).toBe('HELLO WORLD')
    const implausible = await rejection(translateDocuments(input([{ value: 'Hallo Welt' }], ['es'], { source: 'auto' }), deps([engine], { detect: detecting(0.001) }), never))
    expect((implausible as UnsupportedPairError).pairs).toEqual([{ from: 'nn', to: 'es' }])
  })

  it('refuses formality more|less on a service that cannot honour it, and accepts prefer_more', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    const err = await rejection(translateDocuments(input([{ value: 'Hi.' }], ['es'], { options: { formality: 'more' } }), deps([engine]), never))
    expect(err.errors?.[0]?.path).toEqual(['options', 'formality'])
    const ok = await translateDocuments(input([{ value: 'Hi.' }], ['es'], { options: { formality: 'prefer_more' } }), deps([engine]), never)
    expect(ok[0]!.results['es']!.value).toBe('HI.')
    expect(engine.calls[0]!.formality).toBe('prefer_more')
  })

  it('refuses more text than MAX_TEXT_CHARS and malformed tags, naming the field', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    const long = await rejection(translateDocuments(input([{ value: 'word '.repeat(100) }], ['es']), deps([engine], { textChars: 100 }), never))
    expect(long.errors?.[0]?.path).toEqual(['document', 'value'])
    const tag = await rejection(translateDocuments(input([{ value: 'x' }], ['es', 'e s']), deps([engine]), never))
    expect(tag.errors?.[0]?.path).toEqual(['targets', 1])
    expect(engine.calls).toHaveLength(0)
  })

  it('translates a bulk of more large Markdown documents than fit any cache, detecting and counting each from its own tree', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    const markdown = (n: number): string => `Document ${n}: the *red* car is [here](https://example.com/a/very/long/path/${n}).\n\n`.repeat(40)
    const documents = Array.from({ length: 10 }, (_, n) => ({ value: markdown(n), mimeType: 'text/markdown' }))
    // each one is worked on a document thread, not inline
    expect(documentCost(documents[0]!.value, 'text/markdown')).toBeGreaterThan(INLINE_COST)
    let detected = 0
    // the markup takes the raw length over the limit, so the text is counted by segmenting
    const textChars = documents.reduce((n, d) => n + d.value.length, 0) - 1
    const out = await translateDocuments(input(documents, ['es', 'en-GB'], { source: undefined }),
      deps([engine], { textChars, detect: async () => { detected++; return { language: 'en', confidence: 0.9 } } }), never)
    expect(detected).toBe(10)
    expect(engine.calls).toHaveLength(1)
    out.forEach((doc, n) => {
      expect(doc.results['en-GB']!.value).toBe(markdown(n))
      expect(doc.results['es']!.value).toBe(`DOCUMENT ${n}: THE *RED* CAR IS [HERE](https://example.com/a/very/long/path/${n}).\n\n`.repeat(40))
    })
  })

  it('protects placeholders from the engine', async () => {
    const engine = new UpperTranslator('upper', EN_ES)
    const out = await translateDocuments(input([{ value: 'Hello {name}, you have %d messages.' }], ['es']), deps([engine]), never)
    expect(out[0]!.results['es']!.value).toBe('HELLO {name}, YOU HAVE %d MESSAGES.')
    expect(engine.calls[0]!.segments.join(' ')).not.toContain('{name}')
  })
})

describe('outside engines: shared calls, fallback and failures', () => {
  /** An engine that answers after a delay and may take several requests' segments in one call (batching set). */
  class SlowBatchingTranslator extends UpperTranslator {
    readonly batching = { concurrency: 1, maxSegments: 100 }
    override async translate (call: TranslateCall, signal: AbortSignal): Promise<string[]> {
      await new Promise(resolve => setTimeout(resolve, 50))
      return await super.translate(call, signal)
    }
  }

  it('gathers concurrent requests for the same pair into the next call while the engine is busy', async () => {
    const engine = new SlowBatchingTranslator('remote', EN_ES)
    const d = deps([engine])
    const out = await Promise.all(Array.from({ length: 20 }, async (_, n) =>
      await translateDocuments(input([{ value: `Sentence number ${n}.` }], ['es']), d, never)))
    out.forEach(([doc], n) => expect(doc!.results['es']!.value).toBe(`SENTENCE NUMBER ${n}.`))
    // the first request leaves at once; the 19 that arrive meanwhile share the next call
    expect(engine.calls.length).toBeLessThanOrEqual(3)
    expect(engine.calls.flatMap(c => c.segments)).toHaveLength(20)
  })

  it('fails a bulk request whole, naming the pair and documents, and every service tried with its reason', async () => {
    const a = new UpperTranslator('a', EN_ES, 'fail')
    const b = new UpperTranslator('b', EN_ES, 'fail')
    const err = await rejection(translateDocuments(input([{ value: 'One.' }, { value: 'Two.' }], ['es']), deps([a, b]), never))
    expect(err.status).toBe(502)
    expect(err.message).toBe('Translating en->es for documents 0, 1 failed on every service tried: a: engine down; b: engine down')
  })

  it('answers 504 when every service tried timed out, and caches a fallback under the service that made it', async () => {
    const slow = new UpperTranslator('slow', EN_ES, 'hang')
    const slower = new UpperTranslator('slower', EN_ES, 'hang')
    const timedOut = await rejection(translateDocuments(input([{ value: 'Hi.' }], ['es']), deps([slow, slower], { upstreamTimeoutMs: 100 }), never))
    expect(timedOut.status).toBe(504)
    const down = new UpperTranslator('first', EN_ES, 'fail')
    const up = new UpperTranslator('second', EN_ES)
    const d = deps([down, up])
    await translateDocuments(input([{ value: 'Cached?' }], ['es']), d, never)
    // the fallback's answer is not served as the first service's
    const again = await rejection(translateDocuments(input([{ value: 'Cached?' }], ['es'], { options: { fallback: false } }), d, never))
    expect(again.status).toBe(502)
    const viaSecond = await translateDocuments(input([{ value: 'Cached?' }], ['es'], { options: { service: 'second' } }), d, never)
    expect(viaSecond[0]!.extra.services['es']).toBe('second')
    expect(up.calls).toHaveLength(1)
  })
})

describe('large Markdown on substitute', () => {
  it('applies the rules to a Markdown document parsed on a document thread', async () => {
    const { testApp, tokenFor, bearer } = await import('../../../helpers/app.js')
    const app = await testApp()
    try {
      const auth = bearer(await tokenFor(app))
      const value = 'Pick a *colour* for `colour` in [Acme](https://acme.example/colour).\n\n'.repeat(60)
      expect(documentCost(value, 'text/markdown')).toBeGreaterThan(INLINE_COST)
      const res = await app.inject({ method: 'POST', url: '/language/substitute', headers: auth, payload: { document: { value, mime_type: 'text/markdown', language: 'en' }, substitutions: [{ text: 'colour', substitution: 'color' }] } })
      expect(res.statusCode).toBe(200)
      expect(res.json().document.value).toBe('Pick a *color* for `colour` in [Acme](https://acme.example/colour).\n\n'.repeat(60))
      expect(res.json().meta.substitutions).toEqual([{ text: 'colour', substitution: 'color', count: 60 }])
    } finally {
      await app.close()
    }
  })
})

describe('MAX_TEXT_CHARS on substitute and detect', () => {
  it('refuses more text than the limit before working on it', async () => {
    const { testApp, tokenFor, bearer } = await import('../../../helpers/app.js')
    const app = await testApp({ MAX_TEXT_CHARS: '1000' })
    try {
      const auth = bearer(await tokenFor(app))
      const big = '<p>' + 'word '.repeat(400) + '</p>'
      const sub = await app.inject({ method: 'POST', url: '/language/substitute', headers: auth, payload: { document: { value: big, mime_type: 'text/html' }, substitutions: [] } })
      expect(sub.statusCode).toBe(413)
      expect(sub.json().errors[0].pointer).toBe('/document/value')
      expect(sub.json().detail).toMatch(/MAX_TEXT_CHARS/)
      const markupOnly = await app.inject({ method: 'POST', url: '/language/substitute', headers: auth, payload: { document: { value: '<p class="x">' + '<br>'.repeat(400) + 'ok</p>', mime_type: 'text/html' }, substitutions: [] } })
      expect(markupOnly.statusCode).toBe(200)
      const det = await app.inject({ method: 'POST', url: '/language/detect', headers: auth, payload: { document: { value: big, mime_type: 'text/html' } } })
      expect(det.statusCode).toBe(413)
    } finally {
      await app.close()
    }
  })
})
