/**
 * Secrets sent in a URL's query (an `?access_token=` a client library put there, an API key)
 * never reach the logs: every logged URL has them redacted, whatever the route and its answer;
 * of a query the log keeps only the values of a few non-content parameters (language codes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Fastify, { type FastifyInstance } from 'fastify'
import { buildApp } from '../../../src/app.js'
import { emptyRegistry } from '../../../src/registry.js'
import { LOGGED_URL_CHARS, redactUrl } from '../../../src/http/log-redaction.js'
import { testConfig, tokenFor } from '../../helpers/app.js'
import { sendRaw } from '../../helpers/raw-http.js'

describe('logged URLs', () => {
  let app: FastifyInstance
  const lines: string[] = []
  beforeAll(async () => {
    app = await buildApp(testConfig({ LOG_LEVEL: 'trace' }), { registry: emptyRegistry(), logStream: { write: (line) => { lines.push(line) } } })
    await app.ready()
  })
  afterAll(async () => { await app.close() })

  it('never carry a query secret, on routes that exist, routes that do not, and URLs the router refuses', async () => {
    const token = await tokenFor(app)
    const secrets = {
      access_token: token,
      client_secret: 'client-secret-in-the-query',
      api_key: 'api-key-in-the-query',
      key: 'plain-key-in-the-query',
      token: 'another-token-in-the-query',
      'X-Api-Key': 'header-style-name-in-the-query',
      refresh_token: 'refresh-token-in-the-query',
      password: 'password-in-the-query'
    }
    const query = Object.entries(secrets).map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')
    const urls = [
      `/language/edit/tones?display=fr&${query}`,
      `/nowhere?${query}`,
      `/language/locale/pt-BR?${query}&display=fr`,
      `/docs/json?${query}`,
      // a percent-escape that is not UTF-8: refused by the router before any hook
      `/language/locale/%ff?${query}`
    ]
    for (const url of urls) await app.inject({ method: 'GET', url })
    // a secret whose name is only known by its shape: a JWT anywhere in the URL
    await app.inject({ method: 'GET', url: `/language/edit/tones?t=${token}` })
    const log = lines.join('')
    expect(log).toContain('/language/edit/tones')
    expect(log).toContain('display=fr')
    for (const [name, value] of Object.entries(secrets)) {
      expect(log, name).not.toContain(value)
      expect(log, name).not.toContain(encodeURIComponent(value))
    }
    expect(log).not.toContain(token.split('.')[2]!)
    // the names the service knows stay, so that an operator sees what was sent
    expect(log).toMatch(/access_token=\[redacted\]/)
  })

  it('are cut to a bounded length: a 15.5 KB URL adds about a kilobyte per line, not 16 (issue 24, finding 5)', async () => {
    const long = 'x'.repeat(15_500)
    for (const url of [`/nope/${long}`, `/language/edit/tones?q=x&display=${long}`]) {
      const before = lines.length
      const res = await app.inject({ method: 'GET', url })
      const written = lines.slice(before)
      expect(written.length, url.slice(0, 30)).toBeGreaterThan(0)
      for (const line of written) expect(line.length, `${res.statusCode} ${line.slice(0, 200)}`).toBeLessThan(LOGGED_URL_CHARS + 1500)
      expect(written.join(''), url.slice(0, 30)).toMatch(/\.\.\.\[\d+ more characters\]/)
    }
  })
})

describe('redactUrl: a file link\'s secret', () => {
  it('is redacted however the router may read the path (a probe\'s download_fil%65/<link> reached the file and was logged whole)', () => {
    const link = 'f0f0f0.0b6c1c1e-aaaa-bbbb-cccc-111122223333.7ec70900125ff32aef4869a8a5ce8fb9.salary.txt'
    for (const [url, logged] of <Array<[string, string]>>[
      [`/libretranslate/download_file/${link}`, '/libretranslate/download_file/[redacted]'],
      [`/download_file/${link}?display=fr`, '/download_file/[redacted]?display=fr'],
      [`/libretranslate/download_fil%65/${link}`, '/libretranslate/download_fil%65/[redacted]'],
      [`/libretranslate/Download_File/${link}`, '/libretranslate/Download_File/[redacted]'],
      [`/libretranslate/download_file//${link}`, '/libretranslate/download_file/[redacted]/[redacted]'],
      [`/libretranslate/download_file%2F${link}`, '/libretranslate/[redacted]'],
      [`/libretranslate/download_file;x/${link}`, '/libretranslate/[redacted]/[redacted]']
    ]) {
      expect(redactUrl(url), url).toBe(logged)
      expect(redactUrl(url)).not.toContain('7ec70900')
    }
    expect(redactUrl('/libretranslate/languages')).toBe('/libretranslate/languages')
  })
})

describe('redactUrl', () => {
  it('keeps the path and the values of non-content parameters; names known parameters with their values redacted; redacts any other whole', () => {
    expect(redactUrl('/language/locale/pt?display=fr')).toBe('/language/locale/pt?display=fr')
    expect(redactUrl('/x?access_token=abc&display=fr')).toBe('/x?access_token=[redacted]&display=fr')
    expect(redactUrl('/apy/translate?langpair=eng|spa&q=Some+text&key=k&markUnknown=no')).toBe('/apy/translate?langpair=eng|spa&q=[redacted]&key=[redacted]&markUnknown=no')
    expect(redactUrl('/deepl/v2/languages?type=target&auth_key=k')).toBe('/deepl/v2/languages?type=target&auth_key=[redacted]')
    expect(redactUrl('/x?apikey=1&api-key=2&id_token=3&sig=4&code=5&Client_Secret=6')).toBe('/x?[redacted]&[redacted]&[redacted]&[redacted]&[redacted]&[redacted]')
    // a name the service does not read, or a bare parameter, may be text or a key itself
    expect(redactUrl('/x?Some%20text=1&secret-key-as-a-name&display=fr')).toBe('/x?[redacted]&[redacted]&display=fr')
    expect(redactUrl('/x?access%5Ftoken=abc&k%65y=abc&ke+y=abc')).toBe('/x?access%5Ftoken=[redacted]&k%65y=[redacted]&[redacted]')
    expect(redactUrl('/x?display=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl')).toBe('/x?display=[redacted]')
    expect(redactUrl('/x/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl/y')).toBe('/x/[redacted]/y')
    expect(redactUrl('/x?source=en&target=es,fr&target=pt')).toBe('/x?source=en&target=es,fr&target=pt')
    expect(redactUrl('/x')).toBe('/x')
    expect(redactUrl('/x?')).toBe('/x?')
    expect(redactUrl('/x?token&&q=')).toBe('/x?token&&q=')
  })

  it('splits the query where the router does: a "#" inside the query or in its place does not end what is redacted (issue 32, item 3)', () => {
    expect(redactUrl('/apy/translate?langpair=eng|spa&q=hi#&key=KEY')).toBe('/apy/translate?langpair=eng|spa&q=[redacted]&key=[redacted]')
    expect(redactUrl('/apy/translate#langpair=eng|spa&key=KEY')).toBe('/apy/translate#langpair=eng|spa&key=[redacted]')
    expect(redactUrl('/x#?key=KEY&display=fr#x')).toBe('/x#[redacted]&display=fr#x')
    expect(redactUrl('/x?display=fr#&api_key=KEY#&auth_key=KEY')).toBe('/x?display=fr#&api_key=[redacted]&auth_key=[redacted]')
  })

  it('reads each parameter\'s name as the router\'s query parser does: what it logs by name is what a route gets by that name', async () => {
    const router = Fastify()
    router.get('/*', async request => Object.keys(request.query as object))
    await router.listen({ host: '127.0.0.1', port: 0 })
    const { port } = router.server.address() as { port: number }
    try {
      const urls = [
        '/apy/translate?langpair=eng|spa&q=hi#&key=KEY', '/a#q=1&key=2', '/a?#key=1', '/a#?key=1', '/a??key=1',
        '/a?k%65y=1&ke+y=2&%6B%65%79=3&key%=4&q%ZZ=5&display=fr=x&=6&&type', '/a?access%5Ftoken=1&api%5fkey=2&auth_key#=3'
      ]
      for (const url of urls) {
        const names = JSON.parse((await sendRaw(port, { url })).body) as string[]
        const logged = redactUrl(url)
        // every name the route got that the log shows by name is one the log shows at its place; the rest are redacted
        const shown = logged.slice(logged.search(/[?#]/) + 1).split('&').filter(p => p !== '' && p !== '[redacted]').map(p => p.split('=')[0]!)
        const decoded = shown.map(name => { try { return decodeURIComponent(name.replace(/\+/g, ' ')) } catch { return name } })
        for (const name of decoded) expect(names, url).toContain(name)
        for (const name of names) if (['key', 'q', 'auth_key', 'api_key', 'access_token'].includes(name)) expect(logged, url).toMatch(/=\[redacted\]/)
        expect(logged, url).not.toMatch(/(?<![a-z_])(key|auth_key|api_key|access_token|q)=(?!\[redacted\])[^&]/)
      }
    } finally {
      await router.close()
    }
  })

  it('takes linear time on a hostile query', () => {
    const hostile = (n: number): string => '/x?' + 'a=&'.repeat(n) + 'eyJ' + 'a'.repeat(n)
    // the best of five runs of each size, after a warm-up: ten times the input takes about ten times as long, not a hundred (five: a busy machine's pauses)
    const best = (url: string): number => Math.min(...[0, 1, 2, 3, 4].map(() => { const started = performance.now(); redactUrl(url); return performance.now() - started }))
    redactUrl(hostile(10_000))
    const small = best(hostile(10_000))
    const large = best(hostile(100_000))
    expect(large).toBeLessThan(small * 30 + 50)
  })
})
