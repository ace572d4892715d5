/**
 * What a client and the log get when an Apertium pipeline cannot start (its stage writes why to
 * stderr and exits at once, as a stage whose dictionary file is missing does), over HTTP: the
 * client a 502 in our words, the log the stage's words, for the operator. The pipeline serves
 * every client, and a stage's words may quote a text, so they never reach an answer.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, testApp, tokenFor } from '../helpers/app.js'
import { emptyRegistry } from '../../src/registry.js'
import { createApertium } from '../../src/providers/apertium/index.js'

const STAGE_SAYS = "Error: Cannot open file '/usr/share/apertium/apertium-eng-spa/eng-spa.automorf.bin'"

let dir: string
let app: FastifyInstance
let token: string
const lines: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'apertium-broken-'))
  mkdirSync(join(dir, 'modes'))
  const stage = join(dir, 'broken-stage')
  writeFileSync(stage, `#!/bin/sh\necho "${STAGE_SAYS}" >&2\nexit 1\n`)
  chmodSync(stage, 0o755)
  writeFileSync(join(dir, 'modes', 'eng-spa.mode'), `${stage} $1\n`)
  const apertium = createApertium({ modesDir: join(dir, 'modes') })
  app = await testApp({ LOG_LEVEL: 'info' }, {
    registry: { ...emptyRegistry(), translators: [apertium], close: async () => { await apertium.close?.() } },
    logger: true,
    logStream: { write: line => { lines.push(line) } }
  })
  token = await tokenFor(app)
})

afterAll(async () => {
  await app?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('an Apertium pipeline that cannot start', () => {
  it('is a 502 in our words for the client, and the log holds what its stage wrote to stderr', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/language/translate',
      headers: bearer(token),
      payload: { document: { value: 'Hello world.' }, source: 'en', targets: ['es'], options: { cache: false } }
    })
    expect(res.statusCode, res.body).toBe(502)
    expect(res.json().detail).toMatch(/apertium: eng-spa pipeline/)
    expect(res.body).not.toContain('Cannot open')
    const requestId = res.json().request_id as string
    const logged = lines.map(line => JSON.parse(line) as { request_id?: string, err?: { engineMessage?: string } })
      .filter(entry => entry.request_id === requestId && entry.err !== undefined)
    expect(logged.map(entry => entry.err!.engineMessage)).toContain(STAGE_SAYS)
  })
})
