/**
 * Translation of one or many documents into many targets: each document's source resolved
 * (./source.ts), choices for every pair checked before any work (./service-choice.ts), every document
 * segmented once per rule set, then one engine call per (service, pair) for every segment of
 * every document (./batching.ts), and the documents rebuilt.
 */
import { NothingConfiguredError } from '../../errors.js'
import { canonicalTag, sameBase, UNDETERMINED } from '../languages.js'
import { parseMimeType } from '../documents/segment.js'
import { DocumentWork, prepareDocument, type PreparedDocument } from '../documents/offload.js'
import { checkRuleTags, mergeApplied, rulesForPair, type AppliedSubstitution, type Substitution } from '../glossary.js'
import { checkTextLimit } from '../text-limit.js'
import type { TranslatorChoice } from './catalog.js'
import { translateDistinct } from './batching.js'
import { selectChoices, serviceFilter, unsupportedPairs } from './service-choice.js'
import { resolveSource } from './source.js'
import type { DocumentValue, Progress, TranslatedDocument, TranslateInput, TranslateOptions, TranslationDeps } from './types.js'

export type { DocumentValue, TranslatedDocument, TranslateInput, TranslateOptions, TranslationDeps } from './types.js'

/** The service name reported for targets equal to the source. */
export const IDENTITY_SERVICE = 'none'

interface TargetDocument {
  doc: number
  target: string
  from: string
  choices: TranslatorChoice[] | 'identity'
  /** Shared by the document's targets with the same rules: they are rebuilt together. */
  prepared: PreparedDocument
  segments: string[]
}

/**
 * What is checked before any segmenting or engine call: formats, tags, each document's source
 * (detected where asked), a service for every pair, the text limit. Throws what the request is
 * answered with.
 */
async function admit (input: TranslateInput, deps: TranslationDeps, signal: AbortSignal) {
  const options = input.options ?? {}
  const targets = uniqueTags(input.targets)
  checkRuleTags(input.substitutions ?? [])
  await deps.catalog.load()
  const wanted = serviceFilter(options.service, deps.catalog.translators)

  const docs = []
  // the request's document work: costly documents are worked by the runner, in its client's turn
  const work = new DocumentWork(deps.documents, signal)
  for (const [i, doc] of input.documents.entries()) {
    const path = input.documentPath(i)
    const mime = parseMimeType(doc.mimeType, [...path, 'mime_type'])
    const { source, origin, detected } = await resolveSource(input.source, doc, mime, path, work, targets, deps.catalog, deps.detect)
    docs.push({ doc, mime, source, origin, detected })
  }

  // choices for every pair, and every unsupported pair at once, before any work
  const unsupported: Array<{ from: string, to: string }> = []
  const choiceCache = new Map<string, TranslatorChoice[] | 'identity'>()
  const choicesFor = (from: string, to: string): TranslatorChoice[] | 'identity' => {
    const key = `${from}>${to}`
    let choices = choiceCache.get(key)
    if (choices === undefined) {
      // text with nothing to detect is copied as it is
      choices = sameBase(from, to) || from === UNDETERMINED ? 'identity' : selectChoices(deps.catalog.choices(from, to), wanted, options.formality, from, to)
      choiceCache.set(key, choices)
      if (choices !== 'identity' && choices.length === 0) unsupported.push({ from, to })
    }
    return choices
  }
  for (const { source } of docs) for (const target of targets) choicesFor(source, target)
  if (unsupported.length > 0) {
    // nothing can translate anything: say so rather than blaming the pair
    if (deps.catalog.languages('source').length === 0) {
      throw new NothingConfiguredError('translation', 'No translation service is configured or none has listed its languages yet.', deps.catalog.failures())
    }
    throw unsupportedPairs(unsupported, deps.catalog, docs)
  }

  // the text limit before any segmenting work for the targets
  await checkTextLimit(docs.map(({ doc, mime }, i) => ({ value: doc.value, mime, at: [...input.documentPath(i), 'value'], kept: doc.kept })), deps.textChars,
    input.documents.length === 1 ? [...input.documentPath(0), 'value'] : ['documents'], work)
  return { options, targets, docs, work, choicesFor }
}

