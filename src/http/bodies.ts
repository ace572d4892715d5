/**
 * JSON request bodies. A small one is parsed on the event loop, as Fastify would (its depth
 * measured on its text first). A body of LARGE_REQUEST_BYTES or more sent to a /language route
 * is never parsed on the event loop: its bytes go to a pool task (body-tasks.ts) that parses it,
 * validates it with the route's own schema, and keeps its costly document values there; the
 * route gets the body with a HeldValue in their place and works as with any other, its document
 * work running on the pool (core/documents/offload.ts). What it answers is written as JSON text
 * on the pool too: held values it echoes, and documents rebuilt there (JsonFragment), go into the
 * serialized answer as they are.
 *
 * The drop-in APIs' bodies (routes with `config.compat`: JSON, url-encoded and multipart forms,
 * http/forms.ts) take the same path from LARGE_REQUEST_BYTES: read on the pool, where only the
 * fields the route's schema names are kept and validated, so what reaches the event loop is at
 * most those. A form has at most MAX_FORM_FIELDS fields, wherever it is read.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config.js'
import { ClientClosedError, ServiceError, ValidationError, invalidField } from '../errors.js'
import { HeldValue, JsonFragment } from '../core/documents/held.js'
import { parseJsonText, type HeldRef } from '../runtime/held-values.js'
import { PoolAccount, processPool, taskModule, type TaskCall } from '../runtime/pool.js'
import { currentClient } from '../lib/clients.js'
import type { ReadBody, ReadFields } from './body-tasks.js'
import { formKind, readForm, withQuery, type FileParts, type FormFields, type FormKind, type FormProblem } from './forms.js'
import { MAX_BODY_DEPTH, textDepth, tooDeep } from './json-text.js'
import { compileValidator, type Validator } from './validation.js'

/** The modules pool threads run body tasks from. */
export const BODY_TASKS = taskModule(import.meta.url, './body-tasks')
export const HELD_VALUES = taskModule(import.meta.url, '../runtime/held-values')
/** Thread CPU time reading one body may take (a MiB of JSON takes tens of milliseconds). */
const READ_BUDGET_MS = 5000
/** Bodies from this size take tens of milliseconds to read: they may not take the pool's last free thread. */
const HEAVY_BODY_BYTES = 256 * 1024

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A drop-in API's route (src/compat/): its body is read as their bodies are (forms too, the pool from LARGE_REQUEST_BYTES). */
    compat?: boolean
    /** The file parts a drop-in route's multipart form may carry (every other form refuses file parts). */
    files?: FileParts
    /** A drop-in route whose form's fields may be in its query too (LibreTranslate's): read with the form's, the query's first (`formOf`). */
    queryFields?: boolean
  }
}

/** Bodies read on the pool: they passed the route's schema there, and are not validated again. */
const validatedOnPool = new WeakSet<object>()
/** Drop-in bodies that failed the route's schema on the pool: its errors, answered when the route validates (after the key check). */
const failedOnPool = new WeakMap<object, unknown[]>()
/** Requests whose body was read on the pool: only their answers can hold values of it. */
const readOnPoolFor = new WeakSet<FastifyRequest>()
/** What a request's answer has to have written in as JSON text, by the placeholder standing for each. */
const fragmentsOf = new WeakMap<FastifyRequest, Map<string, string>>()

/** The route's schema key, as the pool threads cache validators by it. */
const routeKey = (method: string, url: string): string => `${method} ${url}`

