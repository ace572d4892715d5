/**
 * The one place that reads the environment. Every variable is validated at start;
 * a bad value stops start-up with a message naming the variable.
 * A `.env` file is read when present; variables already set in the environment win.
 * Names, defaults and bounds come from the settings table (settings.ts).
 */
import { createPrivateKey, type KeyObject } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { parseEnv } from 'node:util'
import { setting, settingName, SETTINGS, type SettingName, type SettingOfType } from './settings.js'

export const SCOPES = ['access', 'read', 'write'] as const
export type Scope = typeof SCOPES[number]

export interface ClientConfig {
  id: string
  /** plain secret, or */
  secret?: string
  /** scrypt hash `scrypt$N$r$p$salt$hash` (base64url salt and hash), see src/hash-secret.ts */
  secretHash?: string
  scopes: Scope[]
  /** Keys the compatible APIs take instead of a token (each at least 16 characters). */
  apiKeys?: string[]
  /** scrypt hashes of such keys, in the form of `secretHash`. */
  apiKeyHashes?: string[]
}

export type LogLevel = typeof LOG_LEVELS[number]
const LOG_LEVELS = setting('LOG_LEVEL').choices

export interface Config {
  host: string
  port: number
  logLevel: LogLevel
  /** Fastify's trustProxy: trust every proxy (true), none, the nearest N hops, or these addresses and CIDR ranges. */
  trustProxy: boolean | number | string[]
  auth: {
    clients: ClientConfig[]
    /** HS256 secret; undefined (and no private key) means a random one is made at start, in server.ts (with a warning). */
    jwtSecret?: string
    /** PEM private key (RS256/ES256/EdDSA) used instead of the HS256 secret when set. */
    jwtPrivateKey?: string
    tokenTtl: number
    tokenIssuer: string
    tokenAudience: string
    jwksUrl?: string
    issuer?: string
    audience?: string
    /** Failed client authentications at the token endpoint per client id, and per address, per minute. */
    failuresMax: number
    /** Secret checks (scrypt, on libuv's thread pool) running at once in a process. */
    secretConcurrency: number
  }
  metricsToken?: string
  /** Origins allowed to call from a browser: '*' any, else these (none when empty). */
  corsOrigins: '*' | string[]
  limits: {
    bodyBytes: number
    textChars: number
    targets: number
    bulkDocuments: number
    edits: number
    rateLimitMax: number
    /** Requests without valid credentials per address per minute, counted before authentication. */
    addressRateLimitMax: number
    upstreamTimeoutMs: number
    requestTimeoutMs: number
    /** How long a /language request may take in all before it is answered 503 and its work called off. */
    handlerTimeoutMs: number
    keepAliveTimeoutMs: number
    /** Mean event-loop delay above which requests are shed with 503. */
    maxEventLoopDelayMs: number
    /** How long one request may wait for the thread pool with none of its work running, in all, before a 503. */
    documentQueueMs: number
    /** POST /language bodies from this many bytes on are parsed and worked on the thread pool; 0: on the event loop. */
    largeRequestBytes: number
  }
  redisUrl?: string
  /** Longest any one Redis call may take before the service goes on without Redis (REDIS_TIMEOUT_MS). */
  redisTimeoutMs: number
  /** Document jobs (src/jobs/): where they are kept, for how long, how many and how much per client. */
  jobs: { dataDir: string, ttlSeconds: number, perClient: number, storagePerClient: number, concurrency: number, timeoutMs: number }
  /** Processes serving requests (WORKERS, default: half the cores, at least one; runtime/machine.ts). */
  workers: number
  translation: {
    /** preference order of services; empty means every available one, embedded last */
    services: string[]
    cacheEntries: number
    /** Seconds a translated segment stays in the cache after it was written (each process's and Redis). */
    cacheTtlSeconds: number
    /** One cache for every client (TRANSLATION_CACHE_SHARED); else each client's entries are its own. */
    cacheShared: boolean
  }
  /** How every outside call behaves (docs/engines.md "Outside engines"). */
  upstream: {
    /** Retries of a 429/5xx after the first attempt. */
    retries: number
    breakerFailures: number
    breakerCooldownMs: number
    /** Calls in flight at once per outside service. */
    concurrency: number
  }
  /** Each outside engine is on when its settings are given. */
  deepl: { apiKey?: string | undefined, serverUrl?: string | undefined }
  googleCloud: { apiKey?: string | undefined, url: string }
  /** maxTokens: the most `max_tokens` a call asks (OPENAI_MAX_TOKENS: the model's output limit). */
  openai: { baseUrl: string, apiKey?: string, model?: string, languages?: string[], maxTokens: number }
  google: { enabled: boolean, host: string }
  libretranslate: { url?: string | undefined, apiKey?: string | undefined }
  /** The compatible APIs served (src/compat/): LibreTranslate's at /libretranslate (and at the root too), apertium-apy's at /apy, DeepL's at /deepl (and at the root too). */
  compat: { libretranslate: boolean, libretranslateAtRoot: boolean, apy: boolean, deepl: boolean, deeplAtRoot: boolean, deeplCharacterLimit: number }
  apertium: { dir: string, requestTimeoutMs: number, idleMs: number, maxPipelines: number, turnMs: number, maxMemoryMb: number }
}

