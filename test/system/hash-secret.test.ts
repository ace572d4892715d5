/**
 * The hash-secret command, run as an operator runs it (a probe found it missing from the built
 * service, the image's layout, and hashing secrets too short for AUTH_CLIENTS): it prints a hash
 * AUTH_CLIENTS takes, and refuses a secret AUTH_CLIENTS would refuse in plain.
 */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { testApp } from '../helpers/app.js'

const run = (secret: string): { status: number | null, stdout: string, stderr: string } => {
  const done = spawnSync(process.execPath, ['--import', 'tsx', 'src/hash-secret.ts', secret], { encoding: 'utf8', timeout: 60_000 })
  return { status: done.status, stdout: done.stdout, stderr: done.stderr }
}

describe('hash-secret', () => {
  it('prints a secret_hash that AUTH_CLIENTS takes and that gets tokens for the secret', async () => {
    const out = run('a-long-enough-secret')
    expect(out.status, out.stderr).toBe(0)
    const hash = out.stdout.trim()
    expect(hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/)
    const clients = JSON.stringify([{ id: 'hashed', secret_hash: hash, scopes: ['access'] }])
    expect(loadConfig({ AUTH_CLIENTS: clients }).auth.clients[0]!.secretHash).toBe(hash)
    const app = await testApp({ AUTH_CLIENTS: clients })
    try {
      const token = await app.inject({ method: 'POST', url: '/oauth/token', headers: { authorization: 'Basic ' + Buffer.from('hashed:a-long-enough-secret').toString('base64') }, payload: { grant_type: 'client_credentials' } })
      expect(token.statusCode, token.body).toBe(200)
    } finally {
      await app.close()
    }
  }, 60_000)

  it('refuses a secret shorter than AUTH_CLIENTS takes, and no secret at all', () => {
    for (const secret of ['short', '']) {
      const out = run(secret)
      expect(out.status).toBe(2)
      expect(out.stdout).toBe('')
    }
  })
})
