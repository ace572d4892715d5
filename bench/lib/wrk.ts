/**
 * wrk (Debian package `wrk`, written in C) as a second load generator: it takes far less CPU per
 * request than autocannon, so on a machine where the load generator shares the service's cores it
 * shows more of what the service itself can do. One wrk thread; POST bodies taken in turn.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface WrkResult {
  reqPerS: number
  p50Ms: number
  p99Ms: number
  requests: number
  /** non-2xx/3xx answers and socket errors */
  errors: number
}

/** Whether wrk is installed (`apt-get install wrk`). */
export async function hasWrk (): Promise<boolean> {
  return await run('wrk', ['--version']).then(() => true, (err: { code?: unknown }) => err.code !== 'ENOENT')
}

/** A Lua long-bracket string holding `text` (a level its text does not close). */
function luaString (text: string): string {
  let level = 0
  while (text.includes(`]${'='.repeat(level)}]`)) level++
  const eq = '='.repeat(level)
  return `[${eq}[${text}]${eq}]`
}

/** Milliseconds of a wrk duration ("1.23ms", "850.00us", "1.02s"). */
function durationMs (text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim())
  if (m === null) return NaN
  return Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 } as Record<string, number>)[m[2]!]!
}

/** `connections` connections for `seconds`, POSTing `bodies` in turn to `path` with `headers`. */
export async function wrk (url: string, path: string, headers: Record<string, string>, bodies: readonly string[],
  connections: number, seconds: number): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'wrk-'))
  try {
    const script = join(dir, 'post.lua')
    writeFileSync(script, [
      `local bodies = { ${bodies.map(luaString).join(',\n')} }`,
      `local headers = { ${Object.entries(headers).map(([k, v]) => `[ ${luaString(k)} ] = ${luaString(v)}`).join(', ')} }`,
      'local i = 0',
      'request = function()',
      '  i = i % #bodies + 1',
      `  return wrk.format("POST", ${luaString(path)}, headers, bodies[i])`,
      'end'
    ].join('\n'))
    const { stdout, stderr } = await run('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, url], { maxBuffer: 1 << 20 })
    // a script wrk cannot load is reported, and wrk goes on with plain GETs: not this measurement
    if (stderr.includes(script) || stdout.includes(script)) throw new Error(`wrk could not run its script: ${stderr}${stdout}`)
    const number = (re: RegExp): number => Number(re.exec(stdout)?.[1] ?? NaN)
    const non2xx = number(/Non-2xx or 3xx responses:\s+(\d+)/)
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout)
    return {
      reqPerS: number(/Requests\/sec:\s+([\d.]+)/),
      p50Ms: durationMs(/\n\s+50%\s+(\S+)/.exec(stdout)?.[1] ?? ''),
      p99Ms: durationMs(/\n\s+99%\s+(\S+)/.exec(stdout)?.[1] ?? ''),
      requests: number(/(\d+) requests in/),
      errors: (Number.isNaN(non2xx) ? 0 : non2xx) + (socket === null ? 0 : socket.slice(1).reduce((n, v) => n + Number(v), 0))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