/** The translation services, in the default preference order (the embedded one last). */
export const SERVICE_NAMES = ['deepl', 'google-cloud', 'google', 'openai', 'libretranslate', 'apertium'] as const
export type ServiceName = typeof SERVICE_NAMES[number]

export class ConfigError extends Error {
  constructor (readonly variable: SettingName, message: string) {
    super(`${variable}: ${message}`)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

/** The environment merged over a `.env` file (environment wins). */
/** A settings file's text without the byte order mark an editor may save (Windows Notepad): it made the first name another. */
function textOf (file: string): string {
  return readFileSync(file, 'utf8').replace(/^\uFEFF/, '')
}

export function readEnvironment (env: Env = process.env, envFile = '.env'): Env {
  if (!envFile || !existsSync(envFile)) return env
  const fromFile = parseEnv(textOf(envFile))
  // an empty variable is no value (as everywhere in the settings): it leaves the file's (a probe's LOG_LEVEL= hid .env's)
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''))
  return { ...fromFile, ...given }
}

const SETTING_NAMES: ReadonlySet<string> = new Set(SETTINGS.map(s => s.name))
/** The settings' first words (AUTH_, JOB_, APERTIUM_, ...): a variable that starts with one is meant for this service. */
const SETTING_PREFIXES = [...new Set(SETTINGS.filter(s => s.name.includes('_')).map(s => `${s.name.split('_')[0]!}_`))]
/** Kubernetes' service links (REDIS_PORT, REDIS_SERVICE_HOST, ... for a Service named redis): the platform's, never ours. */
const SERVICE_LINK = /_(SERVICE_HOST|SERVICE_PORT(_\w+)?|PORT(_\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?)?)$/

/**
 * Warnings, one a name, for names that set nothing: every key of the `.env` file that is no setting
 * (the file is the service's own), and the environment's names that look like a setting but are
 * none (within two edits of one, or starting with a setting's first word), so that a misspelt
 * setting is not ignored silently. Names only: a value may be a secret.
 */
export function unknownSettings (env: Env = process.env, envFile = '.env'): string[] {
  const fromFile = envFile && existsSync(envFile) ? Object.keys(parseEnv(textOf(envFile))) : []
  const fromEnv = Object.keys(env).filter(name => {
    const upper = name.toUpperCase()
    return !SERVICE_LINK.test(upper) && (SETTING_PREFIXES.some(prefix => upper.startsWith(prefix)) || nearSetting(upper) !== undefined)
  })
  return [...new Set([...fromFile, ...fromEnv])].filter(name => !SETTING_NAMES.has(name)).map(name => {
    const meant = nearSetting(name.toUpperCase()) ?? SETTINGS.find(s => name.toUpperCase().startsWith(`${s.name}_`) || s.name.startsWith(`${name.toUpperCase()}_`))?.name
    return `${name.slice(0, 100)} is not a setting of this service${meant === undefined ? '' : `; did you mean ${meant}?`}`
  })
}

