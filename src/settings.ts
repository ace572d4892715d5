/**
 * The settings table: every environment variable the service reads, with its default, type,
 * bounds and help. config.ts reads the environment through it (names, defaults and bounds come
 * from here), and `npm run settings` (scripts/write-settings-docs.ts) writes `.env.example` and
 * docs/configuration.md from it; test/contract/settings.test.ts fails when either is stale. Code that names
 * a setting in a message takes the name from here (settingName), so a renamed one fails typecheck.
 *
 * `help` is the meaning docs/configuration.md gives; `comment` is what .env.example says above the
 * variable (a comment shared by several sits above the first), `paragraph` a blank line before it
 * there, `example` its value there when that is not the default.
 */
import { DEFAULT_LIMITS, DEFAULT_TEXT_CHARS } from './core/limits.js'
import { DEFAULT_DOCUMENT_QUEUE_MS } from './runtime/pool.js'
import { defaultMemoryBudgetMb, defaultWorkers } from './runtime/machine.js'

/** The groups, in order: .env.example's sections and docs/configuration.md's tables (`about` opens the latter). */
export const SETTING_GROUPS = [
  {
    id: 'server',
    title: 'Server',
    about: 'Where the service listens, what it logs, whose word it takes for a client\'s address, and how many processes serve.'
  },
  {
    id: 'auth',
    title: 'Authentication (OAuth 2.0)',
    about: 'The clients that may get tokens, how tokens are signed, and an outside issuer whose tokens are accepted too.'
  },
  {
    id: 'limits',
    title: 'Limits',
    about: 'How much a client may ask, how large its requests may be, and how long each stage may take.'
  },
  {
    id: 'translation',
    title: 'Translation',
    about: 'Which engines translate, in what order, the cache of translated segments, and the Redis every replica shares.'
  },
  {
    id: 'jobs',
    title: 'Document jobs',
    about: 'Translations worked in the background (`POST /language/translate/jobs`): where they are kept, for how long, and how many run.'
  },
  {
    id: 'outside',
    title: 'Outside engines (each is on when its settings are given)',
    about: 'How every call to an outside service behaves, then each engine\'s own settings ([engines.md](engines.md) says what each does).'
  },
  {
    id: 'compat',
    title: 'Compatible APIs (for clients of other services)',
    about: 'The APIs of other translation services served on top of this one, so that their clients work unchanged with a client\'s `api_keys` (see `AUTH_CLIENTS`); [api.md](api.md#drop-in-libretranslate-clients) says how to point a client here.'
  },
  {
    id: 'apertium',
    title: 'Embedded Apertium engine (Debian packages; `make run` installs them)',
    about: 'The embedded engine runs a pipeline of processes per translation direction, started on first use.'
  }
] as const
export type SettingGroup = typeof SETTING_GROUPS[number]['id']

interface Common {
  readonly name: string
  readonly group: SettingGroup
  /** The meaning, for docs/configuration.md (Markdown, one paragraph). */
  readonly help: string
  /** .env.example's comment above the variable, line by line as written there. */
  readonly comment?: string
  /** A blank line before it in .env.example (a new block within the group). */
  readonly paragraph?: boolean
  /** Its value in .env.example, when that is not the default. */
  readonly example?: string
  /** The default in words, where it is computed or where leaving it unset means something. */
  readonly defaultText?: string
  /** The values it takes in words, where its type does not say it all. */
  readonly values?: string
  /** Keep out of ConfigMaps and logs (a key, a token, a signing secret). */
  readonly secret?: boolean
}

export interface IntSetting extends Common {
  readonly type: 'int'
  /** A number, or computed from the machine at start (then `defaultText` says how). */
  readonly default: number | (() => number)
  readonly min: number
  readonly max: number
}
export interface BoolSetting extends Common { readonly type: 'bool', readonly default: boolean }
export interface ChoiceSetting extends Common { readonly type: 'choice', readonly default: string, readonly choices: readonly string[] }
export interface OtherSetting extends Common {
  /**
   * text: as given (trimmed); url: an http(s) URL (a trailing / dropped); list: comma-separated;
   * json: a JSON document; file: a path read at start; host: a host name; proxies: TRUST_PROXY's
   * forms; redis-url: redis:// or rediss://.
   */
  readonly type: 'text' | 'url' | 'list' | 'json' | 'file' | 'host' | 'proxies' | 'redis-url'
  readonly default?: string
}
export type Setting = IntSetting | BoolSetting | ChoiceSetting | OtherSetting

