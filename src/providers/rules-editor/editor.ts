/**
 * The "rules" editor: offline grammar, spelling, syntax and simplify edits by rules and Hunspell
 * dictionaries, with a note for every change. No generative model: tone, length and clarify are
 * refused (see `cannot`).
 */
import { readFile } from 'node:fs/promises'
import type { EditItem, EditCall, EditNote, EditType, EditedSegment, Editor } from '../../core/ports.js'
import { EVERYDAY, decodeWordLists } from '../detector/wordlists.js'
import { SPELLING_LANGUAGES, createDictionaries, dictionaryFor, type DictionaryLoad } from './dictionaries.js'
import { contractionChanges } from './contractions.js'
import { createEnglishLexicon, englishGrammar, type EnglishLexicon } from './english.js'
import { simplifyChanges } from './simplify.js'
import { spellingChanges, spellsAs, type SpellBudget, type Speller } from './spelling.js'
import { repeatedWordChanges, syntaxChanges } from './syntax.js'
import { applyChanges, readSegment, tokenize, writeSegment, type Change, type PlacedNote, type Token } from './text.js'

export { SPELLING_LANGUAGES, type DictionaryLoad } from './dictionaries.js'

export interface RulesEditorOptions {
  /** Misspelled words one edit may look up fixes for (1-20 ms each); the rest stay as written. Default 64. */
  suggestionsPerJob?: number
  /** Time one edit may spend looking up fixes, in ms (a bound on hostile input: every word unknown). Default 250. */
  suggestionMs?: number
  /**
   * Languages whose dictionary may load (default: all of SPELLING_LANGUAGES). Each costs memory once
   * used (docs/benchmarks.md, Memory budget); grammar in a language left out is refused by `cannot`.
   */
  spellingLanguages?: readonly string[]
}

export interface RulesEditor extends Editor {
  /** Dictionaries loaded so far and what each load took. */
  loads: () => DictionaryLoad[]
}

// base subtags whose usual script is Latin (an explicit script subtag decides otherwise)
const LATIN = new Set([
  'af', 'ast', 'az', 'bs', 'ca', 'ceb', 'co', 'cs', 'cy', 'da', 'de', 'en', 'eo', 'es', 'et', 'eu', 'fi', 'fil',
  'fo', 'fr', 'fy', 'ga', 'gd', 'gl', 'gn', 'ha', 'haw', 'hmn', 'hr', 'ht', 'hu', 'id', 'ig', 'is', 'it', 'jv',
  'ku', 'la', 'lb', 'lt', 'lv', 'mg', 'mi', 'ms', 'mt', 'nb', 'nl', 'nn', 'no', 'ny', 'om', 'pl', 'pt', 'qu', 'rm',
  'ro', 'rw', 'sk', 'sl', 'sm', 'sn', 'so', 'sq', 'st', 'su', 'sv', 'sw', 'tk', 'tl', 'tn', 'to', 'tr', 'uz', 'vi',
  'wo', 'xh', 'yo', 'zu'
])
const SPELLING = new Set<string>(SPELLING_LANGUAGES)
const SPELLING_LIST = SPELLING_LANGUAGES.filter(l => l !== 'en').join(', ')
// a slice of segments runs at most this long before other requests get the event loop
const SLICE_MS = 10

/** The base subtag and script subtag of a BCP 47 tag ("sr-Latn-RS" -> sr, Latn). */
function subtags (tag: string): { base: string, script: string | undefined } {
  const parts = tag.split(/[-_]/)
  const script = parts.slice(1).find(p => /^[a-z]{4}$/i.test(p))
  return { base: (parts[0] ?? '').toLowerCase(), script: script === undefined ? undefined : script[0]!.toUpperCase() + script.slice(1).toLowerCase() }
}

function isLatin (tag: string): boolean {
  const { base, script } = subtags(tag)
  return script === undefined ? LATIN.has(base) : script === 'Latn'
}

