/**
 * The outside-engine measurement of bench/translate: our service in front of a local fake of
 * LibreTranslate (test/fakes, in its own process) that answers every call after a fixed latency.
 * N short requests from C concurrent clients; the ideal rate is C / latency (every request
 * costing exactly one engine round trip and nothing else). Bounded calls per service must not
 * cost throughput: concurrent requests share calls.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { accessToken, startService } from './service.js'

export interface OutsideResult {
  requests: number
  connections: number
  latencyMs: number
  seconds: number
  reqPerS: number
  ideal: number
  engineCalls: number
  failed: number
  /** The same clients straight to the fake engine (no service between): what this machine allows. */
  directReqPerS: number
  p50: number
  p99: number
}

/** The fake engine's process: its URL and key, its translate-call count on demand, and a way to stop it. */
async function startFakeProcess (latencyMs: number): Promise<{ url: string, key: string, calls: () => Promise<number>, stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fake-engine-child.ts', import.meta.url)), String(latencyMs)],
    { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout })
  const next = async (): Promise<string> => ((await once(lines, 'line')) as [string])[0]
  const { url, key } = JSON.parse(await next()) as { url: string, key: string }
  return {
    url,
    key,
    calls: async () => {
      child.stdin.write('calls\n')
      return Number(await next())
    },
    stop: async () => {
      child.stdin.end()
      if (child.exitCode === null) await once(child, 'exit')
    }
  }
}

/** `requests` calls of `send` from `connections` clients at once: seconds taken, latencies (ms), failures. */
async function load (requests: number, connections: number, send: (n: number) => Promise<boolean>): Promise<{ seconds: number, latencies: number[], failed: number }> {
  const latencies: number[] = []
  let sent = 0
  let failed = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: connections }, async () => {
    while (sent < requests) {
      const n = sent++
      const t0 = performance.now()
      if (!await send(n).catch(() => false)) failed++
      latencies.push(performance.now() - t0)
    }
  }))
  return { seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b), failed }
}

export async function outsideEngineRun (sentences: readonly string[], requests: number, connections: number, latencyMs: number): Promise<OutsideResult> {
  const fake = await startFakeProcess(latencyMs)
  // the floor: the same load straight to the engine, in the request shape our adapter sends
  const direct = async (n: number): Promise<boolean> => {
    const res = await fetch(`${fake.url}/translate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: [sentences[n % sentences.length]!], source: 'en', target: 'es', format: 'html', api_key: fake.key })
    })
    await res.arrayBuffer()
    return res.status === 200
  }
  await load(connections, connections, direct)
  const straight = await load(requests, connections, direct)
  const service = await startService({
    env: { LIBRETRANSLATE_URL: fake.url, LIBRETRANSLATE_API_KEY: fake.key, TRANSLATION_SERVICES: 'libretranslate' }
  })
  try {
    const token = await accessToken(service)
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const body = (n: number): string => JSON.stringify({
      source: 'en', targets: ['es'], document: { value: sentences[n % sentences.length]! }, options: { cache: false }
    })
    const send = async (n: number): Promise<boolean> => {
      const res = await fetch(`${service.base}/language/translate`, { method: 'POST', headers, body: body(n) })
      await res.arrayBuffer()
      return res.status === 200
    }
    // connections, the language list and the JIT warm before the clock starts
    await load(connections * 2, connections, send)
    const before = await fake.calls()
    const { seconds, latencies, failed } = await load(requests, connections, send)
    return {
      requests,
      connections,
      latencyMs,
      seconds,
      reqPerS: requests / seconds,
      ideal: connections / (latencyMs / 1000),
      engineCalls: await fake.calls() - before,
      failed,
      directReqPerS: requests / straight.seconds,
      p50: latencies[Math.floor(latencies.length * 0.5)]!,
      p99: latencies[Math.floor(latencies.length * 0.99)]!
    }
  } finally {
    await service.child.stop()
    await fake.stop()
  }
}
