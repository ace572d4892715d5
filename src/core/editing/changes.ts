/**
 * The `changes` of an edit: a word-level diff of each original string against its edited form,
 * offsets and lengths in code points of the original string, each change attributed to the edit
 * type that made it where the editor said so. Long texts are diffed in two steps: their sentences
 * and lines first, then the words of each changed sentence against its edited form, so that an
 * edit of every sentence of a long text costs a few short diffs rather than one long one.
 */
import { diffArrays, diffWordsWithSpace } from 'diff'
import type { EditNote, EditType } from '../ports.js'
import { codePointLength, utf16Offsets } from '../code-points.js'

export interface Change {
  /** Code points into the original string. */
  offset: number
  length: number
  original: string
  replacement: string
  /**
   * The edit type that made it, or "edit" when several edits were asked and the editor cannot say
   * which; of a change several notes made (one word two rules changed), the first note's.
   */
  type: EditType | 'edit'
  /** Why, when the editor said (the reasons of several notes joined by "; "). */
  reason?: string
  /** JSON Pointer of the string leaf inside a JSON document value (absent for a string value). */
  path?: string
}

/**
 * Past this many edited words (or sentences) a diff gives up for one change over the differing
 * middle: it bounds the diff's time (about n x this many steps for n words).
 */
const MAX_EDIT_LENGTH = 2_000

/** The changes turning `before` into `after`. */
export function diffChanges (before: string, after: string, notes: readonly EditNote[], asked: readonly EditType[], path?: string): Change[] {
  return stringChanges(before, after, { notes, first: 0, taken: new Uint8Array(notes.length) }, asked, path).changes
}

/**
 * The notes a string's changes are attributed to: a JSON leaf's own notes lie from `first` on (a
 * window of the document's, so that a leaf costs the same in a document of any size); `taken`
 * flags the notes a change took, the document's flags where a leaf's window is a view of them.
 */
interface NoteWindow {
  notes: readonly EditNote[]
  first: number
  taken: Uint8Array
}

/** The changes turning `before` into `after`, and the index past the last note they took (0 for none). */
function stringChanges (before: string, after: string, window: NoteWindow, asked: readonly EditType[], path?: string): { changes: Change[], past: number } {
  if (before === after) return { changes: [], past: 0 }
  const inTurn = { next: window.first }
  const sentences = sentenceHunks(before, after, window.notes.length === 0 ? undefined : (original, edited, base) => notesInTurn(original, edited, base, window, inTurn))
  const single = new Set(asked).size === 1 ? asked[0] : undefined
  const placed = placedByNotes(before, sentences.hunks, sentences.by, window)
  const madeBy = attribution(before, placed.hunks, window, placed.by)
  const index = new Map(window.notes.map((note, k) => [note, k]))
  let past = 0
  const changes = placed.hunks.map((hunk, i): Change => {
    const by = madeBy[i]
    for (const note of by ?? []) past = Math.max(past, index.get(note)! + 1)
    return {
      ...hunk,
      type: by?.[0]!.type ?? single ?? 'edit',
      ...(by ? { reason: [...new Set(by.map(note => note.reason))].join('; ') } : {}),
      ...(path === undefined ? {} : { path })
    }
  })
  return { changes, past }
}

/** Unchanged text either side of a run of hunks that a note placed there may take in (code points): the "," of a note's " ," past a hunk that ends at its space. */
const CONTEXT = 32
/** Notes looked through from the one after the last taken, before all of them (a segment's may come after the next's: an HTML attribute's after its text); a JSON leaf's window reaches as far back. */
const NOTE_WINDOW = 64

/**
 * The hunks of sentences `notesInTurn` did not make (those it made, `preset`, are kept with their
 * notes) made again from the editor's notes where the notes account for them exactly: each
 * run of hunks close together, with a word of unchanged text either side, that notes applied at
 * their places in the original turn into its edited text becomes each note's own change (`by`:
 * the note's index). The word diff of a sentence may align its changes otherwise than the rules
 * made them ("great  phone ," -> "great phone,": "  phone" deleted and "phone" put back before the
 * comma, for "  " -> " " and " ," -> ","); a run the notes do not account for so (a word two
 * rules changed in turn) stays as the diff cut it, for `attribution`.
 */