/**
 * Why the rules editor cannot do `edit` in `language`, or undefined when it can:
 * - grammar: English (spelling, their/there/they're, its/it's, your/you're, "should of", a/an,
 *   repeated words); in fr, de, es, it, nl and pt grammar means spelling only, which counts as
 *   a grammar edit there (accepted);
 * - syntax: any Latin-script language (spacing, sentence capitals, doubled punctuation, repeated words);
 * - simplify: English;
 * - tone, length, clarify: never (they need a generative model).
 */
export function rulesCannot (edit: EditItem, language: string, spelling: ReadonlySet<string> = SPELLING): string | undefined {
  const { base } = subtags(language)
  switch (edit.type) {
    case 'tone':
    case 'length':
    case 'clarify':
      return `${edit.type} edits need a generative model; the offline rules editor only fixes grammar, spelling and syntax and simplifies English`
    case 'grammar':
      if (spelling.has(base) && isLatin(language)) return undefined
      if (SPELLING.has(base)) return `the spelling dictionary for "${base}" is not enabled on this server`
      return `grammar rules exist for English only, and spelling (what grammar means in those languages) for ${SPELLING_LIST}; not for "${language}"`
    case 'simplify':
      return base === 'en' && isLatin(language) ? undefined : `simplify rules (a list of wordy English phrases) exist for English only; not for "${language}"`
    case 'syntax':
      return isLatin(language) ? undefined : `syntax rules (spacing, sentence capitals, punctuation, repeated words) work on Latin-script text only; not for "${language}"`
  }
}

/** Whether a word (lower case) is among a language's everyday words, by language; undefined where it has no list. */
type EverydayWords = (language: string) => ((word: string) => boolean) | undefined

/**
 * The detector's everyday words' lists (wordlists.bin's "everyday:" filters, 215 KB of its 4 MB):
 * a short word they hold before a full stop ends a sentence, one they lack may be an abbreviation.
 * Without the file no word is known and such a stop is read as an abbreviation's.
 */
async function loadEverydayWords (): Promise<EverydayWords> {
  const bytes = await readFile(new URL('../detector/wordlists.bin', import.meta.url)).catch(() => undefined)
  if (bytes === undefined) return () => undefined
  const lists = decodeWordLists(bytes, name => name.startsWith(EVERYDAY))
  return language => {
    const j = lists.languages.indexOf(EVERYDAY + language)
    return j === -1 ? undefined : word => lists.has(j, word)
  }
}

/** What one edit runs on each segment, in order: each pass reads the text the one before left. */
type Pass = (tokens: Token[]) => Change[]

