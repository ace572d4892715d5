/**
 * Names every JavaScript object inherits (`constructor`, `__proto__`, `toString`,
 * `hasOwnProperty`) sent where a code goes, on every API (issue 32, item 8): each is answered as
 * an ordinary unknown code of the same shape is (a clean 400 naming the field), never a 500 and
 * never with the source of a built-in function (`function Object() { [native code] }`, which
 * DeepL's `target_lang: "constructor"` answered). Words of a text are looked up too: the
 * offline entity finder read `constructor$ 5` as an amount in the currency `function Object()`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { bearer, testApp, tokenFor } from '../helpers/app.js'

const KEY = 'prototype-key-0123456789abcdef'
const CLIENTS = JSON.stringify([
  { id: 'keyed', api_keys: [KEY] },
  { id: 'test-client', secret: 'test-client-secret', scopes: ['access', 'read', 'write'] }
])
const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty']
/** An ordinary unknown code of the same shape: its letters replaced, its case and length kept. */
const ordinary = (name: string): string => name.replace(/[a-z]/g, 'q').replace(/[A-Z]/g, 'Q')

/** A request with a code field set to `code`, and the field's name as the answer must give it. */
interface CodeCase { api: string, field: string, request: (code: string) => InjectOptions & { url: string }, names?: RegExp }

