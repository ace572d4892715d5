/**
 * Engine calls: the segment cache first, then one call per (service, pair) for what is missing.
 * For outside engines, concurrent requests for the same pair share calls: while every call a
 * service may have in flight is busy, the segments of new requests wait and leave together in
 * the next call (up to the engine's batch size), so throughput follows the engine's latency
 * and batch size, not the number of requests. The requests waiting for a service are one fair
 * queue (lib/fair-queue.ts): a call goes to the pair of the next client in turn, and is filled
 * with the requests for that pair of the clients in turn, so one client's large request does not
 * fill every call while others wait, and no pair starves another.
 */
import { UpstreamError, UpstreamTimeoutError } from '../../errors.js'
import type { TranslateCall, Translator } from '../ports.js'
import type { TranslatorChoice } from './catalog.js'
import type { TranslationCache } from './cache.js'
import { currentClient } from '../../lib/clients.js'
import { FairQueue } from '../../lib/fair-queue.js'
import { asFailure, pairFailed, type Failure } from './service-choice.js'

/** What changes an engine's answer besides the pair and the text. */
export interface Variant {
  formality?: TranslateCall['formality']
  context?: string
}

/** The most calls are spaced apart, however slow the engine (a slow engine must not slow the start of calls). */
const MAX_SPACING_MS = 20

interface Waiting {
  segments: string[]
  signal: AbortSignal
  /** Whose request it is (the turns a call is filled in). */
  client: string | undefined
  resolve: (out: string[]) => void
  reject: (err: unknown) => void
  timer: NodeJS.Timeout
  /** Date.now() by which the request must have its answer: waiting for a call counts against it. */
  deadline: number
  settled: boolean
  /** What may share a call with it: the same pair and variant. */
  key: string
  choice: TranslatorChoice
  variant: Variant
}

interface Dispatch {
  active: number
  /** The requests waiting for a call, by client (settled ones are skipped when they come up). */
  waiting: FairQueue<Waiting>
  /** When the last call left, and how long calls take (moving average, ms; 0 until one finished). */
  lastDispatch: number
  callMs: number
  timer: NodeJS.Timeout | undefined
}

export class Batcher {
  private readonly dispatches = new Map<Translator, Dispatch>()

  constructor (private readonly timeoutMs: number) {}

  /** The choice's translation of `segments` (same length and order); typed errors name the service. */
  async translate (choice: TranslatorChoice, segments: string[], variant: Variant, signal: AbortSignal): Promise<string[]> {
    const batching = choice.translator.batching
    if (batching === undefined) return await this.call(choice, segments, variant, signal)
    signal.throwIfAborted()
    const dispatch = this.dispatchOf(choice.translator)
    const key = `${choice.from}>${choice.to}\u0001${variant.formality ?? ''}\u0001${variant.context ?? ''}`
    return await new Promise<string[]>((resolve, reject) => {
      const entry: Waiting = {
        key,
        choice,
        variant,
        segments,
        signal,
        client: currentClient(),
        resolve,
        reject,
        settled: false,
        deadline: Date.now() + this.timeoutMs,
        // waiting for a slot counts against the same deadline as the call itself
        timer: setTimeout(() => this.settle(entry, new UpstreamTimeoutError(choice.translator.name, this.timeoutMs)), this.timeoutMs)
      }
      signal.addEventListener('abort', () => this.settle(entry, signal.reason), { once: true })
      dispatch.waiting.push(entry.client, entry)
      this.pump(choice.translator)
    })
  }

  private dispatchOf (translator: Translator): Dispatch {
    let dispatch = this.dispatches.get(translator)
    if (dispatch === undefined) this.dispatches.set(translator, dispatch = { active: 0, waiting: new FairQueue(), lastDispatch: 0, callMs: 0, timer: undefined })
    return dispatch
  }

  private settle (entry: Waiting, outcome: unknown, answer?: string[]): void {
    if (entry.settled) return
    entry.settled = true
    clearTimeout(entry.timer)
    if (answer !== undefined) entry.resolve(answer)
    else entry.reject(outcome)
  }

