/** Prints the scrypt hash of a client secret for AUTH_CLIENTS "secret_hash" (npm run hash-secret -- 'secret'). */
import { hashSecret } from '../src/http/auth/secrets.js'

const secret = process.argv[2]
if (!secret) {
  process.stderr.write("usage: npm run hash-secret -- 'the secret'\n")
  process.exit(2)
}
process.stdout.write(await hashSecret(secret) + '\n')
