/**
 * The translation cache across clients, over HTTP with the real Apertium engine (issue 24, finding
 * 1): a client cannot plant a translation that another client's text is then answered with.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, CLIENT, testApp, tokenFor } from '../../helpers/app.js'

const OTHER = { id: 'other-client', secret: 'other-client-secret' }

let app: FastifyInstance
beforeAll(async () => {
  app = await testApp({
    AUTH_CLIENTS: JSON.stringify([
      { id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'] },
      { id: OTHER.id, secret: OTHER.secret, scopes: ['access'] }
    ])
  }, { engines: true })
}, 60_000)
afterAll(async () => { await app?.close() })

async function translate (token: string, value: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/language/translate',
    headers: bearer(token),
    payload: { document: { value }, source: 'en', targets: ['es'], options: { service: 'apertium' } }
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().results.es.value as string
}

describe('the translation cache across clients', () => {
  it('never answers one client\'s long sentence with what another client\'s lookalike of its key was translated to', async () => {
    // one sentence of 252 characters, which the old keys hashed: "#" + base64url(SHA-256)
    const sentence = 'The red car that my neighbour bought last year is parked in front of the big house at the end of our quiet street, ' +
      'and every morning he washes it carefully before driving to the office where he has worked for more than twenty long years now, all alone.'
    expect(sentence).toHaveLength(252)
    const lookalike = '#' + createHash('sha256').update(sentence).digest('base64url')
    const [attacker, victim] = [await tokenFor(app, CLIENT), await tokenFor(app, OTHER)]

    const planted = await translate(attacker, lookalike)
    expect(planted).toContain(lookalike.slice(1))
    const answer = await translate(victim, sentence)
    expect(answer).not.toContain(lookalike.slice(1))
    for (const word of [/coche/, /rojo/, /casa/, /calle/]) expect(answer).toMatch(word)
    // and the other way round: the lookalike is still answered with its own translation
    expect(await translate(attacker, lookalike)).toBe(planted)
  })
})
