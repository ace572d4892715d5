/** Client secret checks in constant time, with scrypt-hashed secrets supported. */
import { createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import type { ClientConfig } from '../../config.js'

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => err ? reject(err) : resolve(key)))

const DEFAULT = { N: 16384, r: 8, p: 1, keylen: 32 }

interface ParsedHash { N: number, r: number, p: number, salt: Buffer, hash: Buffer }

function parseHash (text: string): ParsedHash {
  const [, N, r, p, salt, hash] = text.split('$')
  return { N: Number(N), r: Number(r), p: Number(p), salt: Buffer.from(salt!, 'base64url'), hash: Buffer.from(hash!, 'base64url') }
}

/** A scrypt hash of a secret in the `scrypt$N$r$p$salt$hash` form AUTH_CLIENTS accepts. */
export async function hashSecret (secret: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await scrypt(secret, salt, DEFAULT.keylen, { N: DEFAULT.N, r: DEFAULT.r, p: DEFAULT.p, maxmem: 64 * 1024 * 1024 })
  return `scrypt$${DEFAULT.N}$${DEFAULT.r}$${DEFAULT.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`
}

// HMAC both sides with a per-process key so the compared buffers have equal length
const compareKey = randomBytes(32)
const digest = (s: string): Buffer => createHmac('sha256', compareKey).update(s).digest()

/**
 * Builds the secret check for a set of clients. Every call does the same work whether the
 * client exists, has a plain secret or a hashed one (one scrypt and one HMAC compare),
 * so timing tells nothing about which client ids exist.
 */
export function secretChecker (clients: readonly ClientConfig[]): (id: string, secret: string) => Promise<ClientConfig | undefined> {
  const byId = new Map(clients.map(c => [c.id, c]))
  const dummyPlain = digest(randomBytes(24).toString('base64url'))
  const dummyHash: ParsedHash = { N: DEFAULT.N, r: DEFAULT.r, p: DEFAULT.p, salt: randomBytes(16), hash: randomBytes(DEFAULT.keylen) }
  const parsed = new Map(clients.filter(c => c.secretHash).map(c => [c.id, parseHash(c.secretHash!)]))

  return async (id, secret) => {
    const client = byId.get(id)
    const h = (client && parsed.get(client.id)) ?? dummyHash
    const derived = await scrypt(secret, h.salt, h.hash.length, { N: h.N, r: h.r, p: h.p, maxmem: 256 * 1024 * 1024 })
    const hashOk = timingSafeEqual(derived, h.hash)
    const plainOk = timingSafeEqual(digest(secret), client?.secret !== undefined ? digest(client.secret) : dummyPlain)
    if (!client) return undefined
    return (client.secretHash ? hashOk : plainOk) ? client : undefined
  }
}
