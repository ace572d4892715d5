/**
 * The `changes` of an edit: a word-level diff of each original string against its edited form,
 * offsets and lengths in code points of the original string, each change attributed to the edit
 * type that made it where the editor said so.
 */
import { diffWordsWithSpace } from 'diff'
import type { EditNote, EditType } from '../../providers/types.js'
import { codePointLength } from '../../shared/code-points.js'

export interface Change {
  /** Code points into the original string. */
  offset: number
  length: number
  original: string
  replacement: string
  /** The edit type that made it, or "edit" when several edits were asked and the editor cannot say which. */
  type: EditType | 'edit'
  /** Why, when the editor said. */
  reason?: string
  /** JSON Pointer of the string leaf inside a JSON document value (absent for a string value). */
  path?: string
}

/** Past this many edited words the word diff of one string gives up for one change over the differing middle (bounds the diff's time). */
const MAX_EDIT_LENGTH = 2_000

/** The changes turning `before` into `after`. */
export function diffChanges (before: string, after: string, notes: readonly EditNote[], asked: readonly EditType[], path?: string): Change[] {
  if (before === after) return []
  const hunks = wordHunks(before, after)
  const single = new Set(asked).size === 1 ? asked[0] : undefined
  let cursor = 0
  return hunks.map(hunk => {
    // notes come in text order: look from the last one that matched
    const at = notes.findIndex((note, i) => i >= cursor && explains(note, hunk))
    const note = at === -1 ? undefined : notes[at]
    if (at !== -1) cursor = at
    return {
      ...hunk,
      type: note?.type ?? single ?? 'edit',
      ...(note ? { reason: note.reason } : {}),
      ...(path === undefined ? {} : { path })
    }
  })
}

/** Whether an editor's note accounts for a diff hunk (the hunk is part of what the note replaced). */
function explains (note: EditNote, hunk: { original: string, replacement: string }): boolean {
  const original = hunk.original.trim()
  const replacement = hunk.replacement.trim()
  if (original !== '') return note.original.includes(original) || original.includes(note.original.trim())
  return replacement !== '' && note.replacement.includes(replacement)
}

/** Adjacent removed/added runs of the word diff as replacements, offsets in code points of `before`. */
function wordHunks (before: string, after: string): Array<Omit<Change, 'type'>> {
  const parts = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDIT_LENGTH })
  if (parts === undefined) return [middle(before, after)]
  const hunks: Array<Omit<Change, 'type'>> = []
  let offset = 0
  let open: Omit<Change, 'type'> | undefined
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

/** One change over what differs between the common prefix and suffix (when the word diff gives up). */
function middle (before: string, after: string): Omit<Change, 'type'> {
  const a = Array.from(before)
  const b = Array.from(after)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let end = 0
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  const original = a.slice(start, a.length - end).join('')
  return { offset: start, length: a.length - end - start, original, replacement: b.slice(start, b.length - end).join('') }
}
