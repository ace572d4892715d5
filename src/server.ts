/** Start-up only: read config, build the app, listen, shut down gracefully. */
import closeWithGrace from 'close-with-grace'
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { ConfigError, loadConfig, SCOPES, type Config } from './config.js'
import { buildApp } from './app.js'

/** With no client configured, one is made so the service is usable at once; its secret is printed once. */
function ensureClient (config: Config): void {
  if (config.auth.clients.length > 0 || config.auth.jwksUrl) return
  const id = `client-${randomBytes(4).toString('hex')}`
  const secret = randomBytes(24).toString('base64url')
  config.auth.clients.push({ id, secret, scopes: [...SCOPES] })
  process.stderr.write([
    '',
    'WARNING: no OAuth client is configured (AUTH_CLIENTS / AUTH_CLIENTS_FILE), so one was created for this run:',
    `  client_id:     ${id}`,
    `  client_secret: ${secret}`,
    'It is shown only now and disappears when the service stops. Configure AUTH_CLIENTS for real use.',
    ''
  ].join('\n') + '\n')
}

/** The app for this environment; a configuration error stops start-up naming the variable. */
async function start (): Promise<{ app: FastifyInstance, config: Config }> {
  try {
    const config = loadConfig()
    ensureClient(config)
    return { app: await buildApp(config), config }
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`)
      process.exit(78)
    }
    throw err
  }
}

async function main (): Promise<void> {
  const { app, config } = await start()
  if (config.redisUrl) {
    app.log.warn('REDIS_URL is set, but this version does not use it yet: rate limits and the translation cache stay per process')
  }
  if (app.tokens.ephemeralSecret) {
    app.log.warn('AUTH_JWT_SECRET is not set: a random signing key was made; tokens stop working when the service restarts')
  }
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error')
    else app.log.info({ signal }, 'shutting down: finishing requests in flight')
    await app.close()
  })
  await app.listen({ host: config.host, port: config.port })
}

await main()
