/**
 * The host and scheme a request names, which answers build absolute URLs from (the OAuth metadata,
 * LibreTranslate's file links): node's HTTP parser takes any Host value (`evil.example:1/x?`
 * made a link `http://evil.example:1/x?/libretranslate/...`), and behind a trusted proxy
 * X-Forwarded-Host and -Proto stand for them, passed on from the client by proxies that do not set
 * them. Every request naming another is a 400 before any other work.
 */
import { isIPv6 } from 'node:net'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ValidationError } from '../errors.js'
import { sendProblem } from './problem.js'

/**
 * RFC 9110's Host: RFC 3986's authority without userinfo. A name of unreserved characters (letters,
 * digits, `-`, `.`, `_`, `~`; an IPv4 address is one), none of reg-name's escapes and sub-delims
 * that no host is named with, or a bracketed IPv6 address (with a zone, as Python 3.10 writes a
 * link-local one: `[fe80::1%eth0]`); then a port, 1 to 65535, or none.
 */
const HOST = /^(?:[A-Za-z0-9._~-]+|\[([0-9A-Fa-f:.]+)(?:%(?:25)?[A-Za-z0-9._~-]+)?\])(?::(\d{1,5}))?$/

/** Whether `host` is a host and optional port, as above. */
export function validHost (host: string): boolean {
  const m = HOST.exec(host)
  if (m === null) return false
  if (m[1] !== undefined && !isIPv6(m[1])) return false
  return m[2] === undefined || (Number(m[2]) >= 1 && Number(m[2]) <= 65535)
}

/** The header `request.host` was read from: a trusted proxy's X-Forwarded-Host, else Host. */
function hostHeader (request: FastifyRequest): string {
  return request.headers['x-forwarded-host'] !== undefined && request.host !== request.headers.host ? 'X-Forwarded-Host' : 'Host'
}

/** `scheme://host` of the request, for absolute URLs in an answer; a 400 where it named no host (HTTP/1.0 may not). */
export function originOf (request: FastifyRequest): string {
  if (request.host === '') throw new ValidationError('The request names no host (Host header), which this answer\'s URLs are built on.')
  // an IPv6 zone is the client's own (which of its interfaces): no URL may hold one (WHATWG's parser refuses it)
  return `${request.protocol}://${request.host.replace(/%[^\]]*\]/, ']')}`
}

/** How many Host lines a request has (node keeps the first of several). */
function hostLines (request: FastifyRequest): number {
  const raw = request.raw.rawHeaders
  let count = 0
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') count++
  return count
}

/** What is wrong with the host or scheme a request names, as the header and why; undefined if nothing. */
function refusal (request: FastifyRequest): { header: string, message: string } | undefined {
  // RFC 9112, 3.2: a 400 for none or several (Node's own check answered one with no body; app.ts turns it off for this)
  if (request.headers.host === undefined && request.raw.httpVersion === '1.1') return { header: 'Host', message: 'is missing, which HTTP/1.1 requires' }
  if (request.headers.host !== undefined && hostLines(request) > 1) return { header: 'Host', message: 'is given more than once' }
  if (request.host !== '' && !validHost(request.host)) return { header: hostHeader(request), message: 'is not a host name or address with an optional port (1-65535)' }
  if (!/^https?$/i.test(request.protocol)) return { header: 'X-Forwarded-Proto', message: 'is neither http nor https' }
  return undefined
}

async function hostPlugin (app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (request, reply, done) => {
    const refused = refusal(request)
    if (refused === undefined) {
      done()
      return
    }
    const { header, message } = refused
    sendProblem(request, reply, 400, `The ${header} header ${message}.`, { errors: [{ pointer: `/${header.toLowerCase()}`, in: 'header', message }] })
  })
}

export default fp(hostPlugin, { name: 'host', dependencies: ['problem'] })