function placedByNotes (before: string, hunks: readonly Hunk[], preset: ReadonlyArray<readonly number[] | undefined>, { notes, first, taken: used }: NoteWindow): { hunks: Hunk[], by: Array<readonly number[] | undefined> } {
  if (notes.length === 0) return { hunks: [...hunks], by: [] }
  const points = Array.from(before)
  const end = (k: number): number => hunks[k]!.offset + hunks[k]!.length
  const text = (from: number, to: number): string => points.slice(from, to).join('')
  const out: Hunk[] = []
  const by: Array<readonly number[] | undefined> = []
  let next = first
  let floor = 0
  let tests = MAX_NOTE_TESTS
  const candidates = (original: string, from: number, to: number): Map<string, number[]> => {
    const found = new Map<string, number[]>()
    for (let k = from; k < to; k++) {
      const note = notes[k]!
      if (used[k] === 1 || note.original === '' || !original.includes(note.original)) continue
      // notes alike are one candidate: a text with a thousand "  " -> " " tries one
      const key = JSON.stringify([note.original, note.replacement, note.type, note.reason])
      const same = found.get(key)
      if (same === undefined) found.set(key, [k])
      else same.push(k)
    }
    return found
  }
  // the run from hunk i to hunk j with the unchanged text either side a note may take in
  const run = (i: number, j: number): { from: number, original: string, replacement: string } => {
    const from = contextBefore(points, hunks[i]!.offset, Math.max(floor, i > 0 ? end(i - 1) : 0))
    const to = contextAfter(points, end(j), j + 1 < hunks.length ? hunks[j + 1]!.offset : points.length)
    let replacement = text(from, hunks[i]!.offset) + hunks[i]!.replacement
    for (let k = i + 1; k <= j; k++) replacement += text(end(k - 1), hunks[k]!.offset) + hunks[k]!.replacement
    return { from, original: text(from, to), replacement: replacement + text(end(j), to) }
  }
  // the shortest run from hunk i (up to NEIGHBOURS more, close together) that notes account for
  const placedFrom = (i: number, widest: number, found: Map<string, number[]>): { j: number, from: number, original: string, placements: Array<{ at: number, k: number }> } | undefined => {
    for (let j = i; j <= widest; j++) {
      const { from, original, replacement } = run(i, j)
      const placements = placeNotes(original, replacement, notes, new Map([...found].map(([key, same]) => [key, [...same]])))
      if (placements !== undefined) return { j, from, original, placements }
    }
    return undefined
  }
  for (let i = 0; i < hunks.length;) {
    if (preset[i] !== undefined) {
      out.push(hunks[i]!)
      by.push(preset[i])
      floor = end(i)
      i++
      continue
    }
    let widest = i
    while (widest + 1 < hunks.length && preset[widest + 1] === undefined && widest - i < NEIGHBOURS && hunks[widest + 1]!.offset - end(widest) <= MAX_GAP && end(widest + 1) - hunks[i]!.offset <= MAX_SPAN) widest++
    let placed: ReturnType<typeof placedFrom>
    if (end(widest) - hunks[i]!.offset <= MAX_SPAN) {
      const { original } = run(i, widest)
      placed = placedFrom(i, widest, candidates(original, next, Math.min(notes.length, next + NOTE_WINDOW)))
      if (placed === undefined && tests >= notes.length) {
        tests -= notes.length
        placed = placedFrom(i, widest, candidates(original, 0, notes.length))
      }
    }
    if (placed === undefined) {
      out.push(hunks[i]!)
      by.push(undefined)
      floor = end(i)
      i++
      continue
    }
    for (const { at, k } of placed.placements) {
      const note = notes[k]!
      used[k] = 1
      next = Math.max(next, k + 1)
      const offset = placed.from + codePointLength(placed.original.slice(0, at))
      for (const hunk of wordHunks(note.original, note.replacement, offset)) {
        out.push(hunk)
        by.push([k])
      }
      floor = offset + codePointLength(note.original)
    }
    i = placed.j + 1
  }
  return { hunks: out, by }
}

/** A changed sentence's changes and the notes that made each (none: `[]`), or undefined where its notes do not make them. */
type PlaceSentence = (original: string, edited: string, base: number) => { hunks: Hunk[], by: Array<readonly number[] | undefined> } | undefined

/** Longest changed sentence (UTF-16 units) whose notes are applied in turn: each note applied copies it. */
const MAX_IN_TURN = 4_000

/** What notes applied in turn changed: `start`-`end` of the text now, `from`-`to` of the original (UTF-16). */
interface Made {
  start: number
  end: number
  from: number
  to: number
  /** In the order applied; none for a run of spaces no note changed. */
  notes: number[]
}

/**
 * A changed sentence's changes made from the editor's notes themselves: each note is applied
 * where the text first differs from the edited sentence (the first note not taken yet, in the
 * editor's order, whose words there cover that place), cut to what it changes ("the the" ->
 * "the" deletes " the") and mapped back to the original; a note that changes what an earlier one
 * put makes one change with it ("dont" -> "don't" -> "Don't"). A run of spaces that differs where
 * no note applies (HTML shows a run as one space: its editor saw one) is a change no note made.
 * The word diff of the sentence may align the rules' changes otherwise ("We went  home ,didnt we ?":
 * "  home" deleted and "home" put back before the comma). Undefined when the notes do not rebuild
 * the edited sentence so: its word diff is attributed instead.
 */