async function bodiesPlugin (app: FastifyInstance, opts: { config: Config }): Promise<void> {
  const { largeRequestBytes, textChars } = opts.config.limits
  const bodySchemas = new Map<string, unknown>()

  // every schema is compiled with the same settings as on the pool threads; a body read there is not checked twice
  app.setValidatorCompiler(((route: { schema: unknown, httpPart?: string, method?: string, url?: string }) => {
    const validate = compileValidator(route.schema, app.getSchemas(), route)
    if (route.httpPart !== 'body') return validate
    const body: Validator = (data: unknown) => {
      if (typeof data === 'object' && data !== null && validatedOnPool.has(data)) return true
      const failed = typeof data === 'object' && data !== null ? failedOnPool.get(data) : undefined
      if (failed !== undefined) {
        body.errors = failed as NonNullable<Validator['errors']>
        return false
      }
      const ok = validate(data)
      body.errors = validate.errors ?? null
      return ok
    }
    return body
  }) as Parameters<FastifyInstance['setValidatorCompiler']>[0])

  app.addHook('onRoute', route => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (methods.includes('POST') && route.url.startsWith('/language/') && route.schema?.body !== undefined) {
      bodySchemas.set(routeKey('POST', route.url), route.schema.body)
    }
  })

  const readOnPool = async (request: FastifyRequest, bytes: Buffer, schema: unknown): Promise<unknown> => {
    const view = await heldBody(bytes, routeKey(request.method, request.routeOptions.url ?? ''), schema, textChars, async call => {
      const read = await readTask<ReadBody>(request, call, bytes.length)
      // logged before a refusal (not JSON, the schema) is thrown: that body was read on the pool too
      request.log.debug({ bytes: bytes.length }, 'body read on the pool')
      return read
    })
    readOnPoolFor.add(request)
    return view
  }

  // Fastify's own errors and prototype-poisoning checks, whichever side parses
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, async (request: FastifyRequest, bytes: Buffer) => {
    if (request.routeOptions.config.compat === true) return await readCompatBody(request, bytes, 'json', largeRequestBytes)
    const schema = largeRequestBytes > 0 && bytes.length >= largeRequestBytes && request.method === 'POST'
      ? bodySchemas.get(routeKey('POST', request.routeOptions.url ?? ''))
      : undefined
    if (schema === undefined) return parseHere(bytes.toString('utf8'))
    return await readOnPool(request, bytes, schema)
  })

  // an answer holding values of a body read on the pool: their JSON text is made there, and written in after serializing
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (!readOnPoolFor.has(request) || payload === null || typeof payload !== 'object') return payload
    const found = findHeld(payload)
    if (found.length === 0) return payload
    const nonce = randomBytes(12).toString('hex')
    const fragments = new Map<string, string>()
    const held = found.filter(f => f.value instanceof HeldValue)
    const texts = held.length === 0
      ? []
      : await processPool().run<string[]>({ module: HELD_VALUES, fn: 'stringifyHeld', args: [held.map(f => (f.value as HeldValue).ref)] },
        new PoolAccount(READ_BUDGET_MS, undefined, request.client?.key), { overBudget: () => invalidField([], 'the answer took too long to write') })
    let k = 0
    found.forEach((f, i) => {
      const placeholder = `__held_${nonce}_${i}__`
      fragments.set(JSON.stringify(placeholder), f.value instanceof HeldValue ? texts[k++]! : (f.value as JsonFragment).json)
      f.set(placeholder)
    })
    fragmentsOf.set(request, fragments)
    return payload
  })

  app.addHook('onSend', async (request, _reply, payload) => {
    const fragments = fragmentsOf.get(request)
    if (fragments === undefined || typeof payload !== 'string') return payload
    fragmentsOf.delete(request)
    // placeholders are random per answer: no text a client sent can take their place
    return payload.replace(/"__held_[0-9a-f]{24}_\d+__"/g, placeholder => fragments.get(placeholder) ?? placeholder)
  })
}

/**
 * A /language body read on the pool (`read` runs the task): what the route gets, with a HeldValue in
 * place of each costly value. Refusals are the errors Fastify's own parser and validator throw.
 */
async function heldBody (bytes: Buffer, route: string, schema: unknown, textChars: number, read: (call: TaskCall) => Promise<ReadBody>): Promise<unknown> {
  const shared = shareBytes(bytes)
  const key = randomUUID()
  const answer = await read({ module: BODY_TASKS, fn: 'readBody', args: [key, shared, route, schema, textChars] })
  if ('invalidJson' in answer) throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()
  if ('tooDeep' in answer) throw invalidField(answer.tooDeep, `is nested deeper than ${MAX_BODY_DEPTH} levels`)
  if ('validation' in answer) {
    throw Object.assign(new Error('body does not match the schema'), { statusCode: 400, code: 'FST_ERR_VALIDATION', validation: answer.validation, validationContext: 'body' })
  }
  const view = answer.view as Record<string | number, unknown>
  for (const entry of answer.held) {
    const ref: HeldRef = { held: true, key, bytes: shared, path: entry.path }
    let at = view
    for (let i = 0; i < entry.path.length - 1; i++) at = at[entry.path[i]!] as Record<string | number, unknown>
    at[entry.path.at(-1)!] = new HeldValue(ref, entry.kind, entry.cost, entry.rawLength)
  }
  validatedOnPool.add(view)
  return view
}

