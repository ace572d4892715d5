/**
 * What the route tests of the document formats share: the app with its embedded engines
 * (Apertium, the detector, the offline editor and analysers), and an app whose one translator is
 * the LibreTranslate fake (an outside engine over real HTTP), each with a token. Call it at a test
 * file's top level: it registers the file's beforeAll and afterAll.
 */
import { afterAll, beforeAll } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createLibreTranslate } from '../../src/providers/libretranslate/translator.js'
import { emptyRegistry } from '../../src/registry.js'
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../fakes/libretranslate.js'
import { bearer, testApp, tokenFor } from './app.js'

export interface FormatApps {
  /** POST JSON to the embedded engines' app, or with `'libretranslate'` to the fake's. */
  post: (url: string, payload: unknown, engine?: 'embedded' | 'libretranslate') => Promise<{ status: number, body: any }>
  /** The LibreTranslate fake (its recorded calls), once started. */
  libre: () => FakeLibreTranslate
}

export function formatApps (): FormatApps {
  const apps: Record<'embedded' | 'libretranslate', { app: FastifyInstance, auth: Record<string, string> } | undefined> = { embedded: undefined, libretranslate: undefined }
  let libre: FakeLibreTranslate | undefined
  beforeAll(async () => {
    libre = await startFakeLibreTranslate()
    const embedded = await testApp({}, { engines: true })
    apps.embedded = { app: embedded, auth: bearer(await tokenFor(embedded)) }
    const translator = createLibreTranslate({ url: libre.url, apiKey: libre.key, remote: { timeoutMs: 5000 } })
    const outside = await testApp({}, { registry: { ...emptyRegistry(), translators: [translator] } })
    apps.libretranslate = { app: outside, auth: bearer(await tokenFor(outside)) }
  }, 60_000)
  afterAll(async () => {
    await apps.embedded?.app.close()
    await apps.libretranslate?.app.close()
    await libre?.close()
  })
  return {
    async post (url, payload, engine = 'embedded') {
      const { app, auth } = apps[engine]!
      const res = await app.inject({ method: 'POST', url, headers: auth, payload: payload as object })
      return { status: res.statusCode, body: res.json() }
    },
    libre: () => libre!
  }
}