/** The setting within two edits (Damerau-Levenshtein) of a name of five characters or more, the nearest first. */
function nearSetting (name: string): string | undefined {
  if (name.length < 5) return undefined
  let best: { name: string, distance: number } | undefined
  for (const { name: known } of SETTINGS) {
    if (known.length < 5 || Math.abs(known.length - name.length) > 2) continue
    const distance = editDistance(name, known)
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name: known, distance }
  }
  return best?.name
}

/** Edits (insert, delete, replace, swap two neighbours) that make one string the other. */
function editDistance (a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i === 0 ? j : j === 0 ? i : 0))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}

/**
 * Warnings, one a line, for settings that are valid each but work against each other: the service
 * starts with them, as an operator may mean them.
 */
export function settingWarnings (config: Config): string[] {
  const warnings: string[] = []
  const { handlerTimeoutMs, upstreamTimeoutMs } = config.limits
  if (handlerTimeoutMs <= upstreamTimeoutMs) {
    warnings.push(`${settingName('HANDLER_TIMEOUT_MS')} (${handlerTimeoutMs}) is not above ${settingName('UPSTREAM_TIMEOUT_MS')} (${upstreamTimeoutMs}): a request waiting on a slow engine is answered 503 at its deadline before the engine call times out (504); keep it above`)
  }
  if (config.auth.jwtSecret !== undefined && config.auth.jwtPrivateKey !== undefined) {
    warnings.push('both AUTH_JWT_PRIVATE_KEY_FILE and AUTH_JWT_SECRET are set: tokens are signed and verified with the key; AUTH_JWT_SECRET is not used')
  }
  return warnings
}

