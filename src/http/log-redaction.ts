/**
 * What the logs may say about a request: its path, and of its query only what the router reads as
 * the values of a few non-content parameters (language codes, a listing's type); the names of the
 * parameters the service knows with their values redacted; anything else as "[redacted]" whole.
 * Client text (apy's `?q=`) and keys (`?key=`, `?auth_key=`, `?api_key=`, `?access_token=`) never
 * reach a log line, whatever their names and wherever the router finds the query.
 */
import type { FastifyRequest } from 'fastify'

const CENSOR = '[redacted]'

/** Parameters whose values are logged: what says which languages or listing was asked for, never text or keys. */
const KEPT = new Set(['langpair', 'source', 'target', 'src', 'type', 'display', 'markUnknown'])
/**
 * Parameters the service (or a client library) puts in a query, logged by name with the value
 * redacted. Any other parameter is "[redacted]" whole: its name may itself be text or a key.
 */
const NAMED = new Set(['q', 'text', 'key', 'auth_key', 'api_key', 'access_token', 'token', 'client_id', 'client_secret', 'source_lang', 'target_lang', 'format', 'tag_handling', 'callback'])

/** Whether a value has the shape of a JWT (three base64url parts, the first a JSON object): a token whatever its name. */
function jwtShaped (value: string): boolean {
  if (!value.startsWith('eyJ')) return false
  const first = value.indexOf('.')
  return first > 0 && value.indexOf('.', first + 1) > first
}

/** A parameter's name as the router's query parser (fast-querystring) reads it: "+" a space, escapes decoded. */
function parsedName (raw: string): string {
  const name = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw
  if (!name.includes('%')) return name
  try {
    return decodeURIComponent(name)
  } catch {
    // the parser keeps a malformed escape as sent
    return name
  }
}

/** One query parameter ("name=value", or a bare "name") as logged. */
function redactParameter (parameter: string): string {
  const equals = parameter.indexOf('=')
  const rawName = equals < 0 ? parameter : parameter.slice(0, equals)
  const name = parsedName(rawName)
  const value = equals < 0 ? '' : parameter.slice(equals + 1)
  if (KEPT.has(name)) return jwtShaped(value) ? `${rawName}=${CENSOR}` : parameter
  if (NAMED.has(name)) return value === '' ? parameter : `${rawName}=${CENSOR}`
  return CENSOR
}

/**
 * Where the router (find-my-way) ends the path: at the first "?" or "#" after the first
 * character. Everything after it is the query, later "#"s included: `?q=hi#&key=K` gives the key.
 */
function queryStart (url: string): number {
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c === 63 || c === 35) return i
  }
  return -1
}

/** The request's path as the router reads it: the URL up to the query ("?" or "#"). */
export function routedPath (url: string): string {
  const start = queryStart(url)
  return start < 0 ? url : url.slice(0, start)
}

/** A path segment after which comes a capability (a secret whoever holds may use): LibreTranslate's file links, which also hold the file's name. */
const CAPABILITY = 'download_file'

/** A segment as the router may read it: percent escapes decoded, in lower case. */
function decodedSegment (segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase()
  } catch {
    return segment.toLowerCase()
  }
}

/**
 * The path's segments with every one from a capability's on redacted: the segments after it (a
 * doubled slash, an escaped one), and the segment itself when more than its name is in it
 * (`download_file%2F<link>`, `download_fil%65;x`); the capability's name is matched as the router
 * may read it (a probe's `download_fil%65/<link>` reached the file, and the log held the link).
 */
function withoutCapabilities (segments: string[]): string[] {
  const at = segments.findIndex(s => decodedSegment(s).startsWith(CAPABILITY))
  if (at === -1) return segments
  const name = decodedSegment(segments[at]!) === CAPABILITY ? [segments[at]!] : [CENSOR]
  return [...segments.slice(0, at), ...name, ...segments.slice(at + 1).map(() => CENSOR)]
}

/**
 * A request URL fit for the logs: the path (any JWT-shaped segment, a file link's secret and the
 * userinfo of an absolute URL redacted), and the query split exactly where and as the router splits it, each
 * parameter kept, named or redacted as KEPT and NAMED say; the character that opened the query is
 * kept as sent. Linear in the URL's length.
 */
export function redactUrl (url: string): string {
  const start = queryStart(url)
  const path = start < 0 ? url : url.slice(0, start)
  const safePath = withoutCapabilities(redactUserinfo(path).split('/')).map(segment => jwtShaped(segment) ? CENSOR : segment).join('/')
  if (start < 0) return safePath
  const query = url.slice(start + 1)
  return `${safePath}${url[start]}${query === '' ? '' : query.split('&').map(parameter => parameter === '' ? parameter : redactParameter(parameter)).join('&')}`
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
