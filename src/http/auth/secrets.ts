/** Client secret checks in constant time, with scrypt-hashed secrets supported, a bounded number at once. */
import { createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import type { ClientConfig } from '../../config.js'
import { ServiceUnavailableError } from '../../errors.js'
import { FairSlots } from '../../lib/fair-slots.js'

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

/** Checks that wait for a slot, per slot, before more are refused (but from an address with none waiting). */
const WAITING_PER_SLOT = 16
/** Checks of one address that wait for a slot, per slot, before more of its checks are refused. */
const WAITING_PER_SLOT_PER_ADDRESS = 4
/** Longest a check waits for a slot. */
const WAIT_MS = 2000

/**
 * At most `concurrency` checks at once. scrypt runs on libuv's thread pool (4 threads), which
 * WebCrypto's token verifications, DNS and file reads share: unbounded, a flood of guesses held it,
 * and every request with a token not yet seen waited seconds. Others wait, addresses in turn, a
 * bounded number for a bounded time; past either, a 503 with Retry-After. One address's waiting
 * checks are bounded on their own, and an address with none waiting may always wait, so a flood
 * from one address (or a few) never turns another's check away: it gets the next turn.
 */
export type CheckSlots = <T>(who: string, work: () => Promise<T>) => Promise<T>

/** The process's slots for secret and API key checks: one set for both, so together they hold at most `concurrency`. */
export function checkSlots (concurrency: number): CheckSlots {
  const slots = new FairSlots(concurrency)
  const busy = (): ServiceUnavailableError => new ServiceUnavailableError('Too many client secret checks at once; retry in a second.', 1)
  return async (who, work) => {
    const waiting = slots.waitersOf(who)
    if (waiting >= concurrency * WAITING_PER_SLOT_PER_ADDRESS || (waiting > 0 && slots.waiters >= concurrency * WAITING_PER_SLOT)) throw busy()
    await slots.acquire(who, AbortSignal.timeout(WAIT_MS)).catch(() => { throw busy() })
    try {
      return await work()
    } finally {
      slots.release(who)
    }
  }
}

/**
 * Builds the secret check for a set of clients. Every call does the same work whether the
 * client exists, has a plain secret or a hashed one (one scrypt and one HMAC compare),
 * so timing tells nothing about which client ids exist. They run in `slots`; `who` (the caller's
 * address) is whose turn a waiting check takes.
 */
export function secretChecker (clients: readonly ClientConfig[], slots: CheckSlots = checkSlots(2)): (id: string, secret: string, who: string) => Promise<ClientConfig | undefined> {
  const byId = new Map(clients.map(c => [c.id, c]))
  const dummyPlain = digest(randomBytes(24).toString('base64url'))
  const dummyHash: ParsedHash = { N: DEFAULT.N, r: DEFAULT.r, p: DEFAULT.p, salt: randomBytes(16), hash: randomBytes(DEFAULT.keylen) }
  const parsed = new Map(clients.filter(c => c.secretHash).map(c => [c.id, parseHash(c.secretHash!)]))

  return async (id, secret, who) => {
    const client = byId.get(id)
    const h = (client && parsed.get(client.id)) ?? dummyHash
    const derived = await slots(who, async () => await scrypt(secret, h.salt, h.hash.length, { N: h.N, r: h.r, p: h.p, maxmem: 256 * 1024 * 1024 }))
    const hashOk = timingSafeEqual(derived, h.hash)
    const plainOk = timingSafeEqual(digest(secret), client?.secret !== undefined ? digest(client.secret) : dummyPlain)
    if (!client) return undefined
    return (client.secretHash ? hashOk : plainOk) ? client : undefined
  }
}

/** Keys longer than this are refused without a check (no configured key is). */
const MAX_KEY_CHARS = 512

/**
 * Builds the API key check for a set of clients (their `apiKeys` and `apiKeyHashes`): the client a
 * key is of, or undefined. A plain key is compared with every plain key of every client, each
 * compare in constant time (HMACs of equal length), so timing tells nothing about which keys exist
 * or how much of one a guess got right. A key not among them is tried against every hashed key, one
 * scrypt each, in the slots client secret checks run in (`who` taking turns), `beforeCheck` awaited
 * first (the caller reserves the failure it may be); a hashed key that matched is remembered by its
 * HMAC, so a client's later requests cost one HMAC (only keys that matched are remembered: at most
 * as many as are configured).
 */
export function apiKeyChecker (clients: readonly ClientConfig[], slots: CheckSlots = checkSlots(2)): (key: string, who: string, beforeCheck?: () => Promise<void>) => Promise<ClientConfig | undefined> {
  const plain = clients.flatMap(client => (client.apiKeys ?? []).map(key => ({ client, digest: digest(key) })))
  const hashed = clients.flatMap(client => (client.apiKeyHashes ?? []).map(text => ({ client, hash: parseHash(text) })))
  const matched = new Map<string, ClientConfig>()

  return async (key, who, beforeCheck) => {
    if (key.length < 16 || key.length > MAX_KEY_CHARS) return undefined
    const given = digest(key)
    let found: ClientConfig | undefined
    for (const entry of plain) {
      if (timingSafeEqual(given, entry.digest) && found === undefined) found = entry.client
    }
    if (found !== undefined) return found
    const remembered = matched.get(given.toString('base64'))
    if (remembered !== undefined || hashed.length === 0) return remembered
    await beforeCheck?.()
    for (const { client, hash: h } of hashed) {
      const derived = await slots(who, async () => await scrypt(key, h.salt, h.hash.length, { N: h.N, r: h.r, p: h.p, maxmem: 256 * 1024 * 1024 }))
      if (timingSafeEqual(derived, h.hash) && found === undefined) found = client
    }
    if (found !== undefined) matched.set(given.toString('base64'), found)
    return found
  }
}