function notesInTurn (before: string, after: string, base: number, { notes, taken: used }: NoteWindow, cursor: { next: number }): ReturnType<PlaceSentence> {
  if (before === after) return { hunks: [], by: [] }
  if (before.length > MAX_IN_TURN || after.length > MAX_IN_TURN) return undefined
  let text = before
  const made: Made[] = []
  const taken = new Set<number>()
  let next = cursor.next
  // where a place of the text outside what was made lies in the original: a start after an empty change's deletion, an end before it
  const origin = (at: number, side: 'start' | 'end'): number => {
    let from = at
    for (const m of made) {
      if (m.end < at || (m.end === at && (side === 'start' || m.start < m.end))) from = m.to + at - m.end
      else break
    }
    return from
  }
  const apply = (s: number, e: number, replacement: string, ks: readonly number[]): void => {
    // what was made that this overlaps (an insertion, an insertion at its place) is made again with it
    const overlaps = (m: Made): boolean => (s < m.end && m.start < e) || (s === e && m.start === s && m.end === s)
    let first = made.findIndex(overlaps)
    let count = 0
    if (first === -1) first = made.filter(m => m.end <= s).length
    else while (first + count < made.length && overlaps(made[first + count]!)) count++
    const head = count > 0 ? made[first]! : undefined
    const tail = count > 0 ? made[first + count - 1]! : undefined
    const delta = replacement.length - (e - s)
    const merged: Made = {
      start: Math.min(s, head?.start ?? s),
      end: Math.max(e, tail?.end ?? e) + delta,
      from: head !== undefined && head.start <= s ? head.from : origin(s, 'start'),
      to: tail !== undefined && tail.end >= e ? tail.to : origin(e, 'end'),
      notes: [...made.slice(first, first + count).flatMap(m => m.notes), ...ks]
    }
    made.splice(first, count, merged)
    for (let k = first + 1; k < made.length; k++) {
      made[k]!.start += delta
      made[k]!.end += delta
    }
    text = text.slice(0, s) + replacement + text.slice(e)
  }
  // the first note not taken, from the one after the last taken (then before it), whose words at a place cover `d` (else end there)
  const covering = (d: number): { k: number, at: number } | undefined => {
    const lo = Math.max(0, next - NOTE_WINDOW)
    const hi = Math.min(notes.length, next + NOTE_WINDOW)
    for (const touching of [false, true]) {
      for (let step = 0; step < hi - lo; step++) {
        const k = next + step < hi ? next + step : next - 1 - (step - (hi - next))
        if (used[k] === 1 || taken.has(k)) continue
        const { original } = notes[k]!
        if (original === '') continue
        const to = touching ? d - original.length : d
        for (let at = Math.max(0, d - original.length + (touching ? 0 : 1)); at <= to; at++) {
          if (wholeAt(original, text, at)) return { k, at }
        }
      }
    }
    return undefined
  }
  let same = 0
  for (let steps = 0; steps <= before.length + after.length + 1; steps++) {
    while (same < text.length && same < after.length && text[same] === after[same]) same++
    if (same === text.length && same === after.length) return placedMade(before, text, base, made, notes, taken, used, cursor, next)
    const found = covering(same)
    if (found !== undefined) {
      const { original, replacement } = notes[found.k]!
      const { head, tail } = commonTokens(original, replacement)
      taken.add(found.k)
      if (found.k >= next) next = found.k + 1
      apply(found.at + head, found.at + original.length - tail, replacement.slice(head, replacement.length - tail), [found.k])
      same = Math.min(same, found.at + head)
      continue
    }
    // a run of spaces written otherwise, which no note changed
    let s = same
    while (s > 0 && isSpace(text[s - 1])) s--
    let e = same
    while (isSpace(text[e])) e++
    let edited = same
    while (isSpace(after[edited])) edited++
    if (e === s || edited === s || text.slice(s, e) === after.slice(s, edited)) {
      // the notes this sentence took are likely its own: the next sentence's are looked for after them
      cursor.next = Math.max(cursor.next, next)
      return undefined
    }
    apply(s, e, after.slice(s, edited), [])
    same = s
  }
  return undefined
}