  /**
   * Starts calls while the service has free slots, each for the pair of the next client in turn.
   * Calls leave at least (call time / slots) apart: calls that all left at once would
   * all come back at once, and what arrives just after would wait a whole call for a slot;
   * spaced calls keep a slot freeing up every few milliseconds, and each takes what gathered.
   */
  private pump (translator: Translator): void {
    const dispatch = this.dispatchOf(translator)
    const { concurrency, maxSegments } = translator.batching!
    while (dispatch.active < concurrency) {
      if (dispatch.waiting.size === 0) return
      const wait = dispatch.lastDispatch + Math.min(MAX_SPACING_MS, dispatch.callMs / concurrency) - Date.now()
      if (wait > 0) {
        dispatch.timer ??= setTimeout(() => {
          dispatch.timer = undefined
          this.pump(translator)
        }, wait)
        return
      }
      const batch: Waiting[] = []
      let count = 0
      // the clients in turn, each request whole, as long as it is for the first one's pair and fits (the first always goes)
      for (;;) {
        const next = dispatch.waiting.shift((_client, w) => w.settled || batch.length === 0 ||
          (w.key === batch[0]!.key && count + w.segments.length <= maxSegments))
        if (next === undefined) break
        if (next.settled) continue
        batch.push(next)
        count += next.segments.length
      }
      if (batch.length === 0) continue
      dispatch.active++
      const started = dispatch.lastDispatch = Date.now()
      this.dispatch(batch).then(ok => {
        // failed calls (timeouts above all) say nothing about how long answers take
        if (ok) {
          const took = Date.now() - started
          dispatch.callMs = dispatch.callMs === 0 ? took : 0.8 * dispatch.callMs + 0.2 * took
        }
      }).finally(() => {
        dispatch.active--
        this.pump(translator)
      })
    }
  }

  /** One call for a batch: distinct segments once; aborted only when every request in it gave up. Whether it succeeded. */
  private async dispatch (batch: Waiting[]): Promise<boolean> {
    for (const entry of batch) clearTimeout(entry.timer)
    // the call has what is left of the deadline of the request that waited longest
    const left = Math.max(1, Math.min(...batch.map(e => e.deadline)) - Date.now())
    const distinct = [...new Set(batch.flatMap(e => e.segments))]
    const controller = new AbortController()
    const onAbort = (): void => {
      if (batch.every(e => e.signal.aborted)) controller.abort(new Error('every request of the batch gave up'))
    }
    for (const entry of batch) entry.signal.addEventListener('abort', onAbort, { once: true })
    try {
      const out = await this.call(batch[0]!.choice, distinct, batch[0]!.variant, controller.signal, left)
      const answers = new Map(distinct.map((s, i) => [s, out[i]!]))
      for (const entry of batch) this.settle(entry, undefined, entry.segments.map(s => answers.get(s)!))
      return true
    } catch (err) {
      for (const entry of batch) this.settle(entry, err)
      return false
    } finally {
      for (const entry of batch) entry.signal.removeEventListener('abort', onAbort)
    }
  }

  /**
   * One engine call within `timeoutMs` (its deadline reaches the adapter as an abort whose reason is a
   * TimeoutError, as AbortSignal.timeout's, which an outside service's breaker counts as its failure);
   * a wrong-length answer is the engine's failure.
   */
  private async call (choice: TranslatorChoice, segments: string[], variant: Variant, signal: AbortSignal, timeoutMs = this.timeoutMs): Promise<string[]> {
    // one controller and timer, not AbortSignal.timeout + AbortSignal.any (their weak references cost the collector on every request)
    const combined = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      combined.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
    }, timeoutMs)
    timer.unref()
    const onAbort = (): void => { combined.abort(signal.reason) }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    const call: TranslateCall = {
      from: choice.from,
      to: choice.to,
      segments,
      ...(variant.context === undefined ? {} : { context: variant.context }),
      ...(variant.formality === undefined ? {} : { formality: variant.formality })
    }
    let out: string[]
    try {
      out = await choice.translator.translate(call, combined.signal)
    } catch (err) {
      if (timedOut && !signal.aborted && !(err instanceof UpstreamError)) throw new UpstreamTimeoutError(choice.translator.name, this.timeoutMs, err)
      throw err
    } finally {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
    }
    if (!Array.isArray(out) || out.length !== segments.length) {
      throw new UpstreamError(choice.translator.name, `answered ${Array.isArray(out) ? out.length : 'no'} segments for ${segments.length}`)
    }
    return out
  }
}

