/**
 * Prints the scrypt hash of a client secret or API key, for AUTH_CLIENTS' "secret_hash" and
 * "api_key_hashes": `npm run hash-secret -- 'the secret'` in a checkout, `node dist/hash-secret.js
 * 'the secret'` where the service is built (the Docker image: `docker run --rm <image> node
 * dist/hash-secret.js 'the secret'`). A secret shorter than AUTH_CLIENTS takes is refused, not hashed.
 */
import { hashSecret } from './http/auth/secrets.js'

/** AUTH_CLIENTS' shortest secret (config.ts): a shorter one, hashed, would get tokens the plain one could not. */
const MIN_SECRET = 8
const MIN_API_KEY = 16

const secret = process.argv[2]
if (secret === undefined || secret === '') {
  process.stderr.write("usage: npm run hash-secret -- 'the secret'   (or: node dist/hash-secret.js 'the secret')\n")
  process.exit(2)
}
if (secret.length < MIN_SECRET) {
  process.stderr.write(`a client secret has at least ${MIN_SECRET} characters (an API key ${MIN_API_KEY}): this one has ${secret.length}\n`)
  process.exit(2)
}
if (secret.length < MIN_API_KEY) process.stderr.write(`note: as an API key ("api_key_hashes") it would need ${MIN_API_KEY} characters; as a client secret it is fine\n`)
process.stdout.write(await hashSecret(secret) + '\n')
