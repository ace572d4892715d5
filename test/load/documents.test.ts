/**
 * Issue 12, findings 2 and 3, over real HTTP: heavy documents (a bulk of small pathological
 * Markdown, 100,000 nested `<b>`, a 100,000-key JSON document) and 100,000 characters to analyse
 * and to spell-check, sent by six clients at once (each its own token), must
 * neither freeze the process (/health stays fast, no 503 from load shedding) nor make other
 * clients' work wait behind them (a legitimate 3 KB Markdown document and short translations stay
 * fast). The hostile requests get a 200 or a 4xx, or a 503 asking them to come back when they
 * waited their whole allowance for the document threads (DOCUMENT_QUEUE_TIMEOUT_MS); never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT } from '../helpers/app.js'
import { startService, type RunningService } from '../helpers/service.js'
import { heavyMarkdown } from '../helpers/markdown.js'

let service: RunningService
/** Each client's token: the six hostile ones, the short translations' and the legitimate document's. */
const tokens = new Map<string, string>()
const CLIENTS = [...Array.from({ length: 6 }, (_, i) => `hostile-${i}`), 'short', 'legit']

beforeAll(async () => {
  service = await startService({
    // load shedding on, as in production: a frozen event loop turns into 503s for everyone
    MAX_EVENT_LOOP_DELAY_MS: '1000',
    MAX_TEXT_CHARS: '10000000',
    BODY_LIMIT: String(8 * 1024 * 1024),
    MAX_BULK_DOCUMENTS: '100',
    RATE_LIMIT_MAX: '1000000',
    AUTH_CLIENTS: JSON.stringify([CLIENT, ...CLIENTS.map(id => ({ id, secret: `${id}-secret` }))].map(c => ({ ...c, scopes: ['access'] })))
  })
  for (const id of CLIENTS) {
    const res = await fetch(`${service.base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: `${id}-secret` })
    })
    tokens.set(id, ((await res.json()) as { access_token: string }).access_token)
  }
}, 90_000)

afterAll(async () => { await service?.stop() })

interface Sample { status: number, ms: number, text: string }

/** Nearest-rank percentile. */
function percentile (values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1)] ?? 0
}

/** POST a prepared body as a client; status and time taken (the body is read and dropped). */
async function timedPost (client: string, path: string, body: string): Promise<{ status: number, ms: number, text: string }> {
  const started = performance.now()
  const res = await fetch(service.base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.get(client)!}`, 'content-type': 'application/json' },
    body
  })
  const text = await res.text()
  return { status: res.status, ms: performance.now() - started, text: text.length > 2000 ? text.slice(0, 2000) : text }
}

// under 2,000 characters each: parsed on the main thread before the fix
const smallEvilMarkdown = (i: number): string => heavyMarkdown(3, i)
const markdownBulk = JSON.stringify({
  documents: Array.from({ length: 50 }, (_, i) => ({ value: smallEvilMarkdown(i), mime_type: 'text/markdown' })),
  source: 'en',
  targets: ['en-GB']
})
const nestedHtml = JSON.stringify({
  document: { value: '<b>'.repeat(100_000) + 'The end.', mime_type: 'text/html', language: 'en' },
  substitutions: [{ text: 'end', substitution: 'finish' }]
})
const manyKeys: Record<string, string> = {}
for (let i = 0; i < 100_000; i++) manyKeys[i.toString(36)] = 'v'
const jsonDetect = JSON.stringify({ document: { value: JSON.stringify(manyKeys), mime_type: 'application/json' } })
const jsonTranslate = JSON.stringify({ document: { value: manyKeys, mime_type: 'application/json' }, source: 'en', targets: ['en-GB'] })

// 100,000 characters of ordinary prose: about a second of offline analysis or spelling work
const prose = Array.from({ length: 1400 }, (_, i) => `Mary Smith visited Paris on ${1 + i % 28} May and found the hotel ${i % 3 === 0 ? 'terrible' : 'wonderful'}.`).join(' ').slice(0, 100_000)
const longAnalysis = JSON.stringify({ document: { value: prose, language: 'en' } })
const longEdit = JSON.stringify({ document: { value: prose.replaceAll('hotel', 'hotle'), language: 'en' }, edits: [{ type: 'grammar' }] })

const HOSTILE: Array<[string, string]> = [
  ['/language/translate/bulk', markdownBulk],
  ['/language/substitute', nestedHtml],
  ['/language/detect', jsonDetect],
  ['/language/translate', jsonTranslate],
  ['/language/analyze', longAnalysis],
  ['/language/edit', longEdit]
]

/** A legitimate Markdown document of about 3 KB. */
const legitMarkdown = Array.from({ length: 48 }, (_, i) => `The *garden* tool ${i} is in [the shed](https://example.com/${i}).`).join('\n\n')

