/**
 * The one way an adapter calls an outside service: a slot among a bounded number per service
 * (calls waiting for one take them by client in turn),
 * a circuit breaker, retries of 429/5xx with jittered backoff that honours Retry-After, and a
 * deadline (UPSTREAM_TIMEOUT_MS) over all of it. Errors come out typed and naming the service.
 */
import { CircuitOpenError, RateLimitedError, UpstreamError, UpstreamTimeoutError } from '../errors.js'
import { currentClient } from '../lib/clients.js'
import { FairSlots } from '../lib/fair-slots.js'

export interface RemoteOptions {
  /** Service name, as clients know it ("deepl", "openai", ...). */
  service: string
  /** Deadline of one call, waiting for a slot and retries included. */
  timeoutMs: number
  /** Retries after the first attempt of a 429, a 5xx or a dropped connection (default 2). */
  retries?: number
  /** Calls failed in a row that open the breaker (default 5). */
  breakerFailures?: number
  /** How long an open breaker skips the service (default 30 s). */
  breakerCooldownMs?: number
  /** Calls in flight at once (default 8); more wait for a slot. */
  concurrency?: number
  /** First backoff step in ms (default 250); doubles each retry, with full jitter. */
  backoffMs?: number
}

/** What an attempt gets: the signal to pass to fetch or the SDK, aborted at the deadline or when the caller gives up. */
export type Attempt<T> = (signal: AbortSignal) => Promise<T>

export class RemoteService {
  readonly service: string
  readonly timeoutMs: number
  readonly concurrency: number
  private readonly retries: number
  private readonly breakerFailures: number
  private readonly cooldownMs: number
  private readonly backoffMs: number
  private failures = 0
  private openUntil = 0
  /** The calls in flight; calls waiting for a slot take turns by client. */
  private readonly slots: FairSlots

  constructor (options: RemoteOptions) {
    this.service = options.service
    this.timeoutMs = options.timeoutMs
    this.retries = options.retries ?? 2
    this.breakerFailures = options.breakerFailures ?? 5
    this.cooldownMs = options.breakerCooldownMs ?? 30_000
    this.concurrency = options.concurrency ?? 8
    this.slots = new FairSlots(this.concurrency)
    this.backoffMs = options.backoffMs ?? 250
  }

  /** Milliseconds until an open breaker lets calls through again; 0 when it is closed. */
  openFor (): number {
    return Math.max(0, this.openUntil - Date.now())
  }

  /** Runs one logical call. Rejects with UpstreamError (or its subclasses) naming the service, or with the caller's abort reason. */
  async call<T>(attempt: Attempt<T>, signal?: AbortSignal): Promise<T> {
    const open = this.openFor()
    if (open > 0) throw new CircuitOpenError(this.service, this.breakerFailures, open)
    const deadline = AbortSignal.timeout(this.timeoutMs)
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline
    const timedOut = (cause?: unknown): UpstreamTimeoutError => new UpstreamTimeoutError(this.service, this.timeoutMs, cause)
    const client = currentClient()
    try {
      await this.slots.acquire(client, combined)
    } catch (err) {
      if (signal?.aborted === true) throw signal.reason
      throw timedOut(err)
    }
    try {
      const result = await this.withRetries(attempt, combined, deadline, signal)
      this.failures = 0
      return result
    } catch (err) {
      if (signal?.aborted === true) {
        // the caller's own deadline ran out during the call (a request that waited in line for it
        // has less than UPSTREAM_TIMEOUT_MS left): the service was too slow, which counts
        if (isDeadline(signal.reason)) {
          this.recordFailure()
          throw timedOut(signal.reason)
        }
        // the caller gave up: not the service's failure
        throw signal.reason
      }
      const failure = err instanceof UpstreamError ? err : new UpstreamError(this.service, describe(err), err)
      this.recordFailure()
      throw failure
    } finally {
      this.slots.release(client)
    }
  }

  private async withRetries<T>(attempt: Attempt<T>, combined: AbortSignal, deadline: AbortSignal, signal: AbortSignal | undefined): Promise<T> {
    const started = Date.now()
    for (let n = 0; ; n++) {
      try {
        return await attempt(combined)
      } catch (err) {
        if (combined.aborted) throw deadline.aborted && !(signal?.aborted === true) ? new UpstreamTimeoutError(this.service, this.timeoutMs, err) : err
        const failure = err instanceof UpstreamError ? err : new UpstreamError(this.service, describe(err), err, { retryable: isNetworkError(err) })
        if (!failure.retryable || n >= this.retries) throw failure
        const asked = failure instanceof RateLimitedError ? failure.retryAfterMs : undefined
        // full jitter, but never sooner than the service asked
        const wait = Math.max(asked ?? 0, Math.random() * this.backoffMs * 2 ** n)
        // a retry that could not finish before the deadline is not worth starting
        if (Date.now() - started + wait >= this.timeoutMs) throw failure
        await sleep(wait, combined).catch(() => {
          throw deadline.aborted && !(signal?.aborted === true) ? new UpstreamTimeoutError(this.service, this.timeoutMs, failure) : combined.reason
        })
      }
    }
  }

  private recordFailure (): void {
    this.failures++
    if (this.failures >= this.breakerFailures) {
      this.openUntil = Date.now() + this.cooldownMs
      // after the cooldown one failure opens it again at once
      this.failures = this.breakerFailures - 1
    }
  }
}

async function sleep (ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted()
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** Connection-level failures worth another try (refused, reset, DNS hiccup). */
function isNetworkError (err: unknown): boolean {
  const code = (err as { code?: string, cause?: { code?: string } } | undefined)?.cause?.code ?? (err as { code?: string } | undefined)?.code
  return typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT'].includes(code)
}

/** A short reason for an unexpected failure, without anything a request carried. */
function describe (err: unknown): string {
  const code = (err as { cause?: { code?: string } } | undefined)?.cause?.code ?? (err as { code?: string } | undefined)?.code
  if (typeof code === 'string') return `call failed (${code})`
  return `call failed (${err instanceof Error ? err.name : 'unknown error'})`
}

/** Whether an abort reason is a deadline passing (AbortSignal.timeout), not a caller going away. */
function isDeadline (reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError'
}
