/**
 * The token and the calls to this service's API. The token lives in this module's memory only:
 * never in storage, cookies or the URL. With client credentials it is renewed before it expires.
 */

/** A failed call: the problem+json (or OAuth error) the service answered, or a network failure. */
export class ApiProblem extends Error {
  constructor (status, body) {
    const data = body !== null && typeof body === 'object' ? body : {}
    const title = typeof data.title === 'string' ? data.title : typeof data.error === 'string' ? data.error : `HTTP ${status}`
    const detail = typeof data.detail === 'string'
      ? data.detail
      : typeof data.error_description === 'string' ? data.error_description : typeof body === 'string' ? body.slice(0, 500) : ''
    super(detail || title)
    this.name = 'ApiProblem'
    this.status = status
    this.title = title
    this.detail = detail
    this.errors = Array.isArray(data.errors) ? data.errors.filter(e => e !== null && typeof e === 'object') : []
    this.requestId = typeof data.request_id === 'string' ? data.request_id : ''
  }
}

/** The claims of a JWT (unverified: only to show who and until when), or null for another kind of token. */
export function claimsOf (token) {
  const part = token.split('.')[1]
  if (!part) return null
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=')
    const bytes = Uint8Array.from(atob(base64), ch => ch.charCodeAt(0))
    const claims = JSON.parse(new TextDecoder().decode(bytes))
    return claims !== null && typeof claims === 'object' ? claims : null
  } catch {
    return null
  }
}

const listeners = new Set()
const state = {
  token: '',
  /** Milliseconds since the epoch, or null when the token does not say. */
  expires: null,
  issued: 0,
  subject: '',
  scope: '',
  /** How the token was got: 'credentials' (renewable) or 'pasted'. */
  via: '',
  credentials: null,
  renewTimer: 0,
  renewing: null,
  renewError: null
}

/** What the page may show about the session (never the secret). */
export function session () {
  return {
    signedIn: state.token !== '',
    expires: state.expires,
    subject: state.subject,
    scope: state.scope,
    via: state.via,
    renewError: state.renewError
  }
}

/** Calls `listener` whenever the session changes. */
export function onSessionChange (listener) {
  listeners.add(listener)
}

function changed () {
  for (const listener of listeners) listener(session())
}

/** Parses an answer body as JSON when it says so, else as text. */
async function bodyOf (response) {
  const type = response.headers.get('content-type') ?? ''
  if (/\bjson\b/i.test(type)) {
    try {
      return await response.json()
    } catch {
      return null
    }
  }
  return await response.text()
}

/** A token from POST /oauth/token for these client credentials. */
async function requestToken (credentials, signal) {
  const response = await fetch('/oauth/token', {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.id, client_secret: credentials.secret }),
    headers: { accept: 'application/json' },
    cache: 'no-store',
    credentials: 'omit',
    signal
  })
  const body = await bodyOf(response)
  if (!response.ok) throw new ApiProblem(response.status, body)
  if (body === null || typeof body !== 'object' || typeof body.access_token !== 'string') {
    throw new ApiProblem(response.status, { title: 'Unexpected answer', detail: 'The token endpoint did not answer an access_token.' })
  }
  return body
}

function setToken (token, via, expiresIn) {
  const claims = claimsOf(token) ?? {}
  state.token = token
  state.via = via
  // the token endpoint's expires_in counts from now on this machine's clock, whatever the server's
  // clock says: a skewed clock must not make a fresh token look expired (and renewed in a loop)
  if (typeof expiresIn === 'number' && expiresIn > 0) {
    state.issued = Date.now()
    state.expires = state.issued + expiresIn * 1000
  } else {
    state.issued = typeof claims.iat === 'number' ? claims.iat * 1000 : Date.now()
    state.expires = typeof claims.exp === 'number' ? claims.exp * 1000 : null
  }
  state.subject = typeof claims.sub === 'string' ? claims.sub : ''
  state.scope = typeof claims.scope === 'string' ? claims.scope : ''
  state.renewError = null
  scheduleRenewal()
  changed()
}

/** Renews a little before expiry: a tenth of the lifetime ahead, at least 30 s, at most half of it. */
function scheduleRenewal () {
  clearTimeout(state.renewTimer)
  if (state.via !== 'credentials' || state.expires === null) return
  const lifetime = Math.max(0, state.expires - state.issued)
  const lead = Math.min(Math.max(30_000, lifetime / 10), lifetime / 2)
  const delay = Math.min(Math.max(10_000, state.expires - lead - Date.now()), 2 ** 31 - 1)
  state.renewTimer = setTimeout(() => {
    renew().catch(() => {
      // shown by the page through session().renewError; try again while the token still works
      if (state.expires !== null && Date.now() < state.expires - 5000) state.renewTimer = setTimeout(() => { scheduleRenewal() }, 15_000)
    })
  }, delay)
}

/** A new token with the remembered credentials (one request at a time). */
function renew () {
  if (state.credentials === null) return Promise.reject(new Error('No credentials to renew the token with.'))
  const credentials = state.credentials
  state.renewing ??= requestToken(credentials)
    .then(answer => {
      if (state.credentials === credentials) setToken(answer.access_token, 'credentials', answer.expires_in)
    }, err => {
      if (state.credentials === credentials) {
        state.renewError = err
        changed()
      }
      throw err
    })
    .finally(() => { state.renewing = null })
  return state.renewing
}

/** Signs in with client credentials, kept in memory to renew the token. */
export async function signInWithCredentials (id, secret, signal) {
  const credentials = { id, secret }
  const answer = await requestToken(credentials, signal)
  state.credentials = credentials
  setToken(answer.access_token, 'credentials', answer.expires_in)
}

/** Uses a pasted access token (not renewable). */
export function signInWithToken (token) {
  state.credentials = null
  setToken(token.trim().replace(/^Bearer\s+/i, ''), 'pasted')
}

/** Forgets the token and the credentials. */
export function signOut () {
  clearTimeout(state.renewTimer)
  Object.assign(state, { token: '', expires: null, issued: 0, subject: '', scope: '', via: '', credentials: null, renewing: null, renewError: null })
  changed()
}

/**
 * Calls the API: `body` (if any) as JSON, the token as a bearer. A token about to expire is renewed
 * first; a 401 is retried once with a fresh token when credentials allow. Answers the parsed JSON
 * or throws an ApiProblem.
 */
export async function api (method, path, body, signal) {
  if (state.via === 'credentials' && state.expires !== null && state.expires - Date.now() < 10_000) await renew()
  const send = async () => {
    const headers = { accept: 'application/json, application/problem+json' }
    if (state.token !== '') headers.authorization = `Bearer ${state.token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
      signal
    })
    return { response, data: await bodyOf(response) }
  }
  let { response, data } = await send()
  if (response.status === 401 && state.via === 'credentials') {
    await renew()
    ;({ response, data } = await send())
  }
  if (!response.ok) throw new ApiProblem(response.status, data)
  return data
}
