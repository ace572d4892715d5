/**
 * A service that cannot listen stops with a configuration error naming HOST and PORT (exit 78),
 * one process or a cluster: a probe found two workers restarted forever on a taken port (each
 * lived long enough loading its engines not to count as dying at start) and a stack trace for a
 * bad HOST.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { runServiceToExit } from '../helpers/service.js'

describe('a service that cannot listen', () => {
  it.each(['1', '2'])('WORKERS=%s on a port another process holds: exit 78 naming HOST and PORT, no stack', async workers => {
    const holder = createServer()
    await new Promise<void>(resolve => holder.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = holder.address() as AddressInfo
      const { code, output } = await runServiceToExit({ HOST: '127.0.0.1', PORT: String(port), WORKERS: workers })
      expect(code, output).toBe(78)
      expect(output).toContain(`configuration error: HOST, PORT: cannot listen on 127.0.0.1:${port}: the port is in use by another process`)
      expect(output).not.toMatch(/\n\s+at /)
      expect(output).not.toContain('starting another')
    } finally {
      holder.close()
    }
  }, 120_000)

  it('a host this machine does not have: exit 78 naming HOST', async () => {
    const { code, output } = await runServiceToExit({ HOST: '192.0.2.1', PORT: '0', WORKERS: '1' })
    expect(code, output).toBe(78)
    expect(output).toContain('configuration error: HOST, PORT: cannot listen on 192.0.2.1:0: no network interface of this machine has that address')
  }, 120_000)
})

describe('a DATA_DIR it cannot use', () => {
  it.each(['1', '2'])('WORKERS=%s: exit 78 naming DATA_DIR, no stack (a probe\'s service said ready, and every job was a 500)', async workers => {
    const dir = mkdtempSync(join(tmpdir(), 'data-dir-'))
    const file = join(dir, 'a-file')
    writeFileSync(file, 'not a folder')
    try {
      const { code, output } = await runServiceToExit({ HOST: '127.0.0.1', PORT: '0', WORKERS: workers, DATA_DIR: join(file, 'data') })
      expect(code, output).toBe(78)
      expect(output).toContain('configuration error: DATA_DIR: cannot keep jobs in')
      expect(output).not.toMatch(/\n\s+at /)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
