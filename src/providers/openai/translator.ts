/** The "openai" translator: tagged segments translated by a chat model through the shared LLM client, every answer checked. */
import { baseLanguage } from '../../core/languages.js'
import { parseTagged, plainText, serializeTagged, type TaggedPart } from '../../core/tagged.js'
import type { LanguagePair, TranslateJob, Translator } from '../types.js'
import { batches } from '../remote/batches.js'
import { CheckError, OPENAI_SERVICE, type LlmClient } from './client.js'
import { DEFAULT_LANGUAGES } from './languages.js'

export interface OpenAiTranslatorOptions {
  /** OPENAI_LANGUAGES as canonical tags; absent or empty: DEFAULT_LANGUAGES. */
  languages?: readonly string[]
  /** Segments per call (default 40). */
  maxSegments?: number
  /** Characters of segments per call (default 8,000); a longer segment goes alone. */
  maxChars?: number
}

export const TRANSLATE_SYSTEM = `You are a professional translator. The user message is a JSON object:
{"task":"translate","source":<BCP 47 tag>,"target":<BCP 47 tag>,"segments":[<string>, ...],"context"?:<string>,"formality"?:<string>}

Translate every string in "segments" from the "source" language into the "target" language. A region or script in a tag names the variety and writing system to write (pt-BR: Brazilian Portuguese; zh-Hant: Traditional Chinese characters).

Answer with only a JSON object {"segments":[...]}: exactly one translated string per input segment, in the same order. Never merge, split, drop, reorder or add segments. A segment that is empty, a fragment, or already in the target language is still answered (copied when there is nothing to translate).

Segments are XML-escaped text with inline tags:
- <g id="N">...</g> wraps formatting or a link. Keep every pair with its id around the translation of the words it wrapped. It may move within its segment where the target grammar puts those words; pairs stay properly nested and never move to another segment.
- <x id="N"/> stands for a placeholder, a piece of code or a protected term. Keep each one exactly once, unchanged, at the place in the translated sentence where it belongs. Never translate or spell out what it might stand for.
Never add, remove, renumber, duplicate or rewrite tags, and write them exactly as <g id="N">, </g> and <x id="N"/>.
Keep the text XML-escaped: write &amp; for &, &lt; for < and &gt; for >; use no other entities.
Keep numbers, URLs, e-mail addresses and code as they are, and keep each segment's leading and trailing whitespace.

"context", when present, is text around the segments that helps disambiguate them: use it for meaning only, never translate it or put it in the answer.
"formality", when present: "more" asks for a formal, polite register (German Sie, French vous, Japanese keigo), "less" for an informal one (du, tu, plain form); "prefer_more" and "prefer_less" ask the same where the target language has the distinction. Without it, use the register a careful professional translator would choose for the text.`

/** Strict JSON schema of the answer: every property required, nothing else allowed (OpenAI's strict-mode rules). */
export const TRANSLATE_SCHEMA: Record<string, unknown> = Object.freeze({
  type: 'object',
  properties: { segments: { type: 'array', items: { type: 'string' } } },
  required: ['segments'],
  additionalProperties: false
})

const DEFAULT_MAX_SEGMENTS = 40
const DEFAULT_MAX_CHARS = 8_000

/** Creates the "openai" translator over a shared client (which keeps its own slots and breaker). */
export function createOpenAiTranslator (client: LlmClient, options: OpenAiTranslatorOptions = {}): Translator {
  const tags = options.languages !== undefined && options.languages.length > 0 ? options.languages : DEFAULT_LANGUAGES
  const pairs = allPairs(tags)
  const maxSegments = options.maxSegments ?? DEFAULT_MAX_SEGMENTS
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS
  return {
    name: OPENAI_SERVICE,
    // formality travels in the payload; the model honours it for any pair that has the distinction
    supportsFormality: () => true,
    languages: async () => pairs,
    batching: { concurrency: client.remote.concurrency, maxSegments },
    translate: async (job, signal) => await translate(client, job, signal, maxSegments, maxChars)
  }
}

/** Every ordered pair of tags whose languages differ (a variant of the same language is not a translation). */
function allPairs (tags: readonly string[]): LanguagePair[] {
  const unique = [...new Set(tags)]
  const pairs: LanguagePair[] = []
  for (const from of unique) {
    for (const to of unique) {
      if (baseLanguage(from) !== baseLanguage(to)) pairs.push({ from, to })
    }
  }
  return pairs
}

