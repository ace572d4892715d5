/**
 * WORKERS=2 over real HTTP: two processes share the port; a token from one verifies on the other
 * (one signing key made by the primary), without Redis the rate limit holds per client across
 * both (each worker counts and tells the primary every SYNC_MS, which tells both the totals: a
 * burst goes past the limit by at most what the other worker let through meanwhile), and each worker translates with Apertium
 * pipelines of its own. Every request goes on its own connection, so the connections are dealt
 * round-robin to both workers.
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commandOf, descendants } from '../helpers/proc.js'
import { startService, type RunningService } from '../helpers/service.js'
import { fakeModesDir, removeFakeModesDirs } from '../helpers/apertium-processes.js'
import { startOidc } from '../fakes/oidc.js'
import { CLIENT } from '../helpers/app.js'
import { SYNC_MS } from '../../src/http/cluster-rate-limit.js'

/** A key for the compatible APIs (at least 16 characters). */
const API_KEY = 'workers-test-api-key-0123456789'

let service: RunningService

beforeAll(async () => {
  // no AUTH_JWT_SECRET: the primary makes one for both workers
  service = await startService({ WORKERS: '2', RATE_LIMIT_MAX: '10', AUTH_JWT_SECRET: '' })
}, 90_000)

afterAll(async () => { await service?.stop() })

/** The processes directly below `pid` (from /proc: each thread lists the children it started). */
async function childrenOf (pid: number): Promise<number[]> {
  const { readdirSync, readFileSync } = await import('node:fs')
  return readdirSync('/proc').filter(d => /^\d+$/.test(d)).map(Number).filter(d => {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid
    } catch {
      return false
    }
  })
}

/** POST JSON on a fresh connection (no keep-alive), so requests are spread over the workers; the answer's status and body. */
function freshPost (base: string, path: string, token: string, body: unknown): Promise<{ status: number, json: Record<string, any> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'POST', agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, res => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => { text += d })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, any> }))
    })
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

/** GET on a fresh connection (no keep-alive), so connections are spread over the workers. */
function freshGet (path: string, token: string): Promise<{ status: number, retryAfter?: string }> {
  return getOn(service.base, token, path)
}

function getOn (base: string, token: string, path = '/language/edit/tones'): Promise<{ status: number, retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent: false, headers: { authorization: `Bearer ${token}` } }, res => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(res.headers['retry-after'] ? { retryAfter: String(res.headers['retry-after']) } : {}) }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('WORKERS=2', () => {
  it('runs two worker processes, verifies tokens on both, and holds one rate limit per client across them', async () => {
    // the primary and two workers (its children in /proc running the server)
    const workers = (await childrenOf(service.child.pid!)).filter(pid => commandOf(pid).includes('server.ts'))
    expect(workers.length).toBe(2)

    // the token request was counted by address, not by client: this client starts at 0 of 10;
    // requests further apart than the workers' exchange of counts are counted exactly
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) {
      statuses.push((await freshGet('/language/edit/tones', service.token)).status)
      await new Promise(resolve => setTimeout(resolve, 10 * SYNC_MS))
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200))
    expect(statuses.slice(10)).toEqual([429, 429])
    const limited = await freshGet('/language/edit/tones', service.token)
    expect(Number(limited.retryAfter)).toBeGreaterThan(0)
  }, 60_000)

  it('lets a burst past the limit by at most the other worker\'s share, and no further once the counts are exchanged', async () => {
    const other = await startService({ WORKERS: '2', RATE_LIMIT_MAX: '10' })
    try {
      // 40 requests at once on 40 connections, dealt to both workers: each worker alone stops at 10
      const burst = await Promise.all(Array.from({ length: 40 }, async () => (await getOn(other.base, other.token)).status))
      const passed = burst.filter(s => s === 200).length
      expect(passed).toBeGreaterThanOrEqual(10)
      expect(passed).toBeLessThanOrEqual(20)
      expect(burst.filter(s => s !== 200 && s !== 429)).toEqual([])
      await new Promise(resolve => setTimeout(resolve, 10 * SYNC_MS))
      const after = await Promise.all(Array.from({ length: 6 }, async () => (await getOn(other.base, other.token)).status))
      expect(after).toEqual(Array(6).fill(429))
    } finally {
      await other.stop()
    }
  }, 90_000)
})

