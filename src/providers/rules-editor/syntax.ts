/**
 * Syntax rules for any Latin-script language: one space between words, none before a comma or a
 * full stop (nor, but in French, before ; : ! ?), one after a sentence's end, a capital at the start
 * of a sentence, no doubled punctuation, no repeated word.
 */
import type { EditType } from '../../core/ports.js'
import { capitalize, nextWord, type Change, type Token } from './text.js'
import { own } from '../../lib/own.js'

/** Changes for spacing, sentence capitals and doubled punctuation; `everyday` tells the language's everyday words (lower case). */
export function syntaxChanges (tokens: readonly Token[], locale: string, everyday?: (word: string) => boolean): Change[] {
  const list = tokens as Token[]
  const changes: Change[] = []
  const sentenceLike = endsLikeSentence(list)
  // French (and its typography elsewhere) puts a space before ; : ! ? and a closing guillemet
  const french = locale.split('-')[0] === 'fr'
  const spacedBefore = french ? /^[,.]$/ : /^[,.;:!?]$/
  let afterStop = false
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!
    if (t.kind === 'punct' && /[.!?]/.test(t.text)) afterStop = true
    if (t.kind === 'punct' && /^[.!?]$/.test(t.text)) {
      const glued = gluedSentence(list, i, french)
      if (glued !== undefined) changes.push(glued)
    }
    if (t.kind === 'space') {
      const punct = list[i + 1]
      if (spaceBeforePunctuation(list, i, spacedBefore)) {
        const original = t.text + punct!.text
        changes.push({ start: t.start, end: punct!.end, replacement: punct!.text, note: { original, replacement: punct!.text, type: 'syntax', reason: `Space before "${punct!.text}"` } })
        if (/[.!?]/.test(punct!.text)) afterStop = true
        i++
        continue
      }
      // "apples ,pears": the space goes after the comma
      if (commaGluedToNext(list, i)) {
        const original = t.text + punct!.text
        changes.push({ start: t.start, end: punct!.end, replacement: ', ', note: { original, replacement: ', ', type: 'syntax', reason: 'Space before ","' } })
        i++
        continue
      }
      // a run of plain spaces between two things; leading and trailing whitespace and line layout stay
      if (i > 0 && i < list.length - 1 && t.text.length > 1 && /^ +$/.test(t.text)) {
        const reason = list[i - 1]!.kind === 'punct' && /[.!?]/.test(list[i - 1]!.text) ? 'Extra space between sentences' : 'Extra space between words'
        changes.push({ start: t.start, end: t.end, replacement: ' ', note: { original: t.text, replacement: ' ', type: 'syntax', reason } })
      }
    } else if (t.kind === 'word') {
      if (!t.sentenceStart || t.guarded || !/^\p{Ll}/u.test(t.text)) continue
      // the first word of a segment only when the segment reads as a sentence (not a list item or label)
      if (!afterStop && !sentenceLike) continue
      // Dutch "'s avonds": a letter after an apostrophe is an elision, not a word
      if (Array.from(t.text).length === 1 && /['’]/.test(list[i - 1]?.text ?? '')) continue
      if (afterAbbreviation(list, i, locale, everyday)) continue
      const replacement = capitalize(t.text, locale)
      changes.push({ start: t.start, end: t.end, replacement, note: { original: t.text, replacement, type: 'syntax', reason: 'A sentence starts with a capital letter' } })
    } else if (t.kind === 'punct' && !t.guarded && /^[,;:?.]$/.test(t.text)) {
      let j = i
      while (list[j + 1]?.kind === 'punct' && list[j + 1]!.text === t.text && !list[j + 1]!.guarded) j++
      const run = j - i + 1
      // ".." is a slip, "..." an ellipsis; "!!" is emphasis and stays
      if (run > 1 && (t.text !== '.' || run === 2)) {
        const original = t.text.repeat(run)
        changes.push({ start: t.start, end: list[j]!.end, replacement: t.text, note: { original, replacement: t.text, type: 'syntax', reason: `Doubled "${t.text}"` } })
      }
      i = j
    }
  }
  return changes
}

// a word this long or shorter before a full stop may be an abbreviation no list knows ("tfno.", "izq.")
const ABBREVIATION_LETTERS = 5

/**
 * Whether the lower-case word at `i` follows a short word that is none of the language's everyday
 * words and a full stop on the same line, in a text whose writer capitalises the sentences before
 * ("Llame al tfno. cinco", "Ud. es"): the lower case itself says the stop is an abbreviation's, so
 * no sentence starts there. After an everyday word or its plural ("books.  it was", "dois
 * gatos. eles"), a name ("I saw Paris. it") or for a writer who capitalises no sentence ("the sun
 * rose. it was warm.") the capital is still made. The everyday lists are short (French lacks
 * "chat"): a real sentence end after a short word they lack keeps its lower case, as the rules
 * would rather leave a capital out than write one after an abbreviation.
 */
function afterAbbreviation (tokens: readonly Token[], i: number, locale: string, everyday: ((word: string) => boolean) | undefined): boolean {
  const [space, stop, word] = [tokens[i - 1], tokens[i - 2], tokens[i - 3]]
  if (space?.kind !== 'space' || space.text.includes('\n') || stop?.text !== '.' || word?.kind !== 'word') return false
  const letters = Array.from(word.text)
  if (letters.length > ABBREVIATION_LETTERS) return false
  // a name: capitalised, four letters or more, not all capitals ("Paris", "Anna"; "Sr", "Ud", "NASA" may be abbreviations)
  if (letters.length >= 4 && /^\p{Lu}\p{Ll}+$/u.test(word.text)) return false
  const lower = word.text.toLocaleLowerCase(locale)
  if (everyday?.(lower) === true || (letters.length >= 4 && lower.endsWith('s') && everyday?.(lower.slice(0, -1)) === true)) return false
  for (let k = i - 4; k >= 0; k--) {
    const t = tokens[k]!
    if (t.kind === 'word' && t.sentenceStart && /^\p{Lu}/u.test(t.text)) return true
  }
  return false
}

/** Whether the plain spaces at `i` stand between two words with a comma glued to the second ("apples ,pears"). */
function commaGluedToNext (tokens: readonly Token[], i: number): boolean {
  const [before, space, comma, after] = [tokens[i - 1], tokens[i]!, tokens[i + 1], tokens[i + 2]]
  return /^ +$/.test(space.text) && before?.kind === 'word' && !before.guarded && comma?.kind === 'punct' && comma.text === ',' && !comma.guarded &&
    after?.kind === 'word' && !after.guarded && /^\p{L}/u.test(after.text)
}

/**
 * Whether the plain spaces at `i` stand between a word and a punctuation mark that takes none
 * before it ("day , isn't it ?"): the mark ends its chunk (a space, the end, or after , . ! ? a
 * closing quote or bracket follows), so ".5", ":)" and "..." stay.
 */
function spaceBeforePunctuation (tokens: readonly Token[], i: number, marks: RegExp): boolean {
  const space = tokens[i]!
  const before = tokens[i - 1]
  const punct = tokens[i + 1]
  if (!/^ +$/.test(space.text) || before?.kind !== 'word' || before.guarded) return false
  if (punct?.kind !== 'punct' || punct.guarded || !marks.test(punct.text)) return false
  const after = tokens[i + 2]
  if (after === undefined || after.kind === 'space') return true
  // ":)" and ";)" are smileys
  return /^[,.!?]$/.test(punct.text) && after.kind === 'punct' && /^["'”’)\]»]$/.test(after.text)
}

/**
 * A sentence glued to the one before ("good.Then", "good?Then", French "vrai ?Non"): a lowercase
 * word, the stop at `i`, then a capitalised word, and nothing else in the chunk. Domains and file
 * names ("example.it", "index.html", "main.C"), "e.g.", "U.S.", "3.5", "System.Text" and anything
 * with more dots stay; so do names ("Yahoo!Mail"), a "?!" run, URLs and code.
 */
function gluedSentence (tokens: readonly Token[], i: number, french: boolean): Change | undefined {
  const stop = tokens[i]!
  // "?" and "!" end no file name: a single capital ("you?I") or a contraction may follow
  const asks = stop.text !== '.'
  // French puts a space before "?" and "!"
  const spaced = french && asks && /^[ \u00a0\u202f]$/.test(tokens[i - 1]?.text ?? '')
  const at = spaced ? i - 2 : i - 1
  const left = tokens[at]
  const right = tokens[i + 1]
  if (left?.kind !== 'word' || right?.kind !== 'word') return undefined
  // a "." always reads as code to the guard ("good.Then"), so its own tests stand in for it
  if (asks && (left.guarded || right.guarded || stop.guarded)) return undefined
  if (!/^\p{Ll}{2,}$/u.test(left.text) || left.text === 'www') return undefined
  if (!(asks ? /^\p{Lu}\p{Ll}*(?:['’]\p{Ll}+)?$/u : /^\p{Lu}\p{Ll}+$/u).test(right.text)) return undefined
  const first = tokens[at - 1]
  if (first !== undefined && first.kind !== 'space' && !(first.kind === 'punct' && /^["'“‘([«¿¡]$/.test(first.text) && (tokens[at - 2] === undefined || tokens[at - 2]!.kind === 'space'))) return undefined
  const next = tokens[i + 2]
  const ends = next === undefined || next.kind === 'space' ||
    (next.kind === 'punct' && /^[,;:!?"'”’)\]»]$/.test(next.text)) ||
    (next.kind === 'punct' && next.text === '.' && (tokens[i + 3] === undefined || tokens[i + 3]!.kind === 'space'))
  if (!ends) return undefined
  const replacement = stop.text + ' '
  return { start: stop.start, end: stop.end, replacement, note: { original: stop.text, replacement, type: 'syntax', reason: `Missing space after "${stop.text}"` } }
}

/** Whether the text ends with . ! or ? (before closing quotes or brackets): then its first word starts a sentence. */
function endsLikeSentence (tokens: readonly Token[]): boolean {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!
    if (t.kind === 'space' || (t.kind === 'punct' && /["'”’)\]»]/.test(t.text))) continue
    return t.kind === 'punct' && /[.!?…]/.test(t.text)
  }
  return false
}

// words that may stand twice ("they had had", "that that", "bye bye", "very very",
// "mahi mahi"); per language, pronouns and articles that legitimately repeat ("nous nous levons",
// "das das Kind"), and intensifiers and answers said twice for emphasis ("très très bon", "muy muy rico")
const MAY_REPEAT = new Set(['had', 'that', 'can', 'blah', 'beep', 'yadda', 'sapiens', 'tse', 'mau', 'bye', 'ha', 'haha', 'la', 'knock', 'tsk', 'tut', 'chop', 'hip', 'boo', 'bang', 'ding', 'dong', 'choo', 'no',
  'very', 'really', 'so', 'long', 'far', 'many', 'much', 'now', 'there', 'night', 'pretty', 'mahi', 'hey', 'oh', 'yes', 'yeah', 'ok', 'okay', 'well', 'go', 'come', 'more'])
/**
 * Languages whose repeats the rule knows: elsewhere a content word said twice is often meant
 * (Italian "piano piano", Portuguese "devagar devagar"), so only a short word (an article, a
 * preposition: "il il", "de de") is taken for a slip; and none at all where saying a word twice is
 * how the language forms plurals and more (Indonesian and Malay "orang orang", Tagalog).
 */
const REPEATS_KNOWN = new Set(['en', 'fr', 'de', 'es', 'nl'])
const REDUPLICATING = new Set(['id', 'ms', 'tl', 'fil', 'jv', 'su'])
const SHORT_WORD = 3
/** Words that open a clause ending in "is" which is itself the subject of "is": "what it is is", "the thing is is". */
const PSEUDO_CLEFT = new Set(['what', 'thing', 'problem', 'question', 'point', 'issue', 'truth', 'reason', 'fact', 'trouble'])
const MAY_REPEAT_IN: Record<string, ReadonlySet<string>> = {
  fr: new Set(['nous', 'vous', 'si', 'très', 'trop', 'bien', 'vraiment', 'tellement', 'beaucoup', 'fort', 'vite', 'oui', 'non', 'là']),
  de: new Set(['das', 'die', 'der', 'sie', 'dem', 'den', 'sehr', 'so', 'ganz', 'viel', 'ja', 'nein', 'na']),
  nl: new Set(['die', 'dat', 'heel', 'erg', 'zo', 'echt', 'veel', 'ja', 'nee']),
  es: new Set(['que', 'muy', 'tan', 'mucho', 'mucha', 'muchos', 'muchas', 'bien', 'casi', 'sí', 'ya']),
  it: new Set(['che', 'molto', 'tanto', 'così', 'sì', 'già']),
  pt: new Set(['que', 'muito', 'tão', 'bem', 'já', 'sim', 'não'])
}

/** The last word of the run of `word` said again and again that goes on at `n`. */
function lastOfRun (tokens: Token[], n: number, word: string, language: string): number {
  let last = n
  for (let k = nextWord(tokens, last); k !== undefined && tokens[k]!.text.toLocaleLowerCase(language) === word; k = nextWord(tokens, last)) last = k
  return last
}

/** Changes removing a word written twice in a row ("the the" -> "the"); three times or more is left as written. */
export function repeatedWordChanges (tokens: readonly Token[], language: string, type: EditType): Change[] {
  const list = tokens as Token[]
  const changes: Change[] = []
  const base = language.split('-')[0]!.toLowerCase()
  if (REDUPLICATING.has(base)) return changes
  const known = REPEATS_KNOWN.has(base)
  const allowed = own(MAY_REPEAT_IN, base)
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!
    if (t.kind !== 'word' || t.guarded || /\p{N}/u.test(t.text)) continue
    const n = nextWord(list, i)
    if (n === undefined || list[n]!.guarded) continue
    const word = t.text.toLocaleLowerCase(language)
    if (list[n]!.text.toLocaleLowerCase(language) !== word) continue
    // three or more ("love love love", "yay yay yay yay") is emphasis, never a slip: the run stays whole
    const last = lastOfRun(list, n, word, language)
    if (last !== n) {
      i = last
      continue
    }
    // "tre\u0300s" is "très"
    const composed = word.normalize('NFC')
    if (MAY_REPEAT.has(composed) || allowed?.has(composed) === true) continue
    // "D. D." initials and single capitals are not repeats
    if (Array.from(word).length === 1 && t.text !== word) continue
    // a name said twice ("Walla Walla", "Bora Bora", "Duran Duran"): its second word is capitalised
    if (/^\p{Lu}/u.test(list[n]!.text) && list[n]!.text !== list[n]!.text.toLocaleUpperCase(language)) continue
    if (!known && Array.from(word).length > SHORT_WORD) continue
    // "what the problem is is that...": a clause ending in "is" as the subject (not "this is is good")
    if (word === 'is' && list.slice(0, i).some(x => x.kind === 'word' && PSEUDO_CLEFT.has(x.text.toLowerCase()))) continue
    const original = list.slice(i, n + 1).map(x => x.text).join('')
    changes.push({ start: t.start, end: list[n]!.end, replacement: t.text, note: { original, replacement: t.text, type, reason: `Repeated word "${t.text}"` } })
    i = n
  }
  return changes
}
