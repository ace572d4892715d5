/** Static JSON answers with a strong ETag, Cache-Control and 304 on If-None-Match. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { etagOf } from '../core/etag.js'

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
  if (match !== undefined && match.split(',').some(t => t.trim() === etag || t.trim() === '*')) {
    return reply.code(304).send()
  }
  return reply.type('application/json; charset=utf-8').send(body)
}
