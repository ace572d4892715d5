/** API key checks (apiKeyChecker): plain and hashed keys, each naming its client, and what is refused. */
import { describe, expect, it } from 'vitest'
import type { ClientConfig } from '../../../../src/config.js'
import { apiKeyChecker, hashSecret } from '../../../../src/http/auth/secrets.js'

describe('apiKeyChecker', () => {
  it('names the client a plain or hashed key is of, and no client for any other key', async () => {
    const a: ClientConfig = { id: 'a', secret: 'a-secret-1', scopes: ['access'], apiKeys: ['a-key-0123456789abcd', 'a-second-key-0123456'] }
    const b: ClientConfig = { id: 'b', scopes: ['access'], apiKeyHashes: [await hashSecret('b-hashed-key-01234567')] }
    const check = apiKeyChecker([a, b])
    expect((await check('a-key-0123456789abcd', 'addr'))?.id).toBe('a')
    expect((await check('a-second-key-0123456', 'addr'))?.id).toBe('a')
    expect((await check('b-hashed-key-01234567', 'addr'))?.id).toBe('b')
    // once matched, the hashed key is known by its HMAC: the same answer
    expect((await check('b-hashed-key-01234567', 'addr'))?.id).toBe('b')
    for (const wrong of ['a-key-0123456789abce', 'b-hashed-key-01234568', 'a-key-0123456789abc', 'short', '', 'x'.repeat(600), 'a-secret-1']) {
      expect(await check(wrong, 'addr'), wrong).toBeUndefined()
    }
  })

  it('with no hashed keys, a wrong key costs no scrypt', async () => {
    const check = apiKeyChecker([{ id: 'a', scopes: ['access'], apiKeys: ['a-key-0123456789abcd'] }])
    const started = performance.now()
    for (let i = 0; i < 200; i++) expect(await check(`guess-0123456789-${i}`, 'addr')).toBeUndefined()
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
