import { describe, expect, it } from 'vitest'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig, readEnvironment, settingWarnings, unknownSettings } from '../../src/config.js'

const bad = (env: Record<string, string>, variable: string): string => {
  let caught: unknown
  try { loadConfig(env) } catch (err) { caught = err }
  expect(caught, JSON.stringify(env)).toBeInstanceOf(ConfigError)
  expect((caught as ConfigError).variable).toBe(variable)
  expect((caught as ConfigError).message).toMatch(new RegExp(`^${variable}: `))
  return (caught as ConfigError).message
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({ host: '0.0.0.0', port: 8080, logLevel: 'info' })
    expect(c.auth).toMatchObject({ clients: [], tokenTtl: 3600 })
    expect(c.auth.jwtSecret).toBeUndefined()
    expect(c.limits).toMatchObject({ bodyBytes: 1048576, textChars: 100000, targets: 20, bulkDocuments: 100, edits: 10, rateLimitMax: 600, upstreamTimeoutMs: 30000 })
    expect(c.apertium.dir).toBe('/usr/share/apertium')
  })

  it('stops on a bad value, naming the variable', () => {
    bad({ PORT: 'eighty' }, 'PORT')
    bad({ PORT: '70000' }, 'PORT')
    bad({ LOG_LEVEL: 'loud' }, 'LOG_LEVEL')
    bad({ AUTH_JWT_SECRET: 'short' }, 'AUTH_JWT_SECRET')
    bad({ AUTH_CLIENTS: 'not json' }, 'AUTH_CLIENTS')
    bad({ AUTH_CLIENTS: '[{"id":"a","scopes":["access"]}]' }, 'AUTH_CLIENTS')
    bad({ AUTH_CLIENTS: '[{"id":"a","secret":"long-enough","scopes":["admin"]}]' }, 'AUTH_CLIENTS')
    bad({ AUTH_CLIENTS: '[{"id":"a","secret_hash":"md5$abc","scopes":["access"]}]' }, 'AUTH_CLIENTS')
    bad({ AUTH_CLIENTS: '[{"id":"a","secret":"long-enough"},{"id":"a","secret":"long-enough"}]' }, 'AUTH_CLIENTS')
    bad({ AUTH_CLIENTS_FILE: '/nonexistent/clients.json' }, 'AUTH_CLIENTS_FILE')
    bad({ AUTH_JWKS_URL: 'ftp://x' }, 'AUTH_JWKS_URL')
    bad({ RATE_LIMIT_MAX: '0' }, 'RATE_LIMIT_MAX')
    bad({ BODY_LIMIT: '-1' }, 'BODY_LIMIT')
    bad({ GOOGLE_TRANSLATE_ENABLED: 'maybe' }, 'GOOGLE_TRANSLATE_ENABLED')
    bad({ REDIS_URL: 'http://localhost' }, 'REDIS_URL')
    // a URL the Redis client could not read: refused here, the password never printed (a probe's was, six times, in a stack)
    for (const url of ['redis://:S3cretRedisPass@redis.internal:6379x', 'redis://127.0.0.1:notaport', 'redis://[bad']) {
      const message = bad({ REDIS_URL: url }, 'REDIS_URL')
      expect(message).not.toContain('S3cretRedisPass')
    }
    // a misspelt field is refused (a probe's "scope" left the client every scope), as is a hash no check could use (each was a 500)
    bad({ AUTH_CLIENTS: '[{"id":"a","secret":"long-enough","scope":["read"]}]' }, 'AUTH_CLIENTS')
    bad({ AUTH_CLIENTS: '[{"id":"a","secret":"long-enough","api_key":"0123456789abcdefgh"}]' }, 'AUTH_CLIENTS')
    bad({ AUTH_CLIENTS: '[{"id":"n3","secret_hash":"scrypt$3$8$1$ntpoPWapHoPMQJ0QmEbSoQ$eETKARh96DLtj0errMEIHF7Msx3NyyfiHfRhvQJrqN8"}]' }, 'AUTH_CLIENTS')
    bad({ AUTH_CLIENTS: '[{"id":"n3","secret_hash":"scrypt$1073741824$8$1$ntpoPWapHoPMQJ0QmEbSoQ$eETKARh96DLtj0errMEIHF7Msx3NyyfiHfRhvQJrqN8"}]' }, 'AUTH_CLIENTS')
    bad({ AUTH_CLIENTS: '[{"id":"n3","api_key_hashes":["scrypt$16384$0$1$ntpoPWapHoPMQJ0QmEbSoQ$eETKARh96DLtj0errMEIHF7Msx3NyyfiHfRhvQJrqN8"]}]' }, 'AUTH_CLIENTS')
    bad({ TRANSLATION_SERVICES: 'apertium,bad name' }, 'TRANSLATION_SERVICES')
    bad({ OPENAI_BASE_URL: 'not a url' }, 'OPENAI_BASE_URL')
    bad({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }, 'OPENAI_MODEL')
    bad({ OPENAI_API_KEY: 'sk-something' }, 'OPENAI_MODEL')
    bad({ OPENAI_MODEL: 'llama3.1', OPENAI_LANGUAGES: 'en,not_a_tag' }, 'OPENAI_LANGUAGES')
    bad({ TRANSLATION_SERVICES: 'apertium,bing' }, 'TRANSLATION_SERVICES')
    bad({ TRANSLATION_SERVICES: 'apertium,apertium' }, 'TRANSLATION_SERVICES')
    bad({ GOOGLE_TRANSLATE_HOST: 'http://translate.example' }, 'GOOGLE_TRANSLATE_HOST')
    bad({ BREAKER_FAILURES: '0' }, 'BREAKER_FAILURES')
    bad({ UPSTREAM_CONCURRENCY: 'many' }, 'UPSTREAM_CONCURRENCY')
    bad({ AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks', AUTH_ISSUER: 'http://issuer' }, 'AUTH_AUDIENCE')
    bad({ AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks', AUTH_AUDIENCE: 'api' }, 'AUTH_ISSUER')
  })

  it('reads TRUST_PROXY as Fastify takes it: true/false, a hop count, or addresses and CIDR ranges', () => {
    const trust = (value: string): unknown => loadConfig({ TRUST_PROXY: value }).trustProxy
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(trust('true')).toBe(true)
    expect(trust('FALSE')).toBe(false)
    // a number is a hop count: "1" trusts the one proxy in front, not every X-Forwarded-For entry
    expect(trust('1')).toBe(1)
    expect(trust('2')).toBe(2)
    expect(trust('0')).toBe(false)
    expect(trust('10.0.0.0/8, 127.0.0.1,::1 , fd00::/8')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8'])
    expect(trust('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal'])
    for (const value of ['10.0.0.0/33', 'proxy.internal', '256.1.1.1', '-1', 'yes please', '10.0.0.1,,', '::1/129']) bad({ TRUST_PROXY: value }, 'TRUST_PROXY')
  })

  it('switches each outside engine on by its settings, in the default order, and refuses a named engine that is not configured', async () => {
    const { createRegistry } = await import('../../src/registry.js')
    const names = (env: Record<string, string>): string[] => {
      const registry = createRegistry(loadConfig(env))
      registry.close().catch(() => {})
      return registry.translators.map(t => t.name)
    }
    expect(names({})).toEqual(['apertium'])
    expect(names({ LIBRETRANSLATE_URL: 'http://127.0.0.1:9', OPENAI_MODEL: 'llama3.1', DEEPL_API_KEY: 'k:fx' }))
      .toEqual(['deepl', 'openai', 'libretranslate', 'apertium'])
    expect(names({ LIBRETRANSLATE_URL: 'http://127.0.0.1:9', TRANSLATION_SERVICES: 'apertium,libretranslate' })).toEqual(['apertium', 'libretranslate'])
    expect(loadConfig({ OPENAI_MODEL: 'gpt-4o-mini' }).openai.baseUrl).toBe('https://api.openai.com/v1')
    expect(loadConfig({ GOOGLE_TRANSLATE_HOST: 'https://translate.example/' }).google.host).toBe('translate.example')
    // refused with the other settings, before the engines are built (and before server.ts makes a client for the run)
    expect(bad({ TRANSLATION_SERVICES: 'deepl,apertium' }, 'TRANSLATION_SERVICES')).toMatch(/"deepl" is named but not configured \(set DEEPL_API_KEY\)/)
    expect(bad({ TRANSLATION_SERVICES: 'apertium,openai' }, 'TRANSLATION_SERVICES')).toMatch(/"openai" is named but not configured \(set OPENAI_MODEL/)
    expect(bad({ TRANSLATION_SERVICES: 'google' }, 'TRANSLATION_SERVICES')).toMatch(/GOOGLE_TRANSLATE_ENABLED=true/)
    expect(loadConfig({ TRANSLATION_SERVICES: 'google-cloud,libretranslate', GOOGLE_CLOUD_API_KEY: 'k', LIBRETRANSLATE_URL: 'http://127.0.0.1:9' }).translation.services).toEqual(['google-cloud', 'libretranslate'])
  })

  it('warns of a HANDLER_TIMEOUT_MS not above UPSTREAM_TIMEOUT_MS, and starts', () => {
    expect(settingWarnings(loadConfig({}))).toEqual([])
    expect(settingWarnings(loadConfig({ HANDLER_TIMEOUT_MS: '5001', UPSTREAM_TIMEOUT_MS: '5000' }))).toEqual([])
    for (const handler of ['1000', '5000']) {
      const warnings = settingWarnings(loadConfig({ HANDLER_TIMEOUT_MS: handler, UPSTREAM_TIMEOUT_MS: '5000' }))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(new RegExp(`^HANDLER_TIMEOUT_MS \\(${handler}\\) is not above UPSTREAM_TIMEOUT_MS \\(5000\\).*keep it above$`))
    }
  })

  it('checks the signing key file at start', async () => {
    const { generateKeyPairSync } = await import('node:crypto')
    const dir = mkdtempSync(join(tmpdir(), 'lskey-'))
    const notPem = join(dir, 'not.pem')
    writeFileSync(notPem, 'not a key')
    bad({ AUTH_JWT_PRIVATE_KEY_FILE: notPem }, 'AUTH_JWT_PRIVATE_KEY_FILE')
    const pss = join(dir, 'pss.pem')
    writeFileSync(pss, generateKeyPairSync('rsa-pss', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }))
    bad({ AUTH_JWT_PRIVATE_KEY_FILE: pss }, 'AUTH_JWT_PRIVATE_KEY_FILE')
    // a short RSA key was taken, then every token request failed (jose: RS256 needs 2048 bits)
    const short = join(dir, 'short.pem')
    writeFileSync(short, generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }))
    expect(() => loadConfig({ AUTH_JWT_PRIVATE_KEY_FILE: short })).toThrow(/1024-bit RSA key; RS256 needs 2048 bits/)
    const rsa = join(dir, 'rsa.pem')
    writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }))
    expect(loadConfig({ AUTH_JWT_PRIVATE_KEY_FILE: rsa }).auth.jwtPrivateKey).toContain('PRIVATE KEY')
    const ed = join(dir, 'ed.pem')
    writeFileSync(ed, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }))
    expect(loadConfig({ AUTH_JWT_PRIVATE_KEY_FILE: ed }).auth.jwtPrivateKey).toContain('PRIVATE KEY')
  })

  it('reads clients from AUTH_CLIENTS_FILE and the environment together', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lscfg-'))
    const file = join(dir, 'clients.json')
    writeFileSync(file, JSON.stringify([{ id: 'from-file', secret: 'file-secret-1', scopes: ['read'] }]))
    const c = loadConfig({ AUTH_CLIENTS_FILE: file, AUTH_CLIENTS: '[{"id":"from-env","secret":"env-secret-1"}]' })
    expect(c.auth.clients).toEqual([
      { id: 'from-env', secret: 'env-secret-1', scopes: ['access', 'read', 'write'] },
      { id: 'from-file', secret: 'file-secret-1', scopes: ['read'] }
    ])
  })

  it('reads an AUTH_CLIENTS_FILE saved with a byte order mark (Windows Notepad), and says where a broken one breaks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lscfg-'))
    const file = join(dir, 'clients.json')
    writeFileSync(file, '\uFEFF' + JSON.stringify([{ id: 'from-file', secret: 'file-secret-1' }]))
    expect(loadConfig({ AUTH_CLIENTS_FILE: file }).auth.clients.map(c => c.id)).toEqual(['from-file'])
    writeFileSync(file, '[{"id": "a", "secret": "file-secret-1",}]')
    expect(() => loadConfig({ AUTH_CLIENTS_FILE: file })).toThrow(/AUTH_CLIENTS_FILE: .*not JSON \(line 1, column 40\)/)
  })

  it('reads a .env file, and the environment wins over it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lsenv-'))
    const file = join(dir, '.env')
    // saved with a byte order mark (Windows Notepad): PORT is still PORT
    writeFileSync(file, '\uFEFFPORT=9000\nLOG_LEVEL=debug\n# comment\nRATE_LIMIT_MAX="42"\n')
    expect(unknownSettings({}, file)).toEqual([])
    expect(readEnvironment({}, file).PORT).toBe('9000')
    const env = readEnvironment({ PORT: '9100' }, file)
    const c = loadConfig(env)
    expect(c.port).toBe(9100)
    expect(c.logLevel).toBe('debug')
    expect(c.limits.rateLimitMax).toBe(42)
    // an empty variable is no value: the file's stands (a probe's LOG_LEVEL= hid .env's debug)
    expect(loadConfig(readEnvironment({ LOG_LEVEL: '', PORT: ' ' }, file))).toMatchObject({ logLevel: 'debug', port: 9000 })
  })
})

