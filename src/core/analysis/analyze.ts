/**
 * The analysis use case: entities, sentiment, moderation and categories of a document's text.
 * Each part runs on the text itself with the first analyzer that reads its language (a
 * generative model when configured, else the offline analysers); a part no analyzer reads in that
 * language runs on the English translation (any configured engine, Apertium offline). When the
 * model's call fails, its parts fall back to the offline analysers; when a part of its answer is
 * unusable, that part alone does.
 */
import { NothingConfiguredError, ServiceError, UpstreamError, invalidField } from '../../errors.js'
import type { AnalysisAnswer, AnalysisPart, Analyzer } from '../ports.js'
import type { FoundEntity, Scored, SentimentScore } from './results.js'
import { DocumentWork, textOfDocument, type DocumentRunner } from '../documents/offload.js'
import { noTextMessage } from '../documents/segment.js'
import { canonicalTag, UNDETERMINED } from '../languages.js'
import { openDocument } from '../text-limit.js'
import { codePointLength, codePointOffsets } from '../code-points.js'
import type { DetectText } from '../translation/types.js'

export const ANALYSIS_PARTS: readonly AnalysisPart[] = ['entities', 'sentiment', 'moderation', 'categories']

/** The language analysers fall back to, through translation. */
const ENGLISH = 'en'

export interface AnalyzeInput {
  document: { value: unknown, mimeType?: string, language?: string }
  /** Empty: all four. */
  parts: readonly AnalysisPart[]
}

/** How a part was made. */
export interface PartRun {
  /** The analyzer that served it ("openai", "offline"). */
  analyzer: string
  /** The language the analysis ran on. */
  language: string
  /** Set when the text was translated to English first: the service that translated it. */
  translatedBy?: string
  /**
   * Set when a generative model failed and the offline analysers answered: why it failed, in our
   * words (`reason`, for the client), and what the engine itself said (`engineMessage`, redacted, for the log only).
   */
  fallbackFrom?: { analyzer: string, reason: string, engineMessage?: string }
}

export interface Analyzed {
  /** The document's language (given, else detected). */
  sourceLanguage: string
  /** Set when the language was detected. */
  detected?: { language: string, confidence: number }
  /** The text that was analysed in its own language (entity offsets of parts that ran on it point into it). */
  text: string
  entities?: PartRun & { entities: FoundEntity[], offsetsIn: 'text' | 'translation' }
  sentiment?: PartRun & { score: SentimentScore }
  moderation?: PartRun & { categories: Scored[] }
  categories?: PartRun & { categories: Scored[] }
}

/** Translates plain text into English with the configured services; undefined when none translates that language. */
export type ToEnglish = (text: string, from: string, signal: AbortSignal) => Promise<{ text: string, service: string } | undefined>

export interface AnalysisDeps {
  /** In preference order; the last ones are offline. */
  analyzers: readonly Analyzer[]
  detect: DetectText
  toEnglish: ToEnglish
  textChars: number
  /** Runs costly documents off the event loop (app.ts: the thread pool); absent, every document is worked inline. */
  documents?: DocumentRunner | undefined
}

export interface Analysis {
  analyze: (input: AnalyzeInput, signal: AbortSignal) => Promise<Analyzed>
}

export function createAnalysis (deps: AnalysisDeps): Analysis {
  return { analyze: async (input, signal) => await analyze(input, deps, signal) }
}

