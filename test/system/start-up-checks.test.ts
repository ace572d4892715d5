/**
 * A start-up that stops on a bad setting stops before it makes anything for the run: a probe's
 * TRANSLATION_SERVICES=deepl (no key) printed a new client's secret, then the configuration error.
 */
import { mkdtempSync, rmSync } from 'node:fs'
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
})