describe('names that are no setting', () => {
  it('names every key of .env that is no setting, and the environment\'s that look like one, with the setting meant', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lsenv-'))
    const file = join(dir, '.env')
    writeFileSync(file, 'PORT=9000\nRATE_LIMT_MAX=42\nJOB_TIMEOUT_MS=600000\nFAVOURITE_COLOUR=blue-secret-1\n')
    const env = { WORKER: '2', workers: '3', AUTH_CLIENT_FILE: 'env-secret-2', OPENAI_ORG_ID: 'org-x', PORT: '9100' }
    const warnings = unknownSettings(env, file)
    expect([...warnings].sort()).toEqual([
      'RATE_LIMT_MAX is not a setting of this service; did you mean RATE_LIMIT_MAX?',
      'JOB_TIMEOUT_MS is not a setting of this service; did you mean JOB_TIMEOUT?',
      'FAVOURITE_COLOUR is not a setting of this service',
      'WORKER is not a setting of this service; did you mean WORKERS?',
      'workers is not a setting of this service; did you mean WORKERS?',
      'AUTH_CLIENT_FILE is not a setting of this service; did you mean AUTH_CLIENTS_FILE?',
      'OPENAI_ORG_ID is not a setting of this service'
    ].sort())
    expect(warnings.join('\n')).not.toMatch(/secret|blue|org-x|600000/)
  })

  it('says nothing of the platform\'s variables, nor of a missing .env', () => {
    const platform = ['PATH', 'HOME', 'NODE_OPTIONS', 'NODE_ENV', 'NODE_VERSION', 'YARN_VERSION', 'HOSTNAME', 'PWD', 'OLDPWD', 'SHLVL', 'TERM', 'LANG', 'LANGUAGE', 'LC_ALL', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'TZ', 'HTTP_PROXY', 'https_proxy', 'NO_PROXY', 'UV_THREADPOOL_SIZE', 'npm_config_nodedir', 'npm_lifecycle_event', 'INVOCATION_ID', 'JOURNAL_STREAM', 'NOTIFY_SOCKET', 'K_SERVICE', 'K_REVISION',
      // Kubernetes' links to the Services beside this one (deploy/kubernetes/redis.yaml's "redis" among them)
      'KUBERNETES_SERVICE_HOST', 'KUBERNETES_PORT_443_TCP_ADDR', 'REDIS_SERVICE_HOST', 'REDIS_SERVICE_PORT', 'REDIS_SERVICE_PORT_REDIS', 'REDIS_PORT', 'REDIS_PORT_6379_TCP', 'REDIS_PORT_6379_TCP_PROTO', 'LANGUAGE_SERVICE_SERVICE_HOST']
    expect(unknownSettings(Object.fromEntries(platform.map(name => [name, 'x'])), join(tmpdir(), 'no-such-dir', '.env'))).toEqual([])
  })
})

describe('.env.example', () => {
  it('documents every variable config.ts reads', async () => {
    const { readFileSync } = await import('node:fs')
    const source = readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8')
    const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8')
    const read = [...source.matchAll(/\b(?:str|int|bool|url)\('([A-Z0-9_]+)'/g)].map(m => m[1]!)
    expect(read.length).toBeGreaterThan(30)
    const documented = new Set([...example.matchAll(/^([A-Z0-9_]+)=/gm)].map(m => m[1]!))
    expect(read.filter(v => !documented.has(v))).toEqual([])
  })
})
