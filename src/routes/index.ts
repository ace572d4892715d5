/** Every route group of the API. */
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.js'
import translate from './translate.js'
import jobs from './jobs.js'
import detect from './detect.js'
import substitute from './substitute.js'
import edit from './edit.js'
import analyze from './analyze.js'
import locales from './locales.js'
import libretranslate from '../compat/libretranslate/routes.js'
import apy from '../compat/apy/routes.js'
import deepl from '../compat/deepl/routes.js'

export default async function routes (app: FastifyInstance, opts: { config: Config }): Promise<void> {
  await app.register(translate, opts)
  await app.register(jobs, opts)
  await app.register(detect, opts)
  await app.register(substitute, opts)
  await app.register(edit, opts)
  await app.register(analyze, opts)
  await app.register(locales)
  // the compatible APIs (src/compat/), each switched off by its setting
  if (opts.config.compat.libretranslate) {
    await app.register(libretranslate, { config: opts.config, prefix: '/libretranslate' })
    if (opts.config.compat.libretranslateAtRoot) await app.register(libretranslate, { config: opts.config, root: true })
  }
  if (opts.config.compat.apy) await app.register(apy, { config: opts.config, prefix: '/apy' })
  // DeepL's at /deepl and at the root in one plugin, so both count one client's characters alike
  if (opts.config.compat.deepl) await app.register(deepl, { config: opts.config, root: opts.config.compat.deeplAtRoot })
}
