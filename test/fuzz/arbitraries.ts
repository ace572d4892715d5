/**
 * Fuzz cases for every operation of the service's OpenAPI document: requests generated from the
 * operation's own schemas (body, query and path parameters), then mutated (wrong types, missing
 * and extra fields, hostile strings and documents, deep nesting, oversized arrays, raw non-JSON
 * bodies). Shared by test/load/fuzz.test.ts and bench/fuzz.ts.
 */
import fc from 'fast-check'
import { FULL_SCALE, hostileDocument, hostileForm, hostileMarkup, hostileString, nested, type HostileDocument, type HostileScale } from './hostile.js'
import { schemaArbitrary, type JsonSchema, type OpenApiDocument, type OpenApiOperation, type OpenApiParameter, type SchemaArbitraryOptions } from './schema-arbitrary.js'

/** One HTTP request to send, and how it was made. */
export interface FuzzCase {
  /** "POST /language/translate": the operation, as the OpenAPI document names its path. */
  endpoint: string
  method: string
  /** Path with parameters filled in, and the query string. */
  url: string
  headers: Record<string, string>
  body?: string
  /** What was done to the generated request: "valid", or one "<kind>: <where>" entry per mutation. */
  mutations: string[]
}

/** One operation to fuzz. */
export interface Endpoint {
  name: string
  method: string
  path: string
  operation: OpenApiOperation
}

/** Every operation under /language and /oauth in the document. */
export function endpointsOf (document: OpenApiDocument): Endpoint[] {
  const out: Endpoint[] = []
  for (const [path, methods] of Object.entries(document.paths)) {
    if (!path.startsWith('/language/') && path !== '/oauth/token') continue
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
      out.push({ name: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operation: operation as OpenApiOperation })
    }
  }
  return out
}

const SENTENCES = [
  'The house is red.', 'Hello {name}, you have %d new messages.', 'I love this product, it works great!',
  'This is the worst service I have ever used.', 'Barack Obama visited Paris on 12 March 2015.',
  'Call me at +1 202 555 0143 or write to jane@example.com.', 'The price is $1,299.99 until Friday.',
  'La casa es roja.', 'Me encanta este producto, funciona muy bien.', 'El gato duerme en el sofá.',
  'Bonjour le monde, comment ça va ?', 'O livro está na mesa.', 'Das Haus ist rot.', 'La casa és vermella.',
  'Click <0>here</0> to continue.', 'Visit https://example.com/a?b=c now.', 'Good morning 😀!'
]

/** Ordinary text of a few sentences. */
export const sentences: fc.Arbitrary<string> = fc.array(fc.constantFrom(...SENTENCES), { minLength: 1, maxLength: 4 }).map(s => s.join(' '))

/** A small well-formed document value of each kind (a MIME type is drawn on its own, so they do not always agree). */
const documentValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: sentences, weight: 4 },
  { arbitrary: fc.tuple(sentences, sentences).map(([a, b]) => `<p>${a} <b>${b}</b></p><p title="${a.replace(/"/g, '')}">x</p>`), weight: 2 },
  // an inline element holding a block, then text: a link wrapping a card or heading (was a 500)
  { arbitrary: fc.tuple(sentences, sentences, fc.constantFrom('a', 'span', 'b'), fc.constantFrom('h2', 'div', 'p')).map(([a, b, inline, block]) => `<${inline}${inline === 'a' ? ' href="/x"' : ''}><${block}>${a}</${block}>${b}</${inline}>`), weight: 1 },
  { arbitrary: fc.tuple(sentences, sentences).map(([a, b]) => `# ${a}\n\n- ${b}\n- \`code\` and [a link](https://example.com)\n`), weight: 2 },
  { arbitrary: fc.tuple(sentences, sentences).map(([a, b]) => ({ title: a, items: [b, 1, true, null], nested: { text: a } })), weight: 2 },
  { arbitrary: fc.tuple(sentences, sentences).map(([a, b]) => JSON.stringify({ title: a, body: b })), weight: 1 },
  { arbitrary: fc.array(sentences, { maxLength: 3 }), weight: 1 }
)

