/**
 * Names that set nothing are told at start, once (in the primary), by name with the setting meant:
 * a probe's WORKER=2 and AUTH_CLIENT_FILE were ignored silently. The service still starts (here it
 * stops at once on a port another process holds, after its workers tried it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runServiceToExit } from '../helpers/service.js'

describe('names that are no setting', () => {
  it('WORKERS=2: each is named once with the setting meant, the platform\'s are not, values never', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'unknown-settings-'))
    const holder = createServer()
    await new Promise<void>(resolve => holder.listen(0, '127.0.0.1', resolve))
    try {
      writeFileSync(join(dir, '.env'), 'LOG_LEVEL=warn\nRATE_LIMT_MAX=value-in-file-1\n')
      const { port } = holder.address() as AddressInfo
      const { code, output } = await runServiceToExit({
        HOST: '127.0.0.1',
        PORT: String(port),
        WORKERS: '2',
        WORKER: '2',
        AUTH_CLIENT_FILE: 'value-in-env-2',
        NODE_OPTIONS: '--max-old-space-size=1024'
      }, dir)
      expect(code, output).toBe(78)
      // the workers started (and read the same names) before the port stopped them
      expect(output).toContain('a worker stopped on a configuration error')
      expect(output.split('\n').filter(line => line.includes('not a setting'))).toEqual([
        'WARNING: RATE_LIMT_MAX is not a setting of this service; did you mean RATE_LIMIT_MAX?',
        'WARNING: WORKER is not a setting of this service; did you mean WORKERS?',
        'WARNING: AUTH_CLIENT_FILE is not a setting of this service; did you mean AUTH_CLIENTS_FILE?'
      ])
      expect(output).not.toMatch(/value-in|max-old-space/)
    } finally {
      holder.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
