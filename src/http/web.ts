/** The playground page at / and its assets under /web/, with a strict Content-Security-Policy. */
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'

/**
 * web/ at the package root: static files, not compiled. Two levels up from this module, so the
 * same path holds from src/http (tsx, tests) and from dist/http (built, the Docker image).
 */
export const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url))

/**
 * No inline script or style, nothing from another origin, no framing. Trusted Types make any
 * HTML sink (innerHTML, srcdoc...) throw unless it goes through the one policy the page declares,
 * the sandboxed preview of translated HTML; that preview inherits this policy too.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "require-trusted-types-for 'script'",
  'trusted-types playground-preview'
].join('; ')

async function webPlugin (app: FastifyInstance): Promise<void> {
  // this plugin is encapsulated (no fastify-plugin): the hook covers only the page and its assets
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', PAGE_CSP)
    return payload
  })

  await app.register(fastifyStatic, {
    root: WEB_ROOT,
    prefix: '/web/',
    // one route per file found at start: a missing asset is the app's ordinary 404 problem
    wildcard: false,
    index: false,
    globIgnore: ['index.html'],
    schemaHide: true
  })

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    // revalidated on every load, so a new version of the page is seen at once
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false })
  })
}

export default webPlugin