const TAGS = ['en', 'es', 'fr', 'pt', 'pt-BR', 'ca', 'gl', 'eo', 'it', 'de', 'nl', 'EN-us', 'es-419', 'en-GB', 'zh-Hant', 'sr-Latn', 'ar', 'he', 'ja', 'und']
// names every object inherits: looked up as codes, they answered a function's source (issue 32, item 8)
const ODD_TAGS = ['x-klingon', 'i-klingon', 'en-GB-oed', 'qaa', 'zz', 'en-', '123', 'en_US', 'root', 'auto', 'EN', 'a'.repeat(64), 'constructor', '__proto__', 'toString', 'hasOwnProperty']

/** Mostly tags the embedded engine translates between, sometimes other or malformed ones, rarely anything. */
const languageTag: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom('en', 'es', 'fr', 'pt', 'ca', 'gl', 'it', 'pt-BR', 'EN-us'), weight: 30 },
  { arbitrary: fc.constantFrom(...TAGS), weight: 4 },
  { arbitrary: fc.constantFrom(...ODD_TAGS), weight: 2 },
  { arbitrary: fc.string({ minLength: 1, maxLength: 10 }), weight: 1 }
)

/** Values for properties whose random strings would almost never be meaningful. */
export function vocabulary (credentials: { id: string, secret: string }): Record<string, fc.Arbitrary<unknown>> {
  const service = fc.oneof({ arbitrary: fc.constant('apertium'), weight: 6 }, fc.constantFrom('deepl', 'openai', 'google', 'google-cloud', 'libretranslate', 'nope'))
  return {
    value: documentValue,
    mime_type: fc.oneof(
      { arbitrary: fc.constantFrom('text/plain', 'text/html', 'text/markdown'), weight: 8 },
      { arbitrary: fc.constantFrom('application/json', 'text/html; charset=utf-8', 'TEXT/PLAIN', 'text/csv', 'application/x-subrip', 'text/vtt', 'text/x-gettext-translation', 'application/xliff+xml', 'application/vnd.android.strings+xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.oasis.opendocument.text', 'application/epub+zip'), weight: 2 }
    ),
    language: languageTag,
    source: fc.oneof({ arbitrary: languageTag, weight: 12 }, { arbitrary: fc.constantFrom('', 'auto'), weight: 1 }),
    target: fc.oneof({ arbitrary: languageTag, weight: 12 }, { arbitrary: fc.constantFrom('es,fr', 'es,,fr', ' es ', 'es,en,ca'), weight: 1 }),
    targets: languageTag,
    // DeepL's codes (any case), where an inherited name as a code answered a 500
    target_lang: languageTag,
    source_lang: languageTag,
    source_hint: languageTag,
    limit_results: languageTag,
    display: languageTag,
    tag: fc.oneof({ arbitrary: languageTag, weight: 5 }, { arbitrary: fc.constantFrom('en-001', 'es-MX', 'zh-Hans-CN', 'x', '%', 'a/b', '..'), weight: 1 }),
    static: languageTag,
    text: fc.oneof(fc.constantFrom('house', 'the house', 'casa', 'red', 'Hello', '{name}', 'world'), fc.string({ minLength: 1, maxLength: 20 })),
    substitution: fc.oneof(fc.constantFrom('home', 'hogar', 'rouge', 'X'), fc.string({ minLength: 1, maxLength: 20 })),
    context: sentences,
    service: fc.oneof(service, fc.array(service, { minLength: 1, maxLength: 3 })),
    grant_type: fc.constantFrom('client_credentials', 'client_credentials', 'password', 'authorization_code', '', 'CLIENT_CREDENTIALS'),
    client_id: fc.oneof({ arbitrary: fc.constant(credentials.id), weight: 3 }, { arbitrary: fc.constantFrom('nobody', '', credentials.id + ' '), weight: 1 }),
    client_secret: fc.oneof({ arbitrary: fc.constant(credentials.secret), weight: 3 }, { arbitrary: fc.constantFrom('wrong', '', credentials.secret.slice(0, -1)), weight: 1 }),
    scope: fc.constantFrom('access', 'read', 'write', 'access read write', 'admin', '', ' ', 'access  access')
  }
}

type Node = { parent: Record<string, unknown> | unknown[] | undefined, key: string | number | undefined, value: unknown, pointer: string }

/** The nodes of a JSON value, breadth first (at most `limit`: hostile documents have 100,000 keys). */
function nodesOf (root: unknown, limit = 2_000): Node[] {
  const out: Node[] = [{ parent: undefined, key: undefined, value: root, pointer: '' }]
  for (let i = 0; i < out.length && out.length < limit; i++) {
    const { value, pointer } = out[i]!
    if (Array.isArray(value)) value.forEach((v, k) => out.push({ parent: value, key: k, value: v, pointer: `${pointer}/${k}` }))
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) out.push({ parent: value as Record<string, unknown>, key: k, value: v, pointer: `${pointer}/${k}` })
    }
  }
  return out.slice(0, limit)
}

