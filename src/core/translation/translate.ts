/**
 * Translation of one or many documents into many targets: source resolution, routing by pair,
 * one engine call per (service, pair) for every segment of every document, fallback, cache.
 */
import {
  ServiceError, ServiceUnavailableError, UnsupportedPairError, UpstreamError, UpstreamTimeoutError,
  invalidField
} from '../../errors.js'
import type { Formality, Translator } from '../../providers/types.js'
import { canonicalTag, sameBase } from '../languages.js'
import { documentText, parseMimeType, readyToSegment, type MimeType, type SegmentContext } from '../documents/index.js'
import { prepareForTranslation, type Prepared } from '../documents/prepare.js'
import { checkRuleTags, mergeApplied, rulesForPair, type AppliedSubstitution, type Substitution } from '../glossary.js'
import { checkTextLimit } from '../text-limit.js'
import type { TranslatorCatalog, Route } from './catalog.js'
import type { TranslationCache } from './cache.js'

export interface TranslateDocument {
  value: unknown
  mime_type?: string
  language?: string
}

export interface TranslateOptions {
  service?: string | string[]
  fallback?: boolean
  formality?: Formality
  context?: string
  preserve_placeholders?: boolean
  substitutions_case_sensitive?: boolean
  cache?: boolean
}

export interface TranslateInput {
  documents: readonly TranslateDocument[]
  /** JSON pointer of document i in the request ("/document" or "/documents/3"). */
  pointer: (i: number) => string
  source?: string
  targets: readonly string[]
  options?: TranslateOptions
  substitutions?: readonly Substitution[]
}

/** A Document value: a string, or an object/array whose string leaves are text. */
export type DocumentValue = string | Record<string, unknown> | unknown[]

export interface TranslatedDocument {
  /** Keyed by canonical target tag. */
  results: Record<string, { value: DocumentValue, language: string, mime_type: MimeType }>
  extra: {
    source: string
    services: Record<string, string>
    substitutions: AppliedSubstitution[]
    detected?: { language: string, confidence: number }
  }
}

export interface TranslationDeps {
  catalog: TranslatorCatalog
  cache: TranslationCache
  textChars: number
  upstreamTimeoutMs: number
  /**
   * Detects the language of plain text, among `candidates` when given (throws
   * ServiceUnavailableError when no detector is ready).
   */
  detect: (text: string, candidates?: readonly string[]) => { language: string, confidence: number }
}

/** The service name reported for targets equal to the source. */
export const IDENTITY_SERVICE = 'none'

interface Job {
  doc: number
  target: string
  from: string
  routes: Route[] | 'identity'
  finish: (translated: string[]) => { value: unknown, applied: AppliedSubstitution[] }
  segments: string[]
}