/** The changes the notes applied in turn made (`notesInTurn`), each with its notes; the notes marked taken. */
function placedMade (before: string, text: string, base: number, made: readonly Made[], notes: readonly EditNote[], taken: ReadonlySet<number>, used: Uint8Array, cursor: { next: number }, next: number): ReturnType<PlaceSentence> {
  for (const k of taken) used[k] = 1
  cursor.next = Math.max(cursor.next, next)
  const hunks: Hunk[] = []
  const by: Array<readonly number[] | undefined> = []
  let offset = base
  let at = 0
  made.forEach((m, i) => {
    offset += codePointLength(before.slice(at, m.from))
    at = m.from
    const original = before.slice(m.from, m.to)
    const replacement = text.slice(m.start, m.end)
    let pieces = wordHunks(original, replacement, offset)
    // a change beside another is one piece: " ," -> ", " cut as " " taken out and " " put in before "didnt" -> "didn't" would put two changes at one offset
    if (pieces.length > 1 && (made[i - 1]?.to === m.from || made[i + 1]?.from === m.to)) pieces = [{ offset, length: codePointLength(original), original, replacement }]
    for (const hunk of pieces) {
      const sharing = m.notes.filter(k => sharesWord(hunk, notes[k]!))
      hunks.push(hunk)
      by.push(sharing.length > 0 ? sharing : m.notes)
    }
  })
  return { hunks, by }
}