/** Sets a property as an own, enumerable one ("__proto__" included, so JSON.stringify sends it). */
function setOwn (target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

function typeOf (value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}

/** One change to a generated request. `at` picks the node (modulo the nodes that qualify). */
export type Mutation =
  | { kind: 'wrong-type', at: number, value: unknown }
  | { kind: 'drop', at: number }
  | { kind: 'extra', at: number, key: string, value: unknown }
  | { kind: 'hostile-string', at: number, value: string }
  | { kind: 'deep', at: number, depth: number, shape: 'array' | 'object' }
  | { kind: 'many', at: number, count: number }
  | { kind: 'hostile-document', at: number, document: HostileDocument, copies: number }

/** Mutations stop growing a body past this many characters (the default BODY_LIMIT is 1 MiB: larger only tests the same 413). */
const MAX_BODY_CHARS = 1_200_000

/** URLs are cut to this many characters. */
const MAX_URL_CHARS = 32_768

/** Characters a value takes in JSON, without serializing a huge one. */
function approximateSize (value: unknown): number {
  if (typeof value === 'string') return value.length + 2
  if (Array.isArray(value)) return value.length > 1_000 ? value.length * 8 : (JSON.stringify(value) ?? '').length
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).length
    return keys > 1_000 ? keys * 9 : (JSON.stringify(value) ?? '').length
  }
  return 8
}

const WRONG_VALUES: readonly unknown[] = [0, -1, 1.5, 1e308, -1e-308, 2 ** 53 + 1, true, false, null, '', 'x', '0', [], {}, [1, 'a'], { a: 1 }, ['en']]

/** Mutations for a body or a parameter map. */
function mutationArbitrary (scale: HostileScale, documents: boolean): fc.Arbitrary<Mutation> {
  const at = fc.nat()
  const kinds: Array<fc.WeightedArbitrary<Mutation>> = [
    { arbitrary: fc.record({ kind: fc.constant('wrong-type' as const), at, value: fc.constantFrom(...WRONG_VALUES) }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant('drop' as const), at }), weight: 2 },
    {
      arbitrary: fc.record({
        kind: fc.constant('extra' as const),
        at,
        key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', '', '$ref', 'toString', 'a'.repeat(300)), fc.string({ maxLength: 8 })),
        value: fc.oneof(fc.constantFrom(...WRONG_VALUES), fc.jsonValue({ maxDepth: 2 }))
      }),
      weight: 2
    },
    { arbitrary: fc.record({ kind: fc.constant('hostile-string' as const), at, value: hostileString(scale) }), weight: 4 },
    { arbitrary: fc.record({ kind: fc.constant('deep' as const), at, depth: fc.constantFrom(scale.depth, 64, 2), shape: fc.constantFrom<'array' | 'object'>('array', 'object') }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('many' as const), at, count: fc.constantFrom(11, 21, 101, 201, 1001, 10_001) }), weight: 1 }
  ]
  if (documents) {
    kinds.push({ arbitrary: fc.record({ kind: fc.constant('hostile-document' as const), at, document: hostileDocument(scale), copies: fc.constantFrom(1, 1, 1, 2, 50) }), weight: 6 })
  }
  return fc.oneof(...kinds)
}

