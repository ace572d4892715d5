/**
 * The outside-engine measurement of bench/translate: our service in front of a local fake of
 * LibreTranslate (test/fakes, in its own process) that answers every call after a fixed latency.
 * N short requests from C concurrent clients; the ideal rate is C / latency (every request
 * costing exactly one engine round trip and nothing else). Bounded calls per service must not
 * cost throughput: concurrent requests share calls.
 */
import { spawn } from 'node:child_process'
import autocannon from 'autocannon'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { cpuMsOf, machineBusyMs, processes, processTree } from './proc.js'
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
  /** Mean latency (ms) of one request at a time through the service: no queueing, no sharing. */
  aloneMs: number
  p50: number
  p99: number
  /** CPU of the service per request (µs), and the cores the service, the fake engine and the whole machine kept busy during the run. */
  serviceUsPerRequest: number
  cores: { service: number, engine: number, machine: number }
}

/** The fake engine's process: its URL and key, its translate-call count on demand, and a way to stop it. */
async function startFakeProcess (latencyMs: number): Promise<{ url: string, key: string, pid: number, calls: () => Promise<number>, stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fake-engine-child.ts', import.meta.url)), String(latencyMs)],
    { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout })
  const next = async (): Promise<string> => ((await once(lines, 'line')) as [string])[0]
  const { url, key } = JSON.parse(await next()) as { url: string, key: string }
  return {
    url,
    key,
    pid: child.pid!,
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

/**
 * `requests` POSTs to `url` from `connections` autocannon clients at once (the same load generator
 * as every other HTTP bench: cheaper per request than `fetch`, so the client takes less of the
 * cores the service shares): seconds taken, latency p50/p99 (ms), failures.
 */
async function load (url: string, path: string, headers: Record<string, string>, body: (n: number) => string,
  requests: number, connections: number): Promise<{ mean: number, seconds: number, p50: number, p99: number, failed: number }> {
  let next = 0
  let last = 0
  const started = performance.now()
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon({
      url,
      connections,
      amount: requests,
      requests: [{ method: 'POST', path, headers, setupRequest: request => ({ ...request, body: body(next++) }) }]
    }, (err, out) => { if (err === null || err === undefined) resolve(out); else reject(err) })
    // autocannon's own start and finish are on its one-second tick: the clock is the last answer
    run.on('response', () => { last = performance.now() })
  })
  return {
    mean: result.latency.mean,
    seconds: (last - started) / 1000,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts
  }
}

export async function outsideEngineRun (sentences: readonly string[], requests: number, connections: number, latencyMs: number): Promise<OutsideResult> {
  const fake = await startFakeProcess(latencyMs)
  // the floor: the same load straight to the engine, in the request shape our adapter sends
  const json = { 'content-type': 'application/json' }
  const direct = (n: number): string =>
    JSON.stringify({ q: [sentences[n % sentences.length]!], source: 'en', target: 'es', format: 'html', api_key: fake.key })
  await load(fake.url, '/translate', json, direct, connections, connections)
  const straight = await load(fake.url, '/translate', json, direct, requests, connections)
  const service = await startService({
    env: { LIBRETRANSLATE_URL: fake.url, LIBRETRANSLATE_API_KEY: fake.key, TRANSLATION_SERVICES: 'libretranslate' }
  })
  try {
    const token = await accessToken(service)
    const headers = { authorization: `Bearer ${token}`, ...json }
    const body = (n: number): string => JSON.stringify({
      source: 'en', targets: ['es'], document: { value: sentences[n % sentences.length]! }, options: { cache: false }
    })
    // connections, the language list and the JIT warm before the clock starts
    await load(service.base, '/language/translate', headers, body, requests, connections)
    // one at a time: the latency a request has with nothing to wait for
    const alone = await load(service.base, '/language/translate', headers, body, 100, 1)
    const before = await fake.calls()
    const cpu = (): { service: number, engine: number, machine: number } => {
      const all = processes()
      return {
        service: cpuMsOf(new Set(processTree(service.child.pid!, all).map(p => p.pid)), all),
        engine: cpuMsOf(new Set([fake.pid]), all),
        machine: machineBusyMs()
      }
    }
    const cpuBefore = cpu()
    const started = performance.now()
    const { seconds, p50, p99, failed } = await load(service.base, '/language/translate', headers, body, requests, connections)
    const elapsedMs = performance.now() - started
    const cpuAfter = cpu()
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
      aloneMs: alone.mean,
      p50,
      p99,
      serviceUsPerRequest: (cpuAfter.service - cpuBefore.service) * 1000 / requests,
      cores: {
        service: (cpuAfter.service - cpuBefore.service) / elapsedMs,
        engine: (cpuAfter.engine - cpuBefore.engine) / elapsedMs,
        machine: (cpuAfter.machine - cpuBefore.machine) / elapsedMs
      }
    }
  } finally {
    await service.child.stop()
    await fake.stop()
  }
}
