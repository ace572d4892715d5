/**
 * The outside-engine measurement of bench/translate: our service in front of a local fake of
 * LibreTranslate (test/fakes) that answers every call after a fixed latency. N short requests at
 * concurrency C; the ideal rate is C / latency (every request costing exactly one engine round
 * trip). Bounded calls per service must not cost throughput: concurrent requests share calls.
 */
import autocannon from 'autocannon'
import { startFakeLibreTranslate } from '../../test/fakes/libretranslate.js'
import { accessToken, startService } from './service.js'

export interface OutsideResult {
  requests: number
  connections: number
  latencyMs: number
  seconds: number
  reqPerS: number
  ideal: number
  engineCalls: number
  non2xx: number
  errors: number
  p50: number
  p99: number
}

export async function outsideEngineRun (sentences: readonly string[], requests: number, connections: number, latencyMs: number): Promise<OutsideResult> {
  const fake = await startFakeLibreTranslate()
  const service = await startService({
    env: { LIBRETRANSLATE_URL: fake.url, LIBRETRANSLATE_API_KEY: fake.key, TRANSLATION_SERVICES: 'libretranslate' }
  })
  try {
    const token = await accessToken(service)
    const body = (n: number): string => JSON.stringify({
      source: 'en', targets: ['es'], document: { value: sentences[n % sentences.length]! }, options: { cache: false }
    })
    // warm the connection pool and the language list without latency
    for (let n = 0; n < 20; n++) {
      await fetch(`${service.base}/language/translate`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body(n) })
    }
    fake.latencyMs = latencyMs
    const before = fake.calls.filter(c => c.path === '/translate').length
    let n = 0
    const started = performance.now()
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      autocannon({
        url: `${service.base}/language/translate`,
        method: 'POST',
        connections,
        amount: requests,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        requests: [{ setupRequest: (req) => ({ ...req, body: body(n++) }) }]
      }, (err, res) => err ? reject(err) : resolve(res))
    })
    const seconds = (performance.now() - started) / 1000
    return {
      requests,
      connections,
      latencyMs,
      seconds,
      reqPerS: requests / seconds,
      ideal: connections / (latencyMs / 1000),
      engineCalls: fake.calls.filter(c => c.path === '/translate').length - before,
      non2xx: result.non2xx,
      errors: result.errors,
      p50: result.latency.p50,
      p99: result.latency.p99
    }
  } finally {
    await service.child.stop()
    await fake.close()
  }
}