/** A validated Config from environment variables. Throws ConfigError naming the variable. */
export function loadConfig (env: Env = readEnvironment()): Config {
  const str = (name: SettingName): string | undefined => {
    const v = env[name]
    return v === undefined || v.trim() === '' ? undefined : v.trim()
  }
  /** The value as given, else the table's default. */
  const text = (name: Extract<typeof SETTINGS[number], { type: 'text', default: string }>['name']): string => str(name) ?? setting(name).default
  const int = (name: SettingOfType<'int'>): number => {
    const { default: fallback, min, max } = setting(name)
    const v = str(name)
    if (v === undefined) return typeof fallback === 'function' ? fallback() : fallback
    if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be a whole number, got "${v}"`)
    const n = Number(v)
    if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`)
    return n
  }
  const bool = (name: SettingOfType<'bool'>): boolean => {
    const v = str(name)?.toLowerCase()
    if (v === undefined) return setting(name).default
    if (['1', 'true', 'yes', 'on'].includes(v)) return true
    if (['0', 'false', 'no', 'off'].includes(v)) return false
    throw new ConfigError(name, `must be true or false, got "${v}"`)
  }
  const url = (name: SettingOfType<'url'>): string | undefined => {
    const v = str(name)
    if (v === undefined) return undefined
    try {
      const u = new URL(v)
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http')
    } catch {
      throw new ConfigError(name, `must be an http(s) URL, got "${v}"`)
    }
    return v.replace(/\/+$/, '')
  }

  const logLevel = (str('LOG_LEVEL') ?? setting('LOG_LEVEL').default).toLowerCase()
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  }

  const jwtSecret = str('AUTH_JWT_SECRET')
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret) < 32) {
    throw new ConfigError('AUTH_JWT_SECRET', 'must be at least 32 bytes long')
  }
  const keyFile = str('AUTH_JWT_PRIVATE_KEY_FILE')
  let jwtPrivateKey: string | undefined
  if (keyFile !== undefined) {
    try {
      jwtPrivateKey = readFileSync(keyFile, 'utf8')
    } catch (err) {
      throw new ConfigError('AUTH_JWT_PRIVATE_KEY_FILE', `cannot read ${keyFile}: ${(err as Error).message}`)
    }
    let key: KeyObject
    try {
      key = createPrivateKey(jwtPrivateKey)
    } catch {
      throw new ConfigError('AUTH_JWT_PRIVATE_KEY_FILE', `${keyFile} is not a PEM private key`)
    }
    if (signingAlgorithm(key) === undefined) {
      throw new ConfigError('AUTH_JWT_PRIVATE_KEY_FILE', `${keyFile} holds a ${key.asymmetricKeyType ?? 'unknown'} key; use RSA (PKCS#1 v1.5), EC P-256/P-384/P-521 or Ed25519`)
    }
    // RS256 signers (jose among them) refuse shorter RSA keys: every token request would fail
    const bits = key.asymmetricKeyDetails?.modulusLength
    if (key.asymmetricKeyType === 'rsa' && bits !== undefined && bits < 2048) {
      throw new ConfigError('AUTH_JWT_PRIVATE_KEY_FILE', `${keyFile} holds a ${bits}-bit RSA key; RS256 needs 2048 bits or more (openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072)`)
    }
  }

  const jwksUrl = url('AUTH_JWKS_URL')
  // an outside issuer's tokens are only ours to accept when they name this service and that issuer
  if (jwksUrl !== undefined) {
    for (const name of ['AUTH_ISSUER', 'AUTH_AUDIENCE'] as const) {
      if (str(name) === undefined) throw new ConfigError(name, 'is required with AUTH_JWKS_URL (tokens of that issuer for other audiences must not be accepted)')
    }
  }
  const services = (str('TRANSLATION_SERVICES') ?? '').split(',').map(s => s.trim().toLowerCase()).filter(Boolean)
  for (const s of services) {
    if (!(SERVICE_NAMES as readonly string[]).includes(s)) {
      throw new ConfigError('TRANSLATION_SERVICES', `"${s}" is not a service (services: ${SERVICE_NAMES.join(', ')})`)
    }
  }
  if (new Set(services).size !== services.length) throw new ConfigError('TRANSLATION_SERVICES', 'names a service twice')

  const config: Config = {
    host: text('HOST'),
    port: int('PORT'),
    logLevel: logLevel as LogLevel,
    trustProxy: trustProxy(str('TRUST_PROXY') ?? setting('TRUST_PROXY').default),
    corsOrigins: corsOrigins(str('CORS_ORIGINS') ?? setting('CORS_ORIGINS').default ?? '*'),
    auth: {
      clients: loadClients(str('AUTH_CLIENTS'), str('AUTH_CLIENTS_FILE')),
      tokenTtl: int('AUTH_TOKEN_TTL'),
      tokenIssuer: text('AUTH_TOKEN_ISSUER'),
      tokenAudience: text('AUTH_TOKEN_AUDIENCE'),
      failuresMax: int('AUTH_FAILURES_MAX'),
      secretConcurrency: int('AUTH_SECRET_CONCURRENCY')
    },
    limits: {
      bodyBytes: int('BODY_LIMIT'),
      textChars: int('MAX_TEXT_CHARS'),
      targets: int('MAX_TARGETS'),
      bulkDocuments: int('MAX_BULK_DOCUMENTS'),
      edits: int('MAX_EDITS'),
      rateLimitMax: int('RATE_LIMIT_MAX'),
      addressRateLimitMax: int('ADDRESS_RATE_LIMIT_MAX'),
      upstreamTimeoutMs: int('UPSTREAM_TIMEOUT_MS'),
      requestTimeoutMs: int('REQUEST_TIMEOUT_MS'),
      handlerTimeoutMs: int('HANDLER_TIMEOUT_MS'),
      keepAliveTimeoutMs: int('KEEP_ALIVE_TIMEOUT_MS'),
      maxEventLoopDelayMs: int('MAX_EVENT_LOOP_DELAY_MS'),
      documentQueueMs: int('DOCUMENT_QUEUE_TIMEOUT_MS'),
      largeRequestBytes: int('LARGE_REQUEST_BYTES')
    },
    translation: {
      services,
      cacheEntries: int('TRANSLATION_CACHE_ENTRIES'),
      cacheTtlSeconds: int('TRANSLATION_CACHE_TTL'),
      cacheShared: bool('TRANSLATION_CACHE_SHARED')
    },
    redisTimeoutMs: int('REDIS_TIMEOUT_MS'),
    workers: int('WORKERS'),
    jobs: {
      dataDir: text('DATA_DIR'),
      ttlSeconds: int('JOB_TTL'),
      perClient: int('JOB_MAX_PER_CLIENT'),
      storagePerClient: int('JOB_STORAGE_PER_CLIENT'),
      concurrency: int('JOB_CONCURRENCY'),
      timeoutMs: int('JOB_TIMEOUT') * 1000
    },
    upstream: {
      retries: int('UPSTREAM_RETRIES'),
      breakerFailures: int('BREAKER_FAILURES'),
      breakerCooldownMs: int('BREAKER_COOLDOWN_MS'),
      concurrency: int('UPSTREAM_CONCURRENCY')
    },
    deepl: { apiKey: str('DEEPL_API_KEY'), serverUrl: url('DEEPL_SERVER_URL') },
    googleCloud: { apiKey: str('GOOGLE_CLOUD_API_KEY'), url: url('GOOGLE_CLOUD_TRANSLATE_URL') ?? setting('GOOGLE_CLOUD_TRANSLATE_URL').default },
    openai: { ...openaiConfig(str, url), maxTokens: int('OPENAI_MAX_TOKENS') },
    google: { enabled: bool('GOOGLE_TRANSLATE_ENABLED'), host: googleHost(str('GOOGLE_TRANSLATE_HOST')) },
    libretranslate: { url: url('LIBRETRANSLATE_URL'), apiKey: str('LIBRETRANSLATE_API_KEY') },
    compat: { libretranslate: bool('COMPAT_LIBRETRANSLATE'), libretranslateAtRoot: bool('COMPAT_LIBRETRANSLATE_AT_ROOT'), apy: bool('COMPAT_APY'), deepl: bool('COMPAT_DEEPL'), deeplAtRoot: bool('COMPAT_DEEPL_AT_ROOT'), deeplCharacterLimit: int('COMPAT_DEEPL_CHARACTER_LIMIT') },
    apertium: {
      dir: text('APERTIUM_DIR'),
      requestTimeoutMs: int('APERTIUM_TIMEOUT_MS'),
      idleMs: int('APERTIUM_IDLE_MS'),
      maxPipelines: int('APERTIUM_MAX_PIPELINES'),
      turnMs: int('APERTIUM_TURN_MS'),
      // for all the service's pipelines (shared out among WORKERS processes); 0: no budget, only APERTIUM_MAX_PIPELINES
      maxMemoryMb: int('APERTIUM_MAX_MEMORY_MB')
    }
  }
  if (jwtSecret !== undefined) config.auth.jwtSecret = jwtSecret
  if (jwtPrivateKey !== undefined) config.auth.jwtPrivateKey = jwtPrivateKey
  if (jwksUrl !== undefined) config.auth.jwksUrl = jwksUrl
  const issuer = str('AUTH_ISSUER')
  if (issuer !== undefined) config.auth.issuer = issuer
  const audience = str('AUTH_AUDIENCE')
  if (audience !== undefined) config.auth.audience = audience
  const metricsToken = str('METRICS_TOKEN')
  if (metricsToken !== undefined) config.metricsToken = metricsToken
  const redisUrl = str('REDIS_URL')
  if (redisUrl !== undefined) {
    if (!/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://')
    // parsed here, not by the Redis client, whose error (and stack) printed the URL with its password
    let parsed: URL | undefined
    try {
      parsed = new URL(redisUrl)
    } catch {}
    if (parsed === undefined || parsed.hostname === '') throw new ConfigError('REDIS_URL', 'is not a URL of the form redis://[user:password@]host[:port][/db] (the value is not shown: it may hold a password)')
    config.redisUrl = redisUrl
  }
  // here, not when the engines are built: a start-up that stops must not first print a client made for it (server.ts)
  const unconfigured = services.find(name => !serviceConfigured(config, name as ServiceName))
  if (unconfigured !== undefined) throw notConfigured(unconfigured as ServiceName)
  return config
}