/** Applies `mutation` to `root` in place; says what it did ("<kind>: <where>"). */
export function applyMutation (root: Record<string, unknown>, mutation: Mutation): string {
  const nodes = nodesOf(root)
  const pick = <T>(list: T[]): T | undefined => list.length === 0 ? undefined : list[mutation.at % list.length]
  const replace = (node: Node, value: unknown): void => {
    if (node.parent === undefined) return
    setOwn(node.parent, node.key!, value)
  }
  switch (mutation.kind) {
    case 'wrong-type': {
      const node = pick(nodes.slice(1))
      if (!node) return 'wrong-type: (nothing to change)'
      let value = structuredClone(mutation.value)
      if (typeOf(value) === typeOf(node.value)) value = typeOf(value) === 'string' ? 12345 : 'not a ' + typeOf(value)
      replace(node, value)
      return `wrong-type: ${node.pointer} = ${JSON.stringify(value)}`
    }
    case 'drop': {
      const node = pick(nodes.slice(1))
      if (!node) return 'drop: (nothing to drop)'
      if (Array.isArray(node.parent)) node.parent.splice(node.key as number, 1)
      else delete (node.parent as Record<string, unknown>)[node.key as string]
      return `drop: ${node.pointer}`
    }
    case 'extra': {
      const node = pick(nodes.filter(n => typeOf(n.value) === 'object'))
      if (!node) return 'extra: (no object)'
      setOwn(node.value as Record<string, unknown>, mutation.key, structuredClone(mutation.value))
      return `extra: ${node.pointer}/${mutation.key}`
    }
    case 'hostile-string': {
      const strings = nodes.filter(n => typeof n.value === 'string')
      const node = pick(strings.length > 0 ? strings : nodes.slice(1))
      if (!node) return 'hostile-string: (no field)'
      replace(node, mutation.value)
      return `hostile-string: ${node.pointer} (${mutation.value.length} units)`
    }
    case 'deep': {
      const node = pick(nodes.slice(1))
      if (!node) return 'deep: (no field)'
      replace(node, nested(mutation.depth, mutation.shape, node.value))
      return `deep: ${node.pointer} (${mutation.depth} ${mutation.shape}s)`
    }
    case 'many': {
      const node = pick(nodes.slice(1).filter(n => Array.isArray(n.value) || typeof n.value === 'string'))
      if (!node) return 'many: (no array or string)'
      // past a few MB only the body limit answers: no need to build gigabytes
      const unit = typeof node.value === 'string' ? node.value || 'x' : JSON.stringify((node.value as unknown[])[0] ?? 'x') ?? 'x'
      const count = Math.min(mutation.count, Math.max(2, Math.floor(MAX_BODY_CHARS / unit.length)))
      if (typeof node.value === 'string') replace(node, unit.repeat(count))
      else {
        const items = node.value as unknown[]
        replace(node, Array.from({ length: count }, (_, i) => items.length === 0 ? 'x' : items[i % items.length]))
      }
      return `many: ${node.pointer} (${count})`
    }
    case 'hostile-document': {
      const d = { mime_type: mutation.document.mime_type, value: structuredClone(mutation.document.value) }
      if (Array.isArray(root['documents'])) {
        const docs = root['documents'] as unknown[]
        const copies = Math.min(mutation.copies, Math.max(1, Math.floor(MAX_BODY_CHARS / approximateSize(d.value))))
        if (copies > 1) root['documents'] = Array.from({ length: copies }, () => d)
        else docs[mutation.at % Math.max(1, docs.length)] = d
        return `hostile-document ${mutation.document.label}: /documents x${copies}`
      }
      root['document'] = d
      return `hostile-document ${mutation.document.label}: /document`
    }
  }
}

/** Bodies that are not the JSON object the API takes. */
const rawBody = fc.oneof(
  fc.record({
    body: fc.constantFrom('', '{', 'null', '[]', '"x"', '{"document":', '\ufeff{}', '{"a":1}{"b":2}', '1'.repeat(400), '{"document":{"value":"\ud800"}}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}'),
    contentType: fc.constant('application/json')
  }),
  fc.record({
    body: fc.constantFrom('{"document":{"value":"hi"},"targets":["es"]}', 'document=hi', '<xml/>'),
    contentType: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', 'application/json-patch+json')
  })
)

export interface CaseOptions {
  /** The OAuth client the service knows (valid and invalid credentials are both generated). */
  credentials: { id: string, secret: string }
  scale?: HostileScale
  /** Weight of unmutated (valid-looking) requests against mutated ones (default 2 : 3). */
  validWeight?: number
}

/**
 * Percent-encoding of every code unit as UTF-8 bytes, a lone surrogate included (as the three
 * bytes WTF-8 gives it, which are not UTF-8): encodeURIComponent would throw on it.
 */
export function percentEncode (text: string, maxChars = Number.POSITIVE_INFINITY): string {
  let out = ''
  for (const char of text) {
    // a hostile value of megabytes: only what fits in the URL is encoded (encoding it all blocked the fuzzer for tens of seconds)
    if (out.length >= maxChars) break
    const cp = char.codePointAt(0)!
    if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x2d || cp === 0x5f || cp === 0x2e || cp === 0x7e) {
      out += char
      continue
    }
    const bytes = cp < 0x80
      ? [cp]
      : cp < 0x800
        ? [0xc0 | (cp >> 6), 0x80 | (cp & 63)]
        : cp < 0x10000
          ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
          : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
    for (const b of bytes) out += '%' + b.toString(16).toUpperCase().padStart(2, '0')
  }
  return out
}