/** Translates every document into every target. */
export async function translateDocuments (input: TranslateInput, deps: TranslationDeps, signal: AbortSignal): Promise<TranslatedDocument[]> {
  const options = input.options ?? {}
  const targets = uniqueTags(input.targets)
  checkRuleTags(input.substitutions ?? [])
  await deps.catalog.load()
  const wanted = serviceFilter(options.service, deps.catalog.translators)

  const docs = []
  // what segmenting each document needs (large Markdown trees), kept only until it is prepared
  const contexts: SegmentContext[] = []
  for (const [i, doc] of input.documents.entries()) {
    const mime = parseMimeType(doc.mime_type, `${input.pointer(i)}/mime_type`)
    const context = await readyToSegment(doc.value, mime, `${input.pointer(i)}/value`)
    contexts.push(context)
    const { source, detected } = resolveSource(input.source, doc, mime, input.pointer(i), context, targets, deps)
    docs.push({ doc, mime, source, detected })
  }

  // routes for every pair, and every unsupported pair at once, before any work
  const unsupported: Array<{ from: string, to: string }> = []
  const routeCache = new Map<string, Route[] | 'identity'>()
  const routesFor = (from: string, to: string): Route[] | 'identity' => {
    const key = `${from}>${to}`
    let routes = routeCache.get(key)
    if (routes === undefined) {
      routes = sameBase(from, to) ? 'identity' : selectRoutes(deps.catalog.routes(from, to), wanted, options.formality, from, to)
      routeCache.set(key, routes)
      if (routes !== 'identity' && routes.length === 0) unsupported.push({ from, to })
    }
    return routes
  }
  for (const { source } of docs) for (const target of targets) routesFor(source, target)
  if (unsupported.length > 0) {
    // nothing can translate anything: say what to configure rather than blaming the pair
    if (deps.catalog.languages('source').length === 0) {
      throw new ServiceUnavailableError('No translation service is configured. The embedded Apertium engine needs its Debian packages (make run installs them); outside engines are enabled by GOOGLE_TRANSLATE_ENABLED, OPENAI_BASE_URL or LIBRETRANSLATE_URL.')
    }
    throw new UnsupportedPairError(unsupported)
  }

  // the text limit before any segmenting work for the targets
  checkTextLimit(docs.map(({ doc, mime }, i) => ({ value: doc.value, mime, context: contexts[i] })), deps.textChars,
    input.documents.length === 1 ? `${input.pointer(0)}/value` : '/documents')

  // one rules array per pair (so its glossary compiles once for every document), and one
  // preparation per document and distinct rule set, shared by every target with that set
  const allRules = input.substitutions ?? []
  const ruleIndex = new Map(allRules.map((rule, i) => [rule, i]))
  const rulesByPair = new Map<string, { rules: Substitution[], key: string }>()
  const rulesFor = (from: string, to: string): { rules: Substitution[], key: string } => {
    const pair = `${from}>${to}`
    let entry = rulesByPair.get(pair)
    if (entry === undefined) {
      const rules = rulesForPair(allRules, from, to)
      rulesByPair.set(pair, entry = { rules, key: rules.map(r => ruleIndex.get(r)).join(',') })
    }
    return entry
  }
  const jobs: Job[] = []
  docs.forEach(({ doc, mime, source }, i) => {
    const preparedBySet = new Map<string, Prepared>()
    for (const target of targets) {
      const { rules, key } = rulesFor(source, target)
      let prepared = preparedBySet.get(key)
      if (prepared === undefined) {
        prepared = prepareForTranslation(doc.value, mime, {
          placeholders: options.preserve_placeholders !== false,
          rules,
          caseSensitive: options.substitutions_case_sensitive === true,
          language: source,
          pointer: `${input.pointer(i)}/value`,
          context: contexts[i]
        })
        preparedBySet.set(key, prepared)
      }
      jobs.push({ doc: i, target, from: source, routes: routesFor(source, target), finish: prepared.finish, segments: prepared.segments })
    }
  })

  // the trees are not needed to finish: let them go before waiting on the engines
  contexts.length = 0
  const answers = await runBatches(jobs, options, deps, signal)

  return docs.map(({ mime, source, detected }, i) => {
    const results: TranslatedDocument['results'] = {}
    const services: Record<string, string> = {}
    const applied: AppliedSubstitution[][] = []
    for (const job of jobs) {
      if (job.doc !== i) continue
      const answer = answers.get(job)!
      const { value, applied: used } = job.finish(answer.segments)
      // finish gives back the shape it was given: a Document value
      results[job.target] = { value: value as DocumentValue, language: job.target, mime_type: mime }
      services[job.target] = answer.service
      applied.push(used)
    }
    const extra: TranslatedDocument['extra'] = { source, services, substitutions: mergeApplied(applied) }
    if (detected) extra.detected = detected
    return { results, extra }
  })
}

/** Canonical, de-duplicated target tags in request order. */
function uniqueTags (tags: readonly string[]): string[] {
  const out: string[] = []
  tags.forEach((tag, i) => {
    const canonical = canonicalTag(tag, `/targets/${i}`)
    if (!out.includes(canonical)) out.push(canonical)
  })
  return out
}

/** Below this confidence a detected language that cannot be translated to the targets is a guess worth revisiting. */
const UNSURE_DETECTION = 0.5

/**
 * The source language: the request's, else the document's, else detected. An unsure detection
 * of a language no service translates to every target ("Hi": Tsonga at 0.11) is redone among
 * the languages that reach the most targets (English); a sure one stands and becomes an
 * unsupported pair.
 */
function resolveSource (source: string | undefined, doc: TranslateDocument, mime: MimeType, pointer: string, context: SegmentContext,
  targets: readonly string[], deps: TranslationDeps): { source: string, detected?: { language: string, confidence: number } } {
  const given = source?.trim()
  if (given && given.toLowerCase() !== 'auto') return { source: canonicalTag(given, '/source') }
  if (doc.language) return { source: canonicalTag(doc.language, `${pointer}/language`) }
  const text = documentText(doc.value, mime, { context })
  let detected = deps.detect(text)
  const reach = (from: string): number => targets.filter(to => sameBase(from, to) || deps.catalog.routes(from, to).length > 0).length
  const reached = detected.language !== 'und' && detected.confidence < UNSURE_DETECTION ? reach(detected.language) : targets.length
  if (reached < targets.length) {
    // among the sources that reach the most targets (all of them when some source can)
    const sources = deps.catalog.languages('source').map(l => ({ tag: l.tag, reach: reach(l.tag) }))
    const best = Math.max(0, ...sources.map(s => s.reach))
    const candidates = best > reached ? sources.filter(s => s.reach === best).map(s => s.tag) : []
    const again = candidates.length > 0 ? deps.detect(text, candidates) : undefined
    if (again !== undefined && again.language !== 'und') detected = again
  }
  if (detected.language === 'und') {
    throw invalidField(`${pointer}/value`, 'the source language could not be detected (too little text); set "source" or document.language')
  }
  return { source: detected.language, detected }
}

/** The configured translators a request may use (options.service), or undefined for all. */
function serviceFilter (service: string | string[] | undefined, translators: readonly Translator[]): string[] | undefined {
  if (service === undefined) return undefined
  const names = (Array.isArray(service) ? service : [service]).map(s => s.trim().toLowerCase())
  const known = translators.map(t => t.name)
  names.forEach((name, i) => {
    if (!known.includes(name)) {
      throw invalidField(Array.isArray(service) ? `/options/service/${i}` : '/options/service',
        `"${name}" is not a configured service (configured: ${known.join(', ') || 'none'})`)
    }
  })
  return names
}

