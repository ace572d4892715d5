/**
 * JWT access tokens: issued by this service (HS256 secret, or a key pair), and verified,
 * together with tokens of an outside OAuth2/OIDC issuer through its JWKS.
 */
import { createPrivateKey, createPublicKey, createSecretKey, randomUUID, type KeyObject } from 'node:crypto'
import {
  SignJWT, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors as joseErrors, exportJWK,
  jwtVerify, type JWK, type JWTPayload
} from 'jose'
import { signingAlgorithm, type Config } from '../../config.js'
import { ServiceUnavailableError } from '../../errors.js'

export interface VerifiedToken {
  subject: string
  scopes: string[]
  issuer: string
}

/** A token that is missing, malformed, forged, expired or for another audience. */
export class InvalidTokenError extends Error {}

export interface TokenService {
  /** Signs an access token for a client. */
  issue: (clientId: string, scopes: string[]) => Promise<{ token: string, expiresIn: number }>
  /** Verifies a bearer token; throws InvalidTokenError. */
  verify: (token: string) => Promise<VerifiedToken>
  /** The public keys of our own tokens, when signed with a key pair. */
  publicJwks: () => { keys: JWK[] } | undefined
}

/** Seconds of clock skew allowed between this service and a token's issuer. */
const CLOCK_TOLERANCE = 5

/**
 * Verified tokens kept, by their whole text (signature included), until they expire: a client
 * sends the same token for its whole lifetime, and verifying its signature again (WebCrypto, on
 * the thread pool) was about a sixth of the CPU a short request costs. A token is only ever found
 * here after it passed every check once; a forged one differs in its text.
 */
const VERIFIED_CACHE_ENTRIES = 10_000

interface Verified {
  token: VerifiedToken
  /** Seconds since the epoch after which it is verified again (and refused). */
  until: number
}

const REMOTE_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']

/**
 * Builds the token service from the auth part of Config, which has a secret or a private key: a
 * service given neither gets a random secret at start, made in server.ts (signingSecret) and nowhere else.
 */
