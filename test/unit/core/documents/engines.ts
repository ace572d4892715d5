/**
 * Stand-ins for translation engines in document tests: real functions over real tagged text,
 * each transforming what an engine may transform (text, word order, tags).
 */
import { readFileSync } from 'node:fs'
import { parseTagged, serializeTagged, type TaggedPart } from '../../../../src/core/tagged.js'

/** A fixture document of this folder. */
export function fixture (name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')
}

/** Uppercases the text of a tagged segment, tags untouched. */
export function upper (segment: string): string {
  return serializeTagged(parseTagged(segment).map(p => p.type === 'text' ? { ...p, text: p.text.toUpperCase() } : p))
}

/**
 * Reverses the order of the words of a segment; an inline pair moves as one unit with its words,
 * a token as a word. "The <g id="1">red</g> car." -> "car. <g id="1">red</g> The".
 */
export function reverseWords (segment: string): string {
  const units: TaggedPart[][] = []
  let group: TaggedPart[] | undefined
  let depth = 0
  for (const p of parseTagged(segment)) {
    if (depth > 0) {
      group!.push(p)
      if (p.type === 'open') depth++
      if (p.type === 'close' && --depth === 0) units.push(group!)
    } else if (p.type === 'open') {
      group = [p]
      depth = 1
    } else if (p.type === 'text') {
      for (const word of p.text.split(/\s+/).filter(Boolean)) units.push([{ type: 'text', text: word }])
    } else {
      units.push([p])
    }
  }
  return units.reverse().map(u => serializeTagged(u)).join(' ')
}

/** Drops every tag of a segment, keeping its text. */
export function dropTags (segment: string): string {
  return serializeTagged(parseTagged(segment).filter(p => p.type === 'text'))
}

/** Writes every tag twice (a pair as a nested pair with the same id, a token twice). */
export function duplicateTags (segment: string): string {
  return serializeTagged(parseTagged(segment).flatMap((p): TaggedPart[] => p.type === 'text' ? [p] : [p, p]))
}

/** An engine answering from a table of known segments, like a recorded exchange. */
export function recorded (answers: Record<string, string>): (segment: string) => string {
  return segment => {
    const answer = answers[segment]
    if (answer === undefined) throw new Error(`no recorded answer for ${JSON.stringify(segment)}`)
    return answer
  }
}