/** Routes in the order the request wants, and only those that can honour a strict formality. */
function selectRoutes (routes: Route[], wanted: string[] | undefined, formality: Formality | undefined, from: string, to: string): Route[] {
  let out = routes
  if (wanted) out = wanted.map(name => routes.find(r => r.translator.name === name)).filter((r): r is Route => r !== undefined)
  if (formality === 'more' || formality === 'less') {
    const able = out.filter(r => r.translator.supportsFormality?.({ from: r.from, to: r.to }) === true)
    if (out.length > 0 && able.length === 0) {
      throw invalidField('/options/formality', `formality "${formality}" is not supported for ${from}->${to} by ${out.map(r => r.translator.name).join(', ')}; use "prefer_${formality}" to ask without requiring it`)
    }
    out = able
  }
  return out
}

interface Answer { segments: string[], service: string }

/** One engine call per (routes, pair) for every distinct segment of every job; cache first. */
async function runBatches (jobs: Job[], options: TranslateOptions, deps: TranslationDeps, signal: AbortSignal): Promise<Map<Job, Answer>> {
  const groups = new Map<string, Job[]>()
  for (const job of jobs) {
    const key = job.routes === 'identity'
      ? 'identity'
      : job.routes.map(r => `${r.translator.name}:${r.from}>${r.to}`).join('|')
    const list = groups.get(key) ?? []
    list.push(job)
    groups.set(key, list)
  }
  const answers = new Map<Job, Answer>()
  const variant = `${options.formality ?? ''}\u0001${options.context ?? ''}`
  await Promise.all([...groups.values()].map(async group => {
    const routes = group[0]!.routes
    if (routes === 'identity') {
      for (const job of group) answers.set(job, { segments: job.segments, service: IDENTITY_SERVICE })
      return
    }
    const distinct = [...new Set(group.flatMap(j => j.segments))]
    const { translations, service } = await translateDistinct(distinct, routes, options, variant, deps, signal)
    for (const job of group) answers.set(job, { segments: job.segments.map(s => translations.get(s)!), service })
  }))
  return answers
}

async function translateDistinct (segments: string[], routes: Route[], options: TranslateOptions, variant: string,
  deps: TranslationDeps, signal: AbortSignal): Promise<{ translations: Map<string, string>, service: string }> {
  const translations = new Map<string, string>()
  const useCache = options.cache !== false
  const preferred = routes[0]!
  // blank segments need no engine
  for (const s of segments) if (s.trim() === '') translations.set(s, s)
  let missing = segments.filter(s => !translations.has(s))
  let service = preferred.translator.name
  if (useCache && missing.length > 0) {
    const keys = missing.map(segment => ({ service: preferred.translator.name, from: preferred.from, to: preferred.to, variant, segment }))
    const hits = await deps.cache.getMany(keys)
    missing.forEach((s, i) => {
      const hit = hits[i]
      if (hit !== undefined) translations.set(s, hit)
    })
    missing = missing.filter(s => !translations.has(s))
  }
  if (missing.length === 0) return { translations, service }

  const tries = options.fallback === false ? routes.slice(0, 1) : routes
  let lastError: ServiceError | undefined
  for (const route of tries) {
    try {
      const out = await callTranslator(route, missing, options, deps.upstreamTimeoutMs, signal)
      missing.forEach((s, i) => translations.set(s, out[i]!))
      service = route.translator.name
      if (useCache) {
        await deps.cache.setMany(missing.map((segment, i) => ({
          key: { service, from: route.from, to: route.to, variant, segment },
          value: out[i]!
        })))
      }
      return { translations, service }
    } catch (err) {
      if (signal.aborted) throw err
      lastError = err instanceof ServiceError ? err : new UpstreamError(route.translator.name, 'failed unexpectedly', err)
    }
  }
  throw lastError ?? new UpstreamError(preferred.translator.name, 'no service answered')
}

/** One engine call with the per-call timeout; errors become 502/504. */
async function callTranslator (route: Route, segments: string[], options: TranslateOptions, timeoutMs: number, signal: AbortSignal): Promise<string[]> {
  const timeout = AbortSignal.timeout(timeoutMs)
  const combined = AbortSignal.any([signal, timeout])
  const job = {
    from: route.from,
    to: route.to,
    segments,
    ...(options.context === undefined ? {} : { context: options.context }),
    ...(options.formality === undefined ? {} : { formality: options.formality })
  }
  let out: string[]
  try {
    out = await route.translator.translate(job, combined)
  } catch (err) {
    if (timeout.aborted && !signal.aborted) throw new UpstreamTimeoutError(route.translator.name, timeoutMs, err)
    throw err
  }
  if (!Array.isArray(out) || out.length !== segments.length) {
    throw new UpstreamError(route.translator.name, `answered ${Array.isArray(out) ? out.length : 'no'} segments for ${segments.length}`)
  }
  return out
}