/** Query string and path of a GET from its parameter map (arrays repeat the parameter), cut at MAX_URL_CHARS. */
function urlOf (path: string, parameters: OpenApiParameter[], values: Record<string, unknown>): string {
  const text = (v: unknown): string => typeof v === 'string' ? v : JSON.stringify(v) ?? ''
  let url = path
  for (const p of parameters) {
    if (p.in === 'path') url = url.replace(`{${p.name}}`, percentEncode(values[p.name] === undefined ? '' : text(values[p.name]), MAX_URL_CHARS))
  }
  let full = url
  let separator = '?'
  for (const [name, value] of Object.entries(values)) {
    if (parameters.some(p => p.in === 'path' && p.name === name) || value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) {
      if (full.length >= MAX_URL_CHARS) break
      const key = percentEncode(name, MAX_URL_CHARS - full.length)
      full += `${separator}${key}=${percentEncode(text(v), MAX_URL_CHARS - full.length - key.length)}`
      separator = '&'
    }
  }
  // twice Node's 16 KB header limit still gets the 431; megabytes would only be cut off mid-write by it
  return full.length > MAX_URL_CHARS ? full.slice(0, MAX_URL_CHARS).replace(/%[0-9A-F]?$/, '') : full
}

/** The request body schema of a parameter list, so parameters are generated (and mutated) as one object. */
function parametersSchema (parameters: OpenApiParameter[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map(p => [p.name, p.schema])),
    required: parameters.filter(p => p.required === true).map(p => p.name),
    additionalProperties: false
  }
}

/** Form encoding of a generated token request (non-strings as JSON text, arrays repeated). */
function formOf (values: Record<string, unknown>): string {
  const form = new URLSearchParams()
  for (const [name, value] of Object.entries(values)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, typeof v === 'string' ? v : JSON.stringify(v) ?? '')
  }
  return form.toString()
}

/** The arbitrary of fuzz cases for one operation. */
export function caseArbitrary (endpoint: Endpoint, document: OpenApiDocument, options: CaseOptions): fc.Arbitrary<FuzzCase> {
  const scale = options.scale ?? FULL_SCALE
  const schemaOptions: SchemaArbitraryOptions = {
    vocabulary: vocabulary(options.credentials),
    anything: fc.jsonValue({ maxDepth: 2 }),
    maxItems: 4
  }
  const { operation } = endpoint
  const jsonSchema = operation.requestBody?.content['application/json']?.schema
  const formSchema = operation.requestBody?.content['application/x-www-form-urlencoded']?.schema
  const parameters = (operation.parameters ?? []).filter(p => p.in === 'query' || p.in === 'path')
  const schema = jsonSchema ?? formSchema ?? parametersSchema(parameters)
  const isBody = jsonSchema !== undefined || formSchema !== undefined
  const hasDocuments = isBody && JSON.stringify(schema).includes('"mime_type"')
  const generated = schemaArbitrary(schema, document, schemaOptions) as fc.Arbitrary<Record<string, unknown>>
  const mutations = fc.oneof(
    { arbitrary: fc.constant<Mutation[]>([]), weight: options.validWeight ?? 2 },
    { arbitrary: fc.array(mutationArbitrary(scale, hasDocuments), { minLength: 1, maxLength: 3 }), weight: 3 }
  )
  const raw = isBody && jsonSchema !== undefined && formSchema === undefined
    ? fc.oneof({ arbitrary: fc.constant(null), weight: 11 }, { arbitrary: rawBody, weight: 1 })
    : fc.constant(null)
  // the token endpoint: form or JSON, credentials in the body or by HTTP Basic (right, wrong or malformed)
  const tokenExtras = fc.record({
    form: fc.boolean(),
    basic: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, fc.constantFrom(
      'Basic ' + Buffer.from(`${options.credentials.id}:${options.credentials.secret}`).toString('base64'),
      'Basic ' + Buffer.from(`${options.credentials.id}:wrong`).toString('base64'),
      'Basic ' + Buffer.from(':').toString('base64'), 'Basic !!!', 'Basic', 'Bearer x'
    ))
  })

  return fc.tuple(generated, mutations, raw, tokenExtras).map(([value, changes, rawCase, token]): FuzzCase => {
    const root = structuredClone(value)
    const done = changes.map(m => applyMutation(root, m))
    const base = { endpoint: endpoint.name, method: endpoint.method, mutations: done.length > 0 ? done : ['valid'] }
    if (!isBody) return { ...base, url: urlOf(endpoint.path, parameters, root), headers: {} }
    if (rawCase !== null) return { ...base, url: endpoint.path, headers: { 'content-type': rawCase.contentType }, body: rawCase.body, mutations: [`raw: ${rawCase.contentType}`] }
    if (formSchema !== undefined) {
      const headers: Record<string, string> = { 'content-type': token.form ? 'application/x-www-form-urlencoded' : 'application/json' }
      if (token.basic !== null) headers['authorization'] = token.basic
      const body = token.form ? formOf(root) : JSON.stringify(root)
      return { ...base, url: endpoint.path, headers, body, mutations: [...base.mutations, token.form ? 'form' : 'json', ...(token.basic === null ? [] : ['basic'])] }
    }
    return { ...base, url: endpoint.path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(root) }
  })
}

