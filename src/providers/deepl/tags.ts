/** Checks that a DeepL answer kept every tag of its segment, and normalizes it to our tagged form. */
import { parseTagged, serializeTagged } from '../../core/tagged.js'

/** The segment's tags as a sorted list: each open, close and token with its id. */
function tagsOf (parts: ReturnType<typeof parseTagged>): string {
  const tags: string[] = []
  for (const p of parts) if (p.type !== 'text') tags.push(`${p.type}:${p.id}`)
  return tags.sort().join(' ')
}

/**
 * The answer in canonical tagged form when it holds exactly the tags that were sent (order may
 * change: word order does); undefined when a tag went missing, was duplicated or made up.
 */
export function keptTags (sent: string, answer: string): string | undefined {
  const parts = parseTagged(answer)
  return tagsOf(parts) === tagsOf(parseTagged(sent)) ? serializeTagged(parts) : undefined
}