const TOKEN = /\s+|[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*|[^]/gu

/** The UTF-16 lengths of the whole words and spaces `a` and `b` start with alike, then end with alike: what a note keeps. */
function commonTokens (a: string, b: string): { head: number, tail: number } {
  const x = a.match(TOKEN) ?? []
  const y = b.match(TOKEN) ?? []
  let i = 0
  let head = 0
  while (i < x.length && i < y.length && x[i] === y[i]) head += x[i++]!.length
  let j = 0
  let tail = 0
  while (j < x.length - i && j < y.length - i && x[x.length - 1 - j] === y[y.length - 1 - j]) tail += x[x.length - 1 - j++]!.length
  return { head, tail }
}

/** Where the unchanged text before `at` that a note may take in begins: the spaces and the word before it, not before `bound`. */
function contextBefore (points: readonly string[], at: number, bound: number): number {
  const limit = Math.max(bound, at - CONTEXT)
  let k = at
  while (k > limit && isSpace(points[k - 1])) k--
  while (k > limit && !isSpace(points[k - 1])) k--
  return k
}

/** Where the unchanged text after `at` that a note may take in ends: the spaces and the word after it, not past `bound`. */
function contextAfter (points: readonly string[], at: number, bound: number): number {
  const limit = Math.min(bound, at + CONTEXT)
  let k = at
  while (k < limit && isSpace(points[k])) k++
  while (k < limit && !isSpace(points[k])) k++
  return k
}

/**
 * Where in `original` each note of a set that turns it into `replacement` applies (UTF-16 index,
 * note index), in text order, or undefined when none does: the note that applies first (its
 * text whole at that place and what it puts agreeing with `replacement` so far) is taken, then the
 * next from where it ends. `candidates` holds the indices of notes alike together.
 */
function placeNotes (original: string, replacement: string, notes: readonly EditNote[], candidates: Map<string, number[]>): Array<{ at: number, k: number }> | undefined {
  if (candidates.size === 0) return undefined
  const placed: Array<{ at: number, k: number }> = []
  let pos = 0
  // what the notes placed so far and the text between them make: as long as `replacement`'s start
  let made = 0
  while (replacement.length - made !== original.length - pos || !replacement.endsWith(original.slice(pos))) {
    let best: { at: number, key: string } | undefined
    for (const [key, [k]] of candidates) {
      const note = notes[k!]!
      for (let at = wholeIndex(note.original, original, pos); at !== -1 && (best === undefined || at < best.at); at = wholeIndex(note.original, original, at + 1)) {
        const kept = at - pos
        if (replacement.startsWith(original.slice(pos, at), made) && replacement.startsWith(note.replacement, made + kept)) {
          best = { at, key }
          break
        }
      }
    }
    if (best === undefined) return undefined
    const same = candidates.get(best.key)!
    const k = same.shift()!
    if (same.length === 0) candidates.delete(best.key)
    const note = notes[k]!
    made += best.at - pos + note.replacement.length
    pos = best.at + note.original.length
    placed.push({ at: best.at, k })
  }
  return placed.length === 0 ? undefined : placed
}

/**
 * The notes that made each hunk (undefined where none says); a hunk a note was `placed` for is
 * that note's. Notes come in text order within a
 * segment, but a segment edited after another (an HTML attribute's after the text) has its notes
 * after the text's: a hunk one note explains takes the next note not used yet, else the one the
 * hunk before took (a note may span hunks), else an earlier note not used yet. A hunk no note
 * explains alone may be the work of several: one word two rules changed in turn ("dont" ->
 * "don't" -> "Don't"), or notes the word diff cut otherwise ("In order to utilize" -> "To use" as
 * "In" -> "To", "order" -> "use", "to utilize " -> ""); see `severalNotes`.
 */
function attribution (before: string, hunks: readonly Hunk[], { notes, first, taken: used }: NoteWindow, placed: ReadonlyArray<readonly number[] | undefined>): Array<EditNote[] | undefined> {
  const madeBy = new Array<EditNote[] | undefined>(hunks.length)
  if (notes.length === 0) return madeBy
  // the NOTE_WINDOW notes from `from` on are always looked through, the rest while MAX_NOTE_TESTS
  // last: a long text's hunks that no note explains alone would each test every note
  let tests = MAX_NOTE_TESTS
  const unusedExplaining = (hunk: Hunk, from: number, to: number): number | undefined => {
    const close = Math.min(to, from + NOTE_WINDOW)
    for (let at = from; at < close; at++) if (used[at] === 0 && explains(notes[at]!, hunk)) return at
    if (tests < to - close) return undefined
    tests -= to - close
    for (let at = close; at < to; at++) if (used[at] === 0 && explains(notes[at]!, hunk)) return at
    return undefined
  }
  let next = first
  let last: EditNote | undefined
  // where each hunk's notes are likely to be: the next note not used when it came
  const near = new Array<number>(hunks.length)
  hunks.forEach((hunk, i) => {
    near[i] = next
    const made = placed[i]
    // a change notes made (none: a run of spaces no editor saw) is theirs alone
    if (made !== undefined) {
      if (made.length === 0) return
      next = Math.max(...made) + 1
      madeBy[i] = made.map(k => notes[k]!)
      last = madeBy[i][made.length - 1]
      return
    }
    let at = unusedExplaining(hunk, next, notes.length)
    if (at === undefined && last !== undefined && explains(last, hunk)) {
      madeBy[i] = [last]
      return
    }
    at ??= unusedExplaining(hunk, 0, next)
    if (at === undefined) return
    used[at] = 1
    next = at + 1
    last = notes[at]!
    madeBy[i] = [last]
  })
  // the NOTE_WINDOW notes from the hunk's next first, then every note while MAX_NOTE_TESTS last
  let points: string[] | undefined
  for (let i = 0; i < hunks.length; i++) {
    if (madeBy[i] !== undefined || placed[i] !== undefined) continue
    points ??= Array.from(before)
    const from = near[i]!
    const to = Math.min(notes.length, from + NOTE_WINDOW)
    severalNotes(points, hunks, i, notes.slice(from, to), madeBy)
    if (madeBy[i] !== undefined || to - from === notes.length || tests < notes.length) continue
    tests -= notes.length
    severalNotes(points, hunks, i, notes, madeBy)
  }
  return madeBy
}

/** Hunks either side of one that several notes may have made together, the unchanged text between two of them and all they span (code points). */
const NEIGHBOURS = 3
const MAX_GAP = 32
const MAX_SPAN = 500
/** Notes looked through past a window, in all (a string's): bounds the time of notes that explain nothing (hunks x notes). */
const MAX_NOTE_TESTS = 2_000_000

/**
 * Attributes hunk `i` (and the unexplained hunks beside it) to the notes that, applied in turn to
 * the original of the smallest run of hunks around it, give the run's edited text exactly; leaves
 * it unexplained when none do. Each hunk of the run takes the notes that share a word with it
 * (all of them when none does).
 */
function severalNotes (points: readonly string[], hunks: readonly Hunk[], i: number, notes: readonly EditNote[], madeBy: Array<EditNote[] | undefined>): void {
  const end = (k: number): number => hunks[k]!.offset + hunks[k]!.length
  const gap = (k: number): number => hunks[k + 1]!.offset - end(k)
  if (hunks[i]!.length > MAX_SPAN) return
  let first = i
  while (first > 0 && i - first < NEIGHBOURS && gap(first - 1) <= MAX_GAP && end(i) - hunks[first - 1]!.offset <= MAX_SPAN) first--
  let last = i
  while (last < hunks.length - 1 && last - i < NEIGHBOURS && gap(last) <= MAX_GAP && end(last + 1) - hunks[first]!.offset <= MAX_SPAN) last++
  const text = (from: number, to: number): string => points.slice(from, to).join('')
  const run = (from: number, to: number): { original: string, replacement: string } => {
    let replacement = hunks[from]!.replacement
    for (let k = from + 1; k <= to; k++) replacement += text(end(k - 1), hunks[k]!.offset) + hunks[k]!.replacement
    return { original: text(hunks[from]!.offset, end(to)), replacement }
  }
  // the notes that can take part: found in the widest run, or in what such a note put
  const widest = run(first, last).original
  const candidates: EditNote[] = []
  for (const note of notes) {
    const key = note.original.trim() === '' ? note.original : note.original.trim()
    if (key !== '' && (within(key, widest) || candidates.some(c => within(key, c.replacement)))) candidates.push(note)
  }
  if (candidates.length === 0) return
  for (let size = 1; size <= last - first + 1; size++) {
    for (let from = Math.max(first, i - size + 1); from <= i && from + size - 1 <= last; from++) {
      const to = from + size - 1
      const { original, replacement } = run(from, to)
      const applied = appliedInTurn(original, replacement, candidates)
      if (applied === undefined) continue
      for (let k = from; k <= to; k++) {
        if (k !== i && madeBy[k] !== undefined) continue
        const sharing = applied.filter(note => sharesWord(hunks[k]!, note))
        madeBy[k] = sharing.length > 0 ? sharing : applied
      }
      return
    }
  }
}

/** The notes that, applied in turn to `original` (each where it first occurs), give `replacement`; undefined when they do not. */
function appliedInTurn (original: string, replacement: string, notes: readonly EditNote[]): EditNote[] | undefined {
  let text = original
  const applied: EditNote[] = []
  for (const note of notes) {
    if (note.original === '') continue
    let from = note.original
    let to = note.replacement
    let at = wholeIndex(from, text)
    if (at === -1 && from.trim() !== '') {
      from = from.trim()
      to = to.trim()
      at = wholeIndex(from, text)
    }
    if (at === -1) continue
    text = text.slice(0, at) + to + text.slice(at + from.length)
    applied.push(note)
    if (text === replacement) return applied
  }
  return undefined
}

const WORDS = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu
const wordsOf = (text: string): string[] => text.toLowerCase().match(WORDS) ?? []

/** Whether a word the hunk removed is one the note replaced, or a word it put one the note put. */
function sharesWord (hunk: Hunk, note: EditNote): boolean {
  const replaced = new Set(wordsOf(note.original))
  const put = new Set(wordsOf(note.replacement))
  return wordsOf(hunk.original).some(w => replaced.has(w)) || wordsOf(hunk.replacement).some(w => put.has(w))
}

/**
 * Whether an editor's note accounts for a diff hunk: what the hunk removed lies in what the note
 * replaced and what it put lies in the note's replacement, or the other way round (a hunk covering
 * the whole note). Words are compared whole ("i" does not explain "is"); a hunk of whitespace only
 * ("  " -> " ") is matched as it is.
 */
function explains (note: EditNote, hunk: { original: string, replacement: string }): boolean {
  const blank = hunk.original.trim() === '' && hunk.replacement.trim() === ''
  const original = blank ? hunk.original : hunk.original.trim()
  const replacement = blank ? hunk.replacement : hunk.replacement.trim()
  if (original === '' && replacement === '') return false
  return (within(original, note.original) && within(replacement, note.replacement)) ||
    (within(note.original.trim(), original) && within(note.replacement.trim(), replacement) && note.original.trim() !== '')
}

const WORD_EDGE = /[\p{L}\p{M}\p{N}]/u

/** Whether `part` occurs in `whole` without cutting a word of `whole` at either end ('' occurs everywhere). */
function within (part: string, whole: string): boolean {
  return part === '' || wholeIndex(part, whole) !== -1
}

/** Where `part` first occurs in `whole` (from `from` on) without cutting a word of `whole` at either end, or -1. */
function wholeIndex (part: string, whole: string, from = 0): number {
  for (let at = whole.indexOf(part, from); at !== -1; at = whole.indexOf(part, at + 1)) {
    if (uncut(part, whole, at)) return at
  }
  return -1
}

/** Whether `part` occurs in `whole` at `at` without cutting a word of `whole` at either end. */
function wholeAt (part: string, whole: string, at: number): boolean {
  return whole.startsWith(part, at) && uncut(part, whole, at)
}

/** Whether `part`, at `at` in `whole`, cuts no word of `whole` at either end. */
function uncut (part: string, whole: string, at: number): boolean {
  const cutsBefore = WORD_EDGE.test(part[0]!) && at > 0 && WORD_EDGE.test(whole[at - 1]!)
  const end = at + part.length
  const cutsAfter = WORD_EDGE.test(part[part.length - 1]!) && end < whole.length && WORD_EDGE.test(whole[end]!)
  return !cutsBefore && !cutsAfter
}

type Hunk = Omit<Change, 'type'>

/** Appends `items` to `target` (a loop: spreading 100,000 items as arguments overflows the stack). */
function append<T> (target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item)
}

