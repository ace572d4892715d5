/**
 * Jobs on local disk: a directory per job under DATA_DIR/jobs/<client>/<id>/ holding its request
 * (request.json, as the client sent it), its state (state.json) and, once done, its result
 * (result.json), each written whole to a temporary name and renamed into place, so a reader (any
 * process) sees the old file or the new one, never half of one. A process working a job holds a
 * claim on it (claim-<n>, created exclusively: of processes racing for a job one gets it), which
 * it touches while it works; a claim whose process died, or that nobody touched for a while, is
 * stale, and the next process to look takes the job by creating claim-<n+1>. A `cancel` file asks
 * whichever process holds the job to stop. A state.json that is not a job's state (the folder
 * damaged: its files are only ever replaced whole) is a DamagedJobError.
 */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled'

export const FINISHED: ReadonlySet<JobStatus> = new Set(['done', 'failed', 'cancelled'])
const STATUSES: ReadonlySet<string> = new Set(['queued', 'running', ...FINISHED])

/** A job's folder whose files cannot be read as a job's (what a disk or a hand left there). */
export class DamagedJobError extends Error {
  constructor (readonly dir: string, what: string) {
    super(`job folder ${dir}: ${what}`)
  }
}

/** What a job's error says (a problem+json body without its request's instance and id). */
export interface JobError {
  type: string
  title: string
  status: number
  detail: string
  errors?: Array<{ pointer: string, message: string }>
}

export interface JobState {
  id: string
  status: JobStatus
  progress: { done: number, total: number }
  /** ISO dates. */
  created: string
  started?: string
  finished?: string
  /** When a finished job and its result are removed (ISO date). */
  expires?: string
  error?: JobError
}

/** A claim nobody touched for this long is stale even if its process seems alive (its pid reused). */
export const CLAIM_STALE_MS = 30_000

/** This process among all that share DATA_DIR (a pid alone may be reused after a restart). */
export const INSTANCE = randomUUID()

let temps = 0

/**
 * A job's files (its client's text and key, its result) are the service's user's alone, whatever
 * the umask: a probe found them world-readable (0644 in 0755 folders).
 */
const FILE_MODE = 0o600
const DIR_MODE = 0o700

/** Writes `data` to `path` whole or not at all: a temporary file renamed into place. */
export async function writeAtomic (path: string, data: string | Buffer): Promise<void> {
  const temp = `${path}.${INSTANCE}.${temps++}.tmp`
  await writeFile(temp, data, { mode: FILE_MODE })
  await rename(temp, path)
}

export class JobStore {
  constructor (readonly dir: string) {}

  /** A client's folder: a hash of its key (any characters) of fixed length. */
  clientDir (client: string): string {
    return join(this.dir, 'jobs', createHash('sha256').update(client).digest('hex').slice(0, 32))
  }

  jobDir (client: string, id: string): string {
    return join(this.clientDir(client), id)
  }

  async create (client: string, request: Buffer | string, state: JobState, meta?: Record<string, string>): Promise<{ dir: string, claim: string }> {
    const dir = this.jobDir(client, state.id)
    await mkdir(dir, { recursive: true, mode: DIR_MODE })
    if (meta !== undefined) await writeAtomic(join(dir, 'meta.json'), JSON.stringify(meta))
    await writeAtomic(join(dir, 'client'), client)
    await writeAtomic(join(dir, 'request.json'), request)
    // claimed by this process before its state makes it a job any process's sweep could take
    const claim = join(dir, 'claim-1')
    await writeFile(claim, JSON.stringify({ pid: process.pid, instance: INSTANCE }), { mode: FILE_MODE })
    await writeAtomic(join(dir, 'state.json'), JSON.stringify(state))
    return { dir, claim }
  }

