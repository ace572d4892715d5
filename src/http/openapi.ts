/** OpenAPI 3.1 generated from the route schemas, at /openapi.json, and Swagger UI at /docs. */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { Problem } from '../schemas/common.js'
import { SCOPES } from '../config.js'
import { declareResponses } from './responses.js'

export const API_VERSION = '1.0.0'

const DESCRIPTION = `Translate documents (one or in bulk, into many languages), detect languages, apply custom
phrases, edit text with generative AI, analyse text and serve locale data.

**Authentication.** Every \`/language\` operation needs an OAuth 2.0 access token with scope \`access\`.
Get one with the client credentials grant at \`POST /oauth/token\` (the **Authorize** button does it for you:
choose *OAuth2* and enter a client id and secret, or paste a token under *BearerAuth*).

**Errors** are RFC 9457 \`application/problem+json\` with a \`request_id\`; validation errors carry
\`errors: [{ pointer, message }]\` with JSON Pointers into the request.`

/**
 * The CSP of /docs: what Swagger UI needs, from this server alone. Its page, scripts and
 * stylesheets are files under /docs/static (no inline script; React sets styles through the DOM,
 * which CSP allows), its icons data: URIs in its stylesheet, and it fetches the document
 * and the calls tried from this origin. No upgrade-insecure-requests: self-hosted services are
 * often reached over plain http on a LAN, where it would send the UI's fetches to https.
 */
const DOCS_CSP = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // and one inline <style>, the fills of the top bar's Swagger logo (an inline SVG), by its hash
  'style-src': ["'self'", "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"]
}

async function openapiPlugin (app: FastifyInstance): Promise<void> {
  app.addSchema({ ...Problem, $id: 'Problem' })
  // every route added from here on declares what the layers around it answer (problem+json errors, headers)
  app.addHook('onRoute', declareResponses)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Language Processing Service', version: API_VERSION, description: DESCRIPTION },
      tags: [
        { name: 'translate', description: 'Translation of documents, bulk translation and supported languages' },
        { name: 'detect', description: 'Language detection' },
        { name: 'substitute', description: 'Custom phrases (glossary)' },
        { name: 'edit', description: 'Generative editing' },
        { name: 'analyze', description: 'Entities, sentiment, moderation, categories' },
        { name: 'locales', description: 'Locale data' },
        { name: 'auth', description: 'OAuth 2.0 token endpoint' },
        { name: 'ops', description: 'Health, readiness and metrics' },
        { name: 'LibreTranslate compatible', description: 'LibreTranslate\'s API at `/libretranslate` (and at the root unless COMPAT_LIBRETRANSLATE_AT_ROOT=false), for its clients unchanged; keys are a client\'s `api_keys` (AUTH_CLIENTS), sent as `api_key`' },
        { name: 'apertium-apy compatible', description: 'apertium-apy\'s API at `/apy` (COMPAT_APY), for its clients unchanged (ISO 639-3 codes); keys are a client\'s `api_keys`, sent as `key`' },
        { name: 'DeepL compatible', description: 'DeepL API v2 at `/deepl` (and at the root unless COMPAT_DEEPL_AT_ROOT=false; COMPAT_DEEPL), for its clients unchanged (the SDKs\' `serverUrl`); keys are a client\'s `api_keys`, sent as `Authorization: DeepL-Auth-Key <key>`' }
      ],
      components: {
        securitySchemes: {
          OAuth2: {
            type: 'oauth2',
            description: 'OAuth 2.0 client credentials; the token endpoint is this service\'s POST /oauth/token.',
            flows: {
              clientCredentials: {
                tokenUrl: '/oauth/token',
                scopes: {
                  access: 'API-level access to permit operations',
                  read: 'Read access to stored configs and settings',
                  write: 'Write access to store configs and settings'
                } satisfies Record<typeof SCOPES[number], string>
              }
            }
          },
          BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /oauth/token (or from the configured outside issuer).' }
        }
      }
    },
    transformObject: (document) => 'openapiObject' in document ? binaryFileParts(requiredHeaders(document.openapiObject)) : document.swaggerObject,
    // components are named by their $id (e.g. "Problem") instead of def-N
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => typeof json['$id'] === 'string' ? json['$id'] : `def-${i}`
    }
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: DOCS_CSP,
    // no badge fetched from validator.swagger.io: the document is checked by our tests, not by a third party
    validatorUrl: false,
    // the client secret and the token stay in the page's memory, as in the playground: persisted, they
    // would sit in localStorage, readable by any page of this origin (reloading signs out)
    uiConfig: { persistAuthorization: false, deepLinking: true, tryItOutEnabled: true, displayRequestDuration: true },
    logLevel: 'warn'
  })
  app.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () => app.swagger())
}

type HeaderObject = { required?: boolean, schema?: Record<string, unknown>, description?: string } | { $ref: string }
type Properties = Record<string, Record<string, unknown>>
interface Document {
  paths?: Record<string, Record<string, {
    requestBody?: { content?: Record<string, { schema?: { properties?: Properties } }> }
    responses?: Record<string, { headers?: Record<string, HeaderObject> }>
  }>>
  components?: { headers?: Record<string, HeaderObject> }
}

/**
 * Response headers as OpenAPI has them. @fastify/swagger copies a header's declaration into the
 * header's schema: `required` (see HeaderDeclaration) belongs to the header object itself. The
 * same header, declared alike on many responses, is written once under components/headers
 * ("Retry-After", or "RateLimit-Limit.optional" where it may be absent) and referenced.
 */
function requiredHeaders<T> (document: T): T {
  const doc = document as Document
  const shared: Record<string, HeaderObject> = {}
  const text = new Map<string, string>()
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const response of Object.values(operation.responses ?? {})) {
        for (const [name, declared] of Object.entries(response.headers ?? {})) {
          if ('$ref' in declared) continue
          const required = declared.schema?.['required']
          if (typeof required === 'boolean') {
            delete declared.schema!['required']
            declared.required = required
          }
          const key = declared.required === true ? name : `${name}.optional`
          const json = JSON.stringify(declared)
          if (!text.has(key)) {
            text.set(key, json)
            shared[key] = declared
          }
          // a header declared otherwise than the first of its name stays where it is
          if (text.get(key) === json) response.headers![name] = { $ref: `#/components/headers/${key}` }
        }
      }
    }
  }
  doc.components = { ...doc.components, headers: Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b))) }
  return document
}

export default fp(openapiPlugin, { name: 'openapi' })

/**
 * File parts as OpenAPI has them, a binary string: Swagger UI offers a file to upload for those
 * alone. A route's schema declares a file part by its `contentMediaType` with no `type`
 * (compat/files.ts filePart), the part being no string once read.
 */
function binaryFileParts<T> (document: T): T {
  for (const operations of Object.values((document as Document).paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const properties = operation.requestBody?.content?.['multipart/form-data']?.schema?.properties ?? {}
      for (const property of Object.values(properties)) {
        if (property['type'] === undefined && typeof property['contentMediaType'] === 'string') Object.assign(property, { type: 'string', format: 'binary' })
      }
    }
  }
  return document
}