/** Sentence and line ends (a run of them ends a sentence when whitespace or the text's end follows). */
const ENDS = new Set(['.', '!', '?', '\n', '。', '！', '？', '…'])
const isSpace = (c: string | undefined): boolean => c !== undefined && c.trim() === ''

/** The text's sentences and lines, each with the whitespace after it (they join back to the text). */
export function sentencesOf (text: string): string[] {
  const out: string[] = []
  let start = 0
  let i = 0
  while (i < text.length) {
    if (!ENDS.has(text[i]!)) {
      i++
      continue
    }
    let line = false
    for (; i < text.length && ENDS.has(text[i]!); i++) line ||= text[i] === '\n'
    // "3.5", "e.g.x": no sentence ends here (a line always does)
    if (!line && i < text.length && !isSpace(text[i])) continue
    while (i < text.length && isSpace(text[i])) i++
    out.push(text.slice(start, i))
    start = i
  }
  if (start < text.length) out.push(text.slice(start))
  return out
}

/**
 * Past this many changed sentences the sentence diff gives up (its cost grows with the square of
 * the changes; docs/benchmarks.md, Editing): the changed sentences are then
 * paired in order when there are as many after as before (an edit that keeps the sentences, as
 * spelling and grammar edits do), else the differing middle is diffed word by word as one text.
 */
