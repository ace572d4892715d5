/**
 * Swagger UI in a real browser (Debian's Chromium, driven by playwright-core): the Authorize button
 * works with both schemes, OAuth2 client credentials against /oauth/token and a pasted bearer token,
 * and keeps neither the secret nor the token in the browser's storage; a file chosen in "Try it out"
 * is uploaded to the drop-in APIs' file routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CLIENT, testApp, tokenFor } from '../helpers/app.js'

const CHROMIUM = '/usr/bin/chromium'

let app: FastifyInstance
let base: string
let browser: Browser
beforeAll(async () => {
  app = await testApp()
  await app.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run']
  })
})
afterAll(async () => {
  await browser?.close()
  await app?.close()
})

/** Runs GET /language/edit/tones from its "Try it out" panel and returns the status shown. */
async function callTones (page: Page): Promise<string> {
  const op = page.locator('#operations-edit-edit_tones')
  if (!(await op.locator('button.execute').isVisible())) await op.locator('.opblock-summary-control').click()
  // the previous call's answer stays on the panel until the next one is shown: cleared first, it cannot be read for the new one
  const clear = op.locator('button.btn-clear')
  if (await clear.isVisible()) {
    await clear.click()
    await op.locator('.live-responses-table').waitFor({ state: 'detached' })
  }
  await op.locator('button.execute').click()
  const status = op.locator('.live-responses-table tbody .response-col_status').first()
  await status.waitFor()
  return (await status.innerText()).trim()
}