/** Checks a request as translateDocuments would before its work (a job before it is taken). */
export async function checkTranslation (input: TranslateInput, deps: TranslationDeps, signal: AbortSignal): Promise<void> {
  await admit(input, deps, signal)
}

/** Translates every document into every target. */
export async function translateDocuments (input: TranslateInput, deps: TranslationDeps, signal: AbortSignal): Promise<TranslatedDocument[]> {
  const { options, targets, docs, work, choicesFor } = await admit(input, deps, signal)

  const outputs = await prepareTargets(docs, targets, work, input, choicesFor)
  const answers = await runBatches(outputs, options, deps, signal, input.documents.length > 1, input.progress)

  // every target of a preparation is rebuilt in one task (one reading of the document, not one per target)
  const byPreparation = new Map<PreparedDocument, TargetDocument[]>()
  for (const out of outputs) byPreparation.set(out.prepared, [...byPreparation.get(out.prepared) ?? [], out])
  const finished = new Map<TargetDocument, { value: unknown, applied: AppliedSubstitution[] }>()
  await Promise.all([...byPreparation].map(async ([prepared, list]) => {
    // a target the source already is gets the document as it was: its language is not renamed (an EPUB's dc:language, a PO header)
    const rebuilt = await prepared.finish(list.map(out => answers.get(out)!.segments), work, list.map(out => out.choices === 'identity' ? undefined : out.target))
    list.forEach((out, k) => finished.set(out, rebuilt[k]!))
  }))
  return docs.map(({ mime, source, detected }, i) => {
    const results: TranslatedDocument['results'] = {}
    const services: Record<string, string> = {}
    const applied: AppliedSubstitution[][] = []
    for (const out of outputs) {
      if (out.doc !== i) continue
      const answer = answers.get(out)!
      const { value: rebuilt, applied: used } = finished.get(out)!
      // the source's own language with no phrase substituted is the document as sent (a rebuild
      // would fill a PO's msgstr or an XLIFF's targets with copies of their sources)
      const value = out.choices === 'identity' && used.length === 0 ? docs[i]!.doc.value : rebuilt
      // finish gives back the shape it was given: a Document value
      results[out.target] = { value: value as DocumentValue, language: out.target, mimeType: mime }
      services[out.target] = answer.service
      applied.push(used)
    }
    const extra: TranslatedDocument['extra'] = { source, services, substitutions: mergeApplied(applied) }
    if (detected) extra.detected = detected
    return { results, extra }
  })
}

/**
 * A target document per (document, target): one rules array per pair (so its glossary compiles once for every
 * document), and one preparation per document and distinct rule set, shared by every target with that set.
 */
async function prepareTargets (docs: ReadonlyArray<{ doc: TranslateInput['documents'][number], mime: ReturnType<typeof parseMimeType>, source: string }>,
  targets: readonly string[], work: DocumentWork, input: TranslateInput,
  choicesFor: (from: string, to: string) => TranslatorChoice[] | 'identity'): Promise<TargetDocument[]> {
  const options = input.options ?? {}
  const allRules = input.substitutions ?? []
  const ruleIndex = new Map(allRules.map((rule, i) => [rule, i]))
  const rulesByPair = new Map<string, { rules: Substitution[], key: string }>()
  const rulesFor = (from: string, to: string): { rules: Substitution[], key: string } => {
    const pair = `${from}>${to}`
    let entry = rulesByPair.get(pair)
    if (entry === undefined) {
      const rules = from === UNDETERMINED ? [] : rulesForPair(allRules, from, to)
      rulesByPair.set(pair, entry = { rules, key: rules.map(r => ruleIndex.get(r)).join(',') })
    }
    return entry
  }
  // every preparation is asked for at once: the request's tasks queue in its turn on the threads
  const perDocument = await Promise.all(docs.map(async ({ doc, mime, source }, i) => {
    const preparedBySet = new Map<string, Promise<PreparedDocument>>()
    return await Promise.all(targets.map(async (target): Promise<TargetDocument> => {
      const { rules, key: rulesKey } = rulesFor(source, target)
      const choices = choicesFor(source, target)
      // a PO catalog's finished entries are kept only for a target they are translations into: it is read for each target
      const into = mime === 'text/x-gettext-translation' && choices !== 'identity' ? target : undefined
      const key = into === undefined ? rulesKey : `${rulesKey}>${into}`
      let prepared = preparedBySet.get(key)
      if (prepared === undefined) {
        prepared = prepareDocument(doc.value, mime, {
          placeholders: options.preservePlaceholders !== false,
          rules,
          caseSensitive: options.caseSensitive === true,
          language: source,
          kept: doc.kept,
          ...(into === undefined ? {} : { target: into })
        }, work, [...input.documentPath(i), 'value'])
        preparedBySet.set(key, prepared)
      }
      const ready = await prepared
      return { doc: i, target, from: source, choices, prepared: ready, segments: ready.segments }
    }))
  }))
  return perDocument.flat()
}

