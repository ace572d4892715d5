/**
 * Rate limits across WORKERS processes without Redis: the cluster primary keeps the counters and
 * each worker asks it over the IPC channel, so RATE_LIMIT_MAX holds per client for the whole
 * service rather than per process. A worker whose question is not answered within
 * ANSWER_TIMEOUT_MS (the primary busy or gone) counts in its own store for that request.
 * Questions asked in the same turn of a worker's event loop travel in one message, and their
 * answers in one: under load a message per request cost the primary a tenth of a core and each
 * worker about as much again.
 */
import cluster from 'node:cluster'
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import LocalStore from '@fastify/rate-limit/store/LocalStore.js'

type Callback = Parameters<FastifyRateLimitStore['incr']>[1]
type Result = Parameters<Callback>[1]
type Store = FastifyRateLimitStore & { read?: (key: string, cb: Callback, timeWindow: number, max: number) => void }

/** Marks our messages among anything else on the IPC channel. */
const TAG = 'language-service:rate-limit'
const ANSWER_TIMEOUT_MS = 250

interface Question {
  tag: typeof TAG
  id: number
  /** Which store (0: global; children in creation order, the same in every worker). */
  store: number
  op: 'incr' | 'read'
  key: string
  timeWindow: number
  max: number
  continueExceeding: boolean
  exponentialBackoff: boolean
}

interface Answer {
  id: number
  result?: Result
  error?: string
}

/** What crosses the IPC channel: the questions of one turn of a worker, or their answers. */
interface Questions { tag: typeof TAG, questions: Question[] }
interface Answers { tag: typeof TAG, answers: Answer[] }

const isQuestions = (m: unknown): m is Questions => (m as Questions | null)?.tag === TAG && Array.isArray((m as Questions).questions)
const isAnswers = (m: unknown): m is Answers => (m as Answers | null)?.tag === TAG && Array.isArray((m as Answers).answers)

/** In the primary: answers every worker's questions from one set of counters, a message of answers per message of questions. */
export function serveClusterRateLimits (): void {
  const stores = new Map<string, Store>()
  const answer = (question: Question, reply: (answer: Answer) => void): void => {
    const name = `${question.store}:${question.continueExceeding}:${question.exponentialBackoff}`
    let store = stores.get(name)
    if (store === undefined) stores.set(name, store = new LocalStore(question.continueExceeding, question.exponentialBackoff) as Store)
    const done = (err: Error | null, result?: Result): void => reply({ id: question.id, ...(err ? { error: err.message } : { result }) })
    const op = store[question.op]
    if (op === undefined) done(new Error(`the store has no ${question.op}`))
    else op.call(store, question.key, done, question.timeWindow, question.max)
  }
  cluster.on('message', (worker, message: unknown) => {
    if (!isQuestions(message)) return
    const answers: Answer[] = []
    let left = message.questions.length
    for (const question of message.questions) {
      answer(question, a => {
        answers.push(a)
        if (--left === 0 && worker.isConnected()) worker.send({ tag: TAG, answers } satisfies Answers)
      })
    }
  })
}

/** In a worker: the pending questions, answered by the one listener below, and those not sent yet. */
const pending = new Map<number, (answer: Answer) => void>()
let outbox: Question[] = []
let nextId = 0
let listening = false

/** Sends the questions of this turn in one message. */
function flush (): void {
  const questions = outbox
  outbox = []
  process.send!({ tag: TAG, questions } satisfies Questions, undefined, undefined, (err: Error | null) => {
    if (err) for (const q of questions) pending.get(q.id)?.({ id: q.id, error: err.message })
  })
}

function ask (question: Omit<Question, 'tag' | 'id'>, fallback: () => void, cb: Callback): void {
  if (!listening) {
    listening = true
    process.on('message', (message: unknown) => {
      if (isAnswers(message)) for (const answer of message.answers) pending.get(answer.id)?.(answer)
    })
  }
  const id = nextId++
  const timer = setTimeout(() => {
    pending.delete(id)
    fallback()
  }, ANSWER_TIMEOUT_MS)
  pending.set(id, answer => {
    clearTimeout(timer)
    pending.delete(id)
    if (answer.error !== undefined || answer.result === undefined) fallback()
    else cb(null, answer.result)
  })
  if (outbox.push({ tag: TAG, id, ...question }) === 1) setImmediate(flush)
}

/** What the plugin hands a store's constructor (its types leave the options empty). */
interface StoreParams { continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number }

/** The store class for @fastify/rate-limit's `store` option in a cluster worker. */
export function clusterStore (): FastifyRateLimitStoreCtor {
  let stores = 0
  class ClusterStore implements FastifyRateLimitStore {
    private readonly local: Store
    constructor (private readonly store: number, private readonly continueExceeding: boolean, private readonly exponentialBackoff: boolean, cache?: number) {
      this.local = new LocalStore(continueExceeding, exponentialBackoff, cache) as Store
    }

    incr (key: string, cb: Callback, timeWindow: number, max: number): void {
      this.route('incr', key, cb, timeWindow, max)
    }

    read (key: string, cb: Callback, timeWindow: number, max: number): void {
      this.route('read', key, cb, timeWindow, max)
    }

    child (routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const params = routeOptions as StoreParams
      return new ClusterStore(++stores, params.continueExceeding ?? false, params.exponentialBackoff ?? false, params.cache)
    }

    private route (op: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number): void {
      const fallback = (): void => this.local[op]!(key, cb, timeWindow, max)
      if (process.send === undefined || !process.connected) return fallback()
      ask({ store: this.store, op, key, timeWindow, max, continueExceeding: this.continueExceeding, exponentialBackoff: this.exponentialBackoff }, fallback, cb)
    }
  }
  return class extends ClusterStore {
    constructor (options: FastifyRateLimitOptions) {
      const params = options as StoreParams
      super(0, params.continueExceeding ?? false, params.exponentialBackoff ?? false, params.cache)
    }
  }
}