/**
 * A body of a /language route (a job's, stored as it came) read again as the route read it: from
 * `largeRequestBytes` on the pool, in the current client's turn, with held values; else here.
 */
export async function readStoredBody (bytes: Buffer, method: string, url: string, schema: unknown, limits: { largeRequestBytes: number, textChars: number }, signal: AbortSignal): Promise<unknown> {
  if (limits.largeRequestBytes === 0 || bytes.length < limits.largeRequestBytes) return parseHere(bytes.toString('utf8'))
  return await heldBody(bytes, routeKey(method, url), schema, limits.textChars, async call =>
    await processPool().run<ReadBody>(call, new PoolAccount(READ_BUDGET_MS, signal, currentClient()),
      { overBudget: () => invalidField([], 'this body took too long to read; send less at once'), heavy: bytes.length >= HEAVY_BODY_BYTES }))
}

/** The bytes a body was read from when it holds values on the pool (what a job stores); undefined for a body parsed here. */
export function heldBytes (body: unknown): Buffer | undefined {
  const found = findHeld(typeof body === 'object' && body !== null ? body : {}).find(f => f.value instanceof HeldValue)
  return found === undefined ? undefined : Buffer.from(((found.value as HeldValue).ref as HeldRef).bytes)
}

/** An answer's JSON text, the JSON text of its held values and rebuilt documents made on the pool (a job's result, stored as text). */
export async function answerText (payload: object, signal: AbortSignal): Promise<string> {
  const found = findHeld(payload)
  if (found.length === 0) return JSON.stringify(payload)
  const held = found.filter(f => f.value instanceof HeldValue)
  const texts = held.length === 0
    ? []
    : await processPool().run<string[]>({ module: HELD_VALUES, fn: 'stringifyHeld', args: [held.map(f => (f.value as HeldValue).ref)] },
      new PoolAccount(READ_BUDGET_MS, signal, currentClient()), { overBudget: () => invalidField([], 'the answer took too long to write') })
  const nonce = randomBytes(12).toString('hex')
  const fragments = new Map<string, string>()
  let k = 0
  found.forEach((f, i) => {
    const placeholder = `__held_${nonce}_${i}__`
    fragments.set(JSON.stringify(placeholder), f.value instanceof HeldValue ? texts[k++]! : (f.value as JsonFragment).json)
    f.set(placeholder)
  })
  return JSON.stringify(payload).replace(/"__held_[0-9a-f]{24}_\d+__"/g, placeholder => fragments.get(placeholder) ?? placeholder)
}

/** A body's bytes in memory a pool thread can read without a copy. */
function shareBytes (bytes: Buffer): SharedArrayBuffer {
  const shared = new SharedArrayBuffer(bytes.length)
  bytes.copy(Buffer.from(shared))
  return shared
}

/** Runs a body task on the pool as the request's (its client, when known); the client going away withdraws it. */
async function readTask<T> (request: FastifyRequest, call: TaskCall, bytes: number): Promise<T> {
  const gone = new AbortController()
  const socket = request.raw.socket as (typeof request.raw.socket | null | undefined)
  const onClose = (): void => { gone.abort(new ClientClosedError()) }
  socket?.once('close', onClose)
  try {
    return await processPool().run<T>(call, new PoolAccount(READ_BUDGET_MS, gone.signal, request.client?.key),
      { overBudget: () => invalidField([], 'this body took too long to read; send less at once'), heavy: bytes >= HEAVY_BODY_BYTES })
  } finally {
    socket?.off('close', onClose)
  }
}

