/**
 * What a language brings to moderation, written as word lists. In every list entries are separated
 * by spaces; `_` joins the words of a phrase ("fils_de_pute"), a final `*` makes a prefix ("scheiß*"),
 * and a `:n` suffix gives a number: a rating 0..2 for profane words (default 2, or cuss's rating),
 * a weight for topic words (default 0.6).
 */
import type { ModerationCategory } from '../../../../core/analysis/results.js'
import type { RuleKind, WordClass } from '../effects.js'

export interface LanguageData {
  /** Our own profane words by class (the lists of cuss and @2toad/profanity are added to them). */
  words: Partial<Record<WordClass, string>>
  /**
   * Ordinary words and phrases that a profanity list or obscenity would flag in this language
   * ("cockpit", "Dick Van Dyke", Italian "fu", German "dick"): never flagged.
   */
  ordinary: string
  /**
   * Everyday idioms whose words read as harm or a topic taken one by one ("dying to", "killed it",
   * "the bomb", "Star Wars"): neither a profane word nor a topic word in them counts, nor a phrase
   * rule that ends in them. `|` gives other words in a place ("muerto|muerta_de_cansancio|miedo").
   * Their words must be written together (no punctuation between them), and a leading or trailing
   * `!` place lists the words (or `@set`s) that may not come within three words before or two words
   * after, punctuation or not, where the words are meant literally: "!and_i_killed_it" ("find your
   * dog and I killed it"), "dressed_to_kill_!@object" ("dressed to kill, him").
   */
  idioms?: string
  /** Profane words that are also names when capitalised beside another capitalised word ("Dick Van Dyke"). */
  names?: string
  /** Named word sets that rules use as @name. */
  sets: Record<string, string>
  /** Phrase rules (see ../rules.ts) by what they find. */
  rules: Partial<Record<RuleKind, string[]>>
  /** Topic words by category, with weights. */
  topics: Partial<Record<ModerationCategory, string>>
}
