/**
 * The playground page at /. Over HTTP: the page and its assets answer without a token, with a
 * strict Content-Security-Policy and the right content types. In a real browser (Debian's
 * Chromium, driven by playwright-core) against the service as `make run` starts it, with its
 * engines: sign in with client credentials, one request per source chosen for its targets, translate HTML en->es, detect German, show a 400's
 * detail, edit and analyze (their answer, or their problem while a model or engine is missing),
 * a pasted token, a phone's width, and no console errors or CSP violations. Every answer the page
 * shows is compared with the API's own answer to the same request. Screenshots of each panel go
 * to test-results/.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CLIENT, testApp } from '../helpers/app.js'
import { startService, type RunningService } from '../helpers/service.js'
import { WEB_ROOT } from '../../src/http/web.js'
import { DOCX, base64, makeDocx, members, readParagraphs, text } from '../helpers/office.js'

const CHROMIUM = '/usr/bin/chromium'
const SHOTS = 'test-results'

/** The directives of a Content-Security-Policy header, by name. */
function directives (header: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const part of header.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) out.set(name.toLowerCase(), values)
  }
  return out
}

/** Checks a page CSP: nothing inline, nothing from elsewhere, no framing. */
function expectStrictCsp (header: string | undefined): void {
  expect(header).toBeTypeOf('string')
  const csp = directives(header!)
  expect(csp.get('script-src')).toEqual(["'self'"])
  expect(csp.get('style-src')).toEqual(["'self'"])
  expect(["'none'", "'self'"]).toContain(csp.get('default-src')?.join(' '))
  expect(csp.get('connect-src')).toEqual(["'self'"])
  expect(csp.get('frame-ancestors')).toEqual(["'none'"])
  expect(csp.get('base-uri')).toEqual(["'none'"])
  expect(header).not.toMatch(/unsafe-|\*|https?:/)
}

