/** What the OpenAI translator and editor share: segments with words sent in batches, the rest kept as they are. */
import { parseTagged, plainText, serializeTagged, type TaggedPart } from '../../core/tagged.js'
import { CheckError } from './client.js'
import { batches, runBatches } from '../../upstream/batches.js'

export interface SegmentBatching {
  /** Segments per call. */
  maxSegments: number
  /** Characters of segments per call; a longer segment goes alone. */
  maxChars: number
}

/**
 * Every segment with words goes through `run` in batches (all at once: the client's slots bound
 * them); segments with no words (empty, spaces, tags only) come back as they are, since there is
 * nothing to ask a model. The first failed batch fails the whole and stops the others.
 */
export async function answerSegments (segments: readonly string[], batching: SegmentBatching, signal: AbortSignal,
  run: (batch: string[], signal: AbortSignal) => Promise<string[]>): Promise<string[]> {
  const out = [...segments]
  const todo = segments.flatMap((segment, i) => plainText(segment).trim() === '' ? [] : [i])
  if (todo.length === 0) return out
  const groups = batches(todo, batching.maxSegments, batching.maxChars, i => segments[i]!.length)
  const answers = await runBatches(groups.map(indexes => indexes.map(i => segments[i]!)), signal, run)
  todo.forEach((index, k) => { out[index] = answers[k]! })
  return out
}

/** Strict JSON schema of a translate or edit answer: every property required, nothing else allowed (OpenAI's strict-mode rules). */
export const SEGMENTS_SCHEMA: Record<string, unknown> = Object.freeze({
  type: 'object',
  properties: { segments: { type: 'array', items: { type: 'string' } } },
  required: ['segments'],
  additionalProperties: false
})

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
export function checkSegments (sent: readonly string[]): (json: unknown) => string[] {
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