async function analyze (input: AnalyzeInput, deps: AnalysisDeps, signal: AbortSignal): Promise<Analyzed> {
  const { document } = input
  const parts = input.parts.length === 0 ? ANALYSIS_PARTS : [...new Set(input.parts)]
  const work = new DocumentWork(deps.documents, signal)
  const { mime } = await openDocument(document, deps.textChars, work, 'source')
  // HTML, Markdown and JSON are analysed on their text, never on markup; a catalog on its every source, its finished entries' too
  const sent = await textOfDocument(document.value, mime, work, { finished: 'source' })
  if (sent.trim() === '') throw invalidField(['document', 'value'], noTextMessage('analyse', mime))
  // analysers read it composed (a decomposed é is é to them: "Jose\u0301" was found as "Jose"), a zero-width space or
  // byte order mark as the space it stands for (one for one: offsets unchanged; "\uFEFFBarack Obama" was a name); entity offsets are mapped back
  const { text, toSent } = composedText(sent.replace(INVISIBLE_SPACES, ' '))

  let sourceLanguage: string
  let detected: Analyzed['detected']
  // "und" (undetermined) given is no language given: it is detected
  const given = document.language === undefined ? undefined : canonicalTag(document.language, ['document', 'language'])
  if (given !== undefined && given !== UNDETERMINED) {
    sourceLanguage = given
  } else {
    detected = await deps.detect(text)
    sourceLanguage = detected.language
  }
  // text with no detectable language (numbers, names, symbols) is read by the English analysers
  const language = sourceLanguage === UNDETERMINED ? ENGLISH : sourceLanguage

  const result: Analyzed = { sourceLanguage, text, ...(detected ? { detected } : {}) }
  // parts grouped by the first analyzer that reads the language; the rest need English
  const groups = new Map<Analyzer, AnalysisPart[]>()
  const viaEnglish: AnalysisPart[] = []
  for (const part of parts) {
    const analyzer = deps.analyzers.find(a => a.supports(part, language))
    if (analyzer === undefined) viaEnglish.push(part)
    else groups.set(analyzer, [...(groups.get(analyzer) ?? []), part])
  }

  /** The parts `analyzer` could not give, by the analyzers after it (natively, else in English). */
  const fallBack = async (analyzer: Analyzer, failed: readonly AnalysisPart[], fallbackFrom: NonNullable<PartRun['fallbackFrom']>): Promise<void> => {
    const others = deps.analyzers.filter(a => a !== analyzer)
    const native = failed.filter(part => others.some(a => a.supports(part, language)))
    const rest = failed.filter(part => !native.includes(part))
    await Promise.all([
      ...native.map(async part => {
        const fallback = others.find(a => a.supports(part, language))!
        store(result, await fallback.analyze(text, language, [part], signal), { analyzer: fallback.name, language, fallbackFrom }, text)
      }),
      ...(rest.length > 0 ? [analyzeInEnglish(result, text, sourceLanguage, rest, { ...deps, analyzers: others }, signal, fallbackFrom)] : [])
    ])
  }

  const runs: Array<Promise<void>> = []
  for (const [analyzer, asked] of groups) {
    runs.push((async () => {
      let answer: AnalysisAnswer
      try {
        answer = await analyzer.analyze(text, language, asked, signal)
      } catch (err) {
        // the client went away, or the last analyzer in line failed: nothing to fall back to
        if (signal.aborted || analyzer === deps.analyzers.at(-1)) throw err
        await fallBack(analyzer, asked, fallbackOf(analyzer.name, err))
        return
      }
      store(result, answer, { analyzer: analyzer.name, language }, text)
      // the valid parts of an answer stand; each part it could not give is answered by the next analyzer
      const failed = Object.entries(answer.failed ?? {}) as Array<[AnalysisPart, string]>
      if (failed.length === 0) return
      if (analyzer === deps.analyzers.at(-1)) throw new UpstreamError(analyzer.name, failed.map(([, reason]) => reason).join('; '))
      await Promise.all(failed.map(async ([part, reason]) => await fallBack(analyzer, [part], { analyzer: analyzer.name, reason: `${analyzer.name}: ${reason}` })))
    })())
  }
  if (viaEnglish.length > 0) runs.push(analyzeInEnglish(result, text, sourceLanguage, viaEnglish, deps, signal))
  await Promise.all(runs)
  if (toSent !== undefined) {
    result.text = sent
    if (result.entities?.offsetsIn === 'text') {
      const points = Array.from(sent)
      result.entities.entities = result.entities.entities.map(entity => ({ ...entity, mentions: entity.mentions.map(m => toSent(m, points)) }))
    }
  }
  return result
}

type Mention = FoundEntity['mentions'][number]

/** Characters that separate words unseen: a zero-width space, a byte order mark (a zero-width no-break space). */
const INVISIBLE_SPACES = /[\u200B\uFEFF]/g

/**
 * `sent` composed (NFC), and, when that changed it, the mapping of a mention in the composed text
 * back to the text as sent. Composition works within a letter and its marks; where it reached
 * across them (Hangul jamo), the text is analysed as sent.
 */
function composedText (sent: string): { text: string, toSent?: (mention: Mention, points: readonly string[]) => Mention } {
  const text = sent.normalize('NFC')
  if (text === sent) return { text }
  // code-point offsets of each cluster's start: in the composed text -> in the text as sent
  const starts = new Map<number, number>()
  let composedAt = 0
  let sentAt = 0
  let joined = ''
  for (const [cluster] of sent.matchAll(/\P{M}\p{M}*|\p{M}+/gu)) {
    starts.set(composedAt, sentAt)
    const one = cluster.normalize('NFC')
    joined += one
    composedAt += codePointLength(one)
    sentAt += codePointLength(cluster)
  }
  starts.set(composedAt, sentAt)
  if (joined !== text) return { text: sent }
  const at = (offset: number): number => {
    for (let o = offset; o >= 0; o--) {
      const found = starts.get(o)
      if (found !== undefined) return found
    }
    return 0
  }
  return {
    text,
    toSent: (m, points) => {
      const offset = at(m.offset)
      const length = at(m.offset + m.length) - offset
      return { ...m, offset, length, text: points.slice(offset, offset + length).join('') }
    }
  }
}

