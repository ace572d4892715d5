/** GET /language/locale/{tag} and GET /language/locales */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DisplayQuery, Locale, LocaleParams } from '../schemas/locales.js'
import { SECURITY, accessConfig, securedResponses } from './secured.js'
import { cachedJson, cachedResponses } from './cached.js'

export default async function localeRoutes (fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  // core hands back the same frozen list per display language: serialize it once
  const lists = new WeakMap<object, ReturnType<typeof cachedJson>>()

  app.get('/language/locale/:tag', {
    config: accessConfig,
    schema: {
      tags: ['locales'],
      operationId: 'locale',
      summary: 'Information on one locale',
      description: '`name` is the display name (English unless `display` is given); `region` and `script` come from the likely subtags; `parent` is the CLDR parent locale. Malformed tag, or a `display` language no names are known in: 400; unknown to CLDR (codes of its likely subtags alone, such as "aaa", included): 404.',
      security: SECURITY,
      params: LocaleParams,
      querystring: DisplayQuery,
      response: securedResponses(cachedResponses({ ...Locale, description: 'The locale' }), 404)
    }
  }, async (request, reply) => {
    const locale = app.services.locale(request.params.tag, request.query.display)
    return cachedJson(locale).send(request, reply)
  })

  app.get('/language/locales', {
    config: accessConfig,
    schema: {
      tags: ['locales'],
      operationId: 'locales',
      summary: 'Every locale CLDR knows, sorted by tag',
      security: SECURITY,
      querystring: DisplayQuery,
      response: securedResponses(cachedResponses(Type.Array(Locale, { description: 'Every locale, sorted by tag' })))
    }
  }, async (request, reply) => {
    const list = await app.services.locales(request.query.display)
    let cached = lists.get(list)
    if (!cached) {
      cached = cachedJson(list)
      lists.set(list, cached)
    }
    return cached.send(request, reply)
  })
}
