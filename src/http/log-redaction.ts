/**
 * What the logs may say about a request: its URL with query secrets redacted (a token a client
 * library sent as `?access_token=`, an API key), and the request serializer that logs it so.
 */
import type { FastifyRequest } from 'fastify'

const CENSOR = '[redacted]'

/** Parameter names (lowercased, "-" and "." read as "_") that carry a secret wherever they appear. */
const SECRET_PARTS = ['token', 'secret', 'password', 'passwd', 'pwd', 'key', 'auth', 'signature', 'credential', 'session', 'cookie', 'jwt', 'assertion']
const SECRET_NAMES = new Set(['sig', 'code', 'pass'])

/** Whether a query parameter's name says it holds a secret. */
function secretName (raw: string): boolean {
  let name = raw
  try {
    name = decodeURIComponent(raw)
  } catch {
    // a malformed escape: judge the name as sent
  }
  name = name.toLowerCase().replace(/[-.\s]/g, '_')
  return SECRET_NAMES.has(name) || SECRET_PARTS.some(part => name.includes(part))
}

/** Whether a value has the shape of a JWT (three base64url parts, the first a JSON object): a token whatever its name. */
function jwtShaped (value: string): boolean {
  if (!value.startsWith('eyJ')) return false
  const first = value.indexOf('.')
  return first > 0 && value.indexOf('.', first + 1) > first
}

/** One query parameter ("name=value"), its value redacted when it is a secret. */
function redactParameter (parameter: string): string {
  const equals = parameter.indexOf('=')
  if (equals < 0) return jwtShaped(parameter) ? CENSOR : parameter
  const value = parameter.slice(equals + 1)
  if (value === '') return parameter
  return secretName(parameter.slice(0, equals)) || jwtShaped(value) ? `${parameter.slice(0, equals + 1)}${CENSOR}` : parameter
}

/**
 * A request URL fit for the logs: query parameters whose name says secret (access_token,
 * client_secret, api_key, key, password, ...), any JWT-shaped value or path segment, and
 * userinfo of an absolute URL are replaced by "[redacted]"; everything else is kept as sent.
 * Linear in the URL's length.
 */
export function redactUrl (url: string): string {
  const hash = url.indexOf('#')
  const beforeHash = hash < 0 ? url : url.slice(0, hash)
  const fragment = hash < 0 ? '' : url.slice(hash)
  const question = beforeHash.indexOf('?')
  const path = question < 0 ? beforeHash : beforeHash.slice(0, question)
  const query = question < 0 ? undefined : beforeHash.slice(question + 1)
  const safePath = redactUserinfo(path).split('/').map(segment => jwtShaped(segment) ? CENSOR : segment).join('/')
  if (query === undefined) return safePath + fragment
  return `${safePath}?${query.split('&').map(redactParameter).join('&')}${fragment}`
}

/** "http://user:secret@host/x" (an absolute-form request target) without its userinfo. */
function redactUserinfo (path: string): string {
  const scheme = path.indexOf('://')
  if (scheme < 0) return path
  const authorityEnd = path.indexOf('/', scheme + 3)
  const at = path.lastIndexOf('@', authorityEnd < 0 ? path.length : authorityEnd)
  return at > scheme ? `${path.slice(0, scheme + 3)}${CENSOR}${path.slice(at)}` : path
}

/** The most of a URL a log line holds: a 16 KB URL logged whole, 300 times, was 4.6 MB of log from one client. */
export const LOGGED_URL_CHARS = 1024

/** A URL for the logs: redacted, then cut to LOGGED_URL_CHARS with how much was left out. */
export function loggedUrl (url: string): string {
  const redacted = redactUrl(url)
  if (redacted.length <= LOGGED_URL_CHARS) return redacted
  return `${redacted.slice(0, LOGGED_URL_CHARS)}...[${redacted.length - LOGGED_URL_CHARS} more characters]`
}

/** Fastify's request log serializer, with the URL redacted and cut. */
export function requestSerializer (request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    version: request.headers['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort
  }
}