export interface DistinctRequest {
  segments: string[]
  choices: TranslatorChoice[]
  variant: Variant
  fallback: boolean
  useCache: boolean
  /** Names what was being translated in an error ("en->ja for documents 0, 3"). */
  what: string
  /** Told how many more segments have their translation (negative: a failed service's, started over by the next; not when the request is called off). */
  progress?: (delta: number) => void
}

/** How many parts of a job's segments are with an engine at once (parts are what progress is counted in). */
const PARTS_IN_FLIGHT = 4
/** Segments in one part when the engine names no batch size. */
const PART_SEGMENTS = 100

/** The batcher's translation of `segments`, sent in parts of the engine's batch size, each reported as it is answered. */
async function inParts (batcher: Batcher, choice: TranslatorChoice, segments: string[], variant: Variant, signal: AbortSignal,
  progress: (delta: number) => void): Promise<string[]> {
  const size = choice.translator.batching?.maxSegments ?? PART_SEGMENTS
  const out: string[] = new Array<string>(segments.length)
  let next = 0
  let reported = 0
  // a part failing calls off the others: the service failed
  const parts = new AbortController()
  const combined = AbortSignal.any([signal, parts.signal])
  const worker = async (): Promise<void> => {
    while (next < segments.length) {
      const from = next
      next += size
      const part = segments.slice(from, from + size)
      const answer = await batcher.translate(choice, part, variant, combined)
      answer.forEach((t, i) => { out[from + i] = t })
      reported += part.length
      progress(part.length)
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(PARTS_IN_FLIGHT, Math.ceil(segments.length / size)) }, async () => await worker()))
  } catch (err) {
    parts.abort(err)
    // a failed service's parts are started over by the next; work called off (a job cancelled) keeps what it had done
    if (!signal.aborted) progress(-reported)
    throw err
  }
  return out
}

/**
 * Translations of distinct segments through the first choice that answers: each choice's own cache
 * entries first (a fallback's answer is cached under the fallback, never as the preferred engine's),
 * then an engine call for the rest. The service reported is the one whose engine answered the
 * rest (or the first choice's, when its cache had everything).
 */
export async function translateDistinct (request: DistinctRequest, cache: TranslationCache, batcher: Batcher,
  signal: AbortSignal): Promise<{ translations: Map<string, string>, service: string }> {
  const { segments, choices, variant } = request
  const translations = new Map<string, string>()
  // blank segments need no engine
  for (const s of segments) if (s.trim() === '') translations.set(s, s)
  const progress = request.progress
  progress?.(translations.size)
  const cacheVariant = `${variant.formality ?? ''}\u0001${variant.context ?? ''}`
  const keyOf = (choice: TranslatorChoice, segment: string) => ({ service: choice.translator.name, from: choice.from, to: choice.to, variant: cacheVariant, segment })
  const tries = request.fallback ? choices : choices.slice(0, 1)
  const failures: Failure[] = []
  for (const choice of tries) {
    let missing = segments.filter(s => !translations.has(s))
    if (request.useCache && missing.length > 0) {
      const hits = await cache.getMany(missing.map(s => keyOf(choice, s)))
      missing.forEach((s, i) => {
        const hit = hits[i]
        if (hit !== undefined) translations.set(s, hit)
      })
      const before = missing.length
      missing = missing.filter(s => !translations.has(s))
      progress?.(before - missing.length)
    }
    if (missing.length === 0) return { translations, service: choice.translator.name }
    try {
      const out = progress === undefined
        ? await batcher.translate(choice, missing, variant, signal)
        : await inParts(batcher, choice, missing, variant, signal, progress)
      missing.forEach((s, i) => translations.set(s, out[i]!))
      if (request.useCache) await cache.setMany(missing.map((s, i) => ({ key: keyOf(choice, s), value: out[i]! })))
      return { translations, service: choice.translator.name }
    } catch (err) {
      if (signal.aborted) throw err
      failures.push(asFailure(choice, err))
    }
  }
  throw pairFailed(failures, `Translating ${request.what}`)
}
