/**
 * A start-up that stops on a bad setting stops before it makes anything for the run: a probe's
 * TRANSLATION_SERVICES=deepl (no key) printed a new client's secret, then the configuration error.
 * Settings that work against each other are warned of (a probe's HANDLER_TIMEOUT_MS under
 * UPSTREAM_TIMEOUT_MS started silently, though the docs say to keep it above).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runServiceToExit } from '../helpers/service.js'

describe('start-up checks', () => {
  it('TRANSLATION_SERVICES naming an engine with no settings stops start-up before a client is made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-up-checks-'))
    try {
      const { code, output } = await runServiceToExit({ TRANSLATION_SERVICES: 'deepl', AUTH_CLIENTS: '', AUTH_JWT_SECRET: '', DATA_DIR: join(dir, 'data') }, dir)
      expect(code, output).toBe(78)
      expect(output).toContain('configuration error: TRANSLATION_SERVICES: "deepl" is named but not configured (set DEEPL_API_KEY)')
      expect(output).not.toMatch(/client_secret|no OAuth client is configured/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it('HANDLER_TIMEOUT_MS not above UPSTREAM_TIMEOUT_MS is warned of once, at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-up-checks-'))
    // the service stops at once on a port another process holds, after the warnings
    const holder = createServer()
    await new Promise<void>(resolve => holder.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = holder.address() as AddressInfo
      const { code, output } = await runServiceToExit({ HOST: '127.0.0.1', PORT: String(port), HANDLER_TIMEOUT_MS: '1000', UPSTREAM_TIMEOUT_MS: '5000', DATA_DIR: join(dir, 'data') }, dir)
      expect(code, output).toBe(78)
      expect(output.split('\n').filter(line => line.includes('HANDLER_TIMEOUT_MS'))).toEqual([
        expect.stringMatching(/^WARNING: HANDLER_TIMEOUT_MS \(1000\) is not above UPSTREAM_TIMEOUT_MS \(5000\)/)
      ])
    } finally {
      holder.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
