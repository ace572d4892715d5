/**
 * Secrets sent in a URL's query (an `?access_token=` a client library put there, an API key)
 * never reach the logs: every logged URL has them redacted, whatever the route and its answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../src/app.js'
import { emptyRegistry } from '../../../src/registry.js'
import { LOGGED_URL_CHARS, redactUrl } from '../../../src/http/log-redaction.js'
import { testConfig, tokenFor } from '../../helpers/app.js'

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
    // the names stay, so that an operator sees what was sent
    expect(log).toMatch(/access_token=\[redacted\]/)
  })

  it('are cut to a bounded length: a 15.5 KB URL adds about a kilobyte per line, not 16 (issue 24, finding 5)', async () => {
    const long = 'x'.repeat(15_500)
    for (const url of [`/nope/${long}`, `/language/edit/tones?display=fr&q=${long}`]) {
      const before = lines.length
      const res = await app.inject({ method: 'GET', url })
      const written = lines.slice(before)
      expect(written.length, url.slice(0, 30)).toBeGreaterThan(0)
      for (const line of written) expect(line.length, `${res.statusCode} ${line.slice(0, 200)}`).toBeLessThan(LOGGED_URL_CHARS + 1500)
      expect(written.join(''), url.slice(0, 30)).toMatch(/\.\.\.\[\d+ more characters\]/)
    }
  })
})

describe('redactUrl', () => {
  it('redacts secret-looking parameters and JWT-shaped values, and keeps everything else byte for byte', () => {
    expect(redactUrl('/language/locale/pt?display=fr')).toBe('/language/locale/pt?display=fr')
    expect(redactUrl('/x?access_token=abc&display=fr')).toBe('/x?access_token=[redacted]&display=fr')
    expect(redactUrl('/x?display=fr&Client_Secret=abc#frag')).toBe('/x?display=fr&Client_Secret=[redacted]#frag')
    expect(redactUrl('/x?apikey=1&api-key=2&id_token=3&sig=4&code=5')).toBe('/x?apikey=[redacted]&api-key=[redacted]&id_token=[redacted]&sig=[redacted]&code=[redacted]')
    expect(redactUrl('/x?access%5Ftoken=abc')).toBe('/x?access%5Ftoken=[redacted]')
    expect(redactUrl('/x?q=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl')).toBe('/x?q=[redacted]')
    expect(redactUrl('/x/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl/y')).toBe('/x/[redacted]/y')
    expect(redactUrl('/x?source=en&target=es,fr&target=pt')).toBe('/x?source=en&target=es,fr&target=pt')
    expect(redactUrl('/x')).toBe('/x')
    expect(redactUrl('/x?')).toBe('/x?')
    expect(redactUrl('/x?token')).toBe('/x?token')
  })

  it('takes linear time on a hostile query', () => {
    const hostile = '/x?' + 'a=&'.repeat(100_000) + 'eyJ' + 'a'.repeat(100_000)
    const started = performance.now()
    redactUrl(hostile)
    expect(performance.now() - started).toBeLessThan(200)
  })
})
