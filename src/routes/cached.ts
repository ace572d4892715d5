/** Static JSON answers with a strong ETag, Cache-Control and 304 on If-None-Match. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { etagOf } from '../core/etag.js'
import { HEADERS, header } from '../schemas/common.js'

const CACHE_CONTROL = 'private, max-age=86400'

/** The serialized body and its ETag, computed once. */
export function cachedJson (value: unknown): { body: string, etag: string, send: (request: FastifyRequest, reply: FastifyReply) => FastifyReply } {
  const body = JSON.stringify(value)
  const etag = etagOf(body)
  return { body, etag, send: (request, reply) => sendCached(request, reply, body, etag) }
}

/** Sends a pre-serialized JSON body, or 304 when the client already has it. */
export function sendCached (request: FastifyRequest, reply: FastifyReply, body: string, etag: string): FastifyReply {
  reply.header('etag', etag).header('cache-control', CACHE_CONTROL).header('vary', 'Authorization')
  const match = request.headers['if-none-match']
  // weak comparison (RFC 9110 13.1.2): a proxy that compresses the answer sends our tag back as W/"..."
  if (match !== undefined && match.split(',').some(t => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
    return reply.code(304).send()
  }
  return reply.type('application/json; charset=utf-8').send(body)
}

/** The 200 of a cached answer and its 304, with their ETag and Cache-Control. */
export function cachedResponses (schema: TSchema & { description?: string }): Record<number, TSchema> {
  const headers = { ETag: header(HEADERS.etag, true), 'Cache-Control': header(HEADERS.cacheControl, true) }
  return {
    200: { description: schema.description ?? 'The answer', headers, content: { 'application/json': { schema } } } as unknown as TSchema,
    304: { type: 'null', description: 'Not modified: If-None-Match named the current ETag (no body)', headers } as unknown as TSchema
  }
}
