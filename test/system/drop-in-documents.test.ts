/**
 * The drop-in APIs' document work, over real HTTP with the service as its own process, as issue 32's
 * probe attacked it: DeepL's markup (text made only of kept elements, a megabyte of `<div>` with
 * tag_handling xml and ignore_tags), LibreTranslate's HTML and apy's text are worked where
 * /language's documents are (the thread pool, within the request's budget), so another client's
 * /health stays fast while they run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT } from '../helpers/app.js'
import { startService, type RunningService } from '../helpers/service.js'
import { percentile, startHealthProbe } from '../fuzz/health-probe.js'

const KEY = 'drop-in-documents-key-0123456789'

/**
 * One attack: a request (sent `copies` times at once, as that many clients would) and the statuses
 * it may get (a 503: a request that waited DOCUMENT_QUEUE_TIMEOUT_MS for the busy threads).
 */
interface Attack { name: string, path: string, body: string, contentType: string, statuses: number[], copies?: number }

const json = (name: string, path: string, body: unknown, statuses: number[], copies = 1): Attack =>
  ({ name, path, body: JSON.stringify(body), contentType: 'application/json', statuses, copies })

const MEGABYTE_OF_DIVS = '<div>'.repeat(200_000)

const ATTACKS: Attack[] = [
  // 100 KB of `<x/>`: 25,600 kept elements, past the bound (the probe's 93 KB blocked every client 12.8 s)
  json('DeepL: 100 KB of <x/>, tag_handling xml', '/deepl/v2/translate', { text: '<x/>'.repeat(25_600), source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' }, [400]),
  // 100 KB of kept elements within the bound: translated and rebuilt
  json('DeepL: 110 KB of <x id/>, within the bound', '/deepl/v2/translate', { text: '<x id="1"/>'.repeat(10_000), source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' }, [200]),
  json('DeepL: 140 KB of ignored elements', '/deepl/v2/translate', { text: '<x id="1"></x>'.repeat(10_000), source_lang: 'EN', target_lang: 'ES', tag_handling: 'html', ignore_tags: 'x' }, [200]),
  // a megabyte of markup read by parse5 (twice with xml and ignore_tags; the probe's stalled others 1.2 s), from two clients at once
  json('DeepL: 1 MB of <div>, xml and ignore_tags, twice', '/deepl/v2/translate', { text: MEGABYTE_OF_DIVS, source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml', ignore_tags: ['x'] }, [200, 400, 503], 2),
  json('LibreTranslate: 1 MB of <div>, format html', '/libretranslate/translate', { q: MEGABYTE_OF_DIVS, source: 'en', target: 'es', format: 'html', api_key: KEY }, [200, 400, 503]),
  { name: 'apy: 90 KB of text', path: '/apy/translate', body: new URLSearchParams({ langpair: 'eng|spa', q: '1, 2; '.repeat(15_000), key: KEY }).toString(), contentType: 'application/x-www-form-urlencoded', statuses: [200] }
]

describe('the drop-in APIs\' document work off the event loop', () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService({
      AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'], api_keys: [KEY] }]),
      RATE_LIMIT_MAX: '1000'
    })
  }, 120_000)
  afterAll(async () => { await service?.stop() })

  const send = async (attack: Attack): Promise<{ status: number, text: string }> => {
    const res = await fetch(service.base + attack.path, {
      method: 'POST',
      headers: { 'content-type': attack.contentType, authorization: `DeepL-Auth-Key ${KEY}` },
      body: attack.body
    })
    return { status: res.status, text: await res.text() }
  }

  it('keeps another client\'s /health fast while each attack runs', async () => {
    // the engines loaded and each route warmed by a small request of its kind
    for (const attack of ATTACKS) await send({ ...attack, body: attack.body.replace(/(<x[^>]*>(?:<\/x>)?|<div>|1, 2; )+/, '$1') })
    const idle = startHealthProbe(service.base, 20)
    await new Promise(resolve => setTimeout(resolve, 1_000))
    const before = await idle.stop()
    const baseline = percentile(before.latencies, 100)
    for (const attack of ATTACKS) {
      const probe = startHealthProbe(service.base, 20)
      // the probe is a process of its own: started, and probing, before the attack
      await new Promise(resolve => setTimeout(resolve, 500))
      const started = performance.now()
      const answers = await Promise.all(Array.from({ length: attack.copies ?? 1 }, async () => await send(attack)))
      const took = performance.now() - started
      const { latencies, failures } = await probe.stop()
      const worst = percentile(latencies, 100)
      const what = `${attack.name}: ${answers.map(a => a.status).join(', ')} in ${took.toFixed(0)} ms; /health max ${worst.toFixed(0)} ms over ${latencies.length} probes (idle: ${baseline.toFixed(0)} ms)`
      for (const answer of answers) expect(attack.statuses, `${what}\n${answer.text.slice(0, 300)}`).toContain(answer.status)
      expect(failures, what).toBe(0)
      // on the event loop, /health waited for the requests' work (1.1 to 5 s each before); off it, for its turn on a busy machine
      expect(worst, what).toBeLessThan(Math.max(1_000, 5 * baseline))
    }
    // a DeepL text within the bound comes back as it was sent
    const kept = await send(ATTACKS[1]!)
    expect(JSON.parse(kept.text).translations[0].text).toBe('<x id="1"/>'.repeat(10_000))
  }, 240_000)
})
