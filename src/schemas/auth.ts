/** POST /oauth/token shapes (RFC 6749 §4.4 and §5). */
import { Type } from 'typebox'

export const TokenRequest = Type.Object({
  grant_type: Type.Optional(Type.String({ description: 'Must be client_credentials.' })),
  scope: Type.Optional(Type.String({ description: 'Space-separated subset of the client\'s scopes (access, read, write); default all of them.' })),
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String())
}, { description: 'Form (application/x-www-form-urlencoded) or JSON body; client credentials by HTTP Basic or client_id/client_secret.' })

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  scope: Type.String()
})

export const OAuthError = Type.Object({
  error: Type.Enum(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope']),
  error_description: Type.String()
}, { description: 'RFC 6749 §5.2 error.' })
