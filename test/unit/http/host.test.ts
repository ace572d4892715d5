/**
 * The host a request names (Host, or a trusted proxy's X-Forwarded-Host and -Proto), which answers
 * build absolute URLs from: node's parser takes any Host value, so the service checks it.
 */
import { connect, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { testApp } from '../../helpers/app.js'

const METADATA = '/.well-known/oauth-authorization-server'
const BAD_HOSTS = ['evil.example:1/x?', 'evil.example/x', 'evil.example?x', 'evil.example#x', 'user@evil.example', 'a b', '"><b>', 'evil.example:0', 'evil.example:65536', 'evil.example:', ':8080', 'evil.example:80:80', '[::1', '[zz::1]', '[::1]x', '::1', 'a%2fb']

describe('the Host header', () => {
  let app: FastifyInstance
  beforeAll(async () => { app = await testApp() })
  afterAll(async () => { await app?.close() })

  it('builds URLs on a host that is a name, an IPv4 or bracketed IPv6 address, with a port or none', async () => {
    for (const host of ['localhost', 'localhost:8080', '[::1]:8080', '[::1]', '127.0.0.1:8080', 'lang.example', 'my_service:65535', '[fe80::1%eth0]:8080', '[fe80::1%25eth0]']) {
      const res = await app.inject({ method: 'GET', url: METADATA, headers: { host } })
      expect(res.statusCode, host).toBe(200)
      // a zone is the client's own and no URL may hold one: the URL names the address without it, and parses
      const url = `http://${host.replace(/%.*\]/, ']')}/oauth/token`
      expect(res.json().token_endpoint, host).toBe(url)
      expect(new URL(res.json().token_endpoint as string).href, host).toBe(url)
      // the answer depends on the host asked: a cache in front must not serve it to other hosts
      expect(res.headers['cache-control'], host).toBe('no-store')
    }
  })

  it('has no URLs to build for a request naming no host (HTTP/1.0 may not): a 400 there, and other routes answer; HTTP/1.1 without Host is a 400 naming it', async () => {
    const server = await testApp()
    try {
      await server.listen({ port: 0, host: '127.0.0.1' })
      const { port } = server.server.address() as AddressInfo
      const ask = async (head: string): Promise<string> => await new Promise((resolve, reject) => {
        let answer = ''
        const socket = connect(port, '127.0.0.1', () => socket.end(`${head}\r\n\r\n`))
        socket.setEncoding('utf8').on('data', (chunk: string) => { answer += chunk }).on('end', () => { resolve(answer) }).on('error', reject)
      })
      const http10 = async (path: string): Promise<string> => await ask(`GET ${path} HTTP/1.0`)
      const metadata = await http10(METADATA)
      expect(metadata).toMatch(/^HTTP\/1\.1 400 /)
      expect(metadata).toMatch(/names no host/)
      expect(await http10('/health')).toMatch(/^HTTP\/1\.1 200 /)
      // HTTP/1.1 requires Host (RFC 9112, 3.2): a problem naming the header, where Node answered an empty 400
      const http11 = await ask('GET /health HTTP/1.1\r\nConnection: close')
      expect(http11).toMatch(/^HTTP\/1\.1 400 /)
      expect(http11).toMatch(/application\/problem\+json/)
      expect(http11).toContain('"pointer":"/host"')
      // nor more than one (RFC 9112, 3.2): node kept the first
      const twice = await ask('GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close')
      expect(twice).toMatch(/^HTTP\/1\.1 400 /)
      expect(twice).toMatch(/Host header is given more than once/)
    } finally {
      await server.close()
    }
  })

  it('refuses any other, on every route, as a 400 naming the header (a probe\'s "evil.example:1/x?" made the links of translate_file)', async () => {
    for (const host of BAD_HOSTS) {
      for (const url of [METADATA, '/health', '/libretranslate/translate_file']) {
        const res = await app.inject({ method: url.endsWith('translate_file') ? 'POST' : 'GET', url, headers: { host } })
        expect(res.statusCode, `${host} ${url}`).toBe(400)
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
        const body = res.json()
        expect(body.detail, host).toMatch(/^The Host header/)
        expect(body.errors, host).toEqual([{ pointer: '/host', in: 'header', message: expect.any(String) }])
      }
    }
  })
})

describe('behind a trusted proxy', () => {
  let app: FastifyInstance
  beforeAll(async () => { app = await testApp({ TRUST_PROXY: 'true' }) })
  afterAll(async () => { await app?.close() })

  it('checks X-Forwarded-Host and X-Forwarded-Proto, which stand for the Host and the scheme there', async () => {
    const ok = await app.inject({ method: 'GET', url: METADATA, headers: { host: 'internal:8080', 'x-forwarded-host': '[2001:db8::1]:8443', 'x-forwarded-proto': 'https' } })
    expect(ok.json().token_endpoint).toBe('https://[2001:db8::1]:8443/oauth/token')
    for (const host of BAD_HOSTS) {
      const res = await app.inject({ method: 'GET', url: METADATA, headers: { host: 'internal:8080', 'x-forwarded-host': host } })
      expect(res.statusCode, host).toBe(400)
      expect(res.json().detail, host).toMatch(/^The X-Forwarded-Host header/)
      expect(res.json().errors[0], host).toMatchObject({ pointer: '/x-forwarded-host', in: 'header' })
    }
    const proto = await app.inject({ method: 'GET', url: METADATA, headers: { host: 'internal:8080', 'x-forwarded-proto': 'javascript' } })
    expect(proto.statusCode).toBe(400)
    expect(proto.json().errors[0]).toMatchObject({ pointer: '/x-forwarded-proto', in: 'header' })
  })

  it('and not where the proxy is not trusted: there the Host counts', async () => {
    const untrusted = await testApp()
    try {
      const res = await untrusted.inject({ method: 'GET', url: METADATA, headers: { host: 'lang.example', 'x-forwarded-host': 'evil.example/x?', 'x-forwarded-proto': 'javascript' } })
      expect(res.statusCode).toBe(200)
      expect(res.json().token_endpoint).toBe('http://lang.example/oauth/token')
    } finally {
      await untrusted.close()
    }
  })
})