/** Canonical, de-duplicated target tags in request order. */
function uniqueTags (tags: readonly string[]): string[] {
  const out: string[] = []
  tags.forEach((tag, i) => {
    const canonical = canonicalTag(tag, ['targets', i])
    if (!out.includes(canonical)) out.push(canonical)
  })
  return out
}

interface Answer { segments: string[], service: string }

const composed = (segment: string): string => segment.normalize('NFC')

/** One engine call per (choices, pair) for every distinct segment of every target document; cache first. */
async function runBatches (outputs: TargetDocument[], options: TranslateOptions, deps: TranslationDeps, signal: AbortSignal, bulk: boolean, progress?: Progress): Promise<Map<TargetDocument, Answer>> {
  const groups = new Map<string, TargetDocument[]>()
  for (const out of outputs) {
    const key = out.choices === 'identity'
      ? 'identity'
      : out.choices.map(r => `${r.translator.name}:${r.from}>${r.to}`).join('|')
    const list = groups.get(key) ?? []
    list.push(out)
    groups.set(key, list)
  }
  const answers = new Map<TargetDocument, Answer>()
  const variant = {
    ...(options.formality === undefined ? {} : { formality: options.formality }),
    ...(options.context === undefined ? {} : { context: options.context })
  }
  // progress counts each group's distinct segments, those copied as they are (identity) done at once;
  // engines get them composed (NFC): Apertium reads a decomposed accent as a character of its own
  const composedOf = new Map(outputs.map(out => [out, out.choices === 'identity' ? out.segments : out.segments.map(composed)]))
  const distinctOf = new Map([...groups].map(([key, list]) => [key, [...new Set(list.flatMap(j => composedOf.get(j)!))]]))
  const total = [...distinctOf.values()].reduce((n, segments) => n + segments.length, 0)
  let done = distinctOf.get('identity')?.length ?? 0
  const count = progress === undefined
    ? undefined
    : (delta: number) => {
        done += delta
        progress({ done, total })
      }
  progress?.({ done, total })
  // one group failing fails the request: the others stop waiting for engines (a lone group needs no signal of its own)
  const group = new AbortController()
  const combined = groups.size > 1 ? AbortSignal.any([signal, group.signal]) : signal
  await Promise.all([...groups].map(async ([key, list]) => {
    const choices = list[0]!.choices
    if (choices === 'identity') {
      for (const out of list) answers.set(out, { segments: out.segments, service: IDENTITY_SERVICE })
      return
    }
    const pairs = [...new Set(list.map(j => `${j.from}->${j.target}`))].join(', ')
    const docs = [...new Set(list.map(j => j.doc))]
    const what = bulk ? `${pairs} for document${docs.length > 1 ? 's' : ''} ${docs.join(', ')}` : pairs
    try {
      const { translations, service } = await translateDistinct({
        segments: distinctOf.get(key)!,
        choices,
        variant,
        fallback: options.fallback !== false,
        useCache: options.cache !== false,
        what,
        ...(count === undefined ? {} : { progress: count })
      }, deps.cache, deps.batcher, combined)
      for (const out of list) answers.set(out, { segments: composedOf.get(out)!.map(s => translations.get(s)!), service })
    } catch (err) {
      group.abort(err)
      throw err
    }
  }))
  return answers
}
