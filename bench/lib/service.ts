/** Our service, built when needed and started as a child process for HTTP benches. */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startChild, type Child } from './children.js'
import { freePort, waitForOk } from './net.js'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Newest modification time (ms) of the files under `dir`. */
function newest (dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map(f => statSync(join(dir, f)))
    .filter(s => s.isFile())
    .reduce((max, s) => Math.max(max, s.mtimeMs), 0)
}

/** Runs `npm run build`'s compiler when dist/server.js is missing or older than a source file. */
export function ensureBuilt (): void {
  const server = join(ROOT, 'dist/server.js')
  // a packed service (bench/device-scaling.sh) has dist/ and no sources
  if (!existsSync(join(ROOT, 'src'))) return
  const sources = Math.max(newest(join(ROOT, 'src')), statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs, statSync(join(ROOT, 'tsconfig.json')).mtimeMs)
  if (existsSync(server) && statSync(server).mtimeMs >= sources) return
  console.log(existsSync(server) ? 'dist/ is older than src/: building ...' : 'dist/ is missing: building ...')
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit', cwd: ROOT })
  execFileSync(process.execPath, [join(ROOT, 'scripts/copy-assets.mjs')], { stdio: 'inherit', cwd: ROOT })
}

export interface Service {
  child: Child
  /** http://127.0.0.1:PORT */
  base: string
  clientId: string
  clientSecret: string
}

export interface ServiceOptions {
  /** extra environment variables (they win over the bench's own) */
  env?: Record<string, string>
  /** extra Node options, e.g. ['--cpu-prof', '--cpu-prof-dir', 'bench/out'] */
  nodeArgs?: string[]
  /** a command the service runs under, e.g. ['taskset', '-c', '0-11'] (pinned to cores) */
  wrapper?: string[]
  /** another checkout, built, whose dist/server.js runs instead of ours (a baseline to compare with) */
  root?: string
}

/** `node dist/server.js` on 127.0.0.1 and a free port with one OAuth client, once /ready answers 200. */
export async function startService (options: ServiceOptions = {}): Promise<Service> {
  const root = options.root ?? ROOT
  if (options.root === undefined) ensureBuilt()
  const port = await freePort()
  const clientId = 'bench'
  const clientSecret = 'bench-secret-123'
  // the flags `npm start` runs the service with (docs/benchmarks.md, "Memory budget")
  const node = [process.execPath, '--max-semi-space-size=2', '--max-old-space-size=1024', ...(options.nodeArgs ?? []), join(root, 'dist/server.js')]
  const command = [...(options.wrapper ?? []), ...node]
  const child = startChild(command[0]!, command.slice(1), {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      AUTH_CLIENTS: JSON.stringify([{ id: clientId, secret: clientSecret, scopes: ['access'] }]),
      AUTH_JWT_SECRET: 'bench-jwt-secret-0123456789abcdefghijklmnop',
      LOG_LEVEL: 'warn',
      // the default 600 a minute would make this a 429 bench
      RATE_LIMIT_MAX: '1000000000',
      // one process unless a bench compares WORKERS (memoryOf the child is then the whole service)
      WORKERS: '1',
      ...options.env
    }
  })
  const base = `http://127.0.0.1:${port}`
  try {
    await waitForOk(`${base}/ready`, 'the service', () => !child.exited())
  } catch (err) {
    await child.stop()
    throw err
  }
  return { child, base, clientId, clientSecret }
}

/** An access token from POST /oauth/token (client credentials, HTTP Basic). */
export async function accessToken (service: Pick<Service, 'base' | 'clientId' | 'clientSecret'>): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(service.clientId)}:${encodeURIComponent(service.clientSecret)}`).toString('base64')
  const res = await fetch(`${service.base}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials'
  })
  const body = await res.json() as { access_token?: string }
  if (res.status !== 200 || typeof body.access_token !== 'string') {
    throw new Error(`POST /oauth/token answered ${res.status}: ${JSON.stringify(body)}`)
  }
  return body.access_token
}