const MAX_SENTENCE_EDITS = 500

/**
 * The replacements turning `before` into `after`: the sentences that differ are found first, then
 * each changed sentence is diffed word by word against its edited form (a changed run of sentences
 * that became as many sentences pairs them in order; otherwise the run is diffed as one text).
 */
function sentenceHunks (before: string, after: string, place?: PlaceSentence): { hunks: Hunk[], by: Array<readonly number[] | undefined> } {
  const a = sentencesOf(before)
  const b = sentencesOf(after)
  // the sentences both start and end with are left out of the diff
  const { start, end } = commonEnds(a, b)
  const oldMiddle = a.slice(start, a.length - end)
  const newMiddle = b.slice(start, b.length - end)
  let offset = 0
  for (let i = 0; i < start; i++) offset += codePointLength(a[i]!)
  const parts = oldMiddle.length + newMiddle.length <= 2
    ? undefined
    : diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_SENTENCE_EDITS })
  const hunks: Hunk[] = []
  const by: Array<readonly number[] | undefined> = []
  // a changed sentence: the notes' own changes where they rebuild it, else its word diff
  const changed = (original: string, edited: string): void => {
    const placed = place?.(original, edited, offset)
    if (placed === undefined) {
      for (const hunk of wordHunks(original, edited, offset)) {
        hunks.push(hunk)
        by.push(undefined)
      }
    } else {
      append(hunks, placed.hunks)
      append(by, placed.by)
    }
    offset += codePointLength(original)
  }
  let removed: string[] = []
  let added: string[] = []
  const flush = (): void => {
    if (removed.length === added.length) {
      for (let i = 0; i < removed.length; i++) changed(removed[i]!, added[i]!)
    } else {
      changed(removed.join(''), added.join(''))
    }
    removed = []
    added = []
  }
  if (parts === undefined) {
    // one sentence each, or too many changes for the sentence diff
    removed = oldMiddle
    added = newMiddle
  } else {
    for (const part of parts) {
      if (part.removed) append(removed, part.value)
      else if (part.added) append(added, part.value)
      else {
        flush()
        for (const sentence of part.value) offset += codePointLength(sentence)
      }
    }
  }
  flush()
  return { hunks, by }
}

/** Adjacent removed/added runs of the word diff as replacements, offsets in code points of `before` plus `base`. */
function wordHunks (before: string, after: string, base: number): Hunk[] {
  if (before === after) return []
  const parts = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDIT_LENGTH })
  if (parts === undefined) {
    const hunk = middle(before, after)
    return [{ ...hunk, offset: hunk.offset + base }]
  }
  const hunks: Hunk[] = []
  let offset = base
  let open: Hunk | undefined
  for (const part of parts) {
    if (!part.added && !part.removed) {
      if (open) hunks.push(open)
      open = undefined
      offset += codePointLength(part.value)
      continue
    }
    open ??= { offset, length: 0, original: '', replacement: '' }
    if (part.removed) {
      open.original += part.value
      open.length += codePointLength(part.value)
      offset += codePointLength(part.value)
    } else {
      open.replacement += part.value
    }
  }
  if (open) hunks.push(open)
  return hunks
}

/** How many items `a` and `b` share at their start, and then at their end. */
function commonEnds<T> (a: readonly T[], b: readonly T[]): { start: number, end: number } {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let end = 0
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  return { start, end }
}

/** One change over what differs between the common prefix and suffix (when the word diff gives up). */
function middle (before: string, after: string): Hunk {
  const a = Array.from(before)
  const b = Array.from(after)
  const { start, end } = commonEnds(a, b)
  const original = a.slice(start, a.length - end).join('')
  return { offset: start, length: a.length - end - start, original, replacement: b.slice(start, b.length - end).join('') }
}