/** /health every 20 ms, a short translation every 50 ms and a legitimate 3 KB Markdown document every 500 ms, for `ms`. */
async function measure (ms: number): Promise<{ health: number[], short: Sample[], legit: Sample[] }> {
  const health: number[] = []
  const short: Sample[] = []
  const legit: Sample[] = []
  const until = performance.now() + ms
  const healthClient = (async () => {
    while (performance.now() < until) {
      const started = performance.now()
      const res = await fetch(`${service.base}/health`)
      await res.arrayBuffer()
      health.push(res.status === 200 ? performance.now() - started : Infinity)
      await new Promise(resolve => setTimeout(resolve, 20))
    }
  })()
  const shortBody = (i: number): string => JSON.stringify({ document: { value: `The house number ${i} is red.` }, source: 'en', targets: ['es'] })
  const shortClient = (async () => {
    for (let i = 0; performance.now() < until; i++) {
      short.push(await timedPost('short', '/language/translate', shortBody(i)))
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  })()
  const legitClient = (async () => {
    for (let i = 0; performance.now() < until; i++) {
      legit.push(await timedPost('legit', '/language/substitute', JSON.stringify({
        document: { value: legitMarkdown + ` ${i}`, mime_type: 'text/markdown', language: 'en' },
        substitutions: [{ text: 'garden', substitution: 'yard' }]
      })))
      await new Promise(resolve => setTimeout(resolve, 500))
    }
  })()
  await Promise.all([healthClient, shortClient, legitClient])
  return { health, short, legit }
}

describe('heavy documents under load (issue 12, findings 2 and 3)', () => {
  it('keeps /health, a legitimate document and another client\'s short translations fast while six clients send the worst documents and the longest texts', async () => {
    expect(legitMarkdown.length).toBeGreaterThan(2500)
    // warm up: the engine pipeline and every code path once
    for (let i = 0; i < 3; i++) {
      const warm = await service.post('/language/translate', { document: { value: 'Hello world.' }, source: 'en', targets: ['es'] })
      expect(warm.status, JSON.stringify(warm.json)).toBe(200)
    }
    expect((await service.post('/language/substitute', { document: { value: legitMarkdown, mime_type: 'text/markdown', language: 'en' }, substitutions: [{ text: 'garden', substitution: 'yard' }] })).status).toBe(200)

    // the same measurements without the heavy requests: the machine is shared, so the bounds
    // below are over what it gives at this moment
    const baseline = await measure(3000)

    const hostile: Array<{ path: string, status: number, ms: number, text: string }> = []
    let stop = false
    const stopped = (): boolean => stop
    const hostileClients = HOSTILE.map(async ([path, body], i) => {
      // every client keeps one heavy request in flight until the measurements are done
      for (let first = true; first || !stopped(); first = false) hostile.push({ path, ...await timedPost(`hostile-${i}`, path, body) })
    })

    // let the heavy requests start
    await new Promise(resolve => setTimeout(resolve, 300))
    const { health, short, legit } = await measure(8000)
    stop = true
    await Promise.all(hostileClients)

    const summary = JSON.stringify({
      baseline: { health: percentile(baseline.health, 99), short: percentile(baseline.short.map(r => r.ms), 99), legit: Math.max(...baseline.legit.map(r => r.ms)) },
      health: { n: health.length, p50: percentile(health, 50), p99: percentile(health, 99) },
      short: { n: short.length, p99: percentile(short.map(r => r.ms), 99), statuses: [...new Set(short.map(r => r.status))] },
      legit: legit.map(r => [r.status, Math.round(r.ms)]),
      hostile: Object.fromEntries(HOSTILE.map(([path]) => {
        const mine = hostile.filter(r => r.path === path)
        return [path, { statuses: [...new Set(mine.map(r => r.status))], maxMs: Math.round(Math.max(0, ...mine.map(r => r.ms))) }]
      }))
    })
    console.log(summary)
    // the other clients: never a 5xx (no 503 from load shedding or busy threads, no 500) and never a hang
    for (const r of [...short, ...legit]) expect(r.status, `${summary}\n${r.text}`).toBe(200)
    for (const r of hostile) {
      // a heavy request that waited its whole allowance for the document threads is told to come back (503, Retry-After)
      const busy = r.status === 503 && r.text.includes('DOCUMENT_QUEUE_TIMEOUT_MS')
      expect(busy || r.status < 300 || (r.status >= 400 && r.status < 500), `${summary}\n${r.path} ${r.text}`).toBe(true)
      expect(r.ms, summary).toBeLessThan(30_000)
    }
    // the event loop stays free: liveness answers at once
    expect(health.length, summary).toBeGreaterThan(50)
    expect(percentile(health, 99), summary).toBeLessThan(100 + percentile(baseline.health, 99))
    // other clients do not wait behind the heavy documents
    expect(short.length, summary).toBeGreaterThan(20)
    expect(percentile(short.map(r => r.ms), 99), summary).toBeLessThan(250 + percentile(baseline.short.map(r => r.ms), 99))
    expect(legit.length, summary).toBeGreaterThan(5)
    // room for a busy machine: the pool's threads run below the event loop's priority, so other
    // work on the machine slows them most; the bound grows with what the same document took alone
    const legitBound = 1000 + 3 * Math.max(...baseline.legit.map(r => r.ms))
    for (const r of legit) expect(r.ms, summary).toBeLessThan(legitBound)
    // and the heavy requests themselves are answered (served, refused with a 4xx naming the field, or told to come back)
    expect(new Set(hostile.map(r => r.path)).size, summary).toBe(HOSTILE.length)
  }, 90_000)
})
