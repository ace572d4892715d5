/** A real OAuth2/OIDC authorization server (oidc-provider) on 127.0.0.1, issuing JWT access tokens by client credentials. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'
import { exportJWK, generateKeyPair } from 'jose'

export interface OidcServer {
  issuer: string
  jwksUrl: string
  audience: string
  /** A client-credentials access token from the real token endpoint. */
  token: (scope?: string, resource?: string) => Promise<string>
  close: () => Promise<void>
}

export const OIDC_CLIENT = { id: 'outside-client', secret: 'outside-client-secret-long-enough' }

export async function startOidc (audience = 'https://language.example'): Promise<OidcServer> {
  const server: Server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), kid: 'outside-1', use: 'sig', alg: 'RS256' }
  const provider = new Provider(issuer, {
    clients: [{
      client_id: OIDC_CLIENT.id,
      client_secret: OIDC_CLIENT.secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: 'access read'
    }],
    scopes: ['access', 'read'],
    ttl: { ClientCredentials: 600 },
    jwks: { keys: [jwk] },
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: 'access read',
          audience: resource,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } }
        })
      }
    }
  })
  server.on('request', provider.callback())
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    audience,
    async token (scope = 'access', resource = audience) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: 'Basic ' + Buffer.from(`${OIDC_CLIENT.id}:${OIDC_CLIENT.secret}`).toString('base64')
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource })
      })
      const body = await res.json() as { access_token?: string }
      if (!res.ok || !body.access_token) throw new Error(`oidc token request failed: ${res.status} ${JSON.stringify(body)}`)
      return body.access_token
    },
    close: () => new Promise<void>(resolve => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  }
}
