/** CORS (CORS_ORIGINS): browsers' pages may call the API; preflights are answered before any token or key check, never with credentials. */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import cors from '@fastify/cors'
import type { Config } from '../config.js'

/** Answer headers a page's script may read: what tells it when to retry and which request it was. */
const EXPOSED = ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-request-id', 'etag', 'location']
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = 600

async function corsPlugin (app: FastifyInstance, opts: { config: Config }): Promise<void> {
  const origins = opts.config.corsOrigins
  if (origins !== '*' && origins.length === 0) return
  await app.register(cors, {
    // a list: the caller's origin is named when it is one of them (and Vary: Origin); no header otherwise
    origin: origins === '*' ? '*' : origins,
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    exposedHeaders: EXPOSED,
    maxAge: PREFLIGHT_MAX_AGE,
    // the preflight is answered in onRequest, registered before the limits and auth hooks
    hook: 'onRequest',
    // an OPTIONS without Origin or Access-Control-Request-Method (curl -X OPTIONS, a monitor) is
    // answered as a preflight too, not with the plugin's 400 in text/plain
    strictPreflight: false,
    logLevel: 'warn'
  })
}

export default fp(corsPlugin, { name: 'cors' })
