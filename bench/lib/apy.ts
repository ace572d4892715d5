/** apertium-apy (Apertium's own HTTP server), installed and started for comparison; bench-only. */
import { execFileSync } from 'node:child_process'
import { startChild, type Child } from './children.js'
import { freePort, waitForOk } from './net.js'

/** Installs Debian's apertium-apy with apt-get when it is missing. */
export function ensureApy (): void {
  try {
    execFileSync('dpkg', ['-s', 'apertium-apy'], { stdio: 'ignore' })
  } catch {
    console.log('installing apertium-apy (bench only) ...')
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'apertium-apy'], { stdio: 'inherit' })
  }
}

export interface Apy {
  child: Child
  /** http://127.0.0.1:PORT */
  base: string
}

/** apertium-apy on a free port, serving the installed modes, once it answers /listPairs. */
export async function startApy (modes = '/usr/share/apertium/modes'): Promise<Apy> {
  ensureApy()
  const port = await freePort()
  // Debian's python3 (apertium-apy needs its python3-tornado); it has no host option and binds
  // every interface, so the port is a free local one and it lives only as long as the bench
  const child = startChild('/usr/bin/python3', ['/usr/bin/apertium-apy', '-p', String(port), modes])
  const base = `http://127.0.0.1:${port}`
  try {
    await waitForOk(`${base}/listPairs`, 'apertium-apy', () => !child.exited())
  } catch (err) {
    await child.stop()
    throw err
  }
  return { child, base }
}

/** The GET path apertium-apy translates `text` at. */
export function apyPath (langpair: string, text: string): string {
  return `/translate?langpair=${encodeURIComponent(langpair)}&q=${encodeURIComponent(text)}`
}
