/**
 * A local fake of every outside engine (DeepL, Google Cloud, Google's web endpoint, LibreTranslate
 * and an OpenAI-compatible model), and the settings that point a service at them, for the tests
 * that run the service as its own process against all of them.
 */
import { startFakeDeepl } from '../fakes/deepl.js'
import { startFakeGoogleCloud } from '../fakes/google-cloud.js'
import { startFakeGoogle } from '../fakes/google.js'
import { startFakeLibreTranslate } from '../fakes/libretranslate.js'
import { startFakeLlm } from '../fakes/openai.js'

type Started<T extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<T>>

export interface OutsideEngines {
  deepl: Started<typeof startFakeDeepl>
  googleCloud: Started<typeof startFakeGoogleCloud>
  google: Started<typeof startFakeGoogle>
  libre: Started<typeof startFakeLibreTranslate>
  llm: Started<typeof startFakeLlm>
  /** The service's settings for all five (NODE_EXTRA_CA_CERTS for the https fake of Google). */
  env: Record<string, string>
  close: () => Promise<void>
}

export async function startOutsideEngines (): Promise<OutsideEngines> {
  const [deepl, googleCloud, google, libre, llm] = await Promise.all([
    startFakeDeepl(), startFakeGoogleCloud(), startFakeGoogle(), startFakeLibreTranslate(), startFakeLlm({ key: 'sk-test-key' })
  ])
  return {
    deepl,
    googleCloud,
    google,
    libre,
    llm,
    env: {
      DEEPL_API_KEY: deepl.key,
      DEEPL_SERVER_URL: deepl.url,
      GOOGLE_CLOUD_API_KEY: googleCloud.key,
      GOOGLE_CLOUD_TRANSLATE_URL: googleCloud.url,
      GOOGLE_TRANSLATE_ENABLED: 'true',
      GOOGLE_TRANSLATE_HOST: google.host,
      NODE_EXTRA_CA_CERTS: google.caPath,
      OPENAI_BASE_URL: llm.url,
      OPENAI_API_KEY: llm.key,
      OPENAI_MODEL: llm.model,
      LIBRETRANSLATE_URL: libre.url,
      LIBRETRANSLATE_API_KEY: libre.key
    },
    close: async () => { await Promise.all([deepl, googleCloud, google, libre, llm].map(async f => await f.close())) }
  }
}
