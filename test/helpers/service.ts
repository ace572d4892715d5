/** The service as its own process (as `make run` starts it), for tests over real HTTP. */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, waitForOk } from '../../bench/lib/net.js'
import { CLIENT, JWT_SECRET } from './app.js'

export interface RunningService {
  base: string
  token: string
  /** Everything the process wrote (for failure messages). */
  output: () => string
  /** POST JSON with the token; the answer's status, headers and JSON (any shape: tests check it field by field). */
  post: (path: string, body: unknown) => Promise<{ status: number, headers: Headers, json: Record<string, any> }>
  /** The process (the cluster primary with WORKERS > 1). */
  child: ChildProcess
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null, signal: NodeJS.Signals | null }>
  stop: () => Promise<void>
}

/**
 * Starts `src/server.ts` with `env` on a free loopback port and waits for /ready. `group`: the
 * service leads a process group of its own, so a test may signal the whole group (as Ctrl-C in a
 * terminal or systemd does) without signalling itself.
 */
export async function startService (env: Record<string, string> = {}, readyTimeoutMs = 60_000, options: { group?: boolean } = {}): Promise<RunningService> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let output = ''
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      // one process unless a test asks for more
      WORKERS: '1',
      AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'] }]),
      AUTH_JWT_SECRET: JWT_SECRET,
      // its jobs in a folder of its own unless the test names one (never the repository's data/)
      DATA_DIR: env['DATA_DIR'] ?? mkdtempSync(join(tmpdir(), 'service-data-')),
      ...env
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group === true
  })
  child.stdout!.on('data', (d: Buffer) => { output += d.toString() })
  child.stderr!.on('data', (d: Buffer) => { output += d.toString() })
  const exited = new Promise<{ code: number | null, signal: NodeJS.Signals | null }>(resolve => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    await exited
  }
  try {
    await waitForOk(`${base}/ready`, 'the service', () => child.exitCode === null, readyTimeoutMs)
  } catch (err) {
    await stop()
    throw new Error(`${(err as Error).message}\n${output}`)
  }
  // a service just started on a busy machine may answer 503 (overloaded) for a moment: try again
  // rather than go on with no token, whose 401s would fail a test that is not about tokens
  let res: Response | undefined
  for (let attempt = 0; attempt < 20 && (res === undefined || res.status === 503); attempt++) {
    if (res !== undefined) await new Promise(resolve => setTimeout(resolve, 500))
    res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret })
    })
  }
  // a service given clients of its own (AUTH_CLIENTS) refuses ours: its tests get their own tokens
  const token = ((await res!.json()) as { access_token: string }).access_token
  return {
    base,
    token,
    output: () => output,
    async post (path, body) {
      const answer = await fetch(base + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body)
      })
      return { status: answer.status, headers: answer.headers, json: await answer.json() as Record<string, any> }
    },
    child,
    exited,
    stop
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Runs `src/server.ts` with `env` (and the test client), in `cwd` (where it reads `.env`), until it
 * exits (killed past 100 s): its exit code and all it wrote. For a service that is to stop by itself.
 */
export function runServiceToExit (env: Record<string, string>, cwd = ROOT): Promise<{ code: number | null, output: string }> {
  return new Promise(resolve => {
    const child = spawn(process.execPath, ['--import', join(ROOT, 'node_modules/tsx/dist/loader.mjs'), join(ROOT, 'src/server.ts')], {
      cwd,
      env: { PATH: process.env['PATH'], HOME: process.env['HOME'], LOG_LEVEL: 'warn', AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'] }]), AUTH_JWT_SECRET: JWT_SECRET, ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => { output += d.toString() })
    child.stderr.on('data', (d: Buffer) => { output += d.toString() })
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000)
    child.once('exit', code => { clearTimeout(timer); resolve({ code, output }) })
  })
}