export const SETTINGS = [
  // --- Server
  {
    name: 'HOST',
    group: 'server',
    type: 'text',
    default: '0.0.0.0',
    values: 'an address',
    help: 'Address to listen on',
    comment: 'Address and port to listen on.'
  },
  {
    name: 'PORT',
    group: 'server',
    type: 'int',
    default: 8080,
    min: 0,
    max: 65535,
    help: 'Port to listen on'
  },
  {
    name: 'LOG_LEVEL',
    group: 'server',
    type: 'choice',
    default: 'info',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    help: 'pino level; `authorization` headers, secrets and tokens are redacted',
    comment: 'fatal | error | warn | info | debug | trace | silent'
  },
  {
    name: 'TRUST_PROXY',
    group: 'server',
    type: 'proxies',
    default: 'false',
    values: '`true`, `false`, a hop count (0 to 100), or addresses and CIDR ranges, comma-separated (also `loopback`, `linklocal`, `uniquelocal`)',
    help: 'Whose `X-Forwarded-For` / `-Proto` / `-Host` to believe, as Fastify\'s `trustProxy`: `false` (nobody\'s: a client\'s address is its socket\'s); the proxies\' addresses and CIDR ranges, comma-separated (`10.0.0.0/8,127.0.0.1`; `loopback`, `linklocal`, `uniquelocal` too): a client\'s address is then the nearest `X-Forwarded-For` entry that is not one of them; a hop count `N`: the N nearest hops, whatever their address (only where nothing reaches the service but through them); `true`: every hop, so the address is the leftmost entry, which a client writes itself (avoid it). Rate limits and the token endpoint\'s throttles count by this address, and HSTS is sent when it says the request came over TLS. A believed `X-Forwarded-Host` or `-Proto` that is no host name (with an optional port) or no `http`/`https` is a 400, as a bad `Host` is',
    comment: `Behind a reverse proxy that sets X-Forwarded-For: the proxies whose word is taken, so that rate
limits and the token endpoint's throttles count by the client's real address. Best: the proxies'
addresses or CIDR ranges, comma-separated (10.0.0.0/8,127.0.0.1; also loopback, linklocal,
uniquelocal). A hop count (1) trusts the nearest hops whatever their address: only where nothing
reaches the service but through them. true trusts every hop: the leftmost X-Forwarded-For entry,
which any client can write, becomes the address (avoid it). false: the socket's address.`
  },
  {
    name: 'CORS_ORIGINS',
    group: 'server',
    type: 'list',
    default: '*',
    values: '`*`, origins (`https://app.example.org`) comma-separated, or `none`',
    help: 'The web pages (origins) whose scripts may call the service from a browser (CORS): `*` any page, as LibreTranslate and apertium-apy answer; a list of origins: only those (the answer names the caller\'s origin and `Vary: Origin`); `none`: no CORS headers. Credentials (cookies) are never allowed: a page must send its token or API key itself. Preflights (`OPTIONS`) are answered with 204 before any token or key check',
    comment: `Web pages (origins) whose scripts may call the service from a browser (CORS): * (any, as
LibreTranslate and apertium-apy), origins comma-separated (https://app.example.org), or none.
Credentials (cookies) are never allowed; a page sends its token or API key itself.`
  },
  {
    name: 'WORKERS',
    group: 'server',
    type: 'int',
    default: defaultWorkers,
    defaultText: 'half the cores (at least 1; a container\'s CPU quota counts)',
    min: 1,
    max: 256,
    help: 'Processes serving requests (`node:cluster`, one port); each holds its own engines, Apertium pipelines and thread pool (its share of the cores); without Redis each counts its rate limits and the primary adds them up for all of them every 20 ms (see [Scaling](operations.md#scaling))',
    comment: `Processes serving requests (node:cluster, sharing the port). Empty: half the cores, at least one
(a container's CPU quota counts). Each process holds its own engines (its memory: docs/operations.md,
Scaling), thread pool (its share of the cores) and Apertium pipelines.`
  },

  // --- Authentication
  {
    name: 'AUTH_CLIENTS',
    group: 'auth',
    type: 'json',
    secret: true,
    values: 'JSON `[{"id", "secret" | "secret_hash", "scopes", "api_keys", "api_key_hashes"}]`',
    defaultText: 'a client made per start',
    help: 'Clients allowed to get tokens at `POST /oauth/token` (client credentials grant): `secret` at least 8 characters; `scopes` default to `access`, `read`, `write`; `npm run hash-secret -- \'secret\'` makes a scrypt `secret_hash`. `api_keys` (each at least 16 characters, unique across clients) or `api_key_hashes` (made like `secret_hash`) are keys the compatible APIs (`/libretranslate`, `/apy`, `/deepl`) take instead of a token, with the client\'s scopes and rate limit; a client may have keys and no secret. Any other field (a misspelt `scope`) is a configuration error. With neither this, `AUTH_CLIENTS_FILE` nor `AUTH_JWKS_URL`, a client is made per start and its id and secret printed once',
    comment: `Clients allowed to get tokens at POST /oauth/token (client credentials grant).
JSON array: [{"id": "...", "secret": "..." | "secret_hash": "scrypt$...", "scopes": ["access","read","write"]}]
Make a secret_hash with: npm run hash-secret -- 'the secret'
"api_keys": ["at least 16 characters", ...] or "api_key_hashes" (made like secret_hash): keys for the
compatible APIs (/libretranslate, /apy, /deepl), with the client's scopes and rate limit.
With no client configured (and no AUTH_JWKS_URL) start-up creates one and prints its id and secret once.`
  },
  {
    name: 'AUTH_CLIENTS_FILE',
    group: 'auth',
    type: 'file',
    help: 'A file with the same JSON as `AUTH_CLIENTS` (both may be used; ids must be unique)',
    comment: 'Or a file holding the same JSON array (both may be used; ids must be unique).'
  },
  {
    name: 'AUTH_JWT_SECRET',
    group: 'auth',
    type: 'text',
    secret: true,
    values: 'at least 32 bytes',
    defaultText: 'random per start (warning)',
    help: 'HS256 signing secret of access tokens. Unset (and no `AUTH_JWT_PRIVATE_KEY_FILE`): a random one per start, so tokens stop working at restart and replicas cannot verify each other\'s tokens',
    comment: `HS256 signing secret for access tokens (at least 32 bytes). Unset: a random one per start
(tokens then stop working at restart, and replicas cannot verify each other's tokens).`
  },
  {
    name: 'AUTH_JWT_PRIVATE_KEY_FILE',
    group: 'auth',
    type: 'file',
    values: 'a PEM private key file (RSA of 2048 bits or more, EC P-256/384/521, Ed25519)',
    help: 'A private key to sign with instead of the secret, checked at start; its public key is published at `/.well-known/jwks.json`',
    comment: `Instead of the secret: a PEM private key file (RSA of 2048 bits or more, EC P-256/384/521 or
Ed25519; checked at start); its public key is published at /.well-known/jwks.json.`
  },
  {
    name: 'AUTH_TOKEN_TTL',
    group: 'auth',
    type: 'int',
    default: 3600,
    min: 60,
    max: 86400 * 7,
    help: 'Lifetime of issued access tokens, seconds',
    comment: 'Lifetime of issued access tokens, in seconds.'
  },
  {
    name: 'AUTH_TOKEN_ISSUER',
    group: 'auth',
    type: 'text',
    default: 'language-service',
    help: '`iss` of the tokens this service issues; a URL (`https://lang.example.com`) is also the `issuer` of the OAuth metadata, which is otherwise the URL the metadata was asked at',
    comment: '"iss" and "aud" of the tokens this service issues; set to the public URL (https://lang.example.com) for it to be the issuer in /.well-known/oauth-authorization-server too.'
  },
  {
    name: 'AUTH_TOKEN_AUDIENCE',
    group: 'auth',
    type: 'text',
    default: 'language-service',
    help: '`aud` of the tokens this service issues'
  },
  {
    name: 'AUTH_JWKS_URL',
    group: 'auth',
    type: 'url',
    help: 'Also accept tokens of an outside OAuth2/OIDC server: its JWKS URL (`AUTH_ISSUER` and `AUTH_AUDIENCE` are then required). Scopes come from the `scope` (or `scp`) claim',
    comment: `Accept tokens of an outside OAuth2/OIDC server too: its JWKS URL, and the issuer and audience
its tokens must carry (both required with AUTH_JWKS_URL). Scopes come from the "scope" (or "scp") claim.`
  },
  {
    name: 'AUTH_ISSUER',
    group: 'auth',
    type: 'text',
    help: 'The `iss` the outside server\'s tokens must carry (required with `AUTH_JWKS_URL`)'
  },
  {
    name: 'AUTH_AUDIENCE',
    group: 'auth',
    type: 'text',
    help: 'The `aud` the outside server\'s tokens must carry (required with `AUTH_JWKS_URL`): tokens of that issuer for other audiences are refused'
  },
  {
    name: 'METRICS_TOKEN',
    group: 'auth',
    type: 'text',
    secret: true,
    help: 'When set, `GET /metrics` needs it as a bearer token',
    comment: 'When set, GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".'
  },

  // --- Limits
  {
    name: 'RATE_LIMIT_MAX',
    group: 'limits',
    type: 'int',
    default: 600,
    min: 1,
    max: 1_000_000_000,
    help: 'Requests per client (its token\'s issuer and subject) per minute',
    comment: 'Requests per client (token issuer and subject) per minute.'
  },
  {
    name: 'ADDRESS_RATE_LIMIT_MAX',
    group: 'limits',
    type: 'int',
    default: 300,
    min: 1,
    max: 1_000_000_000,
    help: 'Requests without valid credentials per address per minute, counted before authentication: no token or a refused one, unknown routes, the playground and `/docs`, `/metrics` token guesses (429 with `Retry-After` past it; a request with a valid token is never counted nor refused by it; probes are exempt). The address is the one `TRUST_PROXY` gives',
    comment: `Requests without valid credentials (no token, a refused one, unknown routes, /metrics guesses)
per address per minute, counted before authentication. The address is the one TRUST_PROXY gives.`
  },
  {
    name: 'AUTH_FAILURES_MAX',
    group: 'limits',
    type: 'int',
    default: 10,
    min: 1,
    max: 1_000_000,
    help: 'Failed client authentications at `/oauth/token` per minute, per client id and per address; past either, 429 for that client id (even with the right secret) or that address until the minute ends',
    comment: `Failed client authentications at /oauth/token per minute, per client id and per address: past
either, that client id (even with the right secret) or that address gets 429 until the minute ends.`
  },
  {
    name: 'AUTH_SECRET_CONCURRENCY',
    group: 'limits',
    type: 'int',
    default: 2,
    min: 1,
    max: 64,
    help: 'Client secret checks (scrypt, ~16 MB and tens of ms each) at once per process; others wait their turn by address for up to 2 s, then 503 with `Retry-After`',
    comment: `Client secret checks (scrypt, ~16 MB and tens of ms each) running at once in a process; more wait
their turn by address, up to 2 s, then 503 with Retry-After.`
  },
  {
    name: 'BODY_LIMIT',
    group: 'limits',
    type: 'int',
    default: 1024 * 1024,
    min: 1024,
    max: 100 * 1024 * 1024,
    help: 'Request body limit, bytes (1 MiB)',
    comment: 'Request body limit in bytes (1 MiB).'
  },
  {
    name: 'MAX_TEXT_CHARS',
    group: 'limits',
    type: 'int',
    default: DEFAULT_TEXT_CHARS,
    min: 100,
    max: 10_000_000,
    help: 'Characters of text per request, all documents of a bulk request together (translate, bulk, substitute, detect, edit, analyze; more answers 413); JSON bodies may nest 512 levels at most',
    comment: 'Characters of text per request (all documents of a bulk request together).'
  },
  {
    name: 'MAX_TARGETS',
    group: 'limits',
    type: 'int',
    default: DEFAULT_LIMITS.targets,
    min: 1,
    max: 200,
    help: 'Target languages per request',
    comment: 'Target languages per request.'
  },
  {
    name: 'MAX_BULK_DOCUMENTS',
    group: 'limits',
    type: 'int',
    default: DEFAULT_LIMITS.bulkDocuments,
    min: 1,
    max: 10_000,
    help: 'Documents per bulk request',
    comment: 'Documents per bulk request.'
  },
  {
    name: 'MAX_EDITS',
    group: 'limits',
    type: 'int',
    default: DEFAULT_LIMITS.edits,
    min: 1,
    max: 100,
    help: 'Edits per edit request',
    comment: 'Edits per edit request.'
  },
  {
    name: 'UPSTREAM_TIMEOUT_MS',
    group: 'limits',
    type: 'int',
    default: 30_000,
    min: 100,
    max: 600_000,
    help: 'Deadline of one call to an engine or outside service, milliseconds, retries included (a timeout answers 504)',
    comment: 'Deadline of one call to an engine or outside service, in milliseconds, retries included (a timeout answers 504).'
  },
  {
    name: 'REQUEST_TIMEOUT_MS',
    group: 'limits',
    type: 'int',
    default: 120_000,
    min: 1000,
    max: 3_600_000,
    help: 'Time a client has to send a whole request, milliseconds (its headers: this or 60 s, the shorter); checked every second, then 408',
    comment: 'Time a client has to send a whole request, in milliseconds (its headers: this or 60 s, the\nshorter); checked every second, then 408.'
  },
  {
    name: 'HANDLER_TIMEOUT_MS',
    group: 'limits',
    type: 'int',
    default: 60_000,
    min: 1000,
    max: 3_600_000,
    help: 'Deadline of a `/language` request\'s work, milliseconds (from when it is read and checked to its answer): past it, 503 + `Retry-After`, and its work is called off (keep it above `UPSTREAM_TIMEOUT_MS`)',
    comment: `Deadline of a /language request, in milliseconds: one still working past it is answered 503 with
Retry-After and its work is called off. Keep it above UPSTREAM_TIMEOUT_MS.`
  },
  {
    name: 'KEEP_ALIVE_TIMEOUT_MS',
    group: 'limits',
    type: 'int',
    default: 72_000,
    min: 1000,
    max: 3_600_000,
    help: 'How long an idle keep-alive connection stays open, milliseconds (above your load balancer\'s idle timeout)',
    comment: 'How long an idle keep-alive connection stays open, in milliseconds (above your load balancer\'s idle timeout).'
  },
  {
    name: 'MAX_EVENT_LOOP_DELAY_MS',
    group: 'limits',
    type: 'int',
    default: 1000,
    min: 0,
    max: 60_000,
    help: 'Shed load: while the mean event-loop delay is above this (milliseconds), `/language` requests get 503 + `Retry-After`; `0` turns shedding off',
    comment: 'Shed load: while the mean event-loop delay is above this (ms), /language requests get 503 + Retry-After. 0 turns shedding off.'
  },
  {
    name: 'DOCUMENT_QUEUE_TIMEOUT_MS',
    group: 'limits',
    type: 'int',
    default: DEFAULT_DOCUMENT_QUEUE_MS,
    min: 100,
    max: 3_600_000,
    help: 'How long one request may wait for the thread pool with none of its work running, in all, milliseconds; past it, 503 + `Retry-After` (the threads are busy with other clients\' heavy work)',
    comment: `How long one request may wait for the thread pool with none of its work running, in all (ms),
before a 503 + Retry-After.`
  },
  {
    name: 'LARGE_REQUEST_BYTES',
    group: 'limits',
    type: 'int',
    default: 64 * 1024,
    min: 0,
    max: 100 * 1024 * 1024,
    help: '`POST /language` bodies of this many bytes or more (by `Content-Length`, or as read when chunked) are parsed, validated and worked on the thread pool, never on the event loop, after the bearer check and the rate limit (see [Scaling](operations.md#scaling)); `0` parses every body on the event loop',
    comment: `POST /language bodies of this many bytes or more (by Content-Length, or as read when chunked) are
parsed, validated and worked on the thread pool, never on the event loop that answers everyone
else. 0 parses every body on the event loop.`
  },

  // --- Translation
  {
    name: 'TRANSLATION_SERVICES',
    group: 'translation',
    type: 'list',
    values: 'comma-separated, of `deepl`, `google-cloud`, `google`, `openai`, `libretranslate`, `apertium`',
    defaultText: 'the configured outside engines, then `apertium`',
    help: 'The translation services in preference order, and the whole list. Unset: the configured outside engines in the order `deepl`, `google-cloud`, `google`, `openai`, `libretranslate`, then the embedded `apertium`. Naming one whose settings are missing stops start-up',
    comment: `Services in preference order, comma-separated, and the whole list: apertium, deepl, google-cloud,
google, openai, libretranslate. Empty: the configured outside engines in the order
deepl, google-cloud, google, openai, libretranslate, then the embedded apertium.
Naming an outside engine whose settings below are not given stops start-up.`
  },
  {
    name: 'TRANSLATION_CACHE_ENTRIES',
    group: 'translation',
    type: 'int',
    default: 50_000,
    min: 0,
    max: 10_000_000,
    help: 'Per-process segment cache size, entries (`0` turns it off, the Redis cache too)',
    comment: 'Segment translation cache size (entries; 0 turns the cache off).'
  },
  {
    name: 'TRANSLATION_CACHE_TTL',
    group: 'translation',
    type: 'int',
    default: 86_400,
    min: 1,
    max: 365 * 86_400,
    help: 'Seconds a segment stays in the cache after it was written, in each process and in Redis (translations over 64 KB stay per process)',
    comment: 'Seconds a translated segment stays in the cache after it was written (each process\'s and Redis).'
  },
  {
    name: 'TRANSLATION_CACHE_SHARED',
    group: 'translation',
    type: 'bool',
    default: false,
    help: 'One translation cache for every client when `true`: fewer engine calls for text several clients send, but how fast an answer comes tells a client whether another had the same segment translated lately (in this process, or any replica with `REDIS_URL`). `false` (the default): each client\'s cached segments are its own',
    comment: `One translation cache for every client when true: fewer engine calls for text several clients
send, but the speed of an answer tells a client whether another had the same segment translated
lately. false (the default): each client's cached segments are its own.`
  },
  {
    name: 'REDIS_URL',
    group: 'translation',
    type: 'redis-url',
    help: 'Redis shared by every replica (password in the URL if any): rate-limit counters and the translation cache. Unset: both per process. Redis down or slow: requests still answer (per-process limits, no shared cache), `/ready` says `"redis": "degraded"` with 200, and the service reconnects by itself',
    comment: `Redis shared by every replica (redis:// or rediss://, password in the URL if any): rate-limit
counters and the translation cache. Empty: both stay per process. Redis unreachable or slow:
requests still answer (per-process limits, no shared cache), /ready says "redis": "degraded",
and the service reconnects by itself.`
  },
  {
    name: 'REDIS_TIMEOUT_MS',
    group: 'translation',
    type: 'int',
    default: 200,
    min: 10,
    max: 60_000,
    help: 'Longest any one Redis call may take, milliseconds; past it the request goes on without Redis, which is then skipped for 1 s',
    comment: 'Longest any one Redis call may take (ms) before the request goes on without Redis.'
  },

  // --- Document jobs
  {
    name: 'DATA_DIR',
    group: 'jobs',
    type: 'text',
    default: 'data',
    values: 'a directory',
    help: 'Where jobs are kept without `REDIS_URL` (with it they are in Redis, see [Jobs on Redis](operations.md#jobs-on-redis)): a folder per job (its request, state and result) under `jobs/`, which every process of the service shares and a restart resumes from. Give it a volume (the image declares `/data`; see [Jobs on disk](operations.md#jobs-on-disk)); a relative path is from the working directory. Made at start if missing; one the service cannot make or write to stops it (exit 78)',
    comment: `Where document jobs are kept without REDIS_URL (a folder per job: request, state, result); every
process shares it, and a restart resumes the jobs it holds. The image declares /data as a volume.`
  },
  {
    name: 'JOB_TTL',
    group: 'jobs',
    type: 'int',
    default: 86_400,
    min: 1,
    max: 30 * 86_400,
    help: 'Seconds a finished job (done, failed or cancelled) and its result are kept on disk, then removed',
    comment: 'Seconds a finished job and its result are kept, then removed.'
  },
  {
    name: 'JOB_MAX_PER_CLIENT',
    group: 'jobs',
    type: 'int',
    default: 10,
    min: 1,
    max: 10_000,
    help: 'Jobs one client may have queued or running at once; past it `POST /language/translate/jobs` answers 429',
    comment: 'Jobs one client may have queued or running at once (429 past it).'
  },
  {
    name: 'JOB_STORAGE_PER_CLIENT',
    group: 'jobs',
    type: 'int',
    default: 100 * 1024 * 1024,
    min: 1024,
    max: 1024 * 1024 * 1024 * 1024,
    help: 'Bytes one client\'s jobs may keep, queued, running and finished until they expire: their requests and results (a result echoes its request and holds a translation per target). A post past it answers 429, a request past it alone 413, and a job whose result would pass it fails (`job-storage-full`); deleting finished jobs frees their share. 100 MiB holds some 40 translations of a 1 MiB document (`BODY_LIMIT`) into one language, or 4 into 20; `DATA_DIR` (or Redis) wants room for this times the clients that post jobs',
    comment: `Bytes one client's jobs may keep (requests and results, finished jobs until they expire): 429
past it. DATA_DIR (or Redis) wants room for this times the clients that post jobs.`
  },
  {
    name: 'JOB_CONCURRENCY',
    group: 'jobs',
    type: 'int',
    default: 4,
    min: 1,
    max: 1000,
    help: 'Jobs each process works at once; the rest wait, taken in turn by client (one client\'s backlog delays only itself). One client works at most all of them but one at once, so another client\'s job (or drop-in file upload) always finds one free: a client alone gets all but one, and with 1 a running job holds everyone else\'s back until it ends (2 or more keeps a slot for others). Their work shares the thread pool and the engines with requests, in their client\'s turn',
    comment: `Jobs each process works at once; the others wait, taken in turn by client. One client works at
most all but one of them (of 1, that one): 2 or more keeps a slot for other clients.`
  },
  {
    name: 'JOB_TIMEOUT',
    group: 'jobs',
    type: 'int',
    default: 3600,
    min: 1,
    max: 7 * 86_400,
    help: 'Seconds one job may work before it is stopped and failed (a job has the limits of `POST /language/translate` otherwise, except `HANDLER_TIMEOUT_MS`)',
    comment: 'Seconds one job may work before it is stopped (failed).'
  },

  // --- Outside engines
  {
    name: 'UPSTREAM_RETRIES',
    group: 'outside',
    type: 'int',
    default: 2,
    min: 0,
    max: 10,
    help: 'Retries of a 429 or 5xx after the first attempt, with jittered backoff that honours `Retry-After`, within `UPSTREAM_TIMEOUT_MS`',
    comment: 'A 429 or 5xx is retried with jittered backoff that honours Retry-After, within UPSTREAM_TIMEOUT_MS.'
  },
  {
    name: 'BREAKER_FAILURES',
    group: 'outside',
    type: 'int',
    default: 5,
    min: 1,
    max: 1000,
    help: 'A service that failed this many calls in a row is skipped for `BREAKER_COOLDOWN_MS` (then tried again)',
    comment: 'A service that failed this many calls in a row is skipped for BREAKER_COOLDOWN_MS (then tried again).'
  },
  {
    name: 'BREAKER_COOLDOWN_MS',
    group: 'outside',
    type: 'int',
    default: 30_000,
    min: 100,
    max: 3_600_000,
    help: 'How long a service that failed `BREAKER_FAILURES` calls in a row is skipped, milliseconds'
  },
  {
    name: 'UPSTREAM_CONCURRENCY',
    group: 'outside',
    type: 'int',
    default: 8,
    min: 1,
    max: 1000,
    help: 'Calls in flight at once per outside service; while all are busy, concurrent requests for the same language pair wait and share the next call',
    comment: `Calls in flight at once per outside service; while all are busy, concurrent requests for the
same language pair wait and share the next call.`
  },
  {
    name: 'DEEPL_API_KEY',
    group: 'outside',
    type: 'text',
    secret: true,
    help: 'DeepL (the official deepl-node client) is on when set; keys ending in `:fx` are free-tier keys',
    comment: `DeepL (official deepl-node client). The server defaults to the free or pro API the key implies
(keys ending in :fx are free-tier keys).`,
    paragraph: true
  },
  {
    name: 'DEEPL_SERVER_URL',
    group: 'outside',
    type: 'url',
    defaultText: 'the free or pro API the key implies',
    help: 'DeepL\'s server'
  },
  {
    name: 'GOOGLE_CLOUD_API_KEY',
    group: 'outside',
    type: 'text',
    secret: true,
    help: 'Google Cloud Translation v2 (REST) is on when set: an API key of a project with the Translation API enabled',
    comment: 'Google Cloud Translation v2 (REST, an API key of a project with the Translation API enabled).',
    paragraph: true
  },
  {
    name: 'GOOGLE_CLOUD_TRANSLATE_URL',
    group: 'outside',
    type: 'url',
    default: 'https://translation.googleapis.com',
    help: 'Google Cloud Translation\'s server'
  },
  {
    name: 'GOOGLE_TRANSLATE_ENABLED',
    group: 'outside',
    type: 'bool',
    default: false,
    help: 'Google Translate\'s free web endpoint (@vitalets/google-translate-api; no key, rate limited by Google, no service level) is on when `true`',
    comment: `Google Translate's free web endpoint (@vitalets/google-translate-api; no key, rate limited by
Google, no service level). Always https; a private CA comes through NODE_EXTRA_CA_CERTS.`,
    paragraph: true
  },
  {
    name: 'GOOGLE_TRANSLATE_HOST',
    group: 'outside',
    type: 'host',
    default: 'translate.google.com',
    values: 'a host name, optionally with `:port`',
    help: 'The free endpoint\'s host, always reached over https (a private CA comes through `NODE_EXTRA_CA_CERTS`)'
  },
  {
    name: 'OPENAI_BASE_URL',
    group: 'outside',
    type: 'url',
    default: 'https://api.openai.com/v1',
    // written empty: given, it switches the engine on, which then needs OPENAI_MODEL
    example: '',
    help: 'Any OpenAI-compatible chat-completions server (OpenAI, Ollama, llama.cpp server, vLLM); setting it (or `OPENAI_API_KEY`) switches the engine on and requires `OPENAI_MODEL`. It serves translation, edit and analyze',
    comment: `Any OpenAI-compatible chat-completions server (OpenAI, Ollama, llama.cpp server, vLLM); the URL
defaults to https://api.openai.com/v1.
OPENAI_MODEL is required once OPENAI_BASE_URL or OPENAI_API_KEY is set; the key is optional
for local servers. It also serves edit and analyze.`,
    paragraph: true
  },
  {
    name: 'OPENAI_API_KEY',
    group: 'outside',
    type: 'text',
    secret: true,
    help: 'The server\'s API key (optional for local servers)'
  },
  {
    name: 'OPENAI_MODEL',
    group: 'outside',
    type: 'text',
    help: 'The model name the server serves (e.g. `gpt-4o-mini`, `llama3.1`); required once `OPENAI_BASE_URL` or `OPENAI_API_KEY` is set'
  },
  {
    name: 'OPENAI_LANGUAGES',
    group: 'outside',
    type: 'list',
    values: 'comma-separated BCP 47 tags',
    defaultText: 'the 100 most used languages and a few written varieties',
    help: 'Languages the model is offered for, any pair among them; unset: the 100 most used languages and a few written varieties (`en-GB`, `pt-BR`, `zh-Hant`, ...)',
    comment: `Languages the model is offered for (comma-separated BCP 47 tags); empty: the 100 most used
languages and a few written varieties (en-GB, pt-BR, zh-Hant, ...), any pair among them.`
  },
  {
    name: 'OPENAI_MAX_TOKENS',
    group: 'outside',
    type: 'int',
    default: 16_384,
    min: 512,
    max: 131_072,
    help: 'The most `max_tokens` a call asks: the model\'s output limit (OpenAI refuses more with a 400; `4096` for `gpt-3.5-turbo` and `gpt-4-turbo`); translation batches are sized so that their answers fit it',
    comment: `The most max_tokens a call asks: the model's output limit (OpenAI refuses more with a 400; 4096
for gpt-3.5-turbo and gpt-4-turbo). Translation batches are sized so that their answers fit.`
  },
  {
    name: 'LIBRETRANSLATE_URL',
    group: 'outside',
    type: 'url',
    help: 'LibreTranslate (self-hosted or libretranslate.com) is on when set',
    comment: 'LibreTranslate (self-hosted or libretranslate.com); the key only if the server requires one.',
    paragraph: true
  },
  {
    name: 'LIBRETRANSLATE_API_KEY',
    group: 'outside',
    type: 'text',
    secret: true,
    help: 'LibreTranslate\'s API key, only if the server requires one'
  },

  // --- Embedded Apertium engine
  {
    name: 'APERTIUM_DIR',
    group: 'apertium',
    type: 'text',
    default: '/usr/share/apertium',
    values: 'a directory',
    help: 'Apertium data directory (its `modes/` subfolder lists the installed language pairs)',
    comment: 'Apertium data directory (its modes/ subfolder lists the installed language pairs).'
  },
  {
    name: 'APERTIUM_TIMEOUT_MS',
    group: 'apertium',
    type: 'int',
    default: 10_000,
    min: 100,
    max: 600_000,
    help: 'Per-request timeout of a pipeline, milliseconds (a stuck pipeline is restarted; a pipeline just started has three times as long for its first answer, while it loads its dictionaries)',
    comment: `Per-request timeout of a pipeline, in milliseconds (a stuck pipeline is restarted). A pipeline
just started has three times as long for its first answer (it loads its dictionaries first).`
  },
  {
    name: 'APERTIUM_IDLE_MS',
    group: 'apertium',
    type: 'int',
    default: 600_000,
    min: 1000,
    max: 86_400_000,
    help: 'A pipeline idle this long is stopped, milliseconds',
    comment: 'A pipeline idle this long is stopped, in milliseconds.'
  },
  {
    name: 'APERTIUM_MAX_PIPELINES',
    group: 'apertium',
    type: 'int',
    default: 6,
    min: 1,
    max: 100,
    help: 'Most pipelines kept warm at once in each process, replicas of a busy direction included (each takes 15 MB to ~1 GB by pair; `bench/apertium-memory.sh` measures every installed one); a direction that finds every one busy for `APERTIUM_TIMEOUT_MS` is answered 503 with `Retry-After`',
    comment: `Most pipelines kept warm at once in each process, a busy direction's replicas included (each takes
15 MB to ~1 GB by pair: en-es 114 MB, fr-ca 320 MB, ca-fr 631 MB, oc-fr 950 MB;
bench/apertium-memory.sh measures every installed one). A direction that finds every one busy
for APERTIUM_TIMEOUT_MS is answered 503 with Retry-After.`
  },
  {
    name: 'APERTIUM_MAX_MEMORY_MB',
    group: 'apertium',
    type: 'int',
    default: defaultMemoryBudgetMb,
    defaultText: '40% of the memory (the container\'s limit when it has one), at least 256',
    min: 0,
    max: 10_000_000,
    help: 'Most memory (MB) the running pipelines of the whole service may take together (shared out among `WORKERS` processes), by estimate (5 MB + 42 × the size of the files a mode names: -5% to +8% of the measured PSS over ten pairs): directions queue for room as for a slot, a busy direction gets another replica only in free room, and one whose pipeline alone takes more gets a 503 naming the setting; `0`: no budget but `APERTIUM_MAX_PIPELINES`. The Kubernetes ConfigMap sets 850 to stay within the 2560Mi limit',
    comment: `Most memory (MB) the running pipelines of the whole service may take together (shared out among
the WORKERS processes), estimated from the size of each mode's files (5 MB + 42 times their size:
-5% to +8% of the measured PSS over ten pairs). Directions wait for room as for a slot, a busy
direction gets another replica only in free room, and one whose pipeline alone needs more is
refused with a 503 naming this setting. Empty: 40% of the machine's memory (or its container's
limit). 0: no budget, only APERTIUM_MAX_PIPELINES.`
  },
  {
    name: 'COMPAT_LIBRETRANSLATE',
    group: 'compat',
    type: 'bool',
    default: true,
    help: 'The LibreTranslate-compatible API at `/libretranslate` (`POST translate`, `POST detect`, `GET languages`, `GET frontend/settings`), for LibreTranslate\'s clients (Mastodon, Discourse, Weblate, ...) with an `api_key` from a client\'s `api_keys`; `false` turns it off, at the root too',
    comment: `The LibreTranslate-compatible API at /libretranslate, for LibreTranslate's clients, with an api_key
from a client's api_keys (AUTH_CLIENTS); false turns it off (at the root too).`
  },
  {
    name: 'COMPAT_LIBRETRANSLATE_AT_ROOT',
    group: 'compat',
    type: 'bool',
    default: true,
    help: 'The LibreTranslate-compatible API also at the root (`/translate`, `/detect`, `/languages`, `/frontend/settings`), for clients that replace the server URL\'s path (Akkoma); `false`: at `/libretranslate` only',
    comment: `The LibreTranslate-compatible API also at the root (/translate, /detect, /languages,
/frontend/settings), for clients that replace the server URL's path (Akkoma); false: /libretranslate only.`
  },
  {
    name: 'COMPAT_APY',
    group: 'compat',
    type: 'bool',
    default: true,
    help: 'The apertium-apy-compatible API at `/apy` (`list?q=pairs` and `listPairs` with ISO 639-3 codes, `translate?langpair=eng|spa&q=...`, `identifyLang`, `listLanguageNames`, each by GET or a POST form, JSONP `callback`), for apy\'s clients (Weblate\'s Apertium backend, apy\'s web page) with `key` from a client\'s `api_keys`; `false` turns it off',
    comment: `The apertium-apy-compatible API at /apy (listPairs, translate?langpair=eng|spa&q=...), with key
from a client's api_keys (AUTH_CLIENTS); false turns it off.`
  },
  {
    name: 'COMPAT_DEEPL',
    group: 'compat',
    type: 'bool',
    default: true,
    help: 'The DeepL-API-v2-compatible API at `/deepl` (`POST v2/translate`, `GET v2/languages`, `GET v2/usage`, `GET v2/glossary-language-pairs`), for DeepL\'s clients (the official SDKs with `serverUrl`, Weblate) with `Authorization: DeepL-Auth-Key` and a key from a client\'s `api_keys`; `false` turns it off',
    comment: `The DeepL-API-v2-compatible API at /deepl (v2/translate, v2/languages, v2/usage), for DeepL's
clients (serverUrl https://your.host/deepl), with a key from a client's api_keys; false turns it off.`
  },
  {
    name: 'COMPAT_DEEPL_AT_ROOT',
    group: 'compat',
    type: 'bool',
    default: true,
    help: 'The DeepL-compatible API also at the root (`/v2/translate`, `/v2/languages`, `/v2/usage`, `/v2/glossary-language-pairs`), for clients that join the server URL and `v2/...` as a URL reference (deepl-python\'s `server_url="https://your.host/deepl"` calls `/v2/translate`) or whose URL has no path; `false`: at `/deepl` only',
    comment: `The DeepL-compatible API also at the root (/v2/translate, /v2/languages, ...), for clients that drop
the server URL's path (deepl-python's server_url without a trailing slash); false: /deepl only.`
  },
  {
    name: 'COMPAT_DEEPL_CHARACTER_LIMIT',
    group: 'compat',
    type: 'int',
    default: 1_000_000_000_000,
    min: 1,
    max: 1_000_000_000_000_000,
    help: 'The `character_limit` the DeepL-compatible API\'s `v2/usage` answers: a request that would take a client past this many characters translated through `/deepl/v2/translate` and `/deepl/v2/document` gets `456` (quota exceeded). Counted per client and calendar month (UTC), each request\'s characters reserved before it is translated (given back if it fails; a document\'s when its job fails or is cancelled), where the rate limits count: with `REDIS_URL` in Redis (every replica, kept across restarts), else in the service\'s memory (all `WORKERS` together; a restart starts from 0)',
    comment: `The character_limit /deepl/v2/usage answers; a request that would pass it gets 456 from /deepl/v2/translate and v2/document.
Counted per client and calendar month (UTC), where the rate limits count: with REDIS_URL in Redis
(every replica, kept across restarts), else in the service's memory (all workers; 0 after a restart).`
  },
  {
    name: 'APERTIUM_TURN_MS',
    group: 'apertium',
    type: 'int',
    default: 2000,
    min: 100,
    max: 600_000,
    help: 'How long a busy pipeline keeps its slot while another direction waits for one, milliseconds',
    comment: 'How long, in milliseconds, a busy pipeline keeps its slot while another direction waits for one.'
  }
] as const satisfies readonly Setting[]

type Entry = typeof SETTINGS[number]
export type SettingName = Entry['name']
/** The names of the settings of one type. */
export type SettingOfType<T extends Setting['type']> = Extract<Entry, { type: T }>['name']

const BY_NAME: ReadonlyMap<string, Setting> = new Map(SETTINGS.map(s => [s.name, s]))

/** A setting's entry. */
export function setting<N extends SettingName> (name: N): Extract<Entry, { name: N }> {
  return BY_NAME.get(name) as Extract<Entry, { name: N }>
}

/** A setting's name, checked against the table: for messages that tell which setting to change. */
export function settingName<N extends SettingName> (name: N): N {
  return name
}