/** What each engine needs set before it can be named in TRANSLATION_SERVICES. */
const SERVICE_SETTINGS: Record<ServiceName, string> = {
  deepl: settingName('DEEPL_API_KEY'),
  'google-cloud': settingName('GOOGLE_CLOUD_API_KEY'),
  google: `${settingName('GOOGLE_TRANSLATE_ENABLED')}=true`,
  openai: `${settingName('OPENAI_MODEL')} (with ${settingName('OPENAI_BASE_URL')} or ${settingName('OPENAI_API_KEY')})`,
  libretranslate: settingName('LIBRETRANSLATE_URL'),
  apertium: 'nothing (it is embedded)'
}

/** Whether an engine's settings are given (registry.ts builds those that are). */
function serviceConfigured (config: Config, name: ServiceName): boolean {
  switch (name) {
    case 'deepl': return config.deepl.apiKey !== undefined
    case 'google-cloud': return config.googleCloud.apiKey !== undefined
    case 'google': return config.google.enabled
    case 'openai': return config.openai.model !== undefined
    case 'libretranslate': return config.libretranslate.url !== undefined
    case 'apertium': return true
  }
}

/** The start-up error for TRANSLATION_SERVICES naming an engine whose settings are missing. */
export function notConfigured (name: ServiceName): ConfigError {
  return new ConfigError('TRANSLATION_SERVICES', `"${name}" is named but not configured (set ${SERVICE_SETTINGS[name]})`)
}