describe('the playground page over HTTP', () => {
  let app: FastifyInstance
  beforeAll(async () => { app = await testApp() })
  afterAll(async () => { await app?.close() })

  it('serves / without a token, as HTML with a strict CSP and no inline script, style or handler', async () => {
    const res = await app.inject({ method: 'GET', url: '/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expectStrictCsp(res.headers['content-security-policy'] as string)
    expect(res.body).toContain('<script type="module" src="/web/app.js"></script>')
    expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i)
    expect(res.body).not.toMatch(/\sstyle\s*=/i)
    expect(res.body).not.toMatch(/\son[a-z]+\s*=/i)
    expect(res.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//i)
    const head = await app.inject({ method: 'HEAD', url: '/' })
    expect(head.statusCode).toBe(200)
  })

  it('serves every asset the page loads, and the modules they import, with their content types and the CSP', async () => {
    const page = (await app.inject({ method: 'GET', url: '/' })).body
    const assets = new Set([...page.matchAll(/(?:src|href)="(\/web\/[^"]+)"/g)].map(m => m[1]!))
    expect([...assets].sort()).toEqual(['/web/app.js', '/web/favicon.svg', '/web/style.css'])
    const types: Record<string, RegExp> = { js: /^(?:text|application)\/javascript/, css: /^text\/css/, svg: /^image\/svg\+xml/ }
    const pending = [...assets]
    const seen = new Set<string>()
    while (pending.length > 0) {
      const url = pending.pop()!
      if (seen.has(url)) continue
      seen.add(url)
      const res = await app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type'], url).toMatch(types[url.split('.').pop()!]!)
      expectStrictCsp(res.headers['content-security-policy'] as string)
      if (url.endsWith('.js')) {
        // answers reach the page as text and built elements only
        expect(res.body, url).not.toMatch(/\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/)
        expect(res.body, url).not.toMatch(/localStorage|sessionStorage|document\.cookie/)
        for (const m of res.body.matchAll(/from '\.\/([\w-]+\.js)'/g)) pending.push(`/web/${m[1]}`)
      }
    }
    expect(seen.size).toBeGreaterThan(assets.size)
  })

  it('answers a missing asset, or a path out of the folder, with a 404 problem', async () => {
    for (const url of ['/web/missing.js', '/web/', '/web/..%2fsrc%2fhttp%2fweb.ts', '/web/../package.json']) {
      const res = await app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(404)
      expect(res.headers['content-type'], url).toMatch(/^application\/problem\+json/)
    }
  })

  it('is served from web/ at the package root', () => {
    expect(WEB_ROOT).toBe(fileURLToPath(new URL('../../web/', import.meta.url)))
    expect(existsSync(`${WEB_ROOT}/index.html`)).toBe(true)
    expect(readFileSync(`${WEB_ROOT}/index.html`, 'utf8')).toContain('/web/app.js')
  })
})

describe.skipIf(!existsSync(CHROMIUM))('the playground page in Chromium', () => {
  let service: RunningService
  let browser: Browser
  let page: Page
  let pageCsp: string | undefined
  const consoleErrors: string[] = []
  const apiFailures: string[] = []

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    service = await startService()
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run']
    })
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] })
    // page code as strings: this project's TypeScript has no DOM types
    await page.addInitScript({
      content: `const seen = []
        Object.defineProperty(window, '__cspViolations', { value: seen })
        document.addEventListener('securitypolicyviolation', e => { seen.push(e.violatedDirective + ' ' + e.blockedURI) })`
    })
    page.on('console', (message) => {
      if (message.type() !== 'error') return
      // Chrome logs every non-2xx fetch; the API problems the page shows on purpose are checked one by one
      if (message.text().startsWith('Failed to load resource') && message.location().url.startsWith(`${service.base}/language/`)) {
        apiFailures.push(message.location().url)
      } else {
        consoleErrors.push(message.text())
      }
    })
    page.on('pageerror', (error) => { consoleErrors.push(`page error: ${error.message}`) })
    const response = await page.goto(`${service.base}/`, { waitUntil: 'networkidle' })
    pageCsp = response?.headers()['content-security-policy']
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await service?.stop()
  })

  const shot = async (name: string): Promise<void> => {
    await page.screenshot({ path: `${SHOTS}/playground-${name}.png`, fullPage: true })
  }

  /** The page's problem box of a panel: title line and detail. */
  const problemOf = async (panel: string): Promise<{ title: string, detail: string, errors: string[] }> => {
    const box = page.locator(`#${panel}-problem .problem-box`)
    await box.waitFor()
    return {
      title: await box.locator('.problem-title').innerText(),
      detail: await box.locator('.problem-detail').innerText(),
      errors: await box.locator('.problem-errors li').allInnerTexts()
    }
  }

  it('is served with a CSP that allows no inline script', () => {
    expectStrictCsp(pageCsp)
  })

  it('signs in with client credentials, shows the expiry and keeps the token out of storage and the URL', async () => {
    await shot('signin')
    await page.fill('#client-id', CLIENT.id)
    await page.fill('#client-secret', CLIENT.secret)
    await page.click('#credentials-form button[type=submit]')
    await page.locator('#auth-status').waitFor()
    expect(await page.locator('#auth-who').innerText()).toContain(`Signed in as ${CLIENT.id}`)
    expect(await page.locator('#auth-expiry').innerText()).toMatch(/expires at .+\(in \d+ min\) and is renewed before then/)
    expect(await page.locator('#client-secret').inputValue()).toBe('')
    // the languages came with the token
    await page.locator('#translate-source option[value=en]').waitFor({ state: 'attached' })
    const kept = await page.evaluate('({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie })')
    expect(kept).toEqual({ local: 0, session: 0, cookie: '' })
    expect(page.url()).toBe(`${service.base}/`)
  })

  it('renews a token from client credentials before it expires', async () => {
    // a page of its own, whose clock the test moves forward
    const other = await browser.newPage()
    try {
      await other.clock.install()
      await other.goto(`${service.base}/`)
      await other.fill('#client-id', CLIENT.id)
      await other.fill('#client-secret', CLIENT.secret)
      await other.click('#credentials-form button[type=submit]')
      await other.locator('#auth-status').waitFor()
      const before = await other.locator('#auth-expiry').innerText()
      const renewal = other.waitForRequest(r => r.method() === 'POST' && r.url() === `${service.base}/oauth/token`)
      await other.clock.fastForward('58:00')
      const answer = await (await renewal).response()
      expect(answer?.status()).toBe(200)
      await expect.poll(() => other.locator('#auth-expiry').innerText()).not.toBe(before)
      expect(await other.locator('#auth-problem').innerText()).toBe('')
    } finally {
      await other.close()
    }
  })

  it('asks once per source chosen which targets it translates into, and lists those', async () => {
    // one request per candidate target used up a client's rate limit in a few choices
    const get = async (path: string): Promise<any> => await (await fetch(service.base + path, { headers: { authorization: `Bearer ${service.token}` } })).json()
    const all = await get('/language/translate/locales') as { source: Array<{ tag: string, name: string }> }
    const sources = all.source.filter(s => ['en', 'es', 'ca'].includes(s.tag))
    expect(sources.length).toBeGreaterThanOrEqual(2)
    const asked: string[] = []
    const onRequest = (request: { url: () => string }): void => {
      if (new URL(request.url()).pathname.startsWith('/language/')) asked.push(request.url())
    }
    page.on('request', onRequest)
    try {
      for (const { tag, name } of sources) {
        asked.length = 0
        await page.selectOption('#translate-source', tag)
        await expect.poll(() => page.locator('#targets-note').innerText()).toContain(`work from ${name}`)
        expect(asked, tag).toHaveLength(1)
        const reached = await get(`/language/translate/locales?source=${tag}`) as { target: Array<{ tag: string, services: string[] }> }
        expect(reached.target.length, tag).toBeGreaterThan(0)
        expect(await page.locator('#targets-list input').evaluateAll(inputs => inputs.map(i => (i as unknown as { value: string }).value)), tag)
          .toEqual(reached.target.map(t => t.tag))
      }
      // a source chosen again is known: no request
      asked.length = 0
      await page.selectOption('#translate-source', sources[0]!.tag)
      await expect.poll(() => page.locator('#targets-note').innerText()).toContain(`work from ${sources[0]!.name}`)
      expect(asked).toEqual([])
    } finally {
      page.off('request', onRequest)
    }
  })

  it('translates an HTML snippet en->es (and ca) and shows it rendered, as source, with the service', async () => {
    const html = '<p>Hello <b>world</b></p>'
    await page.fill('#translate-text', html)
    await page.selectOption('#translate-mime', 'text/html')
    await page.selectOption('#translate-source', 'en')
    await page.locator('#target-es').check()
    await page.locator('#target-ca').check()
    await page.click('#translate-form button[type=submit]')
    const card = page.locator('.result[data-target=es]')
    await card.waitFor()

    const expected = await service.post('/language/translate', { document: { value: html, mime_type: 'text/html' }, source: 'en', targets: ['es', 'ca'] })
    expect(expected.status).toBe(200)
    const value: string = expected.json['results'].es.value
    const bold = /<b>([^<]*)<\/b>/.exec(value)?.[1]
    expect(bold).toBeTruthy()
    expect(bold).not.toBe('world')

    const frame = page.frameLocator('.result[data-target=es] iframe.preview')
    await expect.poll(() => frame.locator('b').count()).toBe(1)
    expect(await frame.locator('b').innerText()).toBe(bold)
    expect((await frame.locator('body').innerText()).trim()).toBe(value.replace(/<[^>]*>/g, '').trim())
    expect(await card.locator('pre.source').textContent()).toBe(value)
    expect(await card.locator('.badge').innerText()).toBe(expected.json['extra'].services.es)
    expect(await page.locator('.result[data-target=ca] pre.source').textContent()).toBe(expected.json['results'].ca.value)
    // the translated markup exists only inside the sandboxed frame
    expect(await page.locator('#translate-output b').count()).toBe(0)
    expect(await page.locator('.result[data-target=es] iframe.preview').getAttribute('sandbox')).toBe('')
    await shot('translate')
    await card.getByRole('button', { name: 'Copy the Spanish translation' }).click()
    await expect.poll(() => card.getByRole('button', { name: 'Copy the Spanish translation' }).innerText()).toBe('Copied')
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(value)
  })

  it('shows translated Markdown rendered and as source', async () => {
    const markdown = '# Hello\n\nThe **red** car is in the [garage](https://example.com/).'
    await page.selectOption('#translate-mime', 'text/markdown')
    await page.fill('#translate-text', markdown)
    await page.click('#translate-form button[type=submit]')
    await page.locator('.result[data-target=es] .markdown').waitFor()
    const expected = await service.post('/language/translate', { document: { value: markdown, mime_type: 'text/markdown' }, source: 'en', targets: ['es', 'ca'] })
    const value: string = expected.json['results'].es.value
    const card = page.locator('.result[data-target=es]')
    expect(await card.locator('pre.source').textContent()).toBe(value)
    expect(await card.locator('.markdown h3').innerText()).toBe(/^# (.*)$/m.exec(value)?.[1])
    expect(await card.locator('.markdown strong').innerText()).toBe(/\*\*(.+?)\*\*/.exec(value)?.[1])
    expect(await card.locator('.markdown a').getAttribute('href')).toBe('https://example.com/')
  })

  it('translates a Word file chosen with the file picker and offers each translation as a file to download', async () => {
    const docx = makeDocx('<w:p><w:r><w:t xml:space="preserve">The red car is </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>very</w:t></w:r><w:r><w:t xml:space="preserve"> fast.</w:t></w:r></w:p>')
    await page.setInputFiles('#translate-file', { name: 'letter.docx', mimeType: DOCX, buffer: Buffer.from(docx) })
    await expect.poll(() => page.locator('#translate-file-note').innerText()).toContain('letter.docx')
    expect(await page.locator('#translate-mime').inputValue()).toBe(DOCX)
    expect(await page.locator('#translate-text').isDisabled()).toBe(true)
    await page.click('#translate-form button[type=submit]')
    const link = page.locator('.result[data-target=es] a.download')
    await link.waitFor()
    expect(await link.getAttribute('download')).toBe('letter.es.docx')
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    const file = readFileSync((await download.path())!)
    // the file the page offers is the API's answer to the same request, byte for byte
    const expected = await service.post('/language/translate', { document: { value: base64(docx), mime_type: DOCX }, source: 'en', targets: ['es', 'ca'] })
    expect(expected.status).toBe(200)
    expect(base64(file)).toBe(expected.json['results'].es.value)
    // read back independently: Spanish, with the bold run still bold
    const runs = readParagraphs(text(members(base64(file))['word/document.xml']!))[0]!
    expect(runs.map(r => r.text).join('')).toMatch(/coche/)
    expect(runs.filter(r => r.bold).map(r => r.text).join('')).toMatch(/\S/)
    await page.getByRole('button', { name: 'Remove the file' }).click()
    expect(await page.locator('#translate-text').isDisabled()).toBe(false)
  })

  it('detects the source when asked to, and applies a substitution from the table', async () => {
    const text = 'The weather is lovely today and we are going to the beach with our friends.'
    await page.selectOption('#translate-source', 'auto')
    await page.selectOption('#translate-mime', 'text/plain')
    await page.fill('#translate-text', text)
    await page.click('.more summary')
    await page.click('#subs-add')
    await page.getByLabel('Substitution 1: text').fill('beach')
    await page.getByLabel('Substitution 1: substitution').fill('Playa Grande')
    await page.getByLabel('Substitution 1: target language').fill('es')
    await page.locator('#target-es').check()
    await page.click('#translate-form button[type=submit]')
    await page.locator('#translate-output [data-detected]').waitFor()
    const expected = await service.post('/language/translate', {
      document: { value: text, mime_type: 'text/plain' },
      targets: ['es', 'ca'],
      substitutions: [{ target: 'es', text: 'beach', substitution: 'Playa Grande' }]
    })
    expect(expected.status).toBe(200)
    const { detected, substitutions } = expected.json['extra']
    expect(await page.locator('#translate-output [data-detected]').innerText()).toBe(detected.language)
    expect(Number(await page.locator('#translate-output .detected meter').getAttribute('value'))).toBeCloseTo(detected.confidence, 6)
    expect(await page.locator('.result[data-target=es] pre.source').textContent()).toBe(expected.json['results'].es.value)
    expect(expected.json['results'].es.value).toContain('Playa Grande')
    expect(await page.locator('#translate-output .sub-used').count()).toBe(substitutions.length)
    await page.getByRole('button', { name: 'Remove substitution 1' }).click()
    expect(await page.locator('#subs-body tr').count()).toBe(0)
    await page.click('.more summary')
  })

  it('detects a German sentence: the language, a confidence bar and the alternatives', async () => {
    const sentence = 'Die Regierung hat gestern neue Maßnahmen beschlossen, um kleinen Unternehmen durch den Winter zu helfen.'
    await page.click('#tab-detect')
    await page.fill('#detect-text', sentence)
    await page.click('#detect-form button[type=submit]')
    await page.locator('#detected-language').waitFor()
    const expected = await service.post('/language/detect', { document: { value: sentence, mime_type: 'text/plain' } })
    expect(expected.json['language']).toBe('de')
    expect(await page.locator('#detected-language').innerText()).toBe('de')
    expect(Number(await page.locator('.detection .confidence meter').getAttribute('value'))).toBeCloseTo(expected.json['confidence'], 6)
    expect(await page.locator('.detection .bars li').count()).toBe(expected.json['alternatives'].length)
    await shot('detect')
  })

  it('shows the title, detail and pointer of a 400 (a malformed JSON document)', async () => {
    const broken = '{"greeting": "Hello"'
    await page.click('#tab-translate')
    await page.selectOption('#translate-source', 'en')
    await page.locator('#target-ca').waitFor()
    await page.selectOption('#translate-mime', 'application/json')
    await page.fill('#translate-text', broken)
    await page.click('#translate-form button[type=submit]')
    const shown = await problemOf('translate')
    const expected = await service.post('/language/translate', { document: { value: broken, mime_type: 'application/json' }, source: 'en', targets: ['es', 'ca'] })
    expect(expected.status).toBe(400)
    expect(shown.title).toBe(`${expected.json['title']} (HTTP 400)`)
    expect(shown.detail).toBe(expected.json['detail'])
    expect(shown.errors[0]).toContain(expected.json['errors'][0].pointer)
    expect(apiFailures.filter(url => url.endsWith('/language/translate'))).toHaveLength(1)
    await shot('error')

    // no target chosen: the page says so without a request
    await page.locator('#target-es').uncheck()
    await page.locator('#target-ca').uncheck()
    await page.click('#translate-form button[type=submit]')
    await expect.poll(async () => (await problemOf('translate')).title).toBe('No target language')
    expect(apiFailures.filter(url => url.endsWith('/language/translate'))).toHaveLength(1)
  })

  it('edits: the changes as a highlighted diff, or the problem when editing is not available', async () => {
    const text = 'This are a test. I has a apple.'
    await page.click('#tab-edit')
    await page.fill('#edit-text', text)
    await page.click('#edit-form button[type=submit]')
    await page.locator('#edit-output .result, #edit-problem .problem-box').first().waitFor()
    const expected = await service.post('/language/edit', { document: { value: text }, edits: [{ type: 'grammar' }], tone_level: 5, temperature: 0.3 })
    if (expected.status === 200) {
      const changes = expected.json['changes'] as Array<{ length: number, replacement: string }>
      expect(await page.locator('#edit-output pre.source').textContent()).toBe(expected.json['document'].value)
      expect(await page.locator('#edit-output h3', { hasText: 'Changes' }).innerText()).toBe(`Changes (${changes.length})`)
      expect(await page.locator('#edit-output .changes li').count()).toBe(changes.length)
      if (changes.length > 0) expect(await page.locator('#edit-output .diff del, #edit-output .diff ins').count()).toBeGreaterThan(0)
    } else {
      expect((await problemOf('edit')).detail).toBe(expected.json['detail'])
    }
    await shot('edit')

    // a tone needs a generative model: none is configured here, so the page shows why
    await page.locator('input[name=edit-kind][value=grammar]').uncheck()
    await page.selectOption('#edit-tone', 'friendly')
    await page.click('#edit-form button[type=submit]')
    const shown = await problemOf('edit')
    const tone = await service.post('/language/edit', { document: { value: text }, edits: [{ type: 'tone', tone: 'friendly' }], tone_level: 5, temperature: 0.3 })
    expect(tone.status).toBeGreaterThanOrEqual(400)
    expect(shown.detail).toBe(tone.json['detail'])
  })

  it('analyzes: sentiment, entities, moderation and categories, or the problem while analysis is missing', async () => {
    const text = 'Barack Obama visited Paris on Monday. The food was wonderful and the people were kind.'
    await page.click('#tab-analyze')
    await page.fill('#analyze-text', text)
    await page.click('#analyze-form button[type=submit]')
    await page.locator('#analyze-output .analyses, #analyze-problem .problem-box').first().waitFor()
    const expected = await service.post('/language/analyze', { document: { value: text }, analyses: ['sentiment', 'entities', 'moderation', 'categories'] })
    if (expected.status === 200) {
      const { sentiment, entities, moderation, categories } = expected.json
      expect(Number(await page.locator('[data-analysis=sentiment] meter').getAttribute('value'))).toBeCloseTo(sentiment.score, 6)
      expect(await page.locator('[data-analysis=sentiment] .sentiment').textContent()).toBe(sentiment.sentiment)
      const mentions = (entities.entities as Array<{ meta: { offsets?: unknown[] } }>).reduce((n, e) => n + (e.meta.offsets?.length ?? 0), 0)
      if (mentions > 0) expect(await page.locator('[data-analysis=entities] mark.entity').count()).toBeGreaterThan(0)
      expect(await page.locator('[data-analysis=entities] tbody tr').count()).toBe(entities.entities.length)
      expect(await page.locator('[data-analysis=moderation] .bars li').count()).toBe(moderation.categories.length)
      expect(await page.locator('[data-analysis=categories] .bars li').count()).toBe(categories.categories.length)
    } else {
      expect((await problemOf('analyze')).detail).toBe(expected.json['detail'])
    }
    await shot('analyze')
  })

  it('moves between the panels with the arrow keys', async () => {
    await page.focus('#tab-analyze')
    await page.keyboard.press('ArrowRight')
    expect(await page.locator('#tab-translate').getAttribute('aria-selected')).toBe('true')
    expect(await page.locator('#panel-translate').isVisible()).toBe(true)
    expect(await page.locator('#panel-analyze').isVisible()).toBe(false)
    await page.keyboard.press('End')
    expect(await page.evaluate('document.activeElement.id')).toBe('tab-analyze')
  })

  it('signs out, then works with a pasted token', async () => {
    await page.click('#sign-out')
    await page.locator('#auth-forms').waitFor()
    await page.fill('#bearer-token', service.token)
    await page.click('#token-form button[type=submit]')
    await page.locator('#auth-status').waitFor()
    expect(await page.locator('#auth-who').innerText()).toContain('with a pasted token')
    expect(await page.locator('#auth-expiry').innerText()).toMatch(/expires at/)
    const sentence = 'Ceci est une phrase écrite en français, sans aucun doute.'
    await page.click('#tab-detect')
    await page.fill('#detect-text', sentence)
    await page.click('#detect-form button[type=submit]')
    const expected = await service.post('/language/detect', { document: { value: sentence, mime_type: 'text/plain' } })
    await expect.poll(() => page.locator('#detected-language').innerText()).toBe(expected.json['language'])
  })

  it('fits a phone\'s width and follows a dark colour scheme', async () => {
    const background = 'getComputedStyle(document.body).backgroundColor'
    await page.emulateMedia({ colorScheme: 'light' })
    const light = await page.evaluate(background)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await page.evaluate(background)).not.toBe(light)
    await shot('dark')
    await page.setViewportSize({ width: 360, height: 800 })
    for (const tab of ['translate', 'detect', 'edit', 'analyze']) {
      await page.click(`#tab-${tab}`)
      const width = await page.evaluate('({ scroll: document.documentElement.scrollWidth, view: window.innerWidth })') as { scroll: number, view: number }
      expect(width.scroll, tab).toBeLessThanOrEqual(width.view)
    }
    await shot('narrow')
  })

  it('logged no console errors and no CSP violations', async () => {
    expect(consoleErrors).toEqual([])
    expect(await page.evaluate('window.__cspViolations')).toEqual([])
  })
})
