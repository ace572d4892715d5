/**
 * French, German, Spanish, Italian, Portuguese and Dutch: the rule engine over our core lexicon (words, then
 * their stems), falling back to nlp.js's stemmed lexicon of the language for words the core list lacks.
 */
import { analyseSentence, CompiledRules } from './engine.js'
import type { WordLexicon } from './engine.js'
import { coreLexicon, emojiLexicon, nlpjsLexicon, stemmedLexicon, stemmerOf } from './lexicons.js'
import type { Stem } from './lexicons.js'
import type { PhraseTable } from './phrases.js'
import { RULES } from './rules.js'
import type { Sentence } from './tokens.js'
import { functionWords } from '../entities/function-words.js'
import { isFormOfAddress } from '../entities/persons.js'
import { own } from '../../../lib/own.js'

/** Weights of the evidence in a sentence's raw valence (VADER's scale), set by hand: there is no dev set here. */
const WEIGHTS = { core: 1, nlpjs: 0.6, fixed: 1, bareNegations: -1 }

/** Absolute superlatives ("buonissimo", "malísimo", "lindíssima", folded) and the base form's ending. */
const SUPERLATIVES: Record<string, [RegExp, string]> = {
  it: [/issim[oaie]$/, 'o'],
  es: [/isim[oa]s?$/, 'o'],
  pt: [/issim[oa]s?$/, 'o']
}
/** A superlative rates as its base form, intensified. */
const SUPERLATIVE = 1.3
/**
 * Languages whose nouns are capitalised: a capitalised word inside a sentence, a noun or a name, is read in the core
 * list as written, never by its stem (Snowball's German stems join "Müller" to "Müll", "Lachs" to "lächerlich",
 * "Magen" to "mag", "Klassen" to "klasse"); the core list spells out its nouns' plurals.
 */
const CAPITALISED_NOUNS = new Set(['de'])

/** Whether word `at` is a name after a form of address ("Herr Müller", "Sr. Malo"): a name carries no sentiment. */
function isAddressedName (words: readonly string[], at: number, capitalised: readonly boolean[], language: string): boolean {
  if (capitalised[at] !== true) return false
  const pointed = words[at - 1] === '.'
  const title = words[pointed ? at - 2 : at - 1]
  return title !== undefined && isFormOfAddress(language, title, pointed)
}

/** The core lexicon as a word lexicon: a word or phrase as written (folded), else the word's stem. */
function coreWordLexicon (words: PhraseTable<number>, stems: ReadonlyMap<string, number>, stem: Stem, language: string): WordLexicon {
  const superlative = own(SUPERLATIVES, language)
  const nounsCapitalised = CAPITALISED_NOUNS.has(language)
  return {
    match (list, at, capitalised) {
      const found = words.match(list, at)
      if (found !== undefined) return found
      const word = list[at]
      if (word === undefined || word.length < 3 || (nounsCapitalised && capitalised[at] === true)) return undefined
      const value = stems.get(stem(word))
      if (value !== undefined) return { value, length: 1 }
      if (superlative === undefined || !superlative[0].test(word)) return undefined
      const base = word.replace(superlative[0], superlative[1])
      const baseValue = words.get(base) ?? stems.get(stem(base))
      return baseValue === undefined ? undefined : { value: baseValue * SUPERLATIVE, length: 1 }
    }
  }
}

export class NativeAnalyser {
  private readonly rules: CompiledRules
  private readonly lexicons: WordLexicon[]
  private readonly emoji: Map<string, number>

  constructor (language: string) {
    const rules = own(RULES, language)
    if (rules === undefined) throw new Error(`no sentiment rules for ${language}`)
    this.rules = new CompiledRules(rules, language)
    const stem = stemmerOf(language)
    const core = coreLexicon(language, stem)
    // nlp.js's lists, partly translated word for word from English ones, rate small words: Spanish "con" ("with") as
    // the English swindle, "un" and "que" negative, Italian "noi" and "sono", Portuguese "para"
    const lexicons = [coreWordLexicon(core.words, core.stems, stem, language), stemmedLexicon(nlpjsLexicon(language), stem, functionWords(language))]
    this.lexicons = lexicons.map(lexicon => ({
      match: (words, at, capitalised) => isAddressedName(words, at, capitalised, language) ? undefined : lexicon.match(words, at, capitalised)
    }))
    this.emoji = emojiLexicon()
  }

  /** A sentence's raw valence and its exclamation marks. */
  raw (_text: string, sentence: Sentence): { raw: number, exclamations: number } {
    const e = analyseSentence(sentence.tokens, this.rules, this.lexicons, this.emoji, true, 1)
    const raw = WEIGHTS.core * e.sums[0]! + WEIGHTS.nlpjs * e.sums[1]! + WEIGHTS.fixed * e.fixed + WEIGHTS.bareNegations * e.bareNegations
    return { raw, exclamations: e.exclamations }
  }
}
