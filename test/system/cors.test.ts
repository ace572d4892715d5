/**
 * CORS in a real browser (Debian's Chromium, driven by playwright-core): a page served from another
 * origin calls the API with fetch() and a bearer token, as browser extensions and web front ends do
 * (the Authorization header makes the browser send a preflight first), and reads the answer; with
 * CORS_ORIGINS naming other origins, the browser refuses to hand the answer to the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { chromium, type Browser } from 'playwright-core'
import { testApp, tokenFor } from '../helpers/app.js'

const CHROMIUM = '/usr/bin/chromium'

let browser: Browser
let page: Server
let pageOrigin: string
beforeAll(async () => {
  // the calling page: another port is another origin
  page = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>caller</title>') })
  await new Promise<void>(resolve => page.listen(0, '127.0.0.1', resolve))
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run']
  })
})
afterAll(async () => {
  await browser?.close()
  await new Promise(resolve => page?.close(resolve))
})

async function serve (env: Record<string, string>): Promise<{ app: FastifyInstance, base: string, token: string }> {
  const app = await testApp(env)
  await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, token: await tokenFor(app) }
}

/** What the page's script gets from fetch(): the status, a header it may read and the JSON, or the error's text. */
async function callFromPage (base: string, token: string): Promise<{ status?: number, requestId?: string | null, tones?: number, error?: string }> {
  const tab = await browser.newPage()
  try {
    await tab.goto(`${pageOrigin}/`)
    return await tab.evaluate(async ([url, bearer]) => {
      try {
        const res = await fetch(url, { headers: { authorization: `Bearer ${bearer}` } })
        const body = await res.json() as unknown[]
        return { status: res.status, requestId: res.headers.get('x-request-id'), tones: body.length }
      } catch (err) {
        return { error: String(err) }
      }
    }, [`${base}/language/edit/tones`, token] as const)
  } finally {
    await tab.close()
  }
}

describe('CORS in a browser', () => {
  it('a page of another origin calls the API with a token and reads the answer (preflight, then the call)', async () => {
    const { app, base, token } = await serve({})
    try {
      const result = await callFromPage(base, token)
      expect(result.error).toBeUndefined()
      expect(result.status).toBe(200)
      expect(result.tones).toBeGreaterThan(0)
      expect(result.requestId).toMatch(/\S/)
    } finally {
      await app.close()
    }
  })

  it('CORS_ORIGINS without the page\'s origin: the browser keeps the answer from the page', async () => {
    const { app, base, token } = await serve({ CORS_ORIGINS: 'https://app.example.org' })
    try {
      const result = await callFromPage(base, token)
      expect(result.status).toBeUndefined()
      expect(result.error).toMatch(/TypeError|Failed to fetch/)
    } finally {
      await app.close()
    }
  })
})