describe('WORKERS=2 with thousands of clients in AUTH_CLIENTS_FILE', () => {
  it('starts (each worker reads the file as the primary did: handed over in the environment, 2,000 clients passed its limit, spawn E2BIG), and every client gets tokens on both workers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clients-file-'))
    const file = join(dir, 'clients.json')
    const { writeFileSync } = await import('node:fs')
    const clients = Array.from({ length: 2000 }, (_, i) => ({ id: `client-${i}`, secret: `secret-of-client-${i}-padding`, scopes: ['access'] }))
    writeFileSync(file, JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'] }, ...clients]))
    let many: RunningService | undefined
    try {
      many = await startService({ WORKERS: '2', AUTH_CLIENTS: '', AUTH_CLIENTS_FILE: file })
      for (const i of [0, 1999, 7, 1500]) {
        const res = await fetch(`${many.base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: `client-${i}`, client_secret: `secret-of-client-${i}-padding` }) })
        expect(res.status, `client-${i}`).toBe(200)
      }
    } finally {
      await many?.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})

describe('WORKERS=2 with no client configured', () => {
  it('prints one client made for the run, and both workers give it tokens', async () => {
    let made: RunningService | undefined
    try {
      made = await startService({ WORKERS: '2', AUTH_CLIENTS: '' })
      const printed = /client_id:\s+(\S+)\n\s+client_secret:\s+(\S+)/.exec(made.output())
      expect(printed, made.output()).not.toBeNull()
      expect(made.output().match(/client_id:/g)).toHaveLength(1)
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${made.base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: printed![1]!, client_secret: printed![2]! }) })
        expect(res.status).toBe(200)
      }
    } finally {
      await made?.stop()
    }
  }, 120_000)
})

describe('WORKERS=2 with an outside issuer and clients of its own, no AUTH_JWT_SECRET', () => {
  it('verifies its own tokens on both workers (one key made by the primary), and the outside issuer\'s too', async () => {
    const oidc = await startOidc()
    let both: RunningService | undefined
    try {
      both = await startService({
        WORKERS: '2',
        AUTH_JWT_SECRET: '',
        AUTH_JWKS_URL: oidc.jwksUrl,
        AUTH_ISSUER: oidc.issuer,
        AUTH_AUDIENCE: oidc.audience,
        AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'], api_keys: [API_KEY] }])
      })
      const base = both.base
      // each worker with a key of its own refused about half of these (401)
      const get = (token: string) => new Promise<number>((resolve, reject) => {
        const req = request(`${base}/language/edit/tones`, { agent: false, headers: { authorization: `Bearer ${token}` } }, res => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        })
        req.on('error', reject)
        req.end()
      })
      const own: number[] = []
      for (let i = 0; i < 8; i++) own.push(await get(both.token))
      expect(own).toEqual(Array(8).fill(200))
      const outside = await oidc.token('access', oidc.audience)
      const theirs: number[] = []
      for (let i = 0; i < 4; i++) theirs.push(await get(outside))
      expect(theirs).toEqual(Array(4).fill(200))
      // the primary hands the clients to its workers as read, API keys included (the compatible APIs take them)
      const detect = () => new Promise<number>((resolve, reject) => {
        const req = request(`${base}/libretranslate/detect`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, res => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        })
        req.on('error', reject)
        req.end(JSON.stringify({ q: 'Where is the railway station?', api_key: API_KEY }))
      })
      const keyed: number[] = []
      for (let i = 0; i < 4; i++) keyed.push(await detect())
      expect(keyed).toEqual(Array(4).fill(200))
    } finally {
      await both?.stop()
      await oidc.close()
    }
  }, 90_000)
})

describe('WORKERS=2: pipelines per worker', () => {
  let shared: RunningService
  beforeAll(async () => { shared = await startService({ WORKERS: '2' }) }, 90_000)
  afterAll(async () => { await shared?.stop() })

  it('translates on both workers, each with pipelines of its own, none in the primary', async () => {
    const workers = (await childrenOf(shared.child.pid!)).filter(pid => commandOf(pid).includes('server.ts'))
    expect(workers).toHaveLength(2)
    // ten requests on ten connections: both workers translate
    const sentences = Array.from({ length: 10 }, (_, i) => `The house number ${i + 1} is very big.`)
    const answers = await Promise.all(sentences.map(text =>
      freshPost(shared.base, '/language/translate', shared.token, { source: 'en', targets: ['es'], document: { value: text } })))
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.json)).toBe(200)
      expect(answer.json['results']['es']['value']).toMatch(/casa/i)
    }
    // an en->es pipeline below each worker that translated (both did: ten connections, dealt round-robin), none below the primary itself
    const firstStage = (pid: number): boolean => /^lt-proc .*eng-spa\.automorf\.bin/.test(commandOf(pid))
    for (const worker of workers) expect(descendants(worker).filter(firstStage).length).toBeGreaterThanOrEqual(1)
    expect((await childrenOf(shared.child.pid!)).filter(firstStage)).toEqual([])
    // an error of a worker's pipelines reaches the client as itself: an unknown pair is a 400 naming the field
    const unsupported = await freshPost(shared.base, '/language/translate', shared.token, { source: 'en', targets: ['tlh'], document: { value: 'Hello' } })
    expect(unsupported.status).toBe(400)
    expect(unsupported.json['errors'][0]['pointer']).toMatch(/^\/targets/)
  }, 60_000)
})

describe('WORKERS=2: errors of a worker\'s pipelines reach the client as themselves', () => {
  let fake: RunningService
  let apertiumDir: string
  beforeAll(async () => {
    // Apertium data whose one mode (en->es) echoes each request, and stalls on STALL
    apertiumDir = mkdtempSync(join(tmpdir(), 'apertium-dir-'))
    symlinkSync(fakeModesDir(), join(apertiumDir, 'modes'))
    fake = await startService({ WORKERS: '2', APERTIUM_DIR: apertiumDir, APERTIUM_TIMEOUT_MS: '500' })
  }, 90_000)
  afterAll(async () => {
    await fake?.stop()
    removeFakeModesDirs()
    if (apertiumDir !== undefined) rmSync(apertiumDir, { recursive: true, force: true })
  })

  it('answers the pipeline\'s timeout as a 504 problem, and the next requests from both workers as usual', async () => {
    const stalled = await freshPost(fake.base, '/language/translate', fake.token, { source: 'en', targets: ['es'], document: { value: 'Please STALL here.' } })
    expect(stalled.status, JSON.stringify(stalled.json)).toBe(504)
    expect(stalled.json['type']).toBe('/problems/upstream-timeout')
    expect(stalled.json['detail']).toMatch(/apertium/)
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) =>
      freshPost(fake.base, '/language/translate', fake.token, { source: 'en', targets: ['es'], document: { value: `Sentence number ${i}.` } })))
    expect(answers.map(a => a.status)).toEqual(Array(6).fill(200))
    expect(answers.map(a => a.json['results']['es']['value'])).toEqual(Array.from({ length: 6 }, (_, i) => `Sentence number ${i}.`))
  }, 60_000)
})

describe('WORKERS=2: the DeepL-compatible API\'s quota (issue 32, finding 7)', () => {
  let quota: RunningService
  beforeAll(async () => {
    quota = await startService({
      WORKERS: '2',
      COMPAT_DEEPL_CHARACTER_LIMIT: '210',
      AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'], api_keys: [API_KEY] }])
    })
  }, 90_000)
  afterAll(async () => { await quota?.stop() })

  /** A DeepL-compatible call with the key on a fresh connection (so both workers get some); its status and body. */
  const deepl = (method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number, json: Record<string, any> }> => new Promise((resolve, reject) => {
    const req = request(`${quota.base}/deepl${path}`, { method, agent: false, headers: { authorization: `DeepL-Auth-Key ${API_KEY}`, 'content-type': 'application/json' } }, res => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => { text += d })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, any> }))
    })
    req.on('error', reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })

  it('holds one count for both workers: 20 requests of 40 characters at once against 210 translate five, and both workers answer usage 200', async () => {
    const text = 'The red car is very fast and very nice.!'
    expect(text).toHaveLength(40)
    const answers = await Promise.all(Array.from({ length: 20 }, () => deepl('POST', '/v2/translate', { text, source_lang: 'EN', target_lang: 'ES' })))
    const statuses = answers.map(a => a.status)
    // each worker counting its own let ten through (400 characters)
    expect(statuses.filter(s => s === 200), statuses.join(', ')).toHaveLength(5)
    expect(statuses.filter(s => s === 456), statuses.join(', ')).toHaveLength(15)
    const usages = await Promise.all(Array.from({ length: 6 }, () => deepl('GET', '/v2/usage')))
    for (const usage of usages) expect(usage.json).toEqual({ character_count: 200, character_limit: 210 })
  }, 60_000)
})