/** Creates the rules editor; dictionaries load on first use per language (English by `ready`). */
export function createRulesEditor (options: RulesEditorOptions = {}): RulesEditor {
  const dictionaries = createDictionaries()
  const suggestionsPerJob = options.suggestionsPerJob ?? 64
  const suggestionMs = options.suggestionMs ?? 250
  const spelling = new Set(options.spellingLanguages ?? SPELLING_LANGUAGES)
  const cannot = (edit: EditItem, language: string): string | undefined => rulesCannot(edit, language, spelling)
  // per English dictionary (en, en-GB, en-AU, en-CA): its speller and the grammar rules' lexicon over it
  const english = new Map<string, Promise<{ speller: Speller, lexicon: EnglishLexicon }>>()
  let everydayWords: Promise<EverydayWords> | undefined
  const loadEnglish = (dictionary = 'en'): Promise<{ speller: Speller, lexicon: EnglishLexicon }> => {
    let loaded = english.get(dictionary)
    if (loaded === undefined) {
      // a regional variant also takes American spellings as written (the variants' affix flags are the same)
      loaded = Promise.all([dictionaries.speller(dictionary), dictionary === 'en' ? undefined : dictionaries.speller('en')])
        .then(([speller, american]) => ({
          speller: american === undefined ? speller : { ...speller, also: [american.checker] },
          lexicon: createEnglishLexicon(speller.checker)
        }))
      english.set(dictionary, loaded)
      loaded.catch(() => english.delete(dictionary))
    }
    return loaded
  }

  return {
    name: 'rules',
    cannot,
    loads: dictionaries.loads,
    async ready () {
      if (spelling.has('en')) await loadEnglish()
    },
    async edit (job: EditCall, signal: AbortSignal): Promise<EditedSegment[]> {
      signal.throwIfAborted()
      const language = subtags(job.language).base
      const wanted = new Set<EditType>(job.edits.filter(e => cannot(e, job.language) === undefined).map(e => e.type))
      const isEnglish = language === 'en'
      const en = isEnglish && wanted.has('grammar') ? await loadEnglish(dictionaryFor(job.language)) : undefined
      const speller = wanted.has('grammar') ? (en?.speller ?? await dictionaries.speller(dictionaryFor(job.language))) : undefined
      const everyday = wanted.has('syntax') ? (await (everydayWords ??= loadEverydayWords()))(language) : undefined
      signal.throwIfAborted()

      const budget: SpellBudget = { suggestions: suggestionsPerJob, ms: suggestionMs }
      const results: EditedSegment[] = []
      let sliceStart = performance.now()
      for (const segment of job.segments) {
        if (performance.now() - sliceStart > SLICE_MS) {
          await new Promise<void>(resolve => setImmediate(resolve))
          signal.throwIfAborted()
          sliceStart = performance.now()
        }
        results.push(editSegment(segment, language, planFor(wanted, language, speller, en?.lexicon, everyday, budget, segment)))
      }
      return results
    },
    async spellsAs (text: string, language: string, signal: AbortSignal): Promise<boolean> {
      const base = subtags(language).base
      if (!spelling.has(base) || !isLatin(language)) return false
      const speller = base === 'en' ? (await loadEnglish(dictionaryFor(language))).speller : await dictionaries.speller(dictionaryFor(language))
      signal.throwIfAborted()
      return spellsAs(tokenize(text, base), speller, { suggestions: suggestionsPerJob, ms: suggestionMs })
    }
  }
}

/** The passes for the wanted edits: English contractions, spelling, English grammar, repeated words, simplify, syntax. */
function planFor (wanted: ReadonlySet<EditType>, language: string, speller: Speller | undefined, lexicon: EnglishLexicon | undefined, everyday: ((word: string) => boolean) | undefined, budget: SpellBudget, segment: string): Pass[] {
  // write apostrophes the way the segment does
  const apostrophe = segment.includes('’') && !segment.includes("'") ? '’' : "'"
  const passes: Pass[] = []
  // before spelling, which would look for another word for "isnt"
  if (wanted.has('grammar') && lexicon !== undefined) passes.push(tokens => contractionChanges(tokens, apostrophe))
  if (wanted.has('grammar') && speller !== undefined) passes.push(tokens => spellingChanges(tokens, speller, budget, apostrophe))
  if (wanted.has('grammar') && lexicon !== undefined) {
    passes.push(tokens => englishGrammar(tokens, lexicon, apostrophe))
    passes.push(tokens => repeatedWordChanges(tokens, language, 'grammar'))
  } else if (wanted.has('syntax')) {
    passes.push(tokens => repeatedWordChanges(tokens, language, 'syntax'))
  }
  if (wanted.has('simplify')) passes.push(simplifyChanges)
  if (wanted.has('syntax')) passes.push(tokens => syntaxChanges(tokens, language, everyday))
  return passes
}

/** One segment through every pass, read with its language's abbreviations; an untouched segment comes back byte for byte. */
function editSegment (tagged: string, language: string, passes: readonly Pass[]): EditedSegment {
  let segment = readSegment(tagged)
  let notes: PlacedNote[] = []
  let tokens: Token[] | undefined
  for (const pass of passes) {
    tokens ??= tokenize(segment.text, language)
    const changes = pass(tokens)
    if (changes.length === 0) continue
    const before = segment
    ;({ segment, notes } = applyChanges(segment, changes, notes))
    if (segment !== before) tokens = undefined
  }
  if (notes.length === 0) return { segment: tagged, notes: [] }
  const ordered: EditNote[] = notes.map((n, k) => ({ n, k })).sort((a, b) => a.n.at - b.n.at || a.k - b.k).map(x => x.n.note)
  return { segment: writeSegment(segment), notes: ordered }
}
