/**
 * OAuth as a standard client library finds and uses it: oauth4webapi (panva's RFC 8414 / RFC 6749
 * client) discovers the server from its base URL, checks the metadata's issuer against that URL,
 * and gets a client_credentials token from the endpoint it names, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import * as oauth from 'oauth4webapi'
import { testApp } from '../helpers/app.js'

const CLIENT = { id: 'discovery', secret: 'discovery-secret-0123' }

describe('OAuth discovery with oauth4webapi', () => {
  let app: FastifyInstance
  let base: URL
  beforeAll(async () => {
    app = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret }]) })
    await app.listen({ host: '127.0.0.1', port: 0 })
    base = new URL(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`)
  })
  afterAll(async () => { await app?.close() })

  it('discovers the server at its URL (the issuer is that URL) and gets a token from the endpoint the metadata names', async () => {
    const options = { algorithm: 'oauth2' as const, [oauth.allowInsecureRequests]: true }
    const server = await oauth.processDiscoveryResponse(base, await oauth.discoveryRequest(base, options))
    expect(new URL(server.issuer).href).toBe(base.href)
    expect(server.response_types_supported).toEqual([])
    const client: oauth.Client = { client_id: CLIENT.id }
    const response = await oauth.clientCredentialsGrantRequest(server, client, oauth.ClientSecretBasic(CLIENT.secret), new URLSearchParams(), { [oauth.allowInsecureRequests]: true })
    const token = await oauth.processClientCredentialsResponse(server, client, response)
    expect(token.token_type).toBe('bearer')
    const res = await fetch(new URL('/language/edit/tones', base), { headers: { authorization: `Bearer ${token.access_token}` } })
    expect(res.status).toBe(200)
  })

  it('names AUTH_TOKEN_ISSUER as the issuer when it is a URL (the tokens\' iss), which the client then checks', async () => {
    const named = await testApp({ AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret }]), AUTH_TOKEN_ISSUER: 'https://lang.example.com' })
    try {
      const metadata = (await named.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: { host: 'internal:8080' } })).json()
      expect(metadata.issuer).toBe('https://lang.example.com')
      expect(metadata.token_endpoint).toBe('http://internal:8080/oauth/token')
    } finally {
      await named.close()
    }
  })
})