export async function createTokenService (auth: Config['auth']): Promise<TokenService> {
  let signKey: KeyObject
  let verifyKey: KeyObject
  let alg: string
  let jwk: JWK | undefined
  if (auth.jwtPrivateKey !== undefined) {
    signKey = createPrivateKey(auth.jwtPrivateKey)
    verifyKey = createPublicKey(signKey)
    // loadConfig checked that the key type is one we sign with
    alg = signingAlgorithm(signKey)!
    jwk = { ...(await exportJWK(verifyKey)), alg, use: 'sig', kid: 'language-service-1' }
  } else if (auth.jwtSecret !== undefined) {
    // a KeyObject made once: raw bytes would be imported again on every verification
    signKey = verifyKey = createSecretKey(Buffer.from(auth.jwtSecret))
    alg = 'HS256'
  } else {
    throw new Error('no signing key: Config.auth needs jwtSecret or jwtPrivateKey (server.ts makes a random secret when neither is set)')
  }
  // the clients our own tokens may name, with the scopes they have now (an outside issuer's subjects are its own)
  const clientScopes = new Map(auth.clients.map(c => [c.id, new Set<string>(c.scopes)]))
  const remote = auth.jwksUrl ? createRemoteJWKSet(new URL(auth.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 }) : undefined

  const scopesOf = (payload: JWTPayload): string[] => {
    const raw = payload['scope'] ?? payload['scp']
    if (typeof raw === 'string') return raw.split(' ').filter(Boolean)
    if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === 'string')
    return []
  }

  const toVerified = (payload: JWTPayload): VerifiedToken => {
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new InvalidTokenError('the access token has no subject')
    return { subject: payload.sub, scopes: scopesOf(payload), issuer: String(payload.iss ?? '') }
  }

  const explain = (err: unknown): Error => {
    if (err instanceof InvalidTokenError) return err
    // the outside issuer's key set could not be fetched (no answer, not 200, not JSON: jose's plain
    // JOSEError, which nothing about a token throws): not the client's fault
    if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid || err instanceof TypeError ||
      (err instanceof joseErrors.JOSEError && err.code === joseErrors.JOSEError.code)) {
      return new ServiceUnavailableError('The token issuer\'s key set (AUTH_JWKS_URL) could not be fetched; try again later.', 30)
    }
    if (err instanceof joseErrors.JWTExpired) return new InvalidTokenError('the access token has expired')
    if (err instanceof joseErrors.JWTClaimValidationFailed) {
      return new InvalidTokenError(err.reason === 'missing'
        ? `the access token has no "${err.claim}" claim`
        : `the access token's "${err.claim}" claim is not accepted`)
    }
    return new InvalidTokenError('the access token is invalid')
  }

  const verified = new Map<string, Verified>()
  const remember = (token: string, payload: JWTPayload, result: VerifiedToken, maxAge?: number): VerifiedToken => {
    // exp is required: the token is good until it expires (ours also until its age reaches AUTH_TOKEN_TTL)
    const until = Math.min(payload.exp!, maxAge === undefined || payload.iat === undefined ? Infinity : payload.iat + maxAge) + CLOCK_TOLERANCE
    if (verified.size >= VERIFIED_CACHE_ENTRIES) verified.delete(verified.keys().next().value!)
    verified.set(token, { token: result, until })
    return result
  }

  return {
    async issue (clientId, scopes) {
      const token = await new SignJWT({ scope: scopes.join(' ') })
        .setProtectedHeader(jwk ? { alg, kid: jwk.kid!, typ: 'at+jwt' } : { alg, typ: 'at+jwt' })
        .setIssuer(auth.tokenIssuer)
        .setAudience(auth.tokenAudience)
        .setSubject(clientId)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(`${auth.tokenTtl}s`)
        .sign(signKey)
      return { token, expiresIn: auth.tokenTtl }
    },
    async verify (token) {
      const known = verified.get(token)
      if (known !== undefined) {
        if (Date.now() / 1000 < known.until) return known.token
        // expired since: verified again below, which refuses it
        verified.delete(token)
      }
      let header: ReturnType<typeof decodeProtectedHeader>
      let claims: JWTPayload
      try {
        header = decodeProtectedHeader(token)
        claims = decodeJwt(token)
      } catch {
        throw new InvalidTokenError('the access token is not a well-formed JWT')
      }
      if (typeof header.alg !== 'string' || header.alg.toLowerCase() === 'none') throw new InvalidTokenError('unsigned tokens are not accepted')
      try {
        if (claims.iss === auth.tokenIssuer || !remote) {
          // ours always expire: exp and iat are required, issued in the past, living at most AUTH_TOKEN_TTL
          const { payload } = await jwtVerify(token, verifyKey, {
            algorithms: [alg],
            issuer: auth.tokenIssuer,
            audience: auth.tokenAudience,
            requiredClaims: ['exp', 'iat'],
            maxTokenAge: auth.tokenTtl,
            clockTolerance: CLOCK_TOLERANCE
          })
          if (payload.exp! - payload.iat! > auth.tokenTtl) throw new InvalidTokenError('the access token claims a longer lifetime than this service gives (AUTH_TOKEN_TTL)')
          const result = toVerified(payload)
          // a client removed from the configuration loses the tokens it still holds, and one whose
          // scopes were narrowed the scopes it no longer has
          const scopes = clientScopes.get(result.subject)
          if (scopes === undefined) throw new InvalidTokenError('the access token\'s client is no longer configured')
          return remember(token, payload, { ...result, scopes: result.scopes.filter(scope => scopes.has(scope)) }, auth.tokenTtl)
        }
        const { payload } = await jwtVerify(token, remote, {
          algorithms: REMOTE_ALGS,
          ...(auth.issuer ? { issuer: auth.issuer } : {}),
          ...(auth.audience ? { audience: auth.audience } : {}),
          // the issuer sets the lifetime, but a token that never expires is not accepted
          requiredClaims: ['exp'],
          clockTolerance: CLOCK_TOLERANCE
        })
        return remember(token, payload, toVerified(payload))
      } catch (err) {
        throw explain(err)
      }
    },
    publicJwks: () => jwk ? { keys: [jwk] } : undefined
  }
}