/**
 * Changes of a string value, or of each string leaf of a JSON value (with its pointer). The notes
 * of a JSON value come leaf after leaf, in the order walked here (documents/json.ts): a leaf's
 * changes take its notes from a window that starts where the leaves before it stopped taking
 * them, with NOTE_WINDOW before that and as many after as the leaf has characters (more than
 * a leaf's notes), not from the document's every note: a document of many short strings whose
 * notes explain no change alone cost leaves x notes (docs/benchmarks.md, Editing).
 */
export function changesOf (before: unknown, after: unknown, notes: readonly EditNote[], asked: readonly EditType[]): Change[] {
  if (typeof before === 'string') return typeof after === 'string' ? diffChanges(before, after, notes, asked) : []
  const out: Change[] = []
  const taken = new Uint8Array(notes.length)
  let next = 0
  const walk = (a: unknown, b: unknown, pointer: string): void => {
    if (typeof a === 'string' && typeof b === 'string') {
      if (a === b) return
      const from = Math.max(0, next - NOTE_WINDOW)
      const to = Math.min(notes.length, next + NOTE_WINDOW + a.length)
      const window = { notes: notes.slice(from, to), first: next - from, taken: taken.subarray(from, to) }
      const leaf = stringChanges(a, b, window, asked, pointer)
      append(out, leaf.changes)
      if (leaf.past > 0) next = Math.max(next, from + leaf.past)
    } else if (a !== null && typeof a === 'object' && b !== null && typeof b === 'object') {
      for (const [key, child] of Object.entries(a)) {
        walk(child, (b as Record<string, unknown>)[key], `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`)
      }
    }
  }
  walk(before, after, '')
  return out
}

/**
 * Whether a change only joins lines: a line break with what prefixes the next line (indentation, a
 * quote's `>`) made one space, where no editor said why. Translation's rebuild writes a changed
 * sentence on one line; an edit must not reflow a paragraph it corrected one word of.
 */
export function joinsLines (change: Change): boolean {
  return change.reason === undefined && change.original.includes('\n') && /^[\s>]*$/.test(change.original) && change.replacement.trim() === ''
}

/**
 * Whether a change only makes a run of spaces one space, where no editor said why: where markup
 * shows such a run as one space (HTML), the segments hold one and a corrected sentence is written
 * with one, though no editor saw the run.
 */
export function collapsesSpaces (change: Change): boolean {
  return change.reason === undefined && /^[ \t\f]{2,}$/.test(change.original) && change.replacement === ' '
}

const LINE_JOIN_START = /^[\s>]*\r?\n[ \t>]*/
const BLANK_OR_QUOTE = /[\s>]/

/** Where a line break ending `text` begins (the blanks before it, then it and what prefixes the next line: blanks, `>`), or -1; a scan from the end, linear. */
function lineJoinAtEnd (text: string): number {
  let run = text.length
  while (run > 0 && BLANK_OR_QUOTE.test(text[run - 1]!)) run--
  const newline = text.indexOf('\n', run)
  if (newline === -1) return -1
  let start = newline
  while (start > run && /[ \t\r]/.test(text[start - 1]!)) start--
  return start
}

/**
 * A change that corrects a word and joins lines at once ("teh\n> " made "the "): the word's
 * change alone, the line break and what prefixes the next line kept as the source has them;
 * the change itself when it joins no lines at its edges.
 */
export function keepingLineBreaks (change: Change): Change {
  let { offset, length, original, replacement } = change
  const end = lineJoinAtEnd(original)
  if (end > 0 && /^[ \t]*$/.test(replacement.slice(replacement.trimEnd().length))) {
    length -= codePointLength(original.slice(end))
    original = original.slice(0, end)
    replacement = replacement.trimEnd()
  }
  const start = LINE_JOIN_START.exec(original)
  if (start !== null && start[0].length < original.length && /^[ \t]*$/.test(replacement.slice(0, replacement.length - replacement.trimStart().length))) {
    const cut = codePointLength(start[0])
    offset += cut
    length -= cut
    original = original.slice(start[0].length)
    replacement = replacement.trimStart()
  }
  return original === change.original ? change : { ...change, offset, length, original, replacement }
}

/** `text` with `changes` (offsets and lengths in its code points, ascending, apart) made. */
export function applyChanges (text: string, changes: readonly Change[]): string {
  const toUnits = utf16Offsets(text)
  let out = ''
  let at = 0
  for (const c of changes) {
    const start = toUnits(c.offset)
    out += text.slice(at, start) + c.replacement
    at = toUnits(c.offset + c.length)
  }
  return out + text.slice(at)
}
