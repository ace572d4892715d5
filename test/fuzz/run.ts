/** Runs the fuzzing property for one operation with fast-check, counting answers, and saves what failed. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import type { Endpoint, FuzzCase } from './arbitraries.js'
import type { KnownFailure } from './known-failures.js'
import { send, type Answer, type AnswerChecker } from './property.js'
import type { OpenApiDocument } from './schema-arbitrary.js'

/** Answers seen: per operation, per status (or "hang"/"error"), how many. */
export class FuzzStats {
  readonly counts = new Map<string, Map<string, number>>()
  /** Answers per mutation kind ("valid", "hostile-document html-nested-b", ...), per status class. */
  readonly kinds = new Map<string, Map<string, number>>()
  readonly slowest: Array<{ ms: number, endpoint: string, mutations: string[], status: number }> = []
  cases = 0

  record (c: FuzzCase, outcome: string, ms: number): void {
    this.cases++
    const bump = (map: Map<string, Map<string, number>>, key: string, sub: string): void => {
      const inner = map.get(key) ?? new Map<string, number>()
      inner.set(sub, (inner.get(sub) ?? 0) + 1)
      map.set(key, inner)
    }
    bump(this.counts, c.endpoint, outcome)
    for (const m of c.mutations) bump(this.kinds, m.split(':')[0]!, outcome)
    const status = Number(outcome)
    if (Number.isInteger(status)) {
      this.slowest.push({ ms, endpoint: c.endpoint, mutations: c.mutations, status })
      this.slowest.sort((a, b) => b.ms - a.ms)
      if (this.slowest.length > 10) this.slowest.length = 10
    }
  }

  /** "POST /language/translate  200: 31  400: 52  ..." lines. */
  table (): string {
    return [...this.counts].sort(([a], [b]) => a.localeCompare(b))
      .map(([endpoint, statuses]) => `${endpoint.padEnd(45)} ${[...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}: ${n}`).join('  ')}`)
      .join('\n')
  }
}

export interface FuzzTarget {
  base: string
  token: string
}

/** A case that broke the property, as saved for reproduction (the token is not saved). */
export interface FuzzFailure {
  endpoint: string
  seed: number
  path?: string
  error: string
  /** The smallest failing case fast-check found (the first one when shrinking was cut short). */
  case: FuzzCase
  /** The first failing case, before shrinking, and what was wrong with it. */
  first?: { error: string, case: FuzzCase }
}

export interface FuzzRunOptions {
  endpoint: Endpoint
  arbitrary: fc.Arbitrary<FuzzCase>
  checker: AnswerChecker
  target: FuzzTarget
  stats: FuzzStats
  seed: number
  numRuns: number
  /** A request without an answer after this long is a hang (ms). */
  timeoutMs: number
  /** Stop generating new cases after this long (ms): the cases run are the seed's first ones, so a slow machine runs a prefix. */
  timeLimitMs?: number
  /** Whether a failure is shrunk to a minimal case (default true); without, the run ends at the first failing case. */
  shrink?: boolean
  /** Failures already reported (counted as "<status> known", not failing the run). */
  known?: (c: FuzzCase, answer: Answer) => KnownFailure | undefined
}

/** Runs the property; on a failure fast-check shrinks it to a minimal case, returned (else undefined). */
export async function fuzzEndpoint (o: FuzzRunOptions): Promise<FuzzFailure | undefined> {
  let first: FuzzFailure['first']
  const property = fc.asyncProperty(o.arbitrary, async (c) => {
    let outcome = 'error'
    let ms = 0
    try {
      const answer = await send(o.target.base, o.target.token, c, o.timeoutMs)
      ms = answer.ms
      outcome = answer.status === 0 ? 'closed (oversized)' : String(answer.status)
      const wrong = o.checker.check(c, answer)
      if (wrong !== undefined) {
        const known = o.known?.(c, answer)
        if (known !== undefined) outcome = `${answer.status} known`
        else throw new Error(`${c.endpoint}: ${wrong}`)
      }
    } catch (err) {
      if ((err as Error).message.includes('no answer within')) outcome = 'hang'
      first ??= { error: (err as Error).message, case: c }
      throw err
    } finally {
      o.stats.record(c, outcome, ms)
    }
  })
  const details = await fc.check(property, {
    seed: o.seed,
    numRuns: o.numRuns,
    verbose: 0,
    endOnFailure: o.shrink === false,
    ...(o.timeLimitMs === undefined ? {} : { plugins: [fc.interruptAfterTimeLimit(o.timeLimitMs)] })
  })
  // a failure found before the time limit, whose shrinking the limit cut short, is still a failure
  if (!details.failed && first === undefined) return undefined
  const error = details.errorInstance instanceof Error
    ? details.errorInstance.message
    : first?.error ?? String(details.errorInstance ?? 'interrupted before any case ran')
  const failure: FuzzFailure = { endpoint: o.endpoint.name, seed: o.seed, error, case: first?.case ?? { endpoint: o.endpoint.name, method: o.endpoint.method, url: o.endpoint.path, headers: {}, mutations: [] } }
  if (details.counterexamplePath !== null) failure.path = details.counterexamplePath
  if (details.counterexample !== null) failure.case = (details.counterexample as [FuzzCase])[0]
  if (first !== undefined) failure.first = first
  return failure
}

/** Saves a failure as `<dir>/<endpoint>-<seed>.json` (a body that reproduces it with curl); returns the file. */
export function saveFailure (dir: string, failure: FuzzFailure): string {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${failure.endpoint.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}-${failure.seed}.json`)
  writeFileSync(file, JSON.stringify(failure, null, 2))
  return file
}

/** A short description of a failure (the body cut to a few hundred characters). */
export function describeFailure (failure: FuzzFailure, file?: string): string {
  const body = failure.case.body ?? ''
  return [
    `${failure.endpoint} (seed ${failure.seed}${failure.path ? `, path ${failure.path}` : ''}): ${failure.error}`,
    `  ${failure.case.method} ${failure.case.url.slice(0, 300)}  mutations: ${failure.case.mutations.join('; ')}`,
    `  body (${body.length} chars): ${body.slice(0, 300)}${body.length > 300 ? ' ...' : ''}`,
    ...(file ? [`  saved to ${file}`] : [])
  ].join('\n')
}

/** The service's own OpenAPI document. */
export async function loadDocument (base: string): Promise<OpenApiDocument> {
  const res = await fetch(`${base}/openapi.json`)
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`)
  return await res.json() as OpenApiDocument
}
