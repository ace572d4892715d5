/**
 * What one warm Apertium pipeline can serve over HTTP with nothing else around it: a node:http
 * server (no auth, no documents, no checks) that writes each POSTed sentence into one NUL-flushed
 * pipeline of a mode and answers its translation. The translate bench measures the service
 * against it on the same sentences (the practical ceiling of a single pipeline). Bench-only.
 *
 *   node --import tsx bench/lib/minimal-apertium.ts <port> [mode]
 *
 * POST / with {"text": "..."} answers {"translation": "..."}.
 */
import { execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { startChild, type Child } from './children.js'
import { freePort, waitForOk } from './net.js'
import { ROOT } from './service.js'

/** The escapes Apertium's stream format needs in text. */
const escape = (text: string): string => text.replace(/[\\[\]^$/<>@{}]/g, c => '\\' + c)
/** A sentence ending in punctuation flushes with an empty superblank after it; any other needs a full stop first (as apertium-destxt does). */
const ending = (text: string): string => /[.!?]\s*$/.test(text) ? '[]' : '.[]'

/** Serves `mode` on `port` until killed. */
async function serve (port: number, mode: string): Promise<void> {
  const script = execFileSync('apertium-wblank-mode', ['-z', `/usr/share/apertium/modes/${mode}.mode`], { encoding: 'utf8' }).trim()
  // the first stage keeps our stdin (a background job gets /dev/null otherwise); -n: no unknown-word marks
  const pipeline = spawn('bash', ['--norc', '-c', `0<&0 ${script} &\nwait\n`, mode, '-n', ''], { stdio: ['pipe', 'pipe', 'inherit'], detached: true })
  const waiting: Array<(answer: string) => void> = []
  let buffer = ''
  pipeline.stdout.setEncoding('utf8')
  pipeline.stdout.on('data', (chunk: string) => {
    buffer += chunk
    for (let at = buffer.indexOf('\0'); at !== -1; at = buffer.indexOf('\0')) {
      const answer = buffer.slice(0, at)
      buffer = buffer.slice(at + 1)
      waiting.shift()?.(answer)
    }
  })
  const kill = (): void => { try { process.kill(-pipeline.pid!, 'SIGKILL') } catch {} }
  process.on('exit', kill)
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0))
  const translate = async (text: string): Promise<string> => await new Promise(resolve => {
    waiting.push(resolve)
    pipeline.stdin.write(escape(text) + ending(text) + '\0')
  })
  await translate('Hello world.')
  createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => { body += chunk })
    req.on('end', () => {
      const text = (JSON.parse(body) as { text: string }).text
      translate(text).then(answer => {
        const translation = answer.replace(/\.?\[\]$/, '').replace(/\\(.)/g, '$1')
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translation }))
      }, () => res.writeHead(500).end())
    })
  }).listen(port, '127.0.0.1')
}

export interface Minimal {
  child: Child
  base: string
}

/** Starts the minimal server for `mode` on a free port, once it answers. */
export async function startMinimal (mode = 'eng-spa'): Promise<Minimal> {
  const port = await freePort()
  const child = startChild(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, String(port), mode], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] })
  const base = `http://127.0.0.1:${port}`
  try {
    await waitForOk(base, 'the minimal pipeline server', () => !child.exited(), 30_000, { method: 'POST', body: JSON.stringify({ text: 'Hello.' }) })
  } catch (err) {
    await child.stop()
    throw err
  }
  return { child, base }
}

if (process.argv[1] !== undefined && new URL(import.meta.url).pathname === process.argv[1]) {
  await serve(Number(process.argv[2]), process.argv[3] ?? 'eng-spa')
}