/** The DeepL-compatible translate as the fuzzer names it: its markup is fuzzed by `markupCaseArbitrary`. */
export const DEEPL_TRANSLATE = 'POST /deepl/v2/translate'

/**
 * Fuzz cases for DeepL's translate with hostile markup (hostileMarkup: kept elements, `tag_handling`,
 * `ignore_tags`), `key` one of a client's api_keys in DeepL's header; sometimes the text is one of a list.
 */
export function markupCaseArbitrary (key: string, scale: HostileScale = FULL_SCALE): fc.Arbitrary<FuzzCase> {
  return fc.tuple(hostileMarkup(scale), fc.boolean(), fc.constantFrom(undefined, 'EN', 'es')).map(([markup, listed, source]): FuzzCase => {
    const { label, text, ...options } = markup
    const body = { text: listed ? ['The house is red.', text] : text, target_lang: source === 'es' ? 'CA' : 'ES', ...(source === undefined ? {} : { source_lang: source }), ...options }
    return {
      endpoint: DEEPL_TRANSLATE,
      method: 'POST',
      url: '/deepl/v2/translate',
      headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${key}` },
      body: JSON.stringify(body),
      mutations: [`hostile-markup: ${label}${listed ? ' in a list' : ''}`]
    }
  })
}

/** The drop-in APIs' form routes the fuzzer sends hostile forms to, with where each takes its key. */
const FORM_ROUTES: ReadonlyArray<{ endpoint: string, key: (key: string) => { query?: string, authorization?: string } }> = [
  { endpoint: 'POST /libretranslate/translate', key: key => ({ query: `api_key=${key}` }) },
  { endpoint: 'POST /libretranslate/detect', key: key => ({ query: `api_key=${key}` }) },
  { endpoint: DEEPL_TRANSLATE, key: key => ({ authorization: `DeepL-Auth-Key ${key}` }) },
  { endpoint: 'POST /apy/translate', key: key => ({ query: `key=${key}` }) }
]

/**
 * Fuzz cases for the drop-in APIs' form bodies (issue 32, item 2): hostileForm's url-encoded and
 * multipart bodies (the probe's 120,000-field forms among them) to LibreTranslate's, DeepL's and
 * apy's routes, with `key` (one of a client's api_keys), a wrong key or none, in the header or the
 * query where each API reads it before the body.
 */
export function formCaseArbitrary (key: string, scale: HostileScale = FULL_SCALE): fc.Arbitrary<FuzzCase> {
  return fc.tuple(hostileForm(scale), fc.constantFrom(...FORM_ROUTES), fc.constantFrom<string | undefined>(key, 'wrong-key-0123456789abcdef', undefined)).map(([form, route, given]): FuzzCase => {
    const { query, authorization } = given === undefined ? {} : route.key(given)
    const path = route.endpoint.split(' ')[1]!
    return {
      endpoint: route.endpoint,
      method: 'POST',
      url: query === undefined ? path : `${path}?${query}`,
      headers: { 'content-type': form.contentType, ...(authorization === undefined ? {} : { authorization }) },
      body: form.body,
      mutations: [`hostile-form: ${form.label}, ${given === undefined ? 'no key' : given === key ? 'key' : 'wrong key'}`]
    }
  })
}