/** OPENAI_*: the endpoint (OpenAI's by default), key, model (required once either other is set) and languages. */
function openaiConfig (str: (name: SettingName) => string | undefined, url: (name: SettingOfType<'url'>) => string | undefined): Omit<Config['openai'], 'maxTokens'> {
  const baseUrl = url('OPENAI_BASE_URL')
  const apiKey = str('OPENAI_API_KEY')
  const model = str('OPENAI_MODEL')
  if ((baseUrl !== undefined || apiKey !== undefined) && model === undefined) {
    throw new ConfigError('OPENAI_MODEL', 'is required with OPENAI_BASE_URL or OPENAI_API_KEY (the model name the endpoint serves, e.g. gpt-4o-mini or llama3.1)')
  }
  const config: Omit<Config['openai'], 'maxTokens'> = { baseUrl: baseUrl ?? setting('OPENAI_BASE_URL').default }
  if (apiKey !== undefined) config.apiKey = apiKey
  if (model !== undefined) config.model = model
  const languages = str('OPENAI_LANGUAGES')
  if (languages !== undefined) {
    const tags = languages.split(',').map(t => t.trim()).filter(Boolean)
    for (const tag of tags) {
      let ok = /^[A-Za-z0-9-]+$/.test(tag)
      try {
        Intl.getCanonicalLocales(tag)
      } catch {
        ok = false
      }
      if (!ok) throw new ConfigError('OPENAI_LANGUAGES', `"${tag}" is not a BCP 47 language tag`)
    }
    config.languages = [...new Set(tags.map(t => Intl.getCanonicalLocales(t)[0]!))]
  }
  return config
}

/** proxy-addr's names for ranges (loopback: 127.0.0.1/8 and ::1/128, and so on). */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal']

/** CORS_ORIGINS: '*', 'none' (no origin), or origins (scheme://host[:port]) comma-separated. */
function corsOrigins (value: string): '*' | string[] {
  const entries = value.split(',').map(v => v.trim()).filter(Boolean)
  if (entries.length === 1 && entries[0] === '*') return '*'
  if (entries.length === 1 && entries[0]!.toLowerCase() === 'none') return []
  return entries.map(entry => {
    let origin: string | undefined
    try {
      const url = new URL(entry)
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin
    } catch {}
    if (origin === undefined || origin !== entry.replace(/\/$/, '').toLowerCase()) {
      throw new ConfigError('CORS_ORIGINS', `must be *, none, or origins like https://app.example.org (scheme, host and port only), comma-separated; "${entry.slice(0, 100)}" is not one`)
    }
    return origin
  })
}

/**
 * TRUST_PROXY as Fastify's trustProxy takes it: true/false; a whole number of hops (the address
 * that many proxies back in X-Forwarded-For; 0 is false); or a comma-separated list of addresses,
 * CIDR ranges and proxy-addr's range names, the proxies whose word is taken.
 */
