/**
 * What the log holds of the drop-in APIs' requests (issue 32, items 3 and 4): no API key and no
 * client text, whatever the URL looks like to the router (a raw `#` inside the query, a `#`
 * where the query starts) and whatever the answer (200, a 400 about a field, a 403). The app is
 * the real one with Apertium, logging at trace into the test, asked over real HTTP with the
 * request target sent byte for byte (test/helpers/raw-http.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { testApp, tokenFor, bearer } from '../../helpers/app.js'
import { sendRaw, type RawRequest } from '../../helpers/raw-http.js'

const KEY = 'compat-log-key-0123456789abcdef'
const CLIENTS = JSON.stringify([
  { id: 'logged-client', secret: 'logged-client-secret', api_keys: [KEY] },
  { id: 'test-client', secret: 'test-client-secret', scopes: ['access', 'read', 'write'] }
])
/** Client text: never in a log line, in any encoding a URL or body gives it. */
const TEXT = 'Confidential sentence about the merger'
const TEXT_WORDS = ['Confidential', 'merger']

describe('the log of the drop-in APIs', () => {
  let app: FastifyInstance
  let port: number
  const lines: string[] = []
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: CLIENTS, LOG_LEVEL: 'trace' }, { engines: true, logger: true, logStream: { write: (line) => { lines.push(line) } } })
    await app.listen({ host: '127.0.0.1', port: 0 })
    port = (app.server.address() as { port: number }).port
  }, 60_000)
  afterAll(async () => { await app?.close() })

  /** Sends a request; returns its status and the log lines written while it ran. */
  const logged = async (request: RawRequest): Promise<{ status: number, body: string, log: string }> => {
    const before = lines.length
    const res = await sendRaw(port, request)
    // the last line (request completed) is written as the answer goes out
    await new Promise(resolve => setImmediate(resolve))
    return { ...res, log: lines.slice(before).join('') }
  }
  const clean = (log: string, what: string): void => {
    expect(log.length, what).toBeGreaterThan(0)
    for (const secret of [KEY, encodeURIComponent(KEY), ...TEXT_WORDS, 'hi#', 'hi%23']) expect(log, `${what}: ${secret}`).not.toContain(secret)
  }
  const q = encodeURIComponent(TEXT)

  it('a raw # inside the query: the router reads the key after it, so the log redacts it too (apy key, DeepL auth_key, LibreTranslate api_key)', async () => {
    // the probe's request: answered 200, so the key after the # was read as the key
    const apy = await logged({ url: `/apy/translate?langpair=eng|spa&q=hi#&key=${KEY}` })
    expect(apy.status).toBe(200)
    clean(apy.log, 'apy')
    // the # before the query: the router takes the query from there
    const apyHash = await logged({ url: `/apy/translate#langpair=eng|spa&q=${q}&key=${KEY}` })
    expect(apyHash.status).toBe(200)
    clean(apyHash.log, 'apy #query')
    const deepl = await logged({ url: `/deepl/v2/languages?type=target&x=1#&auth_key=${KEY}` })
    expect(deepl.status).toBe(200)
    clean(deepl.log, 'deepl')
    const deeplPost = await logged({ method: 'POST', url: `/deepl/v2/translate?x=1#&auth_key=${KEY}`, payload: { text: [TEXT], target_lang: 'ES' } })
    expect(deeplPost.status).toBe(200)
    clean(deeplPost.log, 'deepl translate')
    const libre = await logged({ url: `/libretranslate/languages?x=1#&api_key=${KEY}` })
    expect(libre.status).toBe(200)
    clean(libre.log, 'libretranslate')
  })

  it('client text in the query is never logged: apy\'s documented GET translate?q=..., encoded every way a URL may carry it', async () => {
    for (const url of [
      `/apy/translate?langpair=eng|spa&q=${q}&key=${KEY}`,
      `/apy/translate?langpair=eng|spa&q=${TEXT.replace(/ /g, '+')}&key=${KEY}`,
      `/apy/translate?langpair=eng|spa&key=${KEY}&q=${TEXT.replace(/ /g, '%20')}#${q}`,
      // a name the service does not know, and a bare parameter: both may be text
      `/apy/translate?langpair=eng|spa&q=x&key=${KEY}&${q}=1&${q}`,
      // apy's list: q names the list (pairs), never logged all the same; an unknown list is a 400
      `/apy/list?q=${q}&src=eng`,
      '/apy/list?q=pairs&src=eng'
    ]) {
      const res = await logged({ url })
      expect(res.status, url).toBe(url.includes('q=pairs') || !url.startsWith('/apy/list') ? 200 : 400)
      clean(res.log, url)
      // what may help an operator stays: the path, the language pair, which parameters came
      expect(res.log, url).toContain('/apy/')
    }
    const pair = await logged({ url: `/apy/translate?langpair=eng|spa&q=${q}&key=${KEY}` })
    expect(pair.log).toContain('langpair=eng|spa')
    expect(pair.log).toMatch(/q=\[redacted\]/)
    expect(pair.log).toMatch(/key=\[redacted\]/)
  })

  it('a request refused (400 naming the field, 403 for the key) logs no text and no key, from the query or the body', async () => {
    const refused: RawRequest[] = [
      { url: `/apy/translate?langpair=eng|xxx&q=${q}&key=${KEY}` },
      { url: `/apy/translate?langpair=eng|spa&q=${q}&key=${KEY}x` },
      { method: 'POST', url: '/apy/translate', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `langpair=eng&q=${q}&key=${KEY}` },
      { method: 'POST', url: '/deepl/v2/translate', payload: { text: [TEXT], target_lang: 'XX', auth_key: KEY } },
      { method: 'POST', url: '/deepl/v2/translate', payload: { text: [TEXT], target_lang: 'ES', formality: TEXT, auth_key: KEY } },
      { method: 'POST', url: '/deepl/v2/translate', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `text=${q}&target_lang=ES&auth_key=${KEY}&tag_handling=${q}` },
      { method: 'POST', url: '/libretranslate/translate', payload: { q: TEXT, source: 'en', target: 'xx', api_key: KEY } },
      { method: 'POST', url: '/libretranslate/translate', payload: { q: TEXT, source: TEXT, target: 'es', api_key: KEY } },
      { method: 'POST', url: '/libretranslate/translate', headers: { 'content-type': 'application/json' }, payload: `{"q": "${TEXT}", "api_key": "${KEY}"` },
      { method: 'POST', url: '/libretranslate/translate', payload: { q: TEXT, source: 'en', target: 'es', api_key: `${KEY}x` } }
    ]
    for (const request of refused) {
      const res = await logged(request)
      expect(res.status, `${request.url} ${res.body}`).toBeGreaterThanOrEqual(400)
      expect(res.status, `${request.url} ${res.body}`).toBeLessThan(500)
      clean(res.log, `${request.method ?? 'GET'} ${request.url} ${res.status}`)
    }
  })

  it('a translated file\'s link (a capability: whoever has it gets the file) is never logged, nor the file\'s name (a probe read it in the log and fetched the file)', async () => {
    const boundary = 'probe-boundary'
    const form = [['source', 'en'], ['target', 'es'], ['api_key', KEY]].map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="salary-review-jane.txt"\r\ncontent-type: text/plain\r\n\r\nThe red car.\r\n--${boundary}--\r\n`
    const upload = await logged({ method: 'POST', url: '/libretranslate/translate_file', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: form })
    expect(upload.status, upload.body).toBe(200)
    const link = new URL((JSON.parse(upload.body) as { translatedFileUrl: string }).translatedFileUrl)
    const name = decodeURIComponent(link.pathname.split('/').at(-1)!)
    const secret = name.split('.')[2]!
    expect(secret).toMatch(/^[0-9a-f]{32}$/)
    for (const url of [link.pathname, `${link.pathname}?x=1`, `${link.pathname}x`]) {
      const download = await logged({ url })
      expect(download.log).toContain('download_file/[redacted]')
      expect(download.log, url).not.toContain(secret)
      expect(download.log, url).not.toContain('salary-review')
    }
    expect(upload.log).not.toContain('salary-review')
  })

  it('the service\'s own API: a body refused by its schema or by core logs none of its text', async () => {
    const token = await tokenFor(app)
    for (const payload of [
      { document: { value: TEXT, language: 'en' }, targets: [TEXT] },
      { document: { value: TEXT, language: TEXT }, targets: ['es'] },
      { document: { value: TEXT, mime_type: TEXT }, targets: ['es'] },
      { document: { value: TEXT }, targets: ['es'], [TEXT]: 1 }
    ]) {
      const res = await logged({ method: 'POST', url: `/language/translate?${q}=${q}`, headers: bearer(token), payload })
      expect(res.status, res.body).toBe(400)
      clean(res.log, JSON.stringify(payload).slice(0, 80))
    }
  })
})
