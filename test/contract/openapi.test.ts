import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { openapiYaml } from '../../src/openapi-document.js'
import { testApp } from '../helpers/app.js'

describe('OpenAPI document', () => {
  it('openapi.yaml is what the code generates (run `npm run openapi` after changing a schema)', async () => {
    const committed = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')
    expect(committed).toBe(await openapiYaml())
  })

  it('declares both security schemes, and for every /language operation its security and error responses', async () => {
    const app = await testApp()
    try {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' })
      expect(res.statusCode).toBe(200)
      const spec = res.json()
      expect(spec.openapi).toBe('3.1.0')
      expect(spec.info.version).toBe('1.0.0')
      expect(spec.components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl).toBe('/oauth/token')
      expect(Object.keys(spec.components.securitySchemes.OAuth2.flows.clientCredentials.scopes)).toEqual(['access', 'read', 'write'])
      expect(spec.components.securitySchemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
      expect(spec.components.schemas.Problem).toBeDefined()
      const operations = Object.entries(spec.paths as Record<string, Record<string, any>>)
        .filter(([path]) => path.startsWith('/language'))
        .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })))
      expect(operations.map(o => o.op.operationId).sort()).toEqual([
        'analyze', 'analyze_sentiment', 'detect', 'edit', 'edit_tones', 'locale', 'locales', 'substitute',
        'translate', 'translate_bulk', 'translate_job', 'translate_job_cancel', 'translate_job_status', 'translate_locales', 'translate_locales_supported'
      ])
      for (const { path, op } of operations) {
        expect(op.security, path).toEqual([{ OAuth2: ['access'] }, { BearerAuth: [] }])
        const ok = op.operationId === 'translate_job' ? '202' : op.operationId === 'translate_job_cancel' ? '204' : '200'
        for (const status of [ok, '400', '401', '403', '429', '500']) expect(op.responses, `${path} ${status}`).toHaveProperty(status)
        expect(op.responses['401'].content['application/problem+json'].schema.$ref).toBe('#/components/schemas/Problem')
      }
      expect(spec.paths['/language/translate/bulk'].post.responses['200'].content['application/json'].schema.type).toBe('array')
      // a body that does not arrive within REQUEST_TIMEOUT_MS is answered 408 by every operation that reads one (a probe found none declared it)
      for (const { path, method, op } of operations) {
        if (op.requestBody !== undefined) expect(op.responses['408']?.content['application/problem+json'], `${method} ${path} 408`).toBeDefined()
      }
      // apy answers JSONP (with callback) as a script, errors too
      for (const status of ['200', '400', '403']) expect(spec.paths['/apy/translate'].get.responses[status].content, status).toHaveProperty('application/javascript')
      // the ops tag's routes are documented (a probe found the tag in Swagger UI with nothing under it)
      expect(['/health', '/ready', '/metrics'].map(path => spec.paths[path]?.get?.tags)).toEqual([['ops'], ['ops'], ['ops']])
      expect(spec.paths['/ready'].get.responses).toHaveProperty('503')
    } finally {
      await app.close()
    }
  })

  it('serves Swagger UI at /docs', async () => {
    const app = await testApp()
    try {
      const page = await app.inject({ method: 'GET', url: '/docs/' })
      expect(page.statusCode).toBe(200)
      expect(page.body).toContain('swagger-ui')
      const init = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' })
      expect(init.statusCode).toBe(200)
      expect((await app.inject({ method: 'GET', url: '/docs/json' })).json().openapi).toBe('3.1.0')
    } finally {
      await app.close()
    }
  })
})
