/**
 * Issue 25 item 14 over the real app (Apertium, the detector and the offline analysers): the analyze
 * `request` echo is what was sent; the service's `meta` keys never take a client's own key (they are
 * then `service_<key>`); a substitution rule applies to its language and the more specific tags of
 * it, never to a language more general than its own; `count` sums over the targets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, testApp, tokenFor } from '../helpers/app.js'

let app: FastifyInstance
let auth: Record<string, string>
beforeAll(async () => {
  app = await testApp({}, { engines: true })
  auth = bearer(await tokenFor(app))
})
afterAll(async () => { await app.close() })

const post = async (url: string, payload: unknown) => {
  const res = await app.inject({ method: 'POST', url, headers: auth, payload: payload as object })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

describe('POST /language/analyze: the request echo', () => {
  it('returns exactly the fields the client sent, adding no analyses or meta', async () => {
    const bare = await post('/language/analyze', { document: { value: 'I love Paris.' } })
    expect(bare.request).toEqual({ document: { value: 'I love Paris.' } })
    const full = await post('/language/analyze', { document: { value: 'I love Paris.', language: 'en' }, analyses: [], meta: { job: '1' } })
    expect(full.request).toEqual({ document: { value: 'I love Paris.', language: 'en' }, analyses: [], meta: { job: '1' } })
    const some = await post('/language/analyze', { document: { value: 'I love Paris.' }, analyses: ['sentiment'] })
    expect(some.request).toEqual({ document: { value: 'I love Paris.' }, analyses: ['sentiment'] })
  })
})

describe('response meta: the client\'s keys come back unchanged and the service\'s are never lost', () => {
  it('analyze: a client meta.language stays, the detected language is service_language', async () => {
    const res = await post('/language/analyze', { document: { value: 'The weather is lovely today and I am very happy.' }, analyses: ['sentiment'], meta: { language: 'mine', detected_confidence: 'x', job: '7' } })
    expect(res.meta).toMatchObject({ language: 'mine', detected_confidence: 'x', job: '7', service_language: 'en' })
    expect(Number(res.meta.service_detected_confidence)).toBeGreaterThan(0)
    // without the client's keys the service's stand at their own names, as before
    const plain = await post('/language/analyze', { document: { value: 'The weather is lovely today and I am very happy.' }, analyses: ['sentiment'], meta: { job: '7' } })
    expect(plain.meta).toMatchObject({ language: 'en', job: '7' })
    expect(Object.keys(plain.meta).filter(k => k.startsWith('service_'))).toEqual([])
  })

  it('analyze/sentiment: translated_by and the rest stay visible beside the client\'s keys of the same names', async () => {
    const mine = { analyzer: 'a', source_language: 'b', translated: 'c', translated_by: 'd', service_translated_by: 'e' }
    const res = await post('/language/analyze/sentiment', { document: { value: 'Mi tre amas ĉi tiun belan urbon.', language: 'eo' }, meta: mine })
    expect(res.language).toBe('en')
    expect(res.meta).toEqual({
      ...mine,
      service_analyzer: 'offline',
      service_source_language: 'eo',
      service_translated: 'true',
      // the client has service_translated_by too: prefixed once more
      service_service_translated_by: 'apertium'
    })
  })

  it('substitute: a client meta.substitutions stays, what was applied is service_substitutions', async () => {
    const res = await post('/language/substitute', { document: { value: 'Hello Acme', language: 'en' }, substitutions: [{ text: 'Acme', substitution: 'X' }], meta: { substitutions: 'mine' } })
    expect(res.meta).toEqual({ substitutions: 'mine', service_substitutions: [{ text: 'Acme', substitution: 'X', count: 1 }] })
  })

  it('edit: a client meta.language and meta.editor stay, the service\'s are beside them', async () => {
    const res = await post('/language/edit', { document: { value: 'Their is a problem.', language: 'en' }, edits: [{ type: 'grammar' }], meta: { language: 'x', editor: 'y' } })
    expect(res.meta).toEqual({ language: 'x', editor: 'y', service_language: 'en', service_editor: 'rules' })
  })
})

describe('substitution rules and languages', () => {
  const gb = { source: 'en-GB', text: 'colour', substitution: 'COLOUR-GB' }
  const en = { source: 'en', text: 'car', substitution: 'CAR-EN' }

  it('/substitute: an en-GB rule applies to en-GB text, not to text that is only "en"; an en rule applies to both', async () => {
    const inEn = await post('/language/substitute', { document: { value: 'The colour of the car.', language: 'en' }, substitutions: [gb, en] })
    expect(inEn.document.value).toBe('The colour of the CAR-EN.')
    expect(inEn.meta.substitutions).toEqual([{ text: 'car', substitution: 'CAR-EN', count: 1 }])
    const inGb = await post('/language/substitute', { document: { value: 'The colour of the car.', language: 'en-GB' }, substitutions: [gb, en] })
    expect(inGb.document.value).toBe('The COLOUR-GB of the CAR-EN.')
  })

  it('translate: the same by source, and a target rule for es-MX is not applied to a translation into es', async () => {
    const rules = [gb, en, { target: 'es-MX', text: 'house', substitution: 'CASA-MX' }]
    const fromEn = await post('/language/translate', { document: { value: 'The colour of the car and the house.' }, source: 'en', targets: ['es'], substitutions: rules })
    expect(fromEn.results.es.value).toMatch(/CAR-EN/)
    expect(fromEn.results.es.value).not.toMatch(/COLOUR-GB|CASA-MX/)
    const fromGb = await post('/language/translate', { document: { value: 'The colour of the car and the house.' }, source: 'en-GB', targets: ['es-MX'], substitutions: rules })
    expect(fromGb.results['es-MX'].value).toMatch(/COLOUR-GB.*CAR-EN.*CASA-MX/)
  })

  it('translate: count is summed over the targets (documented)', async () => {
    const res = await post('/language/translate', { document: { value: 'The car.' }, source: 'en', targets: ['es', 'pt', 'fr'], substitutions: [en, { target: 'es', text: 'the', substitution: 'EL' }] })
    expect(res.extra.substitutions).toEqual(expect.arrayContaining([
      { text: 'car', substitution: 'CAR-EN', count: 3 },
      { text: 'the', substitution: 'EL', count: 1 }
    ]))
  })
})
