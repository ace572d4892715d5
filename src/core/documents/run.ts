/**
 * A run: the inline content of one block (a paragraph, a heading, a table cell, an attribute
 * value, a line of plain text) as items located in the source, before it is cut into sentences.
 */
import type { Offsets } from './align.js'

export type Item =
  /** Decoded text from source[start, end); offsets null when it cannot be split. */
  | { kind: 'text', start: number, end: number, text: string, offsets: Offsets | null }
  /**
   * The opening markup of an inline element (`<b>`, `*`, `[`) that becomes `<g id="N">`. A whole
   * one is never written twice (an element with an identity: a content control, a tracked change).
   */
  | { kind: 'open', start: number, end: number, whole?: boolean }
  /** Its closing markup (possibly empty when the source leaves it implied). */
  | { kind: 'close', start: number, end: number }
  /**
   * Opaque inline source (`<img>`, inline code, `<br>`) that becomes `<x id="N"/>`. A weak token
   * (a line break, a comment, stray markup) may move into the skeleton at a segment's edge; a
   * breaking one also ends a sentence.
   */
  | { kind: 'token', start: number, end: number, weak: boolean, breaks: boolean }

export type TextItem = Extract<Item, { kind: 'text' }>

/** Characters [from, to) of a text item, located by its offsets (known wherever this is called). */
export function sliceText (item: TextItem, from: number, to: number): TextItem {
  const o = item.offsets!
  return {
    kind: 'text',
    text: item.text.slice(from, to),
    start: from === 0 ? item.start : o.starts[from]!,
    end: to === item.text.length ? item.end : o.ends[to - 1]!,
    offsets: { starts: o.starts.subarray(from, to), ends: o.ends.subarray(from, to) }
  }
}

/** How a format writes translated text back into its source. */
export interface TextFormat {
  /** Escapes text for the place it goes; `atStart` when it opens the segment's source range. */
  escape: (text: string, atStart: boolean) => string
  /** White space the format does not keep (HTML, Markdown soft breaks), sent as one space. */
  collapse?: RegExp
}

/** Collects the items of one run in source order, filling gaps with weak tokens. */
export class RunBuilder {
  items: Item[] = []
  /** Set when an item lies before the previous one (a tree the parser reordered). */
  disordered = false
  private last = -1

  /**
   * `lineEnd`: whether source[start, end), a gap after a text, is what follows its line end (a
   * Markdown line's container prefix, `> ` or indentation): the gap then goes with that line end,
   * as a prefix inside a text does, rather than being a token of its own.
   */
  constructor (private readonly lineEnd?: (start: number, end: number) => boolean) {}

  push (item: Item): void {
    if (this.last !== -1 && item.start < this.last) this.disordered = true
    if (this.last !== -1 && item.start > this.last) {
      const previous = this.items.at(-1)
      if (previous?.kind === 'text' && previous.offsets !== null && previous.end === this.last && this.lineEnd?.(this.last, item.start) === true) {
        const ends = previous.offsets.ends.slice()
        ends[ends.length - 1] = item.start
        this.items[this.items.length - 1] = { ...previous, end: item.start, offsets: { starts: previous.offsets.starts, ends } }
      } else {
        this.items.push({ kind: 'token', start: this.last, end: item.start, weak: true, breaks: false })
      }
    }
    this.items.push(item)
    this.last = Math.max(this.last, item.end)
  }

  /** The items so far, leaving the builder empty for the next run. */
  take (): Item[] {
    const items = this.items
    this.items = []
    this.last = -1
    return items
  }
}