/** Why an analyzer failed: a service error's detail (our words), never another error's message. */
function fallbackOf (analyzer: string, err: unknown): NonNullable<PartRun['fallbackFrom']> {
  if (!(err instanceof ServiceError)) return { analyzer, reason: `${analyzer}: failed unexpectedly` }
  return { analyzer, reason: err.message, ...(err.engineMessage === undefined ? {} : { engineMessage: err.engineMessage }) }
}

/** The parts no analyzer reads in the text's language: run on its English translation. */
async function analyzeInEnglish (result: Analyzed, text: string, from: string, parts: AnalysisPart[], deps: AnalysisDeps, signal: AbortSignal,
  fallbackFrom?: PartRun['fallbackFrom']): Promise<void> {
  const analyzer = deps.analyzers.find(a => parts.every(part => a.supports(part, ENGLISH)))
  const translated = analyzer === undefined ? undefined : await deps.toEnglish(text, from, signal)
  if (analyzer === undefined || translated === undefined) {
    throw new NothingConfiguredError('analysis',
      `No analyser reads ${from} (${parts.join(', ')}), and no configured translation service translates ${from} into English to analyse it there.`)
  }
  store(result, await analyzer.analyze(translated.text, ENGLISH, parts, signal), {
    analyzer: analyzer.name, language: ENGLISH, translatedBy: translated.service, ...(fallbackFrom ? { fallbackFrom } : {})
  }, translated.text, text)
}

/**
 * Puts an analyzer's answer on `analysed` into the result. Entities an analyzer could not locate (a
 * generative model only names and counts them) are located in `analysed`, and dropped when their
 * name is not written there (a model may make one up, or name a piece of a word): every entity
 * answered has offsets in the text. Entities found in a translation are pointed back at the
 * `original` text when their name is written there unchanged (names usually are).
 */
function store (result: Analyzed, answer: AnalysisAnswer, run: PartRun, analysed: string, original?: string): void {
  if (answer.sentiment) result.sentiment = { ...run, score: answer.sentiment }
  if (answer.moderation) result.moderation = { ...run, categories: answer.moderation }
  if (answer.categories) result.categories = { ...run, categories: answer.categories }
  if (answer.entities) {
    const entities = answer.entities
      .map(entity => entity.mentions.length > 0 ? entity : locateEntity(entity, analysed))
      .filter(entity => entity.mentions.length > 0)
    if (original === undefined) {
      result.entities = { ...run, entities, offsetsIn: 'text' }
    } else {
      const mapped = entities.map(entity => mapBack(entity, original))
      const all = mapped.every(m => m.mapped)
      result.entities = { ...run, entities: mapped.map(m => m.entity), offsetsIn: all ? 'text' : 'translation' }
    }
  }
}

/**
 * An entity with its name's mentions located in `text`. The analyzer's count stands where it
 * counted more (aliases), up to one mention per character of the text: a model's number is not
 * taken beyond what the text can hold.
 */
function locateEntity (entity: FoundEntity, text: string): FoundEntity {
  const mentions = locate(text, entity.name)
  const most = Math.max(codePointLength(text), mentions.length)
  return { ...entity, mentions, count: Math.min(Math.max(entity.count ?? 0, mentions.length, 1), most) }
}

/** An entity of the translation with its mentions located in the original text, when its name is written there. */
function mapBack (entity: FoundEntity, original: string): { entity: FoundEntity, mapped: boolean } {
  const forms = [...new Set([entity.name, ...entity.mentions.map(m => m.text)])]
  const mentions = forms.flatMap(form => locate(original, form))
  if (mentions.length === 0) return { entity, mapped: false }
  // a longer form found at a place covers the shorter one found inside it
  mentions.sort((a, b) => a.offset - b.offset || b.length - a.length)
  const kept = mentions.filter((m, i) => i === 0 || m.offset >= mentions[i - 1]!.offset + mentions[i - 1]!.length)
  return { entity: { ...entity, mentions: kept, count: Math.max(entity.count ?? entity.mentions.length, kept.length) }, mapped: true }
}

/** Whole-word literal occurrences of `form` in `text`, in code points. */
function locate (text: string, form: string): FoundEntity['mentions'] {
  const out: FoundEntity['mentions'] = []
  if (form === '') return out
  const length = codePointLength(form)
  const toPoint = codePointOffsets(text)
  for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
    const before = text.codePointAt(at - 1)
    const after = text.codePointAt(at + form.length)
    if (isWordChar(before) || isWordChar(after)) continue
    out.push({ offset: toPoint(at), length, text: form })
  }
  return out
}

const WORD_CHAR = /[\p{L}\p{N}]/u
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff
const isWordChar = (c: number | undefined): boolean => c !== undefined && !isLowSurrogate(c) && WORD_CHAR.test(String.fromCodePoint(c))
