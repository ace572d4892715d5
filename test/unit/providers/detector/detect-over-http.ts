/** The real detector behind POST /language/detect, for a test file: started before its tests, closed after. */
import { afterAll, beforeAll, expect } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, testApp, tokenFor } from '../../../helpers/app.js'

/** Registers the app's start and close; returns what detects a text (its top language) over HTTP. */
export function detectOverHttp (): (text: string) => Promise<string> {
  let app: FastifyInstance
  let auth: Record<string, string>
  beforeAll(async () => {
    app = await testApp({}, { engines: true })
    auth = bearer(await tokenFor(app))
  })
  afterAll(async () => { await app.close() })
  return async text => {
    const res = await app.inject({ method: 'POST', url: '/language/detect', headers: auth, payload: { document: { value: text } } })
    expect(res.statusCode).toBe(200)
    return res.json().language
  }
}