  /** The job's state; undefined when there is no such job (or it was just removed); DamagedJobError when it is not a job's state. */
  async state (dir: string): Promise<JobState | undefined> {
    let text: string
    try {
      text = await readFile(join(dir, 'state.json'), 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw err
    }
    let state: unknown
    try {
      state = JSON.parse(text)
    } catch {
      throw new DamagedJobError(dir, 'state.json is not JSON')
    }
    if (!isJobState(state, basename(dir))) throw new DamagedJobError(dir, 'state.json is not a job\'s state')
    return state
  }

  /** Whose job it is (the key its work takes turns under). */
  async client (dir: string): Promise<string> {
    return await readFile(join(dir, 'client'), 'utf8')
  }

  /** What the API that made the job keeps with it (a drop-in API's key and file name); undefined when none. */
  async meta (dir: string): Promise<Record<string, string> | undefined> {
    try {
      return JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')) as Record<string, string>
    } catch {
      return undefined
    }
  }

  async setState (dir: string, state: JobState): Promise<void> {
    await writeAtomic(join(dir, 'state.json'), JSON.stringify(state))
  }

  async request (dir: string): Promise<Buffer> {
    return await readFile(join(dir, 'request.json'))
  }

  async setResult (dir: string, json: string): Promise<void> {
    await writeAtomic(join(dir, 'result.json'), json)
  }

  /** Takes back a result written (one the client's jobs have no room for). */
  async removeResult (dir: string): Promise<void> {
    await rm(join(dir, 'result.json'), { force: true })
  }

  /** The bytes the job keeps: its request and its result (its state and the rest are small). */
  async size (dir: string): Promise<number> {
    let bytes = 0
    for (const name of ['request.json', 'result.json']) {
      try {
        bytes += (await stat(join(dir, name))).size
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      }
    }
    return bytes
  }

  /**
   * The result's JSON text (answered as it is kept); DamagedJobError when it is cut short (a full
   * disk, a copy interrupted: the service writes it whole), read from its ends, not parsed: a
   * result of many targets is tens of MB, and a GET is polled.
   */
  async result (dir: string): Promise<string> {
    const text = await readFile(join(dir, 'result.json'), 'utf8')
    let end = text.length - 1
    while (end > 0 && /\s/.test(text[end]!)) end--
    if (text[0] !== '{' || text[end] !== '}') throw new DamagedJobError(dir, 'result.json is cut short')
    return text
  }

  async remove (dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true })
  }

  async askCancel (dir: string): Promise<void> {
    await writeFile(join(dir, 'cancel'), '', { mode: FILE_MODE })
  }

  async cancelAsked (dir: string): Promise<boolean> {
    return await exists(join(dir, 'cancel'))
  }

  /** Every job folder of every client. */
  async all (): Promise<string[]> {
    const root = join(this.dir, 'jobs')
    const out: string[] = []
    for (const client of await listDir(root)) {
      for (const id of await listDir(join(root, client))) out.push(join(root, client, id))
    }
    return out
  }

  /** A client's job folders. */
  async ofClient (client: string): Promise<string[]> {
    const dir = this.clientDir(client)
    return (await listDir(dir)).map(id => join(dir, id))
  }

  /** Takes the job unless a live process holds it: the claim's path, or undefined. */
  async claim (dir: string): Promise<string | undefined> {
    const claims = (await listDir(dir)).filter(name => /^claim-\d+$/.test(name)).map(name => Number(name.slice(6)))
    const last = claims.length === 0 ? 0 : Math.max(...claims)
    if (last > 0 && !await this.stale(join(dir, `claim-${last}`))) return undefined
    const path = join(dir, `claim-${last + 1}`)
    try {
      // exclusive: of processes racing for the job, one creates it
      const file = await open(path, 'wx', FILE_MODE)
      await file.writeFile(JSON.stringify({ pid: process.pid, instance: INSTANCE }))
      await file.close()
      return path
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' || (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw err
    }
  }

  /** How many times processes took the job (a job that stops its process every time is given up). */
  async claims (dir: string): Promise<number> {
    return (await listDir(dir)).filter(name => /^claim-\d+$/.test(name)).length
  }

  /** Keeps a claim fresh. */
  async touch (claim: string): Promise<void> {
    const now = new Date()
    await utimes(claim, now, now).catch(() => {})
  }

  /** Gives a claim back (a process stopping): the next process takes the job at once. */
  async release (claim: string): Promise<void> {
    await unlink(claim).catch(() => {})
  }

  private async stale (claim: string): Promise<boolean> {
    let touched: number
    try {
      touched = (await stat(claim)).mtimeMs
    } catch {
      // gone: given back, the job is taken on the next look
      return false
    }
    const holder = await readFile(claim, 'utf8').then(text => JSON.parse(text) as unknown).catch(() => undefined)
    // being written (a claim is created before its holder is written in), or left so by a process
    // stopped at that moment (killed, ENOSPC): fresh until nobody touched it for CLAIM_STALE_MS
    if (!isHolder(holder)) return Date.now() - touched > CLAIM_STALE_MS
    if (holder.instance === INSTANCE) return false
    if (holder.pid === process.pid || !alive(holder.pid)) return true
    return Date.now() - touched > CLAIM_STALE_MS
  }
}

function isHolder (value: unknown): value is { pid: number, instance: string } {
  const holder = value as { pid?: unknown, instance?: unknown } | null
  return typeof holder === 'object' && holder !== null && Number.isInteger(holder.pid) && typeof holder.instance === 'string'
}

/** A state as the service writes it: what reading it takes for granted (its dates parse, its id is its folder's). */
function isJobState (value: unknown, id: string): value is JobState {
  const state = value as Partial<Record<keyof JobState, unknown>> | null
  if (typeof state !== 'object' || state === null || state.id !== id || typeof state.status !== 'string' || !STATUSES.has(state.status)) return false
  const progress = state.progress as { done?: unknown, total?: unknown } | null
  if (typeof progress !== 'object' || progress === null || typeof progress.done !== 'number' || typeof progress.total !== 'number') return false
  const date = (d: unknown): boolean => typeof d === 'string' && !Number.isNaN(Date.parse(d))
  return date(state.created) && [state.started, state.finished, state.expires].every(d => d === undefined || date(d)) &&
    (state.error === undefined || (typeof state.error === 'object' && state.error !== null))
}

function alive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function exists (path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}

async function listDir (dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter(name => !name.endsWith('.tmp'))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return []
    throw err
  }
}
