import { describe, expect, it } from 'vitest'
import { etagOf } from '../../../src/core/etag.js'

describe('etagOf', () => {
  it('is a strong, quoted entity tag', () => {
    expect(etagOf('[]')).toMatch(/^"[A-Za-z0-9_-]{43}"$/)
  })

  it('is the same for the same body and differs when the body does', () => {
    const body = JSON.stringify([{ tag: 'en' }])
    expect(etagOf(body)).toBe(etagOf(JSON.stringify([{ tag: 'en' }])))
    expect(etagOf(body)).not.toBe(etagOf(JSON.stringify([{ tag: 'fr' }])))
  })

  it('is the SHA-256 of the body', () => {
    // SHA-256 of the empty string, base64url
    expect(etagOf('')).toBe('"47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"')
  })
})
