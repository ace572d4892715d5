/**
 * Every outside engine over real HTTP: the service runs as its own process (as `make run` starts
 * it, with NODE_EXTRA_CA_CERTS for the https fake of Google), configured against a local fake of
 * each engine speaking that engine's protocol. Routing by options.service, the default order,
 * fallback (to Apertium too), timeouts, the breaker and the errors a client gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOutsideEngines, type OutsideEngines } from '../helpers/outside-engines.js'
import { startService, type RunningService } from '../helpers/service.js'

let engines: OutsideEngines | undefined
let deepl: OutsideEngines['deepl']
let googleCloud: OutsideEngines['googleCloud']
let libre: OutsideEngines['libre']
let llm: OutsideEngines['llm']
let service: RunningService
let base = ''
let token = ''

const OUTSIDE = ['deepl', 'google-cloud', 'google', 'openai', 'libretranslate'] as const

beforeAll(async () => {
  engines = await startOutsideEngines()
  ;({ deepl, googleCloud, libre, llm } = engines)
  service = await startService({
    UPSTREAM_TIMEOUT_MS: '1500',
    BREAKER_FAILURES: '3',
    BREAKER_COOLDOWN_MS: '60000',
    ...engines.env
  })
  base = service.base
  token = service.token
}, 90_000)

afterAll(async () => {
  await service?.stop()
  await engines?.close()
})

async function translate (body: Record<string, unknown>, path = '/language/translate'): Promise<{ status: number, headers: Headers, json: Record<string, any> }> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body)
  })
  // a test's view of a JSON answer: any shape, checked field by field below
  return { status: res.status, headers: res.headers, json: await res.json() as Record<string, any> }
}

const html = (n: string): Record<string, unknown> => ({ value: `<p>Hello <b>${n}</b>, {name}!</p>`, mime_type: 'text/html' })

describe('outside engines over real HTTP', () => {
  it('lists every configured engine in translate/locales, in the default order', async () => {
    const res = await fetch(`${base}/language/translate/locales`, { headers: { authorization: `Bearer ${token}` } })
    const { target } = await res.json() as { target: Array<{ tag: string, services: string[] }> }
    expect(target.find(t => t.tag === 'ja')?.services).toEqual([...OUTSIDE])
    expect(target.find(t => t.tag === 'es')?.services).toEqual([...OUTSIDE, 'apertium'])
  })

  it.each(OUTSIDE)('translates en->ja through %s when options.service names it, markup and placeholders kept', async (service) => {
    const res = await translate({ source: 'en', targets: ['ja'], document: html(service), options: { service, cache: false } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json['extra'].services).toEqual({ ja: service })
    // every fake upper-cases the text it is given and keeps the tags
    expect(res.json['results'].ja.value).toBe(`<p>HELLO <b>${service.toUpperCase()}</b>, {name}!</p>`)
  })

  it('translates en->es with the first engine of the default order', async () => {
    const res = await translate({ source: 'en', targets: ['es'], document: { value: 'In order.' } })
    expect(res.status).toBe(200)
    expect(res.json['extra'].services).toEqual({ es: 'deepl' })
  })

  it('falls back from a failing engine to the next with a 200; without fallback the client gets a 502 naming it', async () => {
    deepl.behaviour = 'error500'
    deepl.failTimes = Infinity
    try {
      const res = await translate({ source: 'en', targets: ['es'], document: { value: 'Falling back.' } })
      expect(res.status).toBe(200)
      expect(res.json['extra'].services).toEqual({ es: 'google-cloud' })
      const strict = await translate({ source: 'en', targets: ['es'], document: { value: 'No fallback.' }, options: { service: 'deepl', fallback: false } })
      expect(strict.status).toBe(502)
      expect(strict.headers.get('content-type')).toMatch(/application\/problem\+json/)
      expect(strict.json['detail']).toMatch(/^Translating en->es failed: deepl: answered HTTP 5\d\d/)
    } finally {
      deepl.behaviour = 'ok'
    }
  })

  it('falls back from a hanging engine after UPSTREAM_TIMEOUT_MS; without fallback, 504', async () => {
    googleCloud.behaviour = 'hang'
    googleCloud.failTimes = Infinity
    try {
      const started = Date.now()
      const res = await translate({ source: 'en', targets: ['es'], document: { value: 'Still there?' }, options: { service: ['google-cloud', 'libretranslate'] } })
      expect(res.status).toBe(200)
      expect(res.json['extra'].services).toEqual({ es: 'libretranslate' })
      expect(Date.now() - started).toBeLessThan(5000)
      const strict = await translate({ source: 'en', targets: ['es'], document: { value: 'Anyone?' }, options: { service: 'google-cloud', fallback: false } })
      expect(strict.status).toBe(504)
      expect(strict.json['detail']).toMatch(/google-cloud: did not answer within 1500 ms/)
    } finally {
      googleCloud.behaviour = 'ok'
    }
  })

  it('falls back to Apertium, and skips a dead engine once its breaker is open (503 with Retry-After when nothing else may serve)', async () => {
    llm.behaviour = 'error500'
    llm.failTimes = Infinity
    try {
      for (let n = 0; n < 3; n++) {
        const res = await translate({ source: 'en', targets: ['es'], document: { value: `Good morning number ${n}.` }, options: { service: ['openai', 'apertium'] } })
        expect(res.status).toBe(200)
        expect(res.json['extra'].services).toEqual({ es: 'apertium' })
        // a real Apertium translation, not the fakes' upper-casing
        expect(res.json['results'].es.value).toMatch(/d[ií]a|ma[nñ]ana/i)
      }
      const calls = llm.completions().length
      const skipped = await translate({ source: 'en', targets: ['es'], document: { value: 'Good evening.' }, options: { service: ['openai', 'apertium'] } })
      expect(skipped.status).toBe(200)
      expect(skipped.json['extra'].services).toEqual({ es: 'apertium' })
      expect(llm.completions().length).toBe(calls)
      const open = await translate({ source: 'en', targets: ['es'], document: { value: 'Good night.' }, options: { service: 'openai', fallback: false } })
      expect(open.status).toBe(503)
      expect(Number(open.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(open.json['detail']).toMatch(/openai: failed 3 calls in a row/)
    } finally {
      llm.behaviour = 'ok'
    }
  })

  it('fails a bulk request whole when its engine fails, naming the documents; engine keys never reach the client', async () => {
    libre.behaviour = 'error500'
    libre.failTimes = Infinity
    try {
      const res = await translate({
        source: 'en', targets: ['fr'], documents: [{ value: 'One.' }, { value: 'Two.' }], options: { service: 'libretranslate', fallback: false }
      }, '/language/translate/bulk')
      expect(res.status).toBe(502)
      expect(res.json['detail']).toMatch(/^Translating en->fr for documents 0, 1 failed: libretranslate: answered HTTP 500/)
      for (const secret of [deepl.key, googleCloud.key, libre.key, llm.key]) expect(JSON.stringify(res.json)).not.toContain(secret)
    } finally {
      libre.behaviour = 'ok'
    }
  })
})