/** A JSON body parsed on the event loop, as Fastify would (its depth measured on its text first). */
function parseHere (text: string): unknown {
  if (text.length === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY()
  let body: unknown
  try {
    body = parseJsonText(text)
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()
  }
  // deeply nested bodies would overflow the stack of the validator or the serializer; the path
  // is looked for only in a body whose text nests too deep
  if (textDepth(text) > MAX_BODY_DEPTH) {
    const path = tooDeep(body, MAX_BODY_DEPTH)
    if (path !== undefined) throw invalidField(path, `is nested deeper than ${MAX_BODY_DEPTH} levels`)
  }
  return body
}

/** 413 or 400 for a refused form, as every error of the drop-in APIs is answered (in their own shapes). */
function formError ({ problem }: FormProblem): ServiceError {
  if (problem.file === true) return new ServiceError(413, 'file-too-large', 'File too large', problem.message)
  return problem.status === 413
    ? new ServiceError(413, 'too-many-fields', 'Too many form fields', problem.message)
    : new ValidationError(problem.message)
}

/**
 * A drop-in API's body (JSON or a form): a small one parsed here, a large one (LARGE_REQUEST_BYTES)
 * on the pool, where only the fields the route's schema names come back. A large body that fails
 * the schema comes back as its short fields, and fails when the route validates it: after the key
 * check, so the failure is counted as the key's (src/compat/keyed.ts).
 */
export async function readCompatBody (request: FastifyRequest, bytes: Buffer, type: 'json' | FormKind, largeRequestBytes: number): Promise<unknown> {
  const contentType = String(request.headers['content-type'] ?? '')
  const { files } = request.routeOptions.config
  if (largeRequestBytes === 0 || bytes.length < largeRequestBytes) {
    if (type === 'json') return parseHere(bytes.toString('utf8'))
    const read = await readForm(bytes, type, contentType, files)
    if ('problem' in read) throw formError(read)
    return formOf(request, read.fields)
  }
  const schema = request.routeOptions.schema?.body
  // the query's fields are validated with the form's, on the pool
  const query = type !== 'json' && request.routeOptions.config.queryFields === true ? request.query as Record<string, unknown> : undefined
  const read = await readTask<ReadFields>(request, { module: BODY_TASKS, fn: 'readFields', args: [shareBytes(bytes), type, contentType, routeKey(request.method, request.routeOptions.url ?? ''), schema, files, query] }, bytes.length)
  request.log.debug({ bytes: bytes.length }, 'body read on the pool')
  if ('invalidJson' in read) throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()
  if ('tooDeep' in read) throw invalidField(read.tooDeep, `is nested deeper than ${MAX_BODY_DEPTH} levels`)
  if ('problem' in read) throw formError(read)
  if ('validation' in read) failedOnPool.set(read.view, read.validation)
  else if (schema !== undefined) validatedOnPool.add(read.view)
  return read.view
}

/** A drop-in route's form as it reads it: with its query's fields on a `queryFields` route (a POST with no body at all: `fields` empty). */
export function formOf (request: FastifyRequest, fields: FormFields = Object.create(null) as FormFields): FormFields {
  const { queryFields, files } = request.routeOptions.config
  return queryFields === true ? withQuery(fields, request.query as Record<string, unknown>, files) : fields
}

/**
 * The form parsers of a drop-in API's scope (fastify-plugin: they are its own, the rest of the
 * service reads JSON only): url-encoded and multipart forms, at most MAX_FORM_FIELDS fields.
 */
export const compatForms = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const { largeRequestBytes, bodyBytes } = opts.config.limits
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: bodyBytes }, async (request: FastifyRequest, bytes: Buffer) =>
      await readCompatBody(request, bytes, formKind(type)!, largeRequestBytes))
  }
}, { name: 'compat-forms', dependencies: ['bodies'] })

/** Every HeldValue and JsonFragment in an answer, with a way to replace it (the answer is small once they are out). */
function findHeld (payload: object): Array<{ value: HeldValue | JsonFragment, set: (to: unknown) => void }> {
  const out: Array<{ value: HeldValue | JsonFragment, set: (to: unknown) => void }> = []
  const stack: Array<{ value: unknown, depth: number }> = [{ value: payload, depth: 0 }]
  const seen = new Set<object>()
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!
    if (value === null || typeof value !== 'object' || seen.has(value) || depth > 16) continue
    seen.add(value)
    const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value)
    for (const [key, child] of entries) {
      if (child instanceof HeldValue || child instanceof JsonFragment) {
        out.push({ value: child, set: to => { (value as Record<string | number, unknown>)[key] = to } })
      } else if (child !== null && typeof child === 'object') {
        stack.push({ value: child, depth: depth + 1 })
      }
    }
  }
  return out
}

export default fp(bodiesPlugin, { name: 'bodies', dependencies: ['problem'] })
