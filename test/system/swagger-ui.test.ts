/**
 * Swagger UI in a real browser (Debian's Chromium, driven by playwright-core): the Authorize button
 * works with both schemes, OAuth2 client credentials against /oauth/token and a pasted bearer token,
 * and keeps neither the secret nor the token in the browser's storage.
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
    await page.close()
  })

  it('does not upgrade its own requests to https (self-hosted services are often plain http)', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/' })
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("default-src 'self'")
    expect(csp).not.toContain('upgrade-insecure-requests')
  })
})
