/** Sentence breaks for segmenting: Unicode sentence boundaries, minus the unsafe ones. */
import { placeholderSpans } from '../placeholders.js'
import { verbatimSpans } from '../verbatim.js'

const segmenters = new Map<string, Intl.Segmenter>()

function segmenter (locale: string): Intl.Segmenter {
  let s = segmenters.get(locale)
  if (s === undefined) {
    try {
      s = new Intl.Segmenter(locale, { granularity: 'sentence' })
    } catch {
      s = new Intl.Segmenter('en', { granularity: 'sentence' })
    }
    if (segmenters.size < 200) segmenters.set(locale, s)
  }
  return s
}

// Titles and short forms usually followed by a capitalised word; ICU's own suppression lists
// are not reachable through Intl.Segmenter, so "Mr. Smith" would otherwise be cut in two.
const ABBREVIATIONS = new Set([
  'Mr', 'Mrs', 'Ms', 'Mx', 'Dr', 'Prof', 'Sr', 'Sra', 'Srta', 'Jr', 'St', 'Mt', 'Mme', 'Mlle', 'Rev',
  'Hon', 'Gen', 'Col', 'Capt', 'Lt', 'Sgt', 'Gov', 'Sen', 'Rep', 'Pres', 'Hr', 'Fr', 'Hrn', 'Dott',
  'Ing', 'Avv', 'Sig', 'Ud', 'Uds', 'Vd', 'Vds', 'Dra', 'Fig', 'Figs', 'No', 'Nr', 'Nos', 'Vol',
  'Art', 'vs', 'cf', 'ca', 'approx', 'vgl', 'bzw', 'Abb', 'Tel'
])
const LAST_WORD = /(?:^|[^\p{L}.])([\p{L}][\p{L}.]*)\.["'”’)\]]*\s*$/u

/** Whether the sentence ending at `end` (from `start`) ends with an abbreviation or an initial rather than a full stop. */
function endsWithAbbreviation (text: string, start: number, end: number): boolean {
  const m = LAST_WORD.exec(text.slice(Math.max(start, end - 40), end))
  if (!m) return false
  const word = m[1]!
  return word.length === 1 || word.includes('.') || ABBREVIATIONS.has(word)
}

/**
 * The longest sentence sent as one segment. Engines slow down sharply on longer ones (Apertium
 * takes time quadratic in a sentence's length: 100,000 characters of unknown words without a
 * full stop held a pipeline for 8 s), and no real sentence is this long, so a longer one is cut
 * at a word start, or inside a word longer than this.
 */
export const MAX_SENTENCE_CHARS = 2000

const BLANK = /\s/u
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u
const CASED_LETTER = /\p{LC}/u

/** Merged placeholder spans (sorted, disjoint) and whether an offset falls strictly inside one. */
function insideSpan (spans: ReadonlyArray<[number, number]>): (at: number) => boolean {
  const merged: Array<[number, number]> = []
  for (const [start, end] of spans) {
    const last = merged.at(-1)
    if (last && start <= last[1]) last[1] = Math.max(last[1], end)
    else merged.push([start, end])
  }
  return at => {
    let lo = 0
    let hi = merged.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (merged[mid]![1] <= at) lo = mid + 1
      else hi = mid
    }
    return lo < merged.length && merged[lo]![0] < at
  }
}

/** The spans no break may cut, sorted by start: placeholders, URLs, paths, code... */
function protectedSpans (text: string): Array<[number, number]> {
  return [...placeholderSpans(text), ...verbatimSpans(text)].sort((a, b) => a[0] - b[0])
}

/** Cuts in the sentence [start, end) so that no piece is longer than MAX_SENTENCE_CHARS (where placeholders allow). */
function cutLongSentence (text: string, start: number, end: number, inside: (at: number) => boolean): number[] {
  const cuts: number[] = []
  let from = start
  while (end - from > MAX_SENTENCE_CHARS) {
    const limit = from + MAX_SENTENCE_CHARS
    let at = limit
    // the last word start within the limit
    while (at > from && (inside(at) || !BLANK.test(text[at - 1]!) || BLANK.test(text[at]!))) at--
    if (at === from) {
      // one word longer than the limit: cut inside it, not between a surrogate pair nor in a placeholder
      at = limit
      while (at < end && (inside(at) || (/[\uDC00-\uDFFF]/.test(text[at]!)))) at++
      if (at >= end) break
    }
    cuts.push(at)
    from = at
  }
  return cuts
}

/**
 * Offsets where a new sentence starts in `text` (0 excluded). No break is made after an
 * abbreviation or initial ("Mr. Smith", "J. R. R. Tolkien", "the U.S. Army"), nor after a full stop
 * a letter or digit follows at once (".NET", "good.Then": one sentence to the engine, whose editor
 * adds the space), nor after a "?" or "!" a cased letter follows at once ("good?Then"), nor inside a
 * placeholder or a verbatim span (a URL, path, file name...), nor between a tag token and its
 * partner (`<0>…</0>`). A sentence longer than MAX_SENTENCE_CHARS gets extra breaks.
 */
export function sentenceBreaks (text: string, locale: string): number[] {
  const breaks = unicodeBreaks(text, locale)
  if (text.length <= MAX_SENTENCE_CHARS) return breaks
  const inside = insideSpan(protectedSpans(text))
  const out: number[] = []
  let previous = 0
  for (const next of [...breaks, text.length]) {
    if (next - previous > MAX_SENTENCE_CHARS) for (const at of cutLongSentence(text, previous, next, inside)) out.push(at)
    if (next < text.length) out.push(next)
    previous = next
  }
  return out
}

/** Where a sentence may end: a sentence terminal, Greek's question mark (";" in its locale), a line or paragraph break. */
const MAY_END = /[\p{Sentence_Terminal};\u037e\n\v\f\r\x85\u2028\u2029]/u
/** A text's end that starts no sentence after it: terminals and closing quotes or brackets, then spaces. */
const LAST_END = /^[\p{Sentence_Terminal}"'”’»)\]}]*[\p{Zs}\t]*$/u

/** Whether `text` is one sentence to any locale's segmenter: it has no end but its own (most short requests). */
export function isOneSentence (text: string): boolean {
  const end = text.search(MAY_END)
  return end === -1 || LAST_END.test(text.slice(end))
}

/** The Unicode sentence breaks of `text`, minus the unsafe ones. */
function unicodeBreaks (text: string, locale: string): number[] {
  if (isOneSentence(text)) return []
  const spans = protectedSpans(text)
  const breaks: number[] = []
  let previous = 0
  // spans before the current break; `reach` is the furthest end among them
  let s = 0
  let reach = 0
  for (const { index } of segmenter(locale).segment(text)) {
    if (index === 0) continue
    for (; s < spans.length && spans[s]![0] < index; s++) reach = Math.max(reach, spans[s]![1])
    if (reach > index) continue
    // a full stop with a letter or digit right after it ends no sentence: ".NET", ".env", "v.2"
    if (text[index - 1] === '.' && LETTER_OR_DIGIT.test(text[index] ?? '')) continue
    // nor a "?" or "!" with a cased letter right after it: "good?Then", "Yahoo!Mail"; Chinese and
    // Japanese letters have no case, and their sentences follow one another without a space
    if ((text[index - 1] === '?' || text[index - 1] === '!') && CASED_LETTER.test(text[index] ?? '')) continue
    if (endsWithAbbreviation(text, previous, index)) continue
    breaks.push(index)
    previous = index
  }
  return breaks
}
