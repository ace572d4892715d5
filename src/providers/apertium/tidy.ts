/**
 * Cleans what Apertium leaves behind, judged against the source segment: spaces left by dropped
 * words (subject pronouns: "I have" -> " Tengo"; "Are you sure you want" -> "Eres seguro  quieres")
 * and the capital Apertium gives the first word of every sentence ("save changes" -> "Salva
 * cambios", "{name} has invited you" -> "{name} Te ha invitado"). Nothing is changed where the
 * source itself has the same shape (double spaces, leading spaces, a capital first word).
 */
import type { TaggedPart } from '../../core/tagged.js'

type Atom = { char: string } | { part: TaggedPart }

const BREAK = /[\n\v\f\r\x85\u2028\u2029]/
const LINE_SPLIT = /[\n\v\f\r\x85\u2028\u2029]+/
// a protected token counts as a word-like character
const TOKEN = '\uFFFC'

function shape (parts: readonly TaggedPart[]): string {
  let out = ''
  for (const p of parts) {
    if (p.type === 'text') out += p.text
    else if (p.type === 'token') out += TOKEN
  }
  return out
}

function toAtoms (parts: readonly TaggedPart[]): Atom[] {
  const atoms: Atom[] = []
  for (const part of parts) {
    if (part.type === 'text') for (const char of part.text) atoms.push({ char })
    else atoms.push({ part })
  }
  return atoms
}

function toParts (atoms: readonly Atom[]): TaggedPart[] {
  const parts: TaggedPart[] = []
  for (const atom of atoms) {
    const last = parts.at(-1)
    if ('part' in atom) parts.push(atom.part)
    else if (last?.type === 'text') last.text += atom.char
    else parts.push({ type: 'text', text: atom.char })
  }
  return parts
}

/** The character an atom stands for in the shape ('' for tags). */
function charOf (atom: Atom): string {
  if ('char' in atom) return atom.char
  return atom.part.type === 'token' ? TOKEN : ''
}

/** Drops spaces at the start of every line (or at the end, walking backwards). */
function dropLineEdgeSpaces (atoms: Atom[], backwards: boolean): Atom[] {
  const order = backwards ? [...atoms].reverse() : atoms
  const kept: Atom[] = []
  let atEdge = true
  for (const atom of order) {
    const c = charOf(atom)
    if (c === ' ' && atEdge) continue
    if (BREAK.test(c)) atEdge = true
    else if (c !== '') atEdge = false
    kept.push(atom)
  }
  return backwards ? kept.reverse() : kept
}

function collapseSpaces (atoms: Atom[]): Atom[] {
  let previousSpace = false
  return atoms.filter(atom => {
    const c = charOf(atom)
    if (c === '') return true
    const keep = !(c === ' ' && previousSpace)
    previousSpace = c === ' '
    return keep
  })
}

/** Lower-cases the first word of each output line whose source line starts in lower case. */
function uncapitalize (atoms: Atom[], source: string): void {
  const sourceLines = source.split(LINE_SPLIT)
  const lines: number[][] = [[]]
  atoms.forEach((atom, i) => {
    const c = charOf(atom)
    if (BREAK.test(c)) {
      if (lines.at(-1)!.length > 0) lines.push([])
    } else if (c !== '') {
      lines.at(-1)!.push(i)
    }
  })
  if (lines.at(-1)!.length === 0) lines.pop()
  const nonEmptySource = sourceLines.filter(l => l !== '')
  if (nonEmptySource.length !== lines.length) return
  lines.forEach((line, n) => {
    const first = /\p{L}/u.exec(nonEmptySource[n]!)?.[0]
    if (first === undefined || !/\p{Ll}/u.test(first)) return
    const at = line.findIndex(i => /\p{L}/u.test(charOf(atoms[i]!)))
    if (at === -1) return
    const capital = atoms[line[at]!]!
    const next = line[at + 1] === undefined ? '' : charOf(atoms[line[at + 1]!]!)
    // one-letter words ("I", "A") and acronyms stay as they are
    if (!/\p{Lu}/u.test(charOf(capital)) || !/\p{Ll}/u.test(next)) return
    atoms[line[at]!] = { char: charOf(capital).toLowerCase() }
  })
}

/** The translated parts with Apertium's spacing and capitalisation artifacts removed. */
export function tidy (output: readonly TaggedPart[], source: readonly TaggedPart[]): TaggedPart[] {
  const src = shape(source)
  let atoms = toAtoms(output)
  const startsWithSpace = src.split(LINE_SPLIT).some(line => line.startsWith(' '))
  const endsWithSpace = src.split(LINE_SPLIT).some(line => line.endsWith(' '))
  if (!startsWithSpace) atoms = dropLineEdgeSpaces(atoms, false)
  if (!endsWithSpace) atoms = dropLineEdgeSpaces(atoms, true)
  if (!src.includes('  ')) atoms = collapseSpaces(atoms)
  uncapitalize(atoms, src)
  return toParts(atoms)
}