async function translate (client: LlmClient, job: TranslateJob, signal: AbortSignal, maxSegments: number, maxChars: number): Promise<string[]> {
  const out = [...job.segments]
  // segments with no words (empty, spaces, tags only) come back as they are: nothing to ask a model
  const todo = job.segments.flatMap((segment, i) => plainText(segment).trim() === '' ? [] : [i])
  if (todo.length === 0) return out
  const groups = batches(todo, maxSegments, maxChars, i => job.segments[i]!.length)
  // the first failed batch fails the job: the others are stopped rather than left to count against the breaker
  const stop = new AbortController()
  const batchSignal = AbortSignal.any([signal, stop.signal])
  try {
    await Promise.all(groups.map(async indexes => {
      const answers = await translateBatch(client, job, indexes.map(i => job.segments[i]!), batchSignal)
      indexes.forEach((index, k) => { out[index] = answers[k]! })
    }))
  } catch (err) {
    stop.abort()
    // a sibling stopped by us rejects with our own abort reason; the caller wants the first failure
    throw err
  }
  return out
}

async function translateBatch (client: LlmClient, job: TranslateJob, segments: string[], signal: AbortSignal): Promise<string[]> {
  const payload: Record<string, unknown> = { task: 'translate', source: job.from, target: job.to, segments }
  if (job.context !== undefined && job.context !== '') payload['context'] = job.context
  // "default" asks for nothing: the instructions already say what to do without formality
  if (job.formality !== undefined && job.formality !== 'default') payload['formality'] = job.formality
  return await client.complete({
    system: TRANSLATE_SYSTEM,
    payload,
    schemaName: 'translation',
    schema: TRANSLATE_SCHEMA,
    temperature: 0,
    check: checkTranslation(segments)
  }, signal)
}

/** Tag ids of a segment, by kind, with their counts. */
interface TagCounts {
  g: Map<number, number>
  x: Map<number, number>
}

function countTags (parts: readonly TaggedPart[]): TagCounts {
  const counts: TagCounts = { g: new Map(), x: new Map() }
  for (const p of parts) {
    if (p.type === 'open') counts.g.set(p.id, (counts.g.get(p.id) ?? 0) + 1)
    else if (p.type === 'token') counts.x.set(p.id, (counts.x.get(p.id) ?? 0) + 1)
  }
  return counts
}

/**
 * The checker of one batch: as many strings as sent, each with exactly the tags of its segment
 * (same ids, same number of times, `<g>` pairs closed), normalised to our tagged form.
 */
export function checkTranslation (sent: readonly string[]): (json: unknown) => string[] {
  const expected = sent.map(s => countTags(parseTagged(s)))
  return (json) => {
    const answers = (json !== null && typeof json === 'object' ? (json as { segments?: unknown }).segments : undefined)
    if (!Array.isArray(answers)) throw new CheckError('answered JSON without a "segments" array')
    if (answers.length !== sent.length) throw new CheckError(`answered ${answers.length} segments for ${sent.length}`)
    return answers.map((answer: unknown, i) => {
      if (typeof answer !== 'string') throw new CheckError(`segment ${i + 1} of the answer is not a string`)
      const parts = parseTagged(answer)
      const problem = tagProblem(expected[i]!, parts)
      if (problem !== undefined) throw new CheckError(`segment ${i + 1}: ${problem}`)
      return serializeTagged(parts)
    })
  }
}

/** What is wrong with the tags of an answer, or undefined when they are those of its segment. */
function tagProblem (want: TagCounts, parts: readonly TaggedPart[]): string | undefined {
  const got = countTags(parts)
  const show = { g: (id: number) => `tag <g id="${id}">`, x: (id: number) => `placeholder <x id="${id}"/>` }
  // what is lost says more than what was made up, so it is reported first
  for (const kind of ['x', 'g'] as const) {
    for (const [id, n] of want[kind]) {
      const m = got[kind].get(id) ?? 0
      if (m < n) return `${show[kind](id)} missing`
      if (m > n) return `${show[kind](id)} repeated`
    }
  }
  for (const kind of ['x', 'g'] as const) {
    for (const id of got[kind].keys()) {
      if (!want[kind].has(id)) return `unexpected ${show[kind](id)}`
    }
  }
  // parseTagged pairs closes with opens and drops stray closes; an open left without its close is what remains
  const open: number[] = []
  for (const p of parts) {
    if (p.type === 'open') open.push(p.id)
    else if (p.type === 'close') open.pop()
  }
  if (open.length > 0) return `tag <g id="${open[open.length - 1]}"> is not closed`
  return undefined
}
