/** Builds the real app for tests, with a known client and signing secret. */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp, type BuildOptions } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import { emptyRegistry } from '../../src/registry.js'

export const CLIENT = { id: 'test-client', secret: 'test-client-secret' }
export const READ_ONLY = { id: 'read-only', secret: 'read-only-secret' }
export const JWT_SECRET = 'test-signing-secret-of-at-least-32-bytes!'

/** Where a test process's jobs go unless a test names its own DATA_DIR (never the repository's data/). */
const TEST_DATA_DIR = mkdtempSync(join(tmpdir(), 'test-data-'))

/** A Config from test defaults plus the given variables. */
export function testConfig (env: Record<string, string> = {}): Config {
  return loadConfig({
    AUTH_CLIENTS: JSON.stringify([
      { id: CLIENT.id, secret: CLIENT.secret, scopes: ['access', 'read', 'write'] },
      { id: READ_ONLY.id, secret: READ_ONLY.secret, scopes: ['read'] }
    ]),
    AUTH_JWT_SECRET: JWT_SECRET,
    LOG_LEVEL: 'silent',
    // no load shedding unless a test asks for it: on a loaded machine (two test files at once,
    // module compilation at start) a test process can miss a whole sample interval, which
    // under-pressure counts as an infinite delay, and answers would turn into 503s
    MAX_EVENT_LOOP_DELAY_MS: '0',
    DATA_DIR: TEST_DATA_DIR,
    ...env
  })
}

/**
 * The app, ready, with logging off. Without `engines` it has none (most tests need none); with
 * it, the real Apertium and detector, and it returns once /ready says they are loaded.
 */
export async function testApp (env: Record<string, string> = {}, options: BuildOptions & { engines?: boolean } = {}): Promise<FastifyInstance> {
  const { engines, ...build } = options
  const app = await buildApp(testConfig(env), { logger: false, ...(engines ? {} : { registry: emptyRegistry() }), ...build })
  await app.ready()
  if (engines) await untilReady(app)
  return app
}

/** Waits for /ready (at most 30 s); engines that fail to start fail the test. */
async function untilReady (app: FastifyInstance): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const ready = await app.inject({ method: 'GET', url: '/ready' })
    if (ready.statusCode === 200) break
    if (ready.json().status === 'failed') throw new Error(`engines failed to start: ${ready.body}`)
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

/** An access token from the app's own token endpoint. */
export async function tokenFor (app: FastifyInstance, client = CLIENT, scope?: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { authorization: 'Basic ' + Buffer.from(`${client.id}:${client.secret}`).toString('base64') },
    payload: { grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }) }
  })
  if (res.statusCode !== 200) throw new Error(`token request failed: ${res.statusCode} ${res.body}`)
  return res.json().access_token as string
}

/** Headers for an authenticated JSON call. */
export function bearer (token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` }
}
