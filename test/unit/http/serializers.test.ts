import { describe, expect, it } from 'vitest'
import { sharedSerializers } from '../../../src/http/serializers.js'
import { testApp } from '../../helpers/app.js'

const problem = { type: 'object', properties: { title: { type: 'string' }, status: { type: 'integer' } } }

describe('response serializers', () => {
  it('compiles a schema once however many routes and statuses declare it, and apart from every other schema', () => {
    const compile = sharedSerializers()({}, {})
    const a = compile({ schema: problem, method: 'GET', url: '/a', httpStatus: '400' })
    const b = compile({ schema: structuredClone(problem), method: 'POST', url: '/b', httpStatus: '401' })
    const other = compile({ schema: { type: 'object', properties: { title: { type: 'string' } } }, method: 'GET', url: '/a', httpStatus: '200' })
    expect(b).toBe(a)
    expect(other).not.toBe(a)
    // each serializes what its own schema says: the other one drops status
    expect(JSON.parse(a({ title: 'Bad', status: 400, secret: 'x' }))).toEqual({ title: 'Bad', status: 400 })
    expect(JSON.parse(other({ title: 'Bad', status: 400 }))).toEqual({ title: 'Bad' })
  })

  it('serves the problem+json errors of different routes through the shared serializer unchanged', async () => {
    const app = await testApp()
    try {
      for (const url of ['/language/detect', '/language/translate', '/language/analyze']) {
        const res = await app.inject({ method: 'POST', url, payload: {} })
        expect(res.statusCode).toBe(401)
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
        expect(res.json()).toMatchObject({ status: 401, instance: url, title: expect.any(String) })
      }
    } finally {
      await app.close()
    }
  })
})