function trustProxy (value: string): Config['trustProxy'] {
  const lower = value.toLowerCase()
  if (['true', 'yes', 'on'].includes(lower)) return true
  if (['false', 'no', 'off'].includes(lower)) return false
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    if (hops > 100) throw new ConfigError('TRUST_PROXY', `a hop count must be at most 100, got ${hops}`)
    return hops === 0 ? false : hops
  }
  const entries = value.split(',').map(e => e.trim())
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/')
    const family = isIP(address)
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32))
    if (PROXY_RANGES.includes(entry) || (family !== 0 && prefixOk && rest.length === 0)) continue
    throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count, or comma-separated proxy addresses and CIDR ranges (or ${PROXY_RANGES.join(', ')}); "${entry}" is none of these`)
  }
  return entries
}

/** GOOGLE_TRANSLATE_HOST: a host name (always https), default translate.google.com. */
function googleHost (value: string | undefined): string {
  if (value === undefined) return setting('GOOGLE_TRANSLATE_HOST').default
  const host = value.replace(/^https:\/\//, '').replace(/\/+$/, '')
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host)) {
    throw new ConfigError('GOOGLE_TRANSLATE_HOST', `must be a host name (optionally with :port), always reached over https; got "${value}"`)
  }
  return host
}

/** Clients from AUTH_CLIENTS (JSON) and/or AUTH_CLIENTS_FILE (a JSON file of the same shape). */
function loadClients (json: string | undefined, file: string | undefined): ClientConfig[] {
  const clients: ClientConfig[] = []
  if (json !== undefined) clients.push(...parseClients(json, 'AUTH_CLIENTS'))
  if (file !== undefined) {
    let text: string
    try {
      text = textOf(file)
    } catch (err) {
      throw new ConfigError('AUTH_CLIENTS_FILE', `cannot read ${file}: ${(err as Error).message}`)
    }
    clients.push(...parseClients(text, 'AUTH_CLIENTS_FILE'))
  }
  const seen = new Set<string>()
  const keys = new Set<string>()
  for (const c of clients) {
    if (seen.has(c.id)) throw new ConfigError(json !== undefined ? 'AUTH_CLIENTS' : 'AUTH_CLIENTS_FILE', `client id "${c.id}" appears twice`)
    seen.add(c.id)
    // a key names one client
    for (const key of c.apiKeys ?? []) {
      if (keys.has(key)) throw new ConfigError(json !== undefined ? 'AUTH_CLIENTS' : 'AUTH_CLIENTS_FILE', `client "${c.id}" has an api key another client (or it) has too`)
      keys.add(key)
    }
  }
  return clients
}

/** A scrypt hash as hash-secret makes it: `scrypt$N$r$p$salt$hash`. */
const SCRYPT_HASH = /^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/
/** The memory a secret check may take (http/auth/secrets.ts: scrypt's maxmem). */
const SCRYPT_MAX_MEMORY = 256 * 1024 * 1024

/** Whether a hash has the form and parameters a check can use: N a power of two from 2, r and p from 1, within SCRYPT_MAX_MEMORY (else every check of it failed as a 500). */
function usableScrypt (hash: unknown): boolean {
  if (typeof hash !== 'string' || !SCRYPT_HASH.test(hash)) return false
  const [, n, r, p] = hash.split('$').map(Number)
  return n! >= 2 && Number.isSafeInteger(n) && (n! & (n! - 1)) === 0 && r! >= 1 && p! >= 1 && r! * p! < 2 ** 30 && 128 * n! * r! <= SCRYPT_MAX_MEMORY
}

/** The fields of a client entry: any other (a misspelt "scope", which left the client every scope) is refused. */
const CLIENT_FIELDS = new Set(['id', 'secret', 'secret_hash', 'scopes', 'api_keys', 'api_key_hashes'])

function parseClients (text: string, variable: 'AUTH_CLIENTS' | 'AUTH_CLIENTS_FILE'): ClientConfig[] {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    // where, never V8's message: it quotes the text, secrets and all
    const at = /\(line (\d+) column (\d+)\)/.exec((err as Error).message)
    throw new ConfigError(variable, `must be a JSON array of {"id", "secret" | "secret_hash", "scopes"}; it is not JSON${at === null ? '' : ` (line ${at[1]}, column ${at[2]})`}`)
  }
  if (!Array.isArray(raw)) throw new ConfigError(variable, 'must be a JSON array')
  return raw.map((item: unknown, i): ClientConfig => {
    const at = `${variable}[${i}]`
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ConfigError(variable, `${at} must be an object`)
    const unknown = Object.keys(item).find(key => !CLIENT_FIELDS.has(key))
    if (unknown !== undefined) throw new ConfigError(variable, `${at} has a field "${unknown.slice(0, 40)}" that is none of ${[...CLIENT_FIELDS].join(', ')}`)
    const { id, secret, secret_hash: secretHash, scopes, api_keys: apiKeys, api_key_hashes: apiKeyHashes } = item as Record<string, unknown>
    if (typeof id !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(id)) {
      throw new ConfigError(variable, `${at}.id must be 1 to 200 printable characters without spaces`)
    }
    if (secret !== undefined && secretHash !== undefined) {
      throw new ConfigError(variable, `${at} needs exactly one of "secret" or "secret_hash"`)
    }
    if (apiKeys !== undefined && (!Array.isArray(apiKeys) || !apiKeys.every(k => typeof k === 'string' && k.length >= 16 && k.length <= 512 && /^[\x21-\x7e]+$/.test(k)))) {
      throw new ConfigError(variable, `${at}.api_keys must be an array of keys of 16 to 512 printable characters without spaces`)
    }
    if (apiKeyHashes !== undefined && (!Array.isArray(apiKeyHashes) || !apiKeyHashes.every(usableScrypt))) {
      throw new ConfigError(variable, `${at}.api_key_hashes must be an array of hashes like scrypt$N$r$p$salt$hash (npm run hash-secret -- 'the key')`)
    }
    const keyCount = (apiKeys as unknown[] | undefined ?? []).length + (apiKeyHashes as unknown[] | undefined ?? []).length
    if (secret === undefined && secretHash === undefined && keyCount === 0) {
      throw new ConfigError(variable, `${at} needs one of "secret" or "secret_hash" (or api keys: "api_keys", "api_key_hashes")`)
    }
    if (secret !== undefined && (typeof secret !== 'string' || secret.length < 8)) {
      throw new ConfigError(variable, `${at}.secret must be a string of at least 8 characters`)
    }
    if (secretHash !== undefined && !usableScrypt(secretHash)) {
      throw new ConfigError(variable, `${at}.secret_hash must look like scrypt$N$r$p$salt$hash, N a power of two, r and p at least 1, 128 x N x r bytes at most 256 MiB (npm run hash-secret -- 'the secret')`)
    }
    const scopeList = scopes === undefined ? [...SCOPES] : scopes
    if (!Array.isArray(scopeList) || !scopeList.every(s => (SCOPES as readonly string[]).includes(s as string))) {
      throw new ConfigError(variable, `${at}.scopes must be an array of ${SCOPES.join(', ')}`)
    }
    const client: ClientConfig = { id, scopes: [...new Set(scopeList as Scope[])] }
    if (typeof secret === 'string') client.secret = secret
    if (typeof secretHash === 'string') client.secretHash = secretHash
    if (Array.isArray(apiKeys) && apiKeys.length > 0) client.apiKeys = [...new Set(apiKeys as string[])]
    if (Array.isArray(apiKeyHashes) && apiKeyHashes.length > 0) client.apiKeyHashes = [...new Set(apiKeyHashes as string[])]
    return client
  })
}

/** The JWS algorithm a private key signs with, or undefined for a key type we do not sign with. */
export function signingAlgorithm (key: KeyObject): string | undefined {
  const type = key.asymmetricKeyType
  if (type === 'rsa') return 'RS256'
  if (type === 'ed25519') return 'EdDSA'
  if (type === 'ec') {
    return ({ prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' } as Record<string, string>)[key.asymmetricKeyDetails?.namedCurve ?? '']
  }
  return undefined
}