describe('Swagger UI at /docs', () => {
  it('authorizes with OAuth2 client credentials and with a pasted bearer token, without CSP violations', async () => {
    const page = await browser.newPage()
    const cspViolations: string[] = []
    page.on('console', message => { if (/Content Security Policy/.test(message.text())) cspViolations.push(message.text()) })
    // everything the page needs comes from this server: no validator badge from validator.swagger.io, no fonts or styles elsewhere
    const elsewhere: string[] = []
    page.on('request', request => { if (!request.url().startsWith(base) && !request.url().startsWith('data:')) elsewhere.push(request.url()) })
    await page.goto(`${base}/docs/`, { waitUntil: 'networkidle' })

    // before authorizing, the call is refused
    expect(await callTones(page)).toBe('401')

    await page.click('button.authorize')
    const dialog = page.locator('.modal-ux')
    await dialog.locator('input#client_id_clientCredentials').fill(CLIENT.id)
    await dialog.locator('input#client_secret_clientCredentials').fill(CLIENT.secret)
    await dialog.locator('label[for=access-clientCredentials-checkbox-OAuth2]').click()
    await dialog.locator('button.authorize').first().click()
    await dialog.locator('button:has-text("Logout")').first().waitFor()
    await page.locator('button.close-modal').click()
    expect(await callTones(page)).toBe('200')
    // as in the playground, the secret and the token live in the page's memory only: another page of
    // this origin (the playground, anything served here) must not read them from storage
    const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }))
    expect(stored).not.toContain(CLIENT.secret)
    expect(stored).not.toMatch(/access_token|eyJ/)

    await page.click('button.authorize')
    await dialog.locator('button:has-text("Logout")').first().click()
    await dialog.locator('input#auth-bearer-value').fill(await tokenFor(app))
    await dialog.locator('form button.authorize').click()
    await page.locator('button.close-modal').click()
    expect(await callTones(page)).toBe('200')
    expect(await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }))).not.toMatch(/eyJ/)

    // a reload signs out: nothing was kept
    await page.reload({ waitUntil: 'networkidle' })
    expect(await callTones(page)).toBe('401')

    expect(cspViolations).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  })

  it('runs each /language operation\'s body as "Try it out" fills it in: a new user\'s first Execute answers 2xx', async () => {
    const served = await testApp({}, { engines: true })
    await served.listen({ host: '127.0.0.1', port: 0 })
    const page = await browser.newPage()
    await page.goto(`http://127.0.0.1:${(served.server.address() as AddressInfo).port}/docs/`, { waitUntil: 'networkidle' })
    await page.click('button.authorize')
    const dialog = page.locator('.modal-ux')
    await dialog.locator('input#auth-bearer-value').fill(await tokenFor(served))
    await dialog.locator('form button.authorize').click()
    await page.locator('button.close-modal').click()
    const shown: Record<string, string> = {}
    for (const id of ['translate', 'translate_bulk', 'translate_job', 'detect', 'substitute', 'edit', 'analyze', 'analyze_sentiment']) {
      const op = page.locator(`div.opblock[id$="-${id}"]`)
      // "Try it out" is on from the start (tryItOutEnabled): the body is the example Swagger UI makes from the schema
      await op.locator('.opblock-summary-control').click()
      await op.locator('button.execute').click()
      const status = op.locator('.live-responses-table tbody .response-col_status').first()
      await status.waitFor()
      const body = await op.locator('.live-responses-table tbody .response-col_description pre').first().innerText().catch(() => '')
      shown[id] = `${(await status.innerText()).trim()} ${body.slice(0, 300)}`
    }
    await page.close()
    await served.close()
    for (const [id, answer] of Object.entries(shown)) expect(answer, `${id}: ${answer}`).toMatch(/^2\d\d /)
  }, 120_000)

  it('declares the drop-in APIs\' file parts as binary strings', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    for (const path of ['/libretranslate/translate_file', '/deepl/v2/document']) {
      const file = document.paths[path].post.requestBody.content['multipart/form-data'].schema.properties.file
      expect(file, path).toMatchObject({ type: 'string', format: 'binary' })
    }
  })

  it('uploads a file chosen in "Try it out" to LibreTranslate\'s translate_file (a text input sent text: "missing file parameter")', async () => {
    const key = 'swagger-ui-files-key-0123456789'
    const served = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: 'swagger-files', secret: 'swagger-files-secret', scopes: ['access'], api_keys: [key] }]) }, { engines: true })
    await served.listen({ host: '127.0.0.1', port: 0 })
    const page = await browser.newPage()
    try {
      await page.goto(`http://127.0.0.1:${(served.server.address() as AddressInfo).port}/docs/`, { waitUntil: 'networkidle' })
      const op = page.locator('div.opblock[id$="-libretranslate_translate_file"]').first()
      await op.locator('.opblock-summary-control').click()
      const row = (name: string) => op.locator(`tr[data-property-name="${name}"]`)
      await row('file').locator('input[type=file]').setInputFiles({ name: 'letter.txt', mimeType: 'text/plain', buffer: Buffer.from('The red car is very fast.') })
      await row('source').locator('input[type=text]').fill('en')
      await row('target').locator('input[type=text]').fill('es')
      await row('api_key').locator('input[type=text]').fill(key)
      await op.locator('button.execute').click()
      const status = op.locator('.live-responses-table tbody .response-col_status').first()
      await status.waitFor()
      const body = await op.locator('.live-responses-table tbody .response-col_description pre').first().innerText()
      expect(`${(await status.innerText()).trim()} ${body}`).toMatch(/^200 [^]*translatedFileUrl/)
      const url = (JSON.parse(body) as { translatedFileUrl: string }).translatedFileUrl
      expect(await (await fetch(url)).text()).toMatch(/coche rojo/)
      // the document's binary string is not the validation's: DeepL's upload too takes a file part
      const form = new FormData()
      form.append('file', new Blob(['The red car.']), 'letter.txt')
      form.append('target_lang', 'ES')
      const upload = await fetch(`${page.url().replace(/\/docs\/.*$/, '')}/deepl/v2/document`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${key}` }, body: form })
      expect(upload.status, await upload.clone().text()).toBe(200)
      expect(await upload.json()).toEqual({ document_id: expect.any(String), document_key: expect.any(String) })
    } finally {
      await page.close()
      await served.close()
    }
  }, 60_000)

  it('does not upgrade its own requests to https (self-hosted services are often plain http)', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/' })
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain('upgrade-insecure-requests')
  })

  it('allows only what Swagger UI needs from this server: no inline script or style, nothing from other sites, no validator (issue 32, item 10)', async () => {
    for (const url of ['/docs/', '/docs/static/index.html', '/docs/static/swagger-initializer.js', '/docs/static/swagger-ui.css']) {
      const res = await app.inject({ method: 'GET', url })
      const csp = String(res.headers['content-security-policy'])
      const directives = new Map(csp.split(';').map(d => d.trim()).filter(Boolean).map(d => { const [name, ...values] = d.split(/\s+/); return [name!, values] }))
      expect(directives.get('default-src'), url).toEqual(["'none'"])
      expect(directives.get('script-src'), url).toEqual(["'self'"])
      // its stylesheets, and inline <style> only by hash (the logo's fills)
      expect(directives.get('style-src')?.[0], url).toBe("'self'")
      for (const source of directives.get('style-src')!.slice(1)) expect(source, url).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/)
      // the images are the stylesheet's own data: URIs (icons) and the favicons
      expect(directives.get('img-src'), url).toEqual(["'self'", 'data:'])
      expect(directives.get('connect-src'), url).toEqual(["'self'"])
      for (const loose of ["'unsafe-inline'", "'unsafe-eval'", 'https:', 'validator.swagger.io', '*']) expect(csp, `${url}: ${loose}`).not.toContain(loose)
    }
    const initializer = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' })
    expect(initializer.body).toMatch(/validatorUrl: null/)
  })
})
