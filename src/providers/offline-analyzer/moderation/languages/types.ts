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
  /**
   * Profane words (or prefixes) that are also names: written with a capital, not in capitals throughout, they are the
   * name beside another capitalised word that is no small word ("Dick Van Dyke", "Adolf Fick", "dem Fickschen Gesetz"),
   * after a title ("Mr. Cumming") and, inside a sentence, after one of `nameParticles` ("in Fickmühlen").
   */
  names?: string
  /**
   * Profane words that are well-known places (Italian "Troia", Troy): inside a sentence, written with a capital and
   * after no small word but a particle, they are the place ("ho visitato Troia", not "sei una Troia"); names'
   * contexts count too.
   */
  places?: string
  /** Particles of names, prepositions of place and words of a list after which a capitalised word is a name ("guerra di Troia", "von"). */
  nameParticles?: string
  /**
   * The language writes every noun with a capital (German): a capitalised word after a sentence's first word is no
   * sign that the first word is a name ("Fick Deine Mutter").
   */
  capitalisedNouns?: boolean
  /** Named word sets that rules use as @name. */
  sets: Record<string, string>
  /** Phrase rules (see ../rules.ts) by what they find. */
  rules: Partial<Record<RuleKind, string[]>>
  /** Topic words by category, with weights. */
  topics: Partial<Record<ModerationCategory, string>>
}