describe('inherited property names as codes', () => {
  let app: FastifyInstance
  let token: string
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: CLIENTS }, { engines: true })
    token = await tokenFor(app)
  }, 60_000)
  afterAll(async () => { await app?.close() })

  const deepl = { authorization: `DeepL-Auth-Key ${KEY}` }
  const own = (): Record<string, string> => bearer(token)
  const cases: CodeCase[] = [
    { api: 'DeepL', field: 'target_lang', request: code => ({ method: 'POST', url: '/deepl/v2/translate', headers: deepl, payload: { text: ['Hello'], target_lang: code } }) },
    { api: 'DeepL', field: 'source_lang', request: code => ({ method: 'POST', url: '/deepl/v2/translate', headers: deepl, payload: { text: ['Hello'], target_lang: 'ES', source_lang: code } }) },
    { api: 'DeepL', field: 'type', request: code => ({ method: 'GET', url: `/deepl/v2/languages?type=${code}`, headers: deepl }) },
    { api: 'LibreTranslate', field: 'source', request: code => ({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'Hello', source: code, target: 'es', api_key: KEY } }) },
    { api: 'LibreTranslate', field: 'target', request: code => ({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'Hello', source: 'en', target: code, api_key: KEY } }) },
    { api: 'LibreTranslate', field: 'format', request: code => ({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'Hello', source: 'en', target: 'es', format: code, api_key: KEY } }) },
    // apy's own words for a pair it does not have
    { api: 'apy', field: 'langpair', names: /langpair|That pair is not installed/, request: code => ({ method: 'GET', url: `/apy/translate?langpair=${code}|spa&q=Hello&key=${KEY}` }) },
    { api: 'apy', field: 'langpair', names: /langpair|That pair is not installed/, request: code => ({ method: 'GET', url: `/apy/translate?langpair=eng|${code}&q=Hello&key=${KEY}` }) },
    // a well-formed target no service takes is an unsupported pair, pointed at from the source
    { api: '/language', field: '/targets/0', names: /\/targets\/0|unsupported pair/, request: code => ({ method: 'POST', url: '/language/translate', headers: own(), payload: { document: { value: 'Hello', language: 'en' }, targets: [code] } }) },
    { api: '/language', field: '/document/language', request: code => ({ method: 'POST', url: '/language/translate', headers: own(), payload: { document: { value: 'Hello', language: code }, targets: ['es'] } }) },
    { api: '/language', field: '/document/mime_type', request: code => ({ method: 'POST', url: '/language/translate', headers: own(), payload: { document: { value: 'Hello', mime_type: code }, targets: ['es'] } }) },
    { api: '/language', field: '/source', request: code => ({ method: 'GET', url: `/language/translate/locales/supported?source=${code}&target=es`, headers: own() }) },
    { api: '/language', field: '/target', request: code => ({ method: 'GET', url: `/language/translate/locales/supported?source=en&target=${code}`, headers: own() }) },
    { api: '/language', field: '/source', request: code => ({ method: 'GET', url: `/language/translate/locales?source=${code}`, headers: own() }) },
    { api: '/language', field: '/tag', request: code => ({ method: 'GET', url: `/language/locale/${code}`, headers: own() }) },
    { api: '/language', field: '/display', request: code => ({ method: 'GET', url: `/language/locale/en?display=${code}`, headers: own() }) },
    { api: '/language', field: '/source_hint', request: code => ({ method: 'POST', url: '/language/detect', headers: own(), payload: { document: { value: 'Hello there' }, source_hint: code } }) },
    { api: '/language', field: '/limit_results/0', request: code => ({ method: 'POST', url: '/language/detect', headers: own(), payload: { document: { value: 'Hello there' }, limit_results: [code] } }) },
    { api: '/language', field: '/document/language', request: code => ({ method: 'POST', url: '/language/substitute', headers: own(), payload: { document: { value: 'Hello there', language: code }, substitutions: [] } }) },
    { api: '/language', field: '/document/language', request: code => ({ method: 'POST', url: '/language/analyze', headers: own(), payload: { document: { value: 'Hello there', language: code }, analyses: ['entities'] } }) }
  ]

  /** The answer's body with the code as given, lowercased or with "_" as "-" (apy) replaced by `as`'s same forms, and the request id left out. */
  const normalized = (body: string, code: string, as: string): string => {
    const forms = (c: string): string[] => [c, c.toLowerCase(), c.replace(/_/g, '-'), c.replace(/_/g, '-').toLowerCase()]
    const targets = forms(as)
    return forms(code).reduce((out, form, i) => out.split(form).join(targets[i]), body.replace(/"request_id":"[^"]*"/g, ''))
  }

  it('are answered as ordinary unknown codes: a 400 naming the field (DeepL, LibreTranslate, apy, /language), never a function\'s source', async () => {
    for (const { api, field, request, names } of cases) {
      for (const code of INHERITED) {
        const what = `${api} ${field}=${code}`
        const res = await app.inject(request(code))
        const control = await app.inject(request(ordinary(code)))
        expect(res.body, what).not.toMatch(/native code|function |\[object /)
        expect(res.statusCode, `${what}: ${res.body}`).toBe(control.statusCode)
        expect(normalized(res.body, code, ordinary(code)), what).toBe(normalized(control.body, ordinary(code), ordinary(code)))
        // "toString" is a well-formed tag ("tostring") no service knows: answered as any such tag is (the
        // supported-pair query says false, analysis finds nothing configured: 503); the others are malformed
        if (code !== 'toString' || control.statusCode === 400) {
          expect(res.statusCode, `${what}: ${res.body}`).toBe(400)
          if (names === undefined) expect(res.body, what).toContain(field)
          else expect(res.body, what).toMatch(names)
        }
      }
    }
  })

  it('words of a text named as inherited properties are words: no amount in a currency "function Object()"', async () => {
    const text = 'The constructor paid constructor$ 5, then 5 constructor and valueOf 3 toString hasOwnProperty __proto__.'
    for (const language of ['en', 'es', 'de']) {
      const res = await app.inject({ method: 'POST', url: '/language/analyze', headers: own(), payload: { document: { value: text, language }, analyses: ['entities', 'sentiment', 'moderation', 'categories'] } })
      expect(res.statusCode, res.body).toBe(200)
      const entities = (res.json() as { entities: { entities: Array<{ type: string, meta: { value?: string } }> } }).entities.entities
      expect(res.body, language).not.toMatch(/native code|function |NaN/)
      for (const entity of entities) expect(entity.meta.value ?? '', language).not.toMatch(/constructor|valueOf/)
    }
  })

  it('a PO file whose flags are named as inherited properties is translated as one without format flags', async () => {
    const po = (flags: string): string => `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n#, ${flags}\nmsgid "The red car %s"\nmsgstr ""\n`
    const translate = async (flags: string): Promise<{ status: number, value: string }> => {
      const res = await app.inject({ method: 'POST', url: '/language/translate', headers: own(), payload: { document: { value: po(flags), mime_type: 'text/x-gettext-translation', language: 'en' }, targets: ['es'] } })
      return { status: res.statusCode, value: res.statusCode === 200 ? (res.json() as { results: { es: { value: string } } }).results.es.value : res.body }
    }
    const plain = await translate('no-wrap')
    for (const flags of INHERITED) {
      const res = await translate(flags)
      expect(res.status, res.value).toBe(200)
      expect(res.value.split(flags).join('no-wrap'), flags).toBe(plain.value)
    }
  })
})
