/** Sentence breaks for segmenting: Unicode sentence boundaries, minus the unsafe ones. */
import { placeholderSpans } from '../placeholders.js'

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
 * Offsets where a new sentence starts in `text` (0 excluded). No break is made after an
 * abbreviation or initial ("Mr. Smith", "J. R. R. Tolkien", "the U.S. Army"), nor inside a
 * placeholder or between a tag token and its partner (`<0>…</0>`).
 */
export function sentenceBreaks (text: string, locale: string): number[] {
  const spans = placeholderSpans(text).sort((a, b) => a[0] - b[0])
  const breaks: number[] = []
  let previous = 0
  // spans before the current break; `reach` is the furthest end among them
  let s = 0
  let reach = 0
  for (const { index } of segmenter(locale).segment(text)) {
    if (index === 0) continue
    for (; s < spans.length && spans[s]![0] < index; s++) reach = Math.max(reach, spans[s]![1])
    if (reach > index) continue
    if (endsWithAbbreviation(text, previous, index)) continue
    breaks.push(index)
    previous = index
  }
  return breaks
}
