/** AUTH_CLIENTS' api_keys and api_key_hashes, and the settings of the compatible APIs. */
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'

const base = { AUTH_JWT_SECRET: 'config-test-secret-of-at-least-32-bytes', LOG_LEVEL: 'silent' }
const HASH = 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g'

function refused (clients: unknown[], message: RegExp): void {
  let caught: unknown
  try {
    loadConfig({ ...base, AUTH_CLIENTS: JSON.stringify(clients) })
  } catch (err) {
    caught = err
  }
  expect(caught, JSON.stringify(clients)).toBeInstanceOf(ConfigError)
  expect((caught as ConfigError).variable).toBe('AUTH_CLIENTS')
  expect((caught as ConfigError).message).toMatch(message)
}

describe('AUTH_CLIENTS api keys', () => {
  it('reads api_keys and api_key_hashes; a client may have keys and no secret', () => {
    const config = loadConfig({ ...base, AUTH_CLIENTS: JSON.stringify([{ id: 'a', secret: 'a-secret-1', api_keys: ['a-key-0123456789abcd'] }, { id: 'b', api_key_hashes: [HASH], scopes: ['access'] }]) })
    expect(config.auth.clients[0]).toMatchObject({ id: 'a', secret: 'a-secret-1', apiKeys: ['a-key-0123456789abcd'] })
    expect(config.auth.clients[1]).toMatchObject({ id: 'b', apiKeyHashes: [HASH], scopes: ['access'] })
    expect(config.auth.clients[1]!.secret).toBeUndefined()
  })

  it('refuses short or malformed keys, bad hashes, a key two clients share, and a client with nothing to authenticate', () => {
    refused([{ id: 'a', api_keys: ['too-short'] }], /AUTH_CLIENTS\[0\]\.api_keys must be .* 16 to 512/)
    refused([{ id: 'a', api_keys: 'a-key-0123456789abcd' }], /api_keys must be an array/)
    refused([{ id: 'a', api_keys: ['a key with spaces 0123'] }], /api_keys/)
    refused([{ id: 'a', api_key_hashes: ['plain-not-a-hash'] }], /AUTH_CLIENTS\[0\]\.api_key_hashes must be/)
    refused([{ id: 'a', api_keys: ['a-key-0123456789abcd'] }, { id: 'b', api_keys: ['a-key-0123456789abcd'] }], /client "b" has an api key another client/)
    refused([{ id: 'a' }], /needs one of "secret" or "secret_hash" \(or api keys/)
    refused([{ id: 'a', secret: 'a-secret-1', secret_hash: HASH }], /exactly one of "secret" or "secret_hash"/)
  })

  it('COMPAT_LIBRETRANSLATE, COMPAT_LIBRETRANSLATE_AT_ROOT, COMPAT_APY, COMPAT_DEEPL and COMPAT_DEEPL_AT_ROOT: on by default, each switched off by false', () => {
    expect(loadConfig(base).compat).toEqual({ libretranslate: true, libretranslateAtRoot: true, apy: true, deepl: true, deeplAtRoot: true, deeplCharacterLimit: 1_000_000_000_000 })
    expect(loadConfig({ ...base, COMPAT_LIBRETRANSLATE: 'false', COMPAT_LIBRETRANSLATE_AT_ROOT: 'no', COMPAT_APY: 'off', COMPAT_DEEPL: 'false', COMPAT_DEEPL_AT_ROOT: 'false', COMPAT_DEEPL_CHARACTER_LIMIT: '5000' }).compat)
      .toEqual({ libretranslate: false, libretranslateAtRoot: false, apy: false, deepl: false, deeplAtRoot: false, deeplCharacterLimit: 5000 })
  })

  it('COMPAT_DEEPL_CHARACTER_LIMIT: a whole number of at least 1', () => {
    expect(() => loadConfig({ ...base, COMPAT_DEEPL_CHARACTER_LIMIT: '0' })).toThrow(/COMPAT_DEEPL_CHARACTER_LIMIT/)
    expect(() => loadConfig({ ...base, COMPAT_DEEPL_CHARACTER_LIMIT: 'lots' })).toThrow(/COMPAT_DEEPL_CHARACTER_LIMIT/)
  })
})
