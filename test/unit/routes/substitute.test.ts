/** POST /language/substitute over HTTP, with the app's real engines. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, testApp, tokenFor } from '../../helpers/app.js'

let app: FastifyInstance
let auth: Record<string, string>
beforeAll(async () => {
  app = await testApp({}, { engines: true })
  auth = bearer(await tokenFor(app))
})
afterAll(async () => { await app.close() })

const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: auth, payload: payload as object })

describe('POST /language/substitute', () => {
  it('applies same-language rules only, whole words, case-insensitively, and reports counts', async () => {
    const res = await post('/language/substitute', {
      document: { value: 'Acme makes acme-grade gear. Acmes are not Acme.', language: 'en' },
      substitutions: [
        { text: 'acme', substitution: 'ACME Inc.' },
        { source: 'en', target: 'en', text: 'gear', substitution: 'equipment' },
        { source: 'en', target: 'es', text: 'makes', substitution: 'hace' }
      ],
      meta: { job: '42' }
    })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.document.value).toBe('ACME Inc. makes ACME Inc.-grade equipment. Acmes are not ACME Inc..')
    expect(body.original.value).toBe('Acme makes acme-grade gear. Acmes are not Acme.')
    expect(body.meta.job).toBe('42')
    expect(body.meta.substitutions).toHaveLength(2)
    expect(body.meta.substitutions).toEqual(expect.arrayContaining([
      { text: 'acme', substitution: 'ACME Inc.', count: 3 }, { text: 'gear', substitution: 'equipment', count: 1 }
    ]))
  })

  it('"und" as the document\'s language is detection, as in analyze and edit (a probe\'s rule for fr applied nothing)', async () => {
    const rules = [{ text: 'monde', substitution: 'planète', source: 'fr' }]
    const value = 'Bonjour le monde, le monde est beau et le soleil brille sur la ville.'
    const detected = await post('/language/substitute', { document: { value }, substitutions: rules })
    const und = await post('/language/substitute', { document: { value, language: 'und' }, substitutions: rules })
    expect(detected.statusCode).toBe(200)
    expect(detected.json().document.value).toBe(value.replaceAll('monde', 'planète'))
    expect(und.json().document).toEqual(detected.json().document)
  })

  it('keeps a client meta key named substitutions (what was applied is then service_substitutions), and refuses malformed rule tags', async () => {
    const mine = await post('/language/substitute', { document: { value: 'Hello Acme', language: 'en' }, substitutions: [{ text: 'Acme', substitution: 'X' }], meta: { substitutions: 'mine' } })
    expect(mine.statusCode).toBe(200)
    expect(mine.json().meta).toEqual({ substitutions: 'mine', service_substitutions: [{ text: 'Acme', substitution: 'X', count: 1 }] })
    expect(mine.json().document.value).toBe('Hello X')
    const bad = await post('/language/substitute', { document: { value: 'Hello' }, substitutions: [{ text: 'Hello', substitution: 'Hi', source: 'en_GB' }] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].pointer).toBe('/substitutions/0/source')
    const inTranslate = await post('/language/translate', { document: { value: 'Hello' }, source: 'en', targets: ['es'], substitutions: [{ text: 'a', substitution: 'b' }, { text: 'Hello', substitution: 'Hi', target: '!!' }] })
    expect(inTranslate.json().errors[0].pointer).toBe('/substitutions/1/target')
  })

  it('treats phrases literally, never as patterns', async () => {
    const res = await post('/language/substitute', {
      document: { value: 'Copyright (c) 2024. Price: $5 (approx.) and .* stays.' },
      substitutions: [{ text: '(c)', substitution: '©' }, { text: '.*', substitution: 'STAR' }, { text: '$5', substitution: 'five dollars' }]
    })
    expect(res.json().document.value).toBe('Copyright © 2024. Price: five dollars (approx.) and STAR stays.')
    // a phrase that starts with a full stop, after a space (a probe saw ".NET" never matched there: the text was cut into sentences at " .N")
    const dotted = await post('/language/substitute', { document: { value: 'We use .NET and ASP.NET daily.', language: 'en' }, substitutions: [{ text: '.NET', substitution: 'dotnet' }] })
    expect(dotted.json().document.value).toBe('We use dotnet and ASPdotnet daily.')
  })

  it('keeps HTML markup while substituting text', async () => {
    const res = await post('/language/substitute', {
      document: { value: '<p title="Acme">Buy <b>Acme</b> now</p>', mime_type: 'text/html' },
      substitutions: [{ text: 'Acme', substitution: 'ACME' }]
    })
    expect(res.json().document.value).toBe('<p title="ACME">Buy <b>ACME</b> now</p>')
  })
})
